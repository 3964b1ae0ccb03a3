"""R-41: worker icons in a printed cost, paid on top of the purchase's worker (T-4.5, T-4.6).

A card whose data row has ``workers = k`` costs k + 1 workers (hand or Tribal Village),
plus its resources, coins and any fee: offered only when all of it can be paid, paid in
full, and the packaged cards (``workers`` 0) cost what they always did.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from formosa_envs.core.errors import DataError, IllegalActionError
from formosa_envs.core.payment import feasible, search_feasible
from formosa_envs.games import make_game
from formosa_envs.games.taiwan import actions as A
from formosa_envs.games.taiwan.cards import load_buildings, load_landmarks
from formosa_envs.games.taiwan.payment import (
    HAND_WORKER,
    TRIBAL_WORKER,
    WORKER,
    printed_units,
)
from formosa_envs.games.taiwan.scenario import building_id, scenario

_names = itertools.count()
TRAIN = [0, 2, 2, 0]  # Train Station's printed resources (rulebook example)


def _write(tmp_path: Path, table: str, rows: list[dict[str, Any]]) -> str:
    path = tmp_path / f"{table}_{next(_names)}.toml"  # fresh names: loaders cache by path
    lines = []
    for row in rows:
        lines += [f"[[{table}]]", *(f"{k} = {json.dumps(v)}" for k, v in row.items()), ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return str(path)


def _game_with_icons(tmp_path: Path, key: str = "train_station", icons: int = 2) -> Any:
    rows = [dataclasses.asdict(b) for b in load_buildings()]
    for row in rows:
        if row["key"] == key:
            row["workers"] = icons
    return make_game("taiwan", num_players=2, building_file=_write(tmp_path, "building", rows))


def _position(game: Any, **kw: Any) -> Any:
    """A consistent action-phase state: Train Station and Tribal Village among the 12 types
    in play, and a completed Tribal Village for the player holding village workers."""
    keep = [building_id(game, "train_station"), building_id(game, "tribal_village")]
    types = [*keep, *(i for i in range(18) if i not in keep)][:12]
    tribal = kw.get("tribal") or [0, 0]
    built = [[keep[1]] if k else [] for k in tribal]
    return scenario(game, in_game=sorted(types), built=built, **kw)


def _pay_through(game: Any, s: Any, prefer: int) -> None:
    """Answer every ``pay`` decision, taking source ``prefer`` while it is offered."""
    while s.stack and s.stack[-1].kind == "pay":
        legal = game.legal_actions(s)
        pick = A.PAY0 + prefer
        game.apply_action(s, pick if pick in legal else legal[0])


def test_packaged_cards_carry_no_worker_icons() -> None:
    """R-41: the rulebook's two revealed costs show only the purchase's worker."""
    assert all(card.workers == 0 for card in (*load_buildings(), *load_landmarks()))
    game = make_game("taiwan", num_players=2)
    t = building_id(game, "train_station")
    s = _position(game, res=[TRAIN, [0] * 4], workers=[1, 0])
    assert A.BUY_B0 + t in game.legal_actions(s)
    game.apply_action(s, A.BUY_B0 + t)
    assert s.workers[0] == 0 and s.res[0] == [0, 0, 0, 0]  # 1 worker + 2 brick + 2 steel


def test_too_few_workers_cannot_buy_a_card_with_icons(tmp_path: Path) -> None:
    """T-4.3, R-41: 2 icons + the purchase's worker = 3 workers; with 2 it is not offered."""
    game = _game_with_icons(tmp_path)
    t = building_id(game, "train_station")
    for workers, tribal in ((2, 0), (0, 2), (1, 1)):
        s = _position(game, res=[TRAIN, [0] * 4], workers=[workers, 0], tribal=[tribal, 0])
        assert A.BUY_B0 + t not in game.legal_actions(s)
        assert game.legal_mask(s)[A.BUY_B0 + t] == 0
        before = game.to_json(s)
        with pytest.raises(IllegalActionError):
            game.apply_action(s, A.BUY_B0 + t)
        assert game.to_json(s) == before  # nothing half-applied


