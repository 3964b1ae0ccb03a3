"""Data-file overrides: unreadable files, every field's type and bounds, the rules' counts.

Every file option of every game is tried with a folder, a missing
file, a binary file, non-UTF-8 text, invalid TOML and an oversized file; every bounded
field of every shipped table with a wrong type and with values just outside its bounds.
Each must raise ``DataError`` naming the file (and the row and key), never a raw Python
error. The shipped files still load and the games still play.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import typing
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from formosa_envs.core.data import MAX_FILE_BYTES, Bounds, field_bounds, read_toml, unbounded_fields
from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import DataError
from formosa_envs.games import make_game
from formosa_envs.games.dadaocheng import content as ddc
from formosa_envs.games.flowers import cards as flowers
from formosa_envs.games.taiwan import cards as taiwan
from formosa_envs.games.tea import content as tea

DOCS = Path(__file__).parent.parent / "docs" / "data-files.md"
DDC_DATA = ddc.DATA_DIR
# (game, option, shipped file, {table: row class})
FILES: list[tuple[str, str, Path, dict[str, type]]] = [
    ("flowers", "card_file", flowers.DEFAULT_CARD_FILE, {"card": flowers.Card}),
    ("taiwan", "building_file", taiwan.DEFAULT_BUILDING_FILE, {"building": taiwan.BuildingType}),
    ("taiwan", "landmark_file", taiwan.DEFAULT_LANDMARK_FILE, {"landmark": taiwan.Landmark}),
    ("tea", "board_file", tea.DEFAULT_BOARD_FILE, {
        "processing": tea.ProcessingRow, "technology": tea.TechnologyRow,
        "domestic": tea.DomesticRow, "weather": tea.WeatherRow, "global_market": tea.MarketRow}),
    ("tea", "merchant_file", tea.DEFAULT_MERCHANT_FILE, {"merchant": tea.Merchant}),
    ("dadaocheng", "disc_file", DDC_DATA / "discs.toml", {"disc": ddc.Disc}),
    ("dadaocheng", "ship_file", DDC_DATA / "ships.toml", {"ship": ddc.Ship}),
    ("dadaocheng", "building_file", DDC_DATA / "buildings.toml", {"building": ddc.Building}),
    ("dadaocheng", "board_file", DDC_DATA / "board.toml", {"temple": ddc.TempleFace}),
]
ROW_CLASSES = [cls for *_, tables in FILES for cls in tables.values()] + [tea.Event, ddc.Event]
_names = itertools.count()


def _dump(doc: dict[str, list[dict[str, Any]]]) -> str:
    lines: list[str] = []
    for table, rows in doc.items():
        for row in rows:
            lines += [f"[[{table}]]", *(f"{k} = {json.dumps(v)}" for k, v in row.items()), ""]
    return "\n".join(lines)


def _write(tmp_path: Path, doc: dict[str, list[dict[str, Any]]] | str | bytes) -> str:
    path = tmp_path / f"data_{next(_names)}.toml"  # a fresh name: loaders cache by path
    if isinstance(doc, bytes):
        path.write_bytes(doc)
    else:
        path.write_text(doc if isinstance(doc, str) else _dump(doc), encoding="utf-8")
    return str(path)


def _shipped(file: Path) -> dict[str, list[dict[str, Any]]]:
    return {t: [dict(r) for r in rows] for t, rows in read_toml(file).items()}


def _load(game: str, option: str, path: str) -> Any:
    players = 1 if game == "dadaocheng" and option == "disc_file" else 2
    return make_game(game, num_players=players, **{option: path})


# ----- unreadable files -------------------------------------------------------------------

def _unreadable(tmp_path: Path) -> dict[str, tuple[str, str]]:
    folder = tmp_path / "a_folder"
    folder.mkdir()
    big = _write(tmp_path, "# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    return {
        "folder": (str(folder), "is a folder"),
        "missing": (str(tmp_path / "nope.toml"), "not found"),
        "binary": (_write(tmp_path, b"\x89PNG\r\n\x1a\n\x00\xff\xfe"), "not UTF-8 text"),
        "latin-1": (_write(tmp_path, "name = 'caf\xe9'\n".encode("latin-1")), "not UTF-8 text"),
        "nul bytes": (_write(tmp_path, b"[[card]]\x00\x00\n"), "not valid TOML"),
        "invalid TOML": (_write(tmp_path, "[[row]\nid = \n"), "not valid TOML"),
        "huge integer": (_write(tmp_path, "x = " + "9" * 5000 + "\n"), "not valid TOML"),
        "oversized": (big, "at most"),
    }


@pytest.mark.parametrize(("game", "option"), [(g, o) for g, o, *_ in FILES])
def test_unreadable_files_raise_data_error_naming_the_file(tmp_path: Path, game: str,
                                                           option: str) -> None:
    for case, (path, needle) in _unreadable(tmp_path).items():
        with pytest.raises(DataError, match=needle) as info:
            _load(game, option, path)
        assert Path(path).name in str(info.value), case


def test_read_toml_refuses_non_paths() -> None:
    for bad in (None, 3, "", "  "):
        with pytest.raises(DataError, match="must be given as a path"):
            read_toml(bad)  # type: ignore[arg-type]


# ----- every field: wrong type and out of bounds -----------------------------------------

def _bad_values(cls: type, name: str) -> list[tuple[Any, str]]:
    """(value, expected message part) that field ``name`` of ``cls`` must refuse."""
    hint = typing.get_type_hints(cls)[name]
    b: Bounds | None = field_bounds(cls)[name]
    if hint is str:
        return [(3, "expected str"), ("x" * 5000, "characters long")]
    if hint is bool:
        return [(1, "expected bool")]
    if hint is int:
        out: list[tuple[Any, str]] = [("1", "expected int"), (True, "expected int"),
                                      (1.5, "expected int")]
        if b is not None and not b.is_id:
            out += [(b.lo - 1, "must be between"), (b.hi + 1, "must be between"),
                    (10**9, "must be between")]
        return out
    of_int = typing.get_args(hint)[0] is int
    item: Any = 0 if of_int else "none"
    out = [(3, "expected a list"), (["x"] if of_int else [3], "expected")]
    if b is not None and b.length is not None:
        lo, hi = b.length
        out += [([item] * (hi + 1), "must hold")]
        out += [([item] * (lo - 1), "must hold")] if lo else []
    if b is not None and b.lo is not None:
        n = b.length[0] if b.length else 1
        out += [([b.hi + 1] * n, "must be between"), ([b.lo - 1] * n, "must be between")]
    return out


def _field_cases() -> list[tuple[str, str, Path, str, type, str]]:
    cases = []
    for game, option, file, tables in FILES:
        for table, cls in tables.items():
            cases += [(game, option, file, table, cls, f.name) for f in dataclasses.fields(cls)
                      if f.name != "source"]
    return cases


@pytest.mark.parametrize(("game", "option", "file", "table", "cls", "name"), _field_cases(),
                         ids=lambda v: v if isinstance(v, str) else None)
def test_every_field_refuses_wrong_types_and_values_out_of_bounds(
        tmp_path: Path, game: str, option: str, file: Path, table: str, cls: type,
        name: str) -> None:
    row = 1 if len(read_toml(file)[table]) > 1 else 0
    for value, needle in _bad_values(cls, name):
        doc = _shipped(file)
        doc[table][row][name] = value
        with pytest.raises(DataError, match=needle) as info:
            _load(game, option, _write(tmp_path, doc))
        message = str(info.value)
        assert f"row {row}" in message and repr(name) in message and "data_" in message, message


@pytest.mark.parametrize(("game", "option", "file", "table"),
                         [(g, o, f, t) for g, o, f, tables in FILES for t, cls in tables.items()
                          if "id" in field_bounds(cls)])
def test_row_ids_must_run_in_file_order(tmp_path: Path, game: str, option: str, file: Path,
                                        table: str) -> None:
    for bad in (-1, 999, 0):
        doc = _shipped(file)
        doc[table][1]["id"] = bad
        with pytest.raises(DataError, match="ids must be 0..") as info:
            _load(game, option, _write(tmp_path, doc))
        assert "data_" in str(info.value)


def test_every_shipped_row_class_declares_bounds_and_the_docs_list_them() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    for cls in ROW_CLASSES:
        assert unbounded_fields(cls) == [], cls.__name__
        for name, b in field_bounds(cls).items():
            if b is not None:
                assert f"| `{name}` |" in docs and b.describe() in docs, (cls.__name__, name)


# ----- the examples of the issue -----------------------------------------------------------

def _edited(file: Path, table: str, edit: Any) -> dict[str, list[dict[str, Any]]]:
    doc = _shipped(file)
    doc[table] = edit(doc[table])
    return doc


def test_a_huge_taiwan_cost_is_refused_before_any_table_is_built(tmp_path: Path) -> None:
    """A cost of 10**9 once built 10**9-unit payment tables (21 GB); now it never loads."""
    for key in ("wood", "coins", "workers", "vp"):
        doc = _edited(taiwan.DEFAULT_BUILDING_FILE, "building",
                      lambda rows, k=key: [dict(r, **{k: 10**9}) if r["id"] == 14 else r
                                           for r in rows])
        with pytest.raises(DataError, match=f"row 14 .*'{key}' must be between"):
            make_game("taiwan", building_file=_write(tmp_path, doc))
    doc = _edited(taiwan.DEFAULT_LANDMARK_FILE, "landmark",
                  lambda rows: [dict(r, vp=-1) if r["id"] == 3 else r for r in rows])
    with pytest.raises(DataError, match="'vp' must not be negative"):
        make_game("taiwan", landmark_file=_write(tmp_path, doc))


@pytest.mark.parametrize("count", [27, 14, 29, 24])
def test_tea_merchant_files_must_hold_the_28_cards(tmp_path: Path, count: int) -> None:
    """R-3: 28 cards exist (the retailer's 24 are 4 fewer of them, marked in_24 = false)."""
    rows = _shipped(tea.DEFAULT_MERCHANT_FILE)["merchant"]
    extra = [dict(rows[-1], id=i, code=f"X-{i}") for i in range(len(rows), count)]
    doc = {"merchant": (rows + extra)[:count]}
    with pytest.raises(DataError, match="ids must be 0..27 in file order"):
        make_game("tea", merchant_file=_write(tmp_path, doc))


@pytest.mark.parametrize("marked", [0, 3, 5])
def test_tea_merchant_files_mark_four_cards_outside_the_24(tmp_path: Path, marked: int) -> None:
    rows = _shipped(tea.DEFAULT_MERCHANT_FILE)["merchant"]
    for i, row in enumerate(rows):
        row["in_24"] = i >= marked
    with pytest.raises(DataError, match="exactly 4 merchant cards must be marked in_24"):
        make_game("tea", merchant_file=_write(tmp_path, {"merchant": rows}))


def test_tea_stages_fit_the_observation(tmp_path: Path) -> None:
    rows = _shipped(tea.DEFAULT_MERCHANT_FILE)["merchant"]
    for row in rows[12:16]:
        row["stage"] = 1  # 16 stage-1 cards
    with pytest.raises(DataError, match="1-12 cards of each stage"):
        make_game("tea", merchant_file=_write(tmp_path, {"merchant": rows}))


@pytest.mark.parametrize("count", [35, 37])
def test_dadaocheng_ship_files_must_hold_36_ships(tmp_path: Path, count: int) -> None:
    rows = _shipped(DDC_DATA / "ships.toml")["ship"]
    extra = [dict(rows[-1], id=i, code=f"X{i}") for i in range(len(rows), count)]
    with pytest.raises(DataError, match="ids must be 0..35"):
        make_game("dadaocheng", ship_file=_write(tmp_path, {"ship": (rows + extra)[:count]}))


def test_dadaocheng_ships_are_12_per_level(tmp_path: Path) -> None:
    rows = _shipped(DDC_DATA / "ships.toml")["ship"]
    rows[0]["level"] = 2
    with pytest.raises(DataError, match=r"each level needs 12 ships, found \[11, 13, 12\]"):
        make_game("dadaocheng", ship_file=_write(tmp_path, {"ship": rows}))


def _buildings(edit: Any) -> dict[str, list[dict[str, Any]]]:
    return _edited(DDC_DATA / "buildings.toml", "building", edit)


@pytest.mark.parametrize(("edit", "needle"), [
    (lambda r: [dict(r[0], id=-1), *r[1:]], "row 0 has id -1"),
    (lambda r: [*r[:4], dict(r[4], id=999)], "row 4 has id 999"),
    (lambda r: [r[1], r[0], *r[2:]], "buildings must be"),
    (lambda r: [r[0], dict(r[1], id=0), *r[2:]], "row 1 has id 0"),
    (lambda r: [r[0], r[1], r[1], *r[3:]], "buildings must be"),
    (lambda r: [*r, dict(r[4], id=5)], "buildings must be"),
    (lambda r: [dict(r[0], prestige=-1), *r[1:]], "'prestige' must not be negative"),
    (lambda r: [dict(r[0], piles=[12, 12, 16, -1]), *r[1:]], "'piles' must not be negative"),
])
def test_dadaocheng_building_ids_and_values(tmp_path: Path, edit: Any, needle: str) -> None:
    with pytest.raises(DataError, match=needle):
        make_game("dadaocheng", building_file=_write(tmp_path, _buildings(edit)))


def test_negative_prestige_and_vp_tables_are_refused(tmp_path: Path) -> None:
    ships = _edited(DDC_DATA / "ships.toml", "ship",
                    lambda r: [dict(r[0], prestige=-2), *r[1:]])
    with pytest.raises(DataError, match="'prestige' must not be negative"):
        make_game("dadaocheng", ship_file=_write(tmp_path, ships))
    board = _shipped(tea.DEFAULT_BOARD_FILE)
    board["domestic"][0]["vp"] = [-1, *board["domestic"][0]["vp"][1:]]
    with pytest.raises(DataError, match="'vp' must not be negative"):
        make_game("tea", board_file=_write(tmp_path, board))
    merchants = _shipped(tea.DEFAULT_MERCHANT_FILE)
    merchants["merchant"][0]["poor"] = -1
    with pytest.raises(DataError, match="'poor' must not be negative"):
        make_game("tea", merchant_file=_write(tmp_path, merchants))


def test_a_disc_file_without_a_valid_layout_is_a_data_error(tmp_path: Path) -> None:
    """DDC-2.3: 12 commodity discs of one colour admit no layout: DataError, not ValueError."""
    doc = _shipped(DDC_DATA / "discs.toml")
    for row in doc["disc"]:
        if row["sun"] != "black":
            row["sun"], row["back"] = "red", "white"
    with pytest.raises(DataError, match="no valid disc layout"):
        make_game("dadaocheng", disc_file=_write(tmp_path, doc))


# ----- the shipped data still load and play ----------------------------------------------

@pytest.mark.parametrize(("game", "option", "file", "tables"), FILES,
                         ids=[f"{g}-{o}" for g, o, *_ in FILES])
def test_shipped_files_load_through_their_option_and_play(game: str, option: str, file: Path,
                                                          tables: dict[str, type]) -> None:
    g = _load(game, option, str(file))
    s, rng = g.new_initial_state(), np.random.default_rng(0)
    for _ in range(300):
        if g.is_terminal(s):
            break
        if g.current_player(s) == CHANCE:
            g.apply_action(s, g.sample_chance(s, rng))
        else:
            legal = g.legal_actions(s)
            g.apply_action(s, legal[int(rng.integers(len(legal)))])
    g.check_invariants(s)


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_device_files_are_refused_without_reading_them(special: str) -> None:
    """A device (or FIFO) reports size 0 but may never end: refused as not a regular file
    before a byte is read (``/dev/zero`` used to be read until the memory ran out)."""
    with pytest.raises(DataError, match=f"data file {special} is not a regular file"):
        read_toml(special)


def test_a_fifo_is_refused(tmp_path: Path) -> None:
    """A named pipe would block or stream for ever: refused as not a regular file."""
    import os
    fifo = tmp_path / "cards.toml"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="is not a regular file"):
        make_game("flowers", card_file=str(fifo))


