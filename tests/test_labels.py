"""Action labels are unique among a state's options, for every game.

Clients such as OpenSpiel key actions by their string, and a person choosing a move
must tell the options apart: at every player decision and every chance node the
labels of the legal actions (or outcomes) must differ. ``public_label`` may withhold
an option but never renames it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import make_agent

from formosa_envs.core import contract
from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.games.flowers.actions import CAPTURE0, PLAY0
from formosa_envs.games.flowers.cards import Card, display_names
from formosa_envs.games.flowers.scenario import cid
from formosa_envs.games.flowers.scenario import scenario as flowers_scenario
from formosa_envs.games.taiwan import actions as taiwan_actions
from formosa_envs.games.taiwan import game as taiwan_game_module
from formosa_envs.games.taiwan.render import card_name
from formosa_envs.games.taiwan.scenario import building_id
from formosa_envs.games.taiwan.scenario import scenario as taiwan_scenario
from formosa_envs.games.tea import game as tea_game_module


def _play_checking_labels(game: Any, driver: str, seed: int) -> int:
    """Play one game (random or heuristic players), checking labels at every step."""
    rng = np.random.default_rng(seed)
    agent = make_agent("heuristic", game.name, seed=seed) if driver == "heuristic" else None
    state = game.new_initial_state()
    steps = 0
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        contract.check_labels(game, state)
        if game.current_player(state) == CHANCE:
            action = game.sample_chance(state, rng)
        elif agent is not None:
            action = agent.act_on_state(game, state)
        else:
            legal = game.legal_actions(state)
            action = legal[int(rng.integers(len(legal)))]
        game.apply_action(state, action)
        steps += 1
    contract.check_labels(game, state)
    return steps


@pytest.mark.parametrize("driver", ["random", "heuristic"])
def test_every_option_has_its_own_label(game_name: str, num_players: int, driver: str) -> None:
    game = make_game(game_name, num_players=num_players)
    assert _play_checking_labels(game, driver, seed=num_players) > 10


def test_flowers_look_alike_cards_are_told_apart() -> None:
    """The two plain cards of a month: distinct deal, play and capture labels."""
    game = make_game("flowers", num_players=2)
    first, second = cid(game, 1), cid(game, 1, nth=1)
    deal = game.new_initial_state()
    assert game.action_label(deal, first) == f"deal 1 (card {first})"
    assert game.action_label(deal, second) == f"deal 1 (card {second})"
    night = cid(game, 1, "night")
    s = flowers_scenario(game, hands=[[first, second, night], [cid(game, 5)]],
                         field=[cid(game, 2), cid(game, 2, nth=1)])
    plays = {game.action_label(s, PLAY0 + c) for c in (first, second, night)}
    assert plays == {"play 1 (left copy)", "play 1 (right copy)", "play 1-Night"}
    contract.check_labels(game, s)
    game.apply_action(s, PLAY0 + cid(game, 1, nth=1))  # no month-1 card on the field
    s = flowers_scenario(game, hands=[[cid(game, 2, "animal")], [cid(game, 5)]],
                         field=[cid(game, 2), cid(game, 2, nth=1)])
    game.apply_action(s, PLAY0 + cid(game, 2, "animal"))
    captures = [a for a in game.legal_actions(s) if a >= CAPTURE0]
    assert len(captures) == 2
    assert len({game.action_label(s, a) for a in captures}) == 2
    contract.check_labels(game, s)


def test_flowers_display_names_are_unique_for_any_deck() -> None:
    """Whatever a card file holds, look-alike cards get their id and unique ones keep
    their short name."""
    cards = (Card(0, (3,), ("bird",), "t"), Card(1, (3,), ("bird",), "t"),
             Card(2, (3,), (), "t"), Card(3, (3, 4), (), "t"), Card(4, (3, 4), (), "t"))
    assert display_names(cards) == ("3-Bird (card 0)", "3-Bird (card 1)", "3",
                                    "3/4 (card 3)", "3/4 (card 4)")
    game = make_game("flowers", num_players=3)
    assert len(set(game.names)) == len(game.cards)
    assert game.names[cid(game, 9, "night")] == "9-Night"


def test_taiwan_two_copies_on_one_track_space_are_told_apart() -> None:
    game = make_game("taiwan", num_players=2)
    code = building_id(game, "train_station")
    in_game = sorted([code, *[t for t in range(18) if t != code][:11]])
    s = taiwan_scenario(game, track=[[[code, 3], [code, 3], [code, 2]], []],
                        workers=[2, 0], coins=[10, 0], in_game=in_game)
    overtime = [a for a in game.legal_actions(s)
                if taiwan_actions.OVERTIME0 <= a < taiwan_actions.OVERTIME0 + 24]
    assert len(overtime) == 3
    name = game.buildings[code].name
    assert [game.action_label(s, a) for a in overtime] == [
        f"work overtime on {name} (3 -> 2, copy 1 of 2)",
        f"work overtime on {name} (3 -> 2, copy 2 of 2)",
        f"work overtime on {name} (2 -> 1)"]
    contract.check_labels(game, s)


def test_the_label_check_catches_duplicates_and_renaming(monkeypatch) -> None:
    """Negative controls: a shared label and a renaming public label both fail."""
    game = make_game("dadaocheng", num_players=2)
    state = game.new_initial_state()
    while game.current_player(state) == CHANCE:
        game.apply_action(state, game.sample_chance(state, np.random.default_rng(0)))
    contract.check_labels(game, state)
    monkeypatch.setattr(game, "public_label", lambda s, a, viewer: "something else")
    with pytest.raises(AssertionError, match="public label"):
        contract.check_labels(game, state)
    monkeypatch.undo()
    monkeypatch.setattr(game, "action_label", lambda s, a: "same")
    with pytest.raises(AssertionError, match="share the label 'same'"):
        contract.check_labels(game, state)


def _copy_with(tmp_path: Path, source: Path, pattern: str, new: str) -> str:
    """A copy of data file ``source`` with every match of ``pattern`` replaced."""
    text, count = re.subn(pattern, new, source.read_text(encoding="utf-8"))
    assert count, pattern
    target = tmp_path / source.name
    target.write_text(text, encoding="utf-8")
    return str(target)


def test_taiwan_cards_sharing_a_name_in_a_data_file_are_told_apart(tmp_path: Path) -> None:
    """A data file may give two cards one name; labels name the card's kind and id."""
    data = Path(taiwan_game_module.__file__).parent / "data"
    buildings = _copy_with(tmp_path, data / "buildings.toml", 'name = "Temple"',
                           'name = "Sawmill"')
    landmarks = _copy_with(tmp_path, data / "landmarks.toml", 'name = "Jiufen"',
                           'name = "Sawmill"')
    game = make_game("taiwan", num_players=3, building_file=buildings, landmark_file=landmarks)
    names = [card_name(game, code) for code in range(18 + len(game.landmarks))]
    assert len(set(names)) == len(names)
    assert sum(n.startswith("Sawmill (") for n in names) == 3
    assert _play_checking_labels(game, "random", seed=3) > 10


def test_tea_merchants_sharing_a_code_are_told_apart(tmp_path: Path) -> None:
    data = Path(tea_game_module.__file__).parent / "data"
    merchants = _copy_with(tmp_path, data / "merchants.toml", r'code = "[^"]*"', 'code = "M"')
    game = make_game("tea", num_players=2, merchant_file=merchants)
    assert _play_checking_labels(game, "random", seed=1) > 10
