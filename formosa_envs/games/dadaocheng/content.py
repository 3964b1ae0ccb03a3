"""Dadaocheng content: discs, ships, buildings, the Temple table and the events.

Loaded from ``data/*.toml`` and validated; every row has a ``source``. The rulebook
prints no card values, disc backs or Temple table: they are documented placeholders
(``seeds/dadaocheng.md`` section 4); an owner of the game can load printed values with
the config's file options.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from formosa_envs.core.data import load_rows, require

DATA_DIR = Path(__file__).parent / "data"
COLOURS = ("red", "white", "green", "yellow", "black")
RED, WHITE, GREEN, YELLOW, BLACK = range(5)
ANY = 5
BUILDINGS = ("mansion", "store", "market", "workshop", "opium_den")
MANSION, STORE, MARKET, WORKSHOP, DEN = range(5)


@dataclass(frozen=True)
class Disc:
    """A two-sided resource disc."""

    id: int
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

    id: int
    code: str
    level: int
    cost: tuple[int, ...]
    required: int
    credit: int
    prestige: int
    source: str
    note: str = ""


@dataclass(frozen=True)
class Building:
    """A building type: cost, printed prestige, pile size per player count (1-4)."""

    id: int
    key: str
    cost: tuple[int, ...]
    prestige: int
    piles: tuple[int, ...]
    source: str
    note: str = ""


@dataclass(frozen=True)
class TempleFace:
    """What one die face gives at the Temple (a colour or ``any``)."""

    face: int
    gives: str
    source: str
    note: str = ""


@dataclass(frozen=True)
class Event:
    """A historical event card (effect implemented by ``key``)."""

    key: str
    year: int
    name: str
    automatic: bool
    source: str
    note: str = ""


@lru_cache(maxsize=8)
def load_discs(path: str | None = None) -> tuple[Disc, ...]:
    """16 discs, exactly 4 with a black sun side, no disc with one colour twice."""
    file = Path(path) if path else DATA_DIR / "discs.toml"
    discs = tuple(load_rows(file, "disc", Disc))
    require([d.id for d in discs] == list(range(16)), file, "disc ids must be 0..15 in order")
    for d in discs:
        require(d.sun in COLOURS and d.back in COLOURS, file,
                 f"disc {d.code}: colours must be among {COLOURS}")
        require(d.sun != d.back, file, f"disc {d.code}: both sides show {d.sun}")
    require(sum(d.sun == "black" for d in discs) == 4, file,
             "exactly 4 discs must show black (opium) on their sun side")
    return discs


@lru_cache(maxsize=8)
def load_ships(path: str | None = None) -> tuple[Ship, ...]:
    """Ship cards: levels 1-3, 4-colour costs, non-negative values."""
    file = Path(path) if path else DATA_DIR / "ships.toml"
    ships = tuple(load_rows(file, "ship", Ship))
    require([s.id for s in ships] == list(range(len(ships))), file,
             "ship ids must be 0..N-1 in order")
    for s in ships:
        require(s.level in (1, 2, 3), file, f"ship {s.code}: level must be 1-3")
        require(len(s.cost) == 4 and min(s.cost) >= 0 and sum(s.cost) > 0, file,
                 f"ship {s.code}: cost must be 4 non-negative counts (red, white, green, yellow)")
        require(min(s.required, s.credit, s.prestige) >= 0, file,
                 f"ship {s.code}: required credit, credit and prestige must be >= 0")
    for level in (1, 2, 3):
        require(sum(s.level == level for s in ships) >= 6, file,
                 f"level {level} needs at least 6 ships (the solo game draws 6)")
    return ships


@lru_cache(maxsize=8)
def load_buildings(path: str | None = None) -> tuple[Building, ...]:
    """The five building types in id order with 4-colour costs and 4 pile sizes."""
    file = Path(path) if path else DATA_DIR / "buildings.toml"
    rows = tuple(load_rows(file, "building", Building))
    require([b.key for b in rows] == list(BUILDINGS), file,
             f"buildings must be {BUILDINGS} in id order")
    for b in rows:
        require(len(b.cost) == 4 and min(b.cost) >= 0, file, f"{b.key}: cost needs 4 counts")
        require(len(b.piles) == 4 and min(b.piles) >= 0, file,
                 f"{b.key}: piles needs a count for 1, 2, 3 and 4 players")
    return rows


@lru_cache(maxsize=8)
def load_temple(path: str | None = None) -> tuple[int, ...]:
    """The colour code (or ``ANY``) each of the 6 die faces gives."""
    file = Path(path) if path else DATA_DIR / "board.toml"
    faces = load_rows(file, "temple", TempleFace)
    require([f.face for f in faces] == list(range(6)), file, "temple faces must be 0..5")
    options = (*COLOURS, "any")
    require(all(f.gives in options for f in faces), file, f"a face gives one of {options}")
    return tuple(options.index(f.gives) for f in faces)


@lru_cache(maxsize=1)
def load_events() -> tuple[Event, ...]:
    """The 14 events, by year (1851 first)."""
    file = DATA_DIR / "events.toml"
    events = tuple(sorted(load_rows(file, "event", Event), key=lambda e: e.year))
    require(len(events) == 14 and events[0].key == "e1851", file,
             "expected the 14 events with 1851 first")
    return events