def test_buying_removes_the_icons_plus_one_worker(tmp_path: Path) -> None:
    """R-41: buying takes icons + 1 workers, the resources and nothing else."""
    game = _game_with_icons(tmp_path)
    t = building_id(game, "train_station")
    s = _position(game, res=[TRAIN, [0] * 4], workers=[4, 0])
    assert game.legal_mask(s)[A.BUY_B0 + t] == 1
    game.apply_action(s, A.BUY_B0 + t)
    assert s.workers[0] == 1 and s.res[0] == [0, 0, 0, 0] and s.coins[0] == 40
    assert [t, 3] in s.track[0]


@pytest.mark.parametrize("prefer", [HAND_WORKER, TRIBAL_WORKER])
def test_icons_may_be_paid_from_the_tribal_village(tmp_path: Path, prefer: int) -> None:
    """T-4.4, R-41: each worker unit comes from the hand or a Tribal Village, player's pick."""
    game = _game_with_icons(tmp_path)
    t = building_id(game, "train_station")
    s = _position(game, res=[TRAIN, [0] * 4], workers=[2, 0], tribal=[2, 0])
    game.apply_action(s, A.BUY_B0 + t)
    _pay_through(game, s, prefer)
    assert s.workers[0] + s.tribal[0] == 1 and [t, 3] in s.track[0]
    assert (s.workers[0], s.tribal[0]) == ((0, 1) if prefer == HAND_WORKER else (1, 0))


def test_icons_on_a_landmark_are_paid_too(tmp_path: Path) -> None:
    """R-41 applies to landmarks (T-4.6): Sansiantai with 1 icon takes 2 workers."""
    rows = [dataclasses.asdict(lm) for lm in load_landmarks()]
    for row in rows:
        row["workers"] = 1 if row["name"] == "Sansiantai" else 0
    game = make_game("taiwan", num_players=2, landmark_file=_write(tmp_path, "landmark", rows))
    card = next(lm for lm in game.landmarks if lm.name == "Sansiantai")
    face_up = [-1] * 5
    face_up[card.deck] = card.id
    stone = [0, 0, 0, card.stone]
    short = _position(game, res=[stone, [0] * 4], workers=[1, 0], face_up=face_up)
    assert A.BUY_L0 + card.deck not in game.legal_actions(short)
    s = _position(game, res=[stone, [0] * 4], workers=[2, 0], face_up=face_up)
    game.apply_action(s, A.BUY_L0 + card.deck)
    assert s.workers[0] == 0 and s.res[0] == [0, 0, 0, 0]


def test_fast_affordability_agrees_with_the_exact_search(tmp_path: Path) -> None:
    """The closed-form check counts worker icons as the generic search does."""
    game = _game_with_icons(tmp_path, icons=3)
    card = game.buildings[building_id(game, "train_station")]
    units = (*printed_units(card), WORKER)
    assert units.count(WORKER) == 4
    for workers, tribal, brick in itertools.product(range(4), range(3), range(3)):
        s = _position(game, res=[[0, brick, 2, 0], [0] * 4], workers=[workers, 0],
                     tribal=[tribal, 0])
        fast = feasible(game.payment, s, 0, units)
        assert fast == search_feasible(game.payment, s, 0, units)
        assert fast == (workers + tribal >= 4 and brick >= 2)


@pytest.mark.parametrize("bad", [-1, 6, "2", 1.5, True])
def test_worker_icons_out_of_bounds_are_refused(tmp_path: Path, bad: Any) -> None:
    rows = [dataclasses.asdict(b) for b in load_buildings()]
    rows[14]["workers"] = bad
    path = _write(tmp_path, "building", rows)
    with pytest.raises(DataError, match="workers") as info:
        load_buildings(path)
    assert "row 14" in str(info.value) and Path(path).name in str(info.value)


def test_worker_icons_are_shown_in_text_and_picture(tmp_path: Path) -> None:
    """The text table and the SVG picture show a cost's worker icons (0: nothing drawn)."""
    game = _game_with_icons(tmp_path, icons=2)
    s = _position(game)
    train = game.buildings[building_id(game, "train_station")]
    plain = make_game("taiwan", num_players=2)
    assert "2 brick + 2 steel + 2 workers" in game.render(s)
    assert "+ 2 workers" not in plain.render(_position(plain))
    assert train.workers == 2
    assert game.render_svg(s).count('class="cost-worker"') == 1
    assert plain.render_svg(_position(plain)).count('class="cost-worker"') == 0
