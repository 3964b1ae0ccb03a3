"""Dadaocheng content: discs, ships, buildings, the Temple table and the events.

Loaded from ``data/*.toml`` and validated; every row has a ``source``. The rulebook
prints no card values, disc backs or Temple table: they are documented placeholders
(``seeds/dadaocheng.md`` section 4); an owner of the game can load printed values with
the config's file options.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from formosa_envs.core.content import HistoricalEvent, events_by_year, file_loader
from formosa_envs.core.data import bounded, check_ids, load_rows, require, row_id
from formosa_envs.core.errors import DataError

from .layouts import layout_table

DATA_DIR = Path(__file__).parent / "data"
COLOURS = ("red", "white", "green", "yellow", "black")
RED, WHITE, GREEN, YELLOW, BLACK = range(5)
ANY = 5
BUILDINGS = ("mansion", "store", "market", "workshop", "opium_den")
MANSION, STORE, MARKET, WORKSHOP, DEN = range(5)
NUM_DISCS, NUM_SHIPS, SHIPS_PER_LEVEL = 16, 36, 12
"""16 discs; 36 ships (content-findings section 4), 12 per level (observed as / 12)."""
MAX_CUBES, MAX_REQUIRED, MAX_CREDIT, MAX_SHIP_PRESTIGE = 3, 10, 5, 15
"""A ship's cost per colour, required credit, credit and prestige, observed as / 3, / 10,
/ 5 and / 15."""
MAX_BUILDING_PRESTIGE, MAX_PILE = 10, 24
"""A building's printed prestige; a building pile (observed as / 24)."""


@dataclass(frozen=True)
class Disc:
    """A two-sided resource disc."""

    id: int = row_id()
    code: str
    sun: str
    back: str
    source: str
    note: str = ""

    @property
    def faces(self) -> tuple[int, int]:
        """(sun colour, back colour) as colour codes."""
        return COLOURS.index(self.sun), COLOURS.index(self.back)


@dataclass(frozen=True)
class Ship:
    """A ship card: level, cube cost, required credit, credit and prestige."""

    id: int = row_id()
    code: str
    level: int = bounded(1, 3)
    cost: tuple[int, ...] = bounded(0, MAX_CUBES, length=(4, 4))
    required: int = bounded(0, MAX_REQUIRED)
    credit: int = bounded(0, MAX_CREDIT)
    prestige: int = bounded(0, MAX_SHIP_PRESTIGE)
    source: str
    note: str = ""


@dataclass(frozen=True)
class Building:
    """A building type: cost, printed prestige, pile size per player count (1-4)."""

    id: int = row_id()
    key: str
    cost: tuple[int, ...] = bounded(0, MAX_CUBES, length=(4, 4))
    prestige: int = bounded(0, MAX_BUILDING_PRESTIGE)
    piles: tuple[int, ...] = bounded(0, MAX_PILE, length=(4, 4))
    source: str
    note: str = ""


@dataclass(frozen=True)
class TempleFace:
    """What one die face gives at the Temple (a colour or ``any``)."""

    face: int = bounded(0, 5)
    gives: str
    source: str
    note: str = ""


@dataclass(frozen=True)
class Event(HistoricalEvent):
    """A historical event card (effect implemented by ``key``): ``automatic`` ones act by
    themselves, the others any player may execute once a turn."""

    automatic: bool
    source: str
    note: str = ""


@file_loader(DATA_DIR / "discs.toml")
def load_discs(file: Path) -> tuple[Disc, ...]:
    """16 discs, exactly 4 with a black sun side, no disc with one colour twice."""
    discs = tuple(load_rows(file, "disc", Disc, ids=NUM_DISCS))
    for d in discs:
        require(d.sun in COLOURS and d.back in COLOURS, file,
                 f"disc {d.code}: colours must be among {COLOURS}")
        require(d.sun != d.back, file, f"disc {d.code}: both sides show {d.sun}")
    require(sum(d.sun == "black" for d in discs) == 4, file,
             "exactly 4 discs must show black (opium) on their sun side")
    commodity = tuple(sorted(d.faces[0] for d in discs if d.sun != "black"))
    for solo in (False, True):  # DDC-2.3: a layout must exist for either setup condition
        try:
            layout_table(commodity, solo)
        except ValueError as exc:
            raise DataError(f"{file}: {exc}") from None
    return discs


@file_loader(DATA_DIR / "ships.toml")
def load_ships(file: Path) -> tuple[Ship, ...]:
    """The 36 ship cards (ids 0..35 in order), 12 per level; bounded costs and values."""
    ships = tuple(load_rows(file, "ship", Ship, ids=NUM_SHIPS))
    for s in ships:
        require(sum(s.cost) > 0, file,
                f"ship {s.code}: cost must be 4 counts (red, white, green, yellow), not all 0")
    per_level = [sum(s.level == level for s in ships) for level in (1, 2, 3)]
    require(per_level == [SHIPS_PER_LEVEL] * 3, file,
            f"each level needs {SHIPS_PER_LEVEL} ships, found {per_level} (levels 1, 2, 3)")
    return ships


@file_loader(DATA_DIR / "buildings.toml")
def load_buildings(file: Path) -> tuple[Building, ...]:
    """The five building types in id order with 4-colour costs and 4 pile sizes."""
    rows = tuple(load_rows(file, "building", Building))
    keys = [b.key for b in rows]
    require(keys == list(BUILDINGS), file,
            f"buildings must be {BUILDINGS} in id order (one row each), found {keys}")
    check_ids([b.id for b in rows], len(BUILDINGS), f"{file} [[building]]")
    for b in rows:
        require(sum(b.cost) > 0, file, f"{b.key}: cost must be 4 counts, not all 0")
    return rows


@file_loader(DATA_DIR / "board.toml")
def load_temple(file: Path) -> tuple[int, ...]:
    """The colour code (or ``ANY``) each of the 6 die faces gives."""
    faces = load_rows(file, "temple", TempleFace)
    require([f.face for f in faces] == list(range(6)), file, "temple faces must be 0..5")
    options = (*COLOURS, "any")
    require(all(f.gives in options for f in faces), file, f"a face gives one of {options}")
    return tuple(options.index(f.gives) for f in faces)


@functools.lru_cache(maxsize=1)
def load_events() -> tuple[Event, ...]:
    """The 14 events, by year (1851 first)."""
    file = DATA_DIR / "events.toml"
    events = events_by_year(file, Event)
    require(len(events) == 14 and events[0].key == "e1851", file,
             "expected the 14 events with 1851 first")
    return events
