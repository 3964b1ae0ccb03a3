"""The Taiwan scenario builder hands out whole states.

Stored stock and red-type rights come with the completed cards that give them
(T-9.7, T-9.8, T-9.9), and exactly 12 building types are in play (T-2.1), so every
position passes ``check_invariants`` and survives a save and load.
"""

from __future__ import annotations

import pytest

from formosa_envs.core.errors import ArgumentError
from formosa_envs.games.taiwan import make_game
from formosa_envs.games.taiwan.cards import BUILDING_KEYS
from formosa_envs.games.taiwan.flow import RED_KEYS
from formosa_envs.games.taiwan.scenario import building_id, scenario

G3 = make_game(num_players=3)
B = {key: building_id(G3, key) for key in BUILDING_KEYS}


def _whole(s) -> None:
    """The position is valid and loads back as the same state."""
    G3.check_invariants(s)
    assert G3.to_json(G3.from_json(G3.to_json(s))) == G3.to_json(s)


@pytest.mark.parametrize(("tribal", "villages"), [(0, 0), (1, 1), (3, 1), (4, 2), (7, 3)])
def test_tribal_workers_come_with_tribal_villages(tribal: int, villages: int) -> None:
    """T-9.7: 3 workers per completed Tribal Village; enough villages are completed."""
    s = scenario(G3, tribal=[0, tribal, 0])
    assert s.built[1].count(B["tribal_village"]) == villages
    assert s.bought[1][B["tribal_village"]] == villages
    assert s.piles[B["tribal_village"]] == 4 - villages and s.tribal[1] == tribal
    _whole(s)


def test_warehouse_stock_comes_with_warehouses() -> None:
    """T-9.8, R-29: 3 resources per completed Warehouse, pooled over the copies."""
    s = scenario(G3, warehouse=[[0] * 4, [2, 0, 3, 0], [0] * 4])
    assert s.built[1].count(B["warehouse"]) == 2 and s.built[0] == s.built[2] == []
    _whole(s)


def test_given_cards_are_not_doubled() -> None:
    """Cards already in ``built`` back the stock and rights; nothing is added."""
    built = [[B["tribal_village"], B["tax_bureau"]], [], []]
    s = scenario(G3, built=built, tribal=[3, 0, 0], exclusive={"tax_bureau": 0})
    assert s.built[0] == built[0] and s.bought[0][B["tax_bureau"]] == 1
    _whole(s)


@pytest.mark.parametrize("key", RED_KEYS)
def test_red_owner_has_completed_the_type(key: str) -> None:
    """T-9.9: only a player who completed a copy can own the red type's ability."""
    s = scenario(G3, exclusive={key: 2})
    assert s.built[2] == [B[key]] and s.exclusive[RED_KEYS.index(key)] == 2
    _whole(s)
    s = scenario(G3, exclusive=[1, -1, 2, 0])
    assert [B[k] in s.built[p] for k, p in zip(RED_KEYS, [1, -1, 2, 0], strict=True)
            if p >= 0] == [True] * 3
    _whole(s)


def test_exactly_twelve_types_are_in_play() -> None:
    """T-2.1: 12 types: those named and those owned, filled up with the lowest ids."""
    s = scenario(G3)
    assert sum(s.in_game) == 12 and s.in_game[:12] == [True] * 12
    want = [B["train_station"], B["hot_spring_hotel"]]
    s = scenario(G3, in_game=want, track=[[[B["convenience_store"], 2]], [], []],
                 tribal=[0, 0, 1])
    assert sum(s.in_game) == 12
    assert all(s.in_game[t] for t in [*want, B["convenience_store"], B["tribal_village"]])
    assert [s.piles[t] for t in range(18) if not s.in_game[t]] == [0] * 6
    _whole(s)


def test_more_than_twelve_types_is_refused() -> None:
    """T-2.1: a scenario that needs 13 types cannot be a real game."""
    with pytest.raises(ArgumentError, match="13 building types"):
        scenario(G3, in_game=list(range(13)))
    with pytest.raises(ArgumentError, match="13 building types"):
        scenario(G3, in_game=list(range(12)), tribal=[0, 0, 0], exclusive={"tax_bureau": 1})


@pytest.mark.parametrize(("options", "word"), [
    ({"in_game": [18]}, "in_game"), ({"in_game": [-1]}, "in_game"),
    ({"exclusive": {"temple": 0}}, "exclusive"), ({"exclusive": [0, 0, 0]}, "exclusive"),
    ({"exclusive": [3, -1, -1, -1]}, "exclusive"), ({"track": [[[99, 1]], [], []]}, "99"),
    ({"built": [[B["temple"]] * 5, [], []]}, "temple"),
])
def test_bad_scenario_arguments_are_named(options: dict, word: str) -> None:
    """A scenario that cannot be built raises ArgumentError (a ValueError) naming it."""
    with pytest.raises(ArgumentError, match=word):
        scenario(G3, **options)