def test_a_name_too_long_is_a_data_error_with_a_short_message() -> None:
    """An over-long path is a DataError (not a raw OSError) whose message stays short."""
    with pytest.raises(DataError, match="cannot be read") as info:
        make_game("flowers", card_file="a" * 5000)
    assert len(str(info.value)) < 400


def test_an_edited_data_file_is_read_again(tmp_path: Path) -> None:
    """Loaders memoise by path, size and modification time: the same file twice is one
    read, an edited file is read again (a cache by path kept the old rows)."""
    import os
    rows = [dataclasses.asdict(b) for b in taiwan.load_buildings()]
    path = tmp_path / "buildings.toml"

    def write(workers: int, stamp: int) -> None:
        rows[0]["workers"] = workers
        lines = []
        for row in rows:
            lines += ["[[building]]", *(f"{k} = {json.dumps(v)}" for k, v in row.items()), ""]
        path.write_text("\n".join(lines), encoding="utf-8")
        os.utime(path, ns=(stamp, stamp))  # a distinct modification time on any file system

    write(2, 10**18)
    first = taiwan.load_buildings(str(path))
    assert first[0].workers == 2 and taiwan.load_buildings(str(path)) is first
    write(1, 2 * 10**18)
    assert taiwan.load_buildings(str(path))[0].workers == 1
    game = make_game("taiwan", num_players=2, building_file=str(path))
    assert game.buildings[0].workers == 1
