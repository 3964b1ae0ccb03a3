"""Formosa Tea content files: sources, shapes, counts and loud failures on bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from formosa_envs.core.data import read_toml
from formosa_envs.core.errors import DataError, StateFormatError
from formosa_envs.games import make_game
from formosa_envs.games.tea.content import (
    DEFAULT_BOARD_FILE,
    DEFAULT_MERCHANT_FILE,
    TECH_DISCS,
    load_board,
    load_events,
    load_merchants,
)
from formosa_envs.games.tea.state import BUDS, CUBES


def test_found_component_counts() -> None:
    assert CUBES == (35, 28, 21) and sum(CUBES) == 84          # content-findings section 2
    assert BUDS[4] == (6, 5, 5) and BUDS[2] == BUDS[3] == (5, 4, 3)


def test_every_row_has_a_source() -> None:
    for path in (DEFAULT_BOARD_FILE, DEFAULT_MERCHANT_FILE):
        for table, rows in read_toml(path).items():
            for row in rows:
                assert row["source"] in ("rulebook", "found", "inferred", "placeholder"), table


def test_merchant_deck_is_28_cards_in_three_stages_and_24_drops_four() -> None:
    cards = load_merchants()
    assert len(cards) == 28
    assert [sum(1 for c in cards if c.stage == s) for s in (1, 2, 3)] == [12, 8, 8]
    assert sum(1 for c in cards if not c.in_24) == 4
    game24 = make_game("tea", merchant_cards=24)
    assert [len(p) for p in game24.stage_pools] == [12, 6, 6]


def test_board_layout_rules() -> None:
    board = load_board()
    assert [len(r.effects) for r in board.processing] == [8, 7, 5, 5]
    assert all(r.effects[-1] == "none" for r in board.processing)
    rewards = [x for r in board.technology for x in r.rewards]
    assert sorted(x for x in rewards if x in TECH_DISCS) == sorted(TECH_DISCS)
    assert [m.bonus for m in board.market] == ["bonus_masters", "bonus_technology",
                                              "bonus_harvest"]
    assert len(board.domestic.vp) == 16 and board.domestic.vp == tuple(sorted(board.domestic.vp))
    assert all(0 <= f <= 2 for w in board.weather for f in w.faces)


def test_events_are_the_eleven_of_the_rulebook_by_year() -> None:
    years = [e.year for e in load_events()]
    assert years == [1865, 1867, 1868, 1869, 1874, 1889, 1903, 1916, 1925, 1936, 1964]


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "board.toml"
    path.write_text(text)
    return str(path)


def test_a_bad_board_file_fails_loudly_naming_the_problem(tmp_path: Path) -> None:
    good = DEFAULT_BOARD_FILE.read_text()
    broken = good.replace('"withering", "oxidation"', '"withering", "baking"', 1)
    with pytest.raises(DataError, match="unknown effect"):
        make_game("tea", board_file=_write(tmp_path, broken))
    scented = good.replace('effects = ["scenting",', 'effects = ["withering",', 1)
    with pytest.raises(DataError, match="do not act on this track"):
        load_board(_write(tmp_path, scented))
    with pytest.raises(DataError, match="not found"):
        make_game("tea", board_file=str(tmp_path / "missing.toml"))


def test_a_bad_merchant_file_fails_loudly(tmp_path: Path) -> None:
    text = DEFAULT_MERCHANT_FILE.read_text().replace("good = 5\n", "good = 0\n", 1)
    path = tmp_path / "merchants.toml"
    path.write_text(text)
    with pytest.raises(DataError, match="poor <= normal <= good"):
        make_game("tea", merchant_file=str(path))


def test_a_corrupt_save_is_rejected_with_a_clear_error() -> None:
    game = make_game("tea", num_players=2)
    state = game.new_initial_state()
    import json

    import numpy as np
    game.resolve_chance(state, np.random.default_rng(0))
    payload = json.loads(game.to_json(state))
    payload["state"]["bag"][0] += 5  # cubes appear from nowhere
    with pytest.raises(StateFormatError, match="cubes"):
        game.from_json(json.dumps(payload))
    payload["state"]["bag"] = "many"
    with pytest.raises(StateFormatError, match="bag"):
        game.from_json(json.dumps(payload))
