"""Taiwan Formosa content: building types and landmarks loaded from ``data/*.toml``.

``data/buildings.toml`` holds one row per building *type* (18 named types; each
type has ``copies`` identical cards). Building ids 0..17 are stable and each id
is bound to one ``key`` (``BUILDING_KEYS``): the engine implements abilities by
key, so an override file may change costs, times and VP but must keep the same
18 keys in the same id order, each with its rulebook kind.

``data/landmarks.toml`` holds the 16 landmark cards, split over 5 decks (card
back colours). Both files' headers explain where every number comes from; the
rulebook gives only Train Station's cost and time and Sansiantai's cost, time
and region, so almost every value is a documented placeholder.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from formosa_envs.core.data import bounded, cached_by_file, load_rows, row_id
from formosa_envs.core.errors import DataError

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_BUILDING_FILE = DATA_DIR / "buildings.toml"
DEFAULT_LANDMARK_FILE = DATA_DIR / "landmarks.toml"

RESOURCES = ("wood", "brick", "steel", "stone")
"""The four resource types, in the order used by every cost tuple."""

REGIONS = ("north", "central", "south", "east")
"""The four board regions where player markers are placed."""

KINDS = ("basic", "exclusive", "global", "minor_landmark")
"""Building kinds: tan, red, blue and green card frames."""

BUILDING_KINDS: dict[str, str] = {
    "sawmill": "basic",
    "stone_factory": "basic",
    "brickworks": "basic",
    "steelworks": "basic",
    "temple": "basic",
    "baseball_field": "basic",
    "lottery_office": "basic",
    "night_market": "basic",
    "tribal_village": "basic",
    "warehouse": "basic",
    "judicial_court": "exclusive",
    "urban_development_bureau": "exclusive",
    "demolition_company": "exclusive",
    "tax_bureau": "exclusive",
    "train_station": "global",
    "convenience_store": "global",
    "public_art_installation": "minor_landmark",
    "hot_spring_hotel": "minor_landmark",
}
"""The rulebook kind of every named building type, in id order."""

BUILDING_KEYS: tuple[str, ...] = tuple(BUILDING_KINDS)
"""The 18 building keys; ``BUILDING_KEYS[i]`` is the key of building id ``i``."""

NUM_BUILDING_TYPES = len(BUILDING_KEYS)
NUM_LANDMARKS = 16
NUM_LANDMARK_DECKS = 5
MIN_TIME, MAX_TIME = 1, 5
MAX_RESOURCE, MAX_COINS, MAX_WORKERS, MAX_VP, MAX_COPIES = 8, 9, 5, 20, 4
"""Bounds of printed values (docs/data-files.md): a pending payment's units per kind are
observed as count / 10, so each unit kind of a purchase (a resource, the coins plus the
Urban Development Bureau fee, the worker icons plus the purchase's worker) stays at most 10;
piles and cards bought are observed as count / 4 (the rulebook's 4 copies)."""


@dataclass(frozen=True, slots=True)
class PrintedCard:
    """What every building and landmark card prints: cost, time cost and VP.

    ``workers`` are the cost's worker icons (0 on every packaged card); every
    purchase pays 1 more worker on top of them (T-4.5, R-41).
    """

    wood: int = bounded(0, MAX_RESOURCE)
    brick: int = bounded(0, MAX_RESOURCE)
    steel: int = bounded(0, MAX_RESOURCE)
    stone: int = bounded(0, MAX_RESOURCE)
    coins: int = bounded(0, MAX_COINS)
    time: int = bounded(MIN_TIME, MAX_TIME)
    vp: int = bounded(0, MAX_VP)
    workers: int = bounded(0, MAX_WORKERS, default=0, kw_only=True)

    @property
    def cost(self) -> tuple[int, int, int, int, int]:
        """The printed cost as ``(wood, brick, steel, stone, coins)``."""
        return (self.wood, self.brick, self.steel, self.stone, self.coins)

    @property
    def resource_cost(self) -> tuple[int, int, int, int]:
        """The resource part of the cost, in ``RESOURCES`` order."""
        return (self.wood, self.brick, self.steel, self.stone)


@dataclass(frozen=True, slots=True)
class BuildingType(PrintedCard):
    """One building type: its key (the ability), kind and number of copies."""

    id: int = row_id()
    key: str
    name: str
    kind: str
    copies: int = bounded(1, MAX_COPIES)
    source: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Landmark(PrintedCard):
    """One landmark card: its deck (back colour) and region."""

    id: int = row_id()
    name: str
    deck: int = bounded(0, NUM_LANDMARK_DECKS - 1)
    region: str
    source: str
    note: str = ""


@cached_by_file
def load_buildings(path: str | Path | None = None) -> tuple[BuildingType, ...]:
    """Load and validate the 18 building types (the default file when ``path`` is None)."""
    file = Path(path) if path else DEFAULT_BUILDING_FILE
    rows = tuple(load_rows(file, "building", BuildingType))
    _validate_buildings(rows, file)
    return rows


@cached_by_file
def load_landmarks(path: str | Path | None = None) -> tuple[Landmark, ...]:
    """Load and validate the 16 landmark cards (the default file when ``path`` is None)."""
    file = Path(path) if path else DEFAULT_LANDMARK_FILE
    rows = tuple(load_rows(file, "landmark", Landmark))
    _validate_landmarks(rows, file)
    return rows


def _check_ids(ids: list[int], expected: int, file: Path, what: str) -> None:
    if ids != list(range(expected)):
        raise DataError(f"{file}: {what} ids must be 0..{expected - 1} in order "
                        f"({expected} rows), found {ids}")


def _check_cost_and_time(row: BuildingType | Landmark, where: str) -> None:
    """Name check (cost, time and VP bounds are field bounds, checked by the row loader)."""
    if not row.name.strip():
        raise DataError(f"{where}: 'name' must not be empty")


def _validate_buildings(rows: tuple[BuildingType, ...], file: Path) -> None:
    keys = Counter(row.key for row in rows)
    for row in rows:
        where = f"{file}: building row id={row.id} key={row.key!r}"
        if row.key not in BUILDING_KINDS:
            raise DataError(f"{where}: unknown building key; the engine implements "
                            f"abilities for these keys only: {list(BUILDING_KEYS)}")
        if keys[row.key] > 1:
            raise DataError(f"{where}: duplicate building key {row.key!r}")
        if row.kind not in KINDS:
            raise DataError(f"{where}: unknown kind {row.kind!r}; allowed: {list(KINDS)}")
        if row.kind != BUILDING_KINDS[row.key]:
            raise DataError(f"{where}: kind must be {BUILDING_KINDS[row.key]!r} "
                            f"(the rulebook's kind for this building), got {row.kind!r}")
        _check_cost_and_time(row, where)
    missing = [key for key in BUILDING_KEYS if key not in keys]
    if missing:
        raise DataError(f"{file}: missing building key(s) {missing}; every one of the "
                        f"{NUM_BUILDING_TYPES} building types must have a row")
    _check_ids([row.id for row in rows], NUM_BUILDING_TYPES, file, "building")
    for row in rows:
        if row.key != BUILDING_KEYS[row.id]:
            raise DataError(f"{file}: building row id={row.id} key={row.key!r}: id "
                            f"{row.id} is bound to key {BUILDING_KEYS[row.id]!r}")


def _validate_landmarks(rows: tuple[Landmark, ...], file: Path) -> None:
    names = Counter(row.name for row in rows)
    for row in rows:
        where = f"{file}: landmark row id={row.id} name={row.name!r}"
        if names[row.name] > 1:
            raise DataError(f"{where}: duplicate landmark name")
        if row.region not in REGIONS:
            raise DataError(f"{where}: unknown region {row.region!r}; "
                            f"allowed: {list(REGIONS)}")
        _check_cost_and_time(row, where)
    _check_ids([row.id for row in rows], NUM_LANDMARKS, file, "landmark")
    empty = sorted(set(range(NUM_LANDMARK_DECKS)) - {row.deck for row in rows})
    if empty:
        raise DataError(f"{file}: landmark deck(s) {empty} have no cards; each of the "
                        f"{NUM_LANDMARK_DECKS} decks needs at least one")
