"""Formosa Tea content: tracks, weather tiles, merchants and events from ``data/*.toml``.

``data/board.toml`` holds the four processing tracks (an effect key per space), the
three technology tracks (a reward key and value per space), the Domestic Market track,
the four weather tiles and the three Global Market spaces. ``data/merchants.toml``
holds the 28 merchant cards and ``data/events.toml`` the 11 historical events. The
rulebook prints none of the layouts or card values: they are documented placeholders
(``seeds/tea.md`` section 4). The loader validates every key, so a replacement file
with printed values either loads or fails with a message naming the bad row.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from formosa_envs.core.content import HistoricalEvent, events_by_year, file_loader
from formosa_envs.core.data import bounded, load_rows, require, row_id
from formosa_envs.core.errors import DataError

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_BOARD_FILE = DATA_DIR / "board.toml"
DEFAULT_MERCHANT_FILE = DATA_DIR / "merchants.toml"
EVENT_FILE = DATA_DIR / "events.toml"

TEAS = ("oolong", "black", "green")
TRACKS = ("oolong", "black", "green", "scented")
QUALITIES = ("poor", "normal", "good")
EFFECTS = ("none", "withering", "oxidation", "fixation", "drying", "rolling", "scenting")
TECH_REWARDS = ("none", "disc_fixation", "disc_rolling", "disc_oxidation", "disc_drying",
                "action_global", "action_processing", "advance_any", "merchant_vp")
DOMESTIC_REWARDS = ("none", "action_global", "action_processing", "bonus_masters",
                    "bonus_technology", "bonus_harvest")
BONUSES = ("bonus_masters", "bonus_technology", "bonus_harvest")
TECH_DISCS = ("disc_fixation", "disc_rolling", "disc_oxidation", "disc_drying")
ACTION_DISCS = ("action_global", "action_processing")
CHARACTERS = ("wang_shui_jing", "wei_jing_shi", "john_dodd", "li_chun_sheng",
              "arai_kokichiro", "wu_zhen_duo", "hsu_ying_xiang")
"""The 7 characters (rulebook, Characters); effects are implemented by key."""
MAX_TRACK_SPACES, MAX_TECH_SPACES, MAX_DOMESTIC_SPACES = 8, 8, 16
"""Track lengths the picture and the observation carry (tech level / 8, Domestic position /
15, the processing tracks drawn 8 spaces wide)."""
MAX_DEMAND, MAX_MERCHANT_VP, MAX_STAGE_CARDS = 4, 20, 12
"""A merchant's demand per tea and VP are observed as / 4 and / 20; a stage's deck as / 12."""
MERCHANT_CARDS, RETAILER_DROPS = 28, 4
"""The rulebook's 28 merchant cards; the retailer's 24 are the 28 less the 4 marked
``in_24 = false`` (seeds/tea.md R-3), so a merchant file holds exactly those."""
CHARACTER_NAMES = ("Wang Shui Jing", "Wei Jing Shi", "John Dodd", "Li Chun Sheng",
                   "Arai Kokichiro", "Wu Zhen Duo", "Hsu Ying Xiang")


@dataclass(frozen=True)
class ProcessingRow:
    """One processing track: the effect of every space (the last has none)."""

    track: str
    effects: tuple[str, ...] = bounded(length=(2, MAX_TRACK_SPACES))
    source: str
    note: str = ""


@dataclass(frozen=True)
class TechnologyRow:
    """One technology track: the reward (and its value) of spaces 1..N."""

    track: str
    rewards: tuple[str, ...] = bounded(length=(1, MAX_TECH_SPACES))
    values: tuple[int, ...] = bounded(0, 10, length=(1, MAX_TECH_SPACES))
    source: str
    note: str = ""


@dataclass(frozen=True)
class DomesticRow:
    """The Domestic Market track: VP and reward of spaces 0..N."""

    vp: tuple[int, ...] = bounded(0, 50, length=(2, MAX_DOMESTIC_SPACES))
    rewards: tuple[str, ...] = bounded(length=(2, MAX_DOMESTIC_SPACES))
    source: str
    note: str = ""


@dataclass(frozen=True)
class WeatherRow:
    """One two-sided weather tile: the water level of each face."""

    tile: int = bounded(0, 3)
    faces: tuple[int, ...] = bounded(0, 2, length=(2, 2))
    source: str
    note: str = ""


@dataclass(frozen=True)
class MarketRow:
    """One Global Market space and its bonus action."""

    space: int = bounded(0, 2)
    bonus: str
    source: str
    note: str = ""


@dataclass(frozen=True)
class Merchant:
    """A merchant card: demand per tea, VP by quality, the icon scored at game end."""

    id: int = row_id()
    code: str
    stage: int = bounded(1, 3)
    demand: tuple[int, ...] = bounded(0, MAX_DEMAND, length=(3, 3))
    icon: str
    good: int = bounded(0, MAX_MERCHANT_VP)
    normal: int = bounded(0, MAX_MERCHANT_VP)
    poor: int = bounded(0, MAX_MERCHANT_VP)
    in_24: bool
    source: str
    note: str = ""

    @cached_property
    def icon_index(self) -> int:
        """The icon's tea code (0 oolong, 1 black, 2 green); worked out once per card (a
        cached attribute: the card is immutable, and scoring reads it in every loop)."""
        return TEAS.index(self.icon)

    def vp(self, quality: int) -> int:
        """VP for a sale whose lowest cube quality is ``quality`` (0 poor .. 2 good)."""
        return (self.poor, self.normal, self.good)[quality]


@dataclass(frozen=True)
class Event(HistoricalEvent):
    """A historical event card (the effect is implemented by ``key``)."""

    source: str
    note: str = ""


@dataclass(frozen=True)
class Board:
    """Everything ``board.toml`` holds, validated."""

    processing: tuple[ProcessingRow, ...]
    technology: tuple[TechnologyRow, ...]
    domestic: DomesticRow
    weather: tuple[WeatherRow, ...]
    market: tuple[MarketRow, ...]

    def last_space(self, track: int) -> int:
        """Index of the last space of processing track ``track``."""
        return len(self.processing[track].effects) - 1


def _check_processing(rows: list[ProcessingRow], where: str) -> None:
    require([r.track for r in rows] == list(TRACKS), where,
             f"[[processing]] must list the tracks {TRACKS} in that order")
    for r in rows:
        require(len(r.effects) >= 2 and r.effects[-1] == "none", where,
                 f"track {r.track}: needs 2+ spaces and a last space with effect 'none'")
        bad = [e for e in r.effects if e not in EFFECTS]
        require(not bad, where, f"track {r.track}: unknown effect(s) {bad}; known {EFFECTS}")
        scented = r.track == "scented"
        wrong = [e for e in r.effects if e != "none" and (e == "scenting") != scented]
        require(not wrong, where, f"track {r.track}: effect(s) {wrong} do not act on this "
                 "track's tea (scenting only on the scented track, water effects elsewhere)")


def _check_technology(rows: list[TechnologyRow], where: str) -> None:
    require([r.track for r in rows] == list(TEAS), where,
             f"[[technology]] must list the tracks {TEAS} in that order")
    for r in rows:
        require(len(r.rewards) == len(r.values) >= 1, where,
                 f"track {r.track}: rewards and values must have the same length")
        bad = [x for x in r.rewards if x not in TECH_REWARDS]
        require(not bad, where, f"track {r.track}: unknown reward(s) {bad}")


def _check_board(board: Board, where: str) -> None:
    _check_processing(list(board.processing), where)
    _check_technology(list(board.technology), where)
    d = board.domestic
    require(len(d.vp) == len(d.rewards) >= 2, where, "domestic vp and rewards lengths differ")
    bad = [x for x in d.rewards if x not in DOMESTIC_REWARDS]
    require(not bad, where, f"unknown domestic reward(s) {bad}")
    require(sorted(w.tile for w in board.weather) == [0, 1, 2, 3], where,
             "[[weather]] must hold tiles 0-3")
    require(all(len(w.faces) == 2 and all(0 <= f <= 2 for f in w.faces)
                 for w in board.weather), where, "every weather tile has 2 faces of level 0-2")
    require([m.space for m in board.market] == [0, 1, 2], where,
             "[[global_market]] must hold spaces 0-2 in order")
    require(all(m.bonus in BONUSES for m in board.market), where,
             f"Global Market bonuses must be among {BONUSES}")


@file_loader(DEFAULT_BOARD_FILE)
def load_board(file: Path) -> Board:
    """Load and validate a board file (the packaged placeholder one by default)."""
    domestic = load_rows(file, "domestic", DomesticRow)
    require(len(domestic) == 1, str(file), "exactly one [[domestic]] row is expected")
    board = Board(tuple(load_rows(file, "processing", ProcessingRow)),
                  tuple(load_rows(file, "technology", TechnologyRow)), domestic[0],
                  tuple(sorted(load_rows(file, "weather", WeatherRow), key=lambda w: w.tile)),
                  tuple(load_rows(file, "global_market", MarketRow)))
    _check_board(board, str(file))
    return board


@file_loader(DEFAULT_MERCHANT_FILE)
def load_merchants(file: Path) -> tuple[Merchant, ...]:
    """Load and validate a merchant file: the 28 cards (ids 0..27 in order), 4 of them
    outside the retailer's 24, at most 12 per stage in either deck, sane demand and VP."""
    cards = tuple(load_rows(file, "merchant", Merchant, ids=MERCHANT_CARDS))
    where = str(file)
    for c in cards:
        require(1 <= sum(c.demand) <= 6, where,
                f"merchant {c.code}: demand must be 3 counts summing to 1-6")
        require(c.icon in TEAS, where, f"merchant {c.code}: icon must be one of {TEAS}")
        require(0 <= c.poor <= c.normal <= c.good, where,
                 f"merchant {c.code}: VP must satisfy poor <= normal <= good")
    dropped = [c.code for c in cards if not c.in_24]
    require(len(dropped) == RETAILER_DROPS, where,
            f"exactly {RETAILER_DROPS} merchant cards must be marked in_24 = false (the "
            f"rulebook's 28 less the retailer's 24), found {len(dropped)}: {dropped}")
    for deck, name in ((cards, "28-card"), ([c for c in cards if c.in_24], "24-card")):
        per_stage = [sum(c.stage == st for c in deck) for st in (1, 2, 3)]
        require(all(1 <= n <= MAX_STAGE_CARDS for n in per_stage), where,
                f"the {name} deck must hold 1-{MAX_STAGE_CARDS} cards of each stage, "
                f"found {per_stage} (stages 1, 2, 3)")
    return cards


@lru_cache(maxsize=1)
def load_events() -> tuple[Event, ...]:
    """The 11 historical events, sorted by year."""
    events = events_by_year(EVENT_FILE, Event)
    if len(events) != 11:
        raise DataError(f"{EVENT_FILE}: expected 11 events, found {len(events)}")
    return events
