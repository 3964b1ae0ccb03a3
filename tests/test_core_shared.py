"""The shapes the four games share, held once in ``core``: data-file loaders, event cards
and the text table's header and closing lines."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from formosa_envs.core.content import HistoricalEvent, events_by_year, file_loader
from formosa_envs.core.data import read_toml
from formosa_envs.core.errors import DataError
from formosa_envs.core.text import pending_decision, table_footer, table_header, to_move
from formosa_envs.games import make_game
from formosa_envs.games.dadaocheng import content as ddc
from formosa_envs.games.tea import content as tea


def _stamp(path: Path, text: str, ns: int) -> None:
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(ns, ns))  # a distinct modification time on any file system


def test_file_loader_reads_the_default_and_an_edited_file_again(tmp_path: Path) -> None:
    default = tmp_path / "default.toml"
    _stamp(default, 'value = 1\n', 10**18)
    reads: list[Path] = []

    @file_loader(default)
    def load(file: Path) -> int:
        """Load the value."""
        reads.append(file)
        return int(read_toml(file)["value"])

    assert load() == 1 and load(None) == 1 and load("") == 1 and load(str(default)) == 1
    assert reads == [default] and load.__doc__ == "Load the value."
    _stamp(default, 'value = 2\n', 2 * 10**18)
    assert load() == 2 and len(reads) == 2
    load.cache_clear()
    assert load() == 2 and len(reads) == 3
    with pytest.raises(DataError, match="not found"):
        load(str(tmp_path / "missing.toml"))


@pytest.mark.parametrize("loader, shipped", [(tea.load_merchants, tea.DEFAULT_MERCHANT_FILE),
                                             (tea.load_board, tea.DEFAULT_BOARD_FILE),
                                             (ddc.load_ships, ddc.DATA_DIR / "ships.toml")])
def test_an_edited_content_file_is_read_again(tmp_path: Path, loader, shipped: Path) -> None:
    """Every content loader caches by path, size and modification time (a cache by path
    kept the old rows of an edited file)."""
    path = tmp_path / shipped.name
    text = shipped.read_text(encoding="utf-8")
    _stamp(path, text, 10**18)
    first = loader(str(path))
    assert loader(str(path)) is first
    _stamp(path, text + "\n# edited\n", 2 * 10**18)
    assert loader(str(path)) is not first and loader(str(path)) == first


def test_edited_merchants_reach_a_new_tea_game(tmp_path: Path) -> None:
    path = tmp_path / "merchants.toml"
    text = tea.DEFAULT_MERCHANT_FILE.read_text(encoding="utf-8")
    _stamp(path, text, 10**18)
    before = make_game("tea", num_players=2, merchant_file=str(path)).merchants[0].good
    _stamp(path, text.replace(f"good = {before}\n", f"good = {before + 1}\n", 1), 2 * 10**18)
    assert make_game("tea", num_players=2, merchant_file=str(path)).merchants[0].good == (
        before + 1)


def test_event_cards_share_one_base_and_keep_their_fields() -> None:
    names = {cls: [f.name for f in dataclasses.fields(cls)] for cls in (ddc.Event, tea.Event)}
    assert names[ddc.Event] == ["key", "year", "name", "automatic", "source", "note"]
    assert names[tea.Event] == ["key", "year", "name", "source", "note"]
    assert issubclass(ddc.Event, HistoricalEvent) and issubclass(tea.Event, HistoricalEvent)
    years = [e.year for e in events_by_year(tea.EVENT_FILE, tea.Event)]
    assert years == sorted(years) and tuple(tea.load_events()) == events_by_year(
        tea.EVENT_FILE, tea.Event)


def test_table_header_and_footer() -> None:
    assert table_header("Game", ["round 2", None, "", "start player 1"]) == (
        "Game - round 2 - start player 1")
    assert to_move(None) is None and to_move(3, "roll") == "player 3 to roll"
    assert table_footer("", None) == []
    assert table_footer("p0 took", "player 1 chooses") == ["Last: p0 took",
                                                           "Now: player 1 chooses"]
    assert table_footer("", "") == ["Now: "]


@pytest.mark.parametrize("name", ["flowers", "taiwan", "tea", "dadaocheng"])
def test_every_text_table_opens_with_the_game_title(name: str) -> None:
    game = make_game(name, num_players=2)
    state = game.new_initial_state()
    lines = game.render(state).splitlines()
    assert lines[0].startswith(game.title + " - round ")
    assert lines[-1] == f"Now: {pending_decision(game, state)}"
