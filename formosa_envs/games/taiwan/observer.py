"""Taiwan Formosa observation: every public item, egocentric and padded to 5 seats.

Nothing in Taiwan Formosa is private: hands, tracks and boards are open. Only
the order of the face-down landmark cards is unknown, and every reveal is a
chance event, so no seat's observation depends on hidden information.

Every feature lies in [0, 1] (encodings: ``formosa_envs.core.observer``). Coins (the
tie-break) and VP (which final scoring can push below 0) are scores: a fine part
plus a saturating part (and one for negative VP); hand items, the units of a
payment and the round are unbounded counters (saturating, never clipped); copies,
Tribal Village workers, Warehouse resources and factory uses are divided by their
limits read from the building data (copies per type, 3 per completed copy); a
region lists each owner's markers (/7) and the rank of its first placement among
the owners there (the majority tie-break), not its raw position.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from formosa_envs.core.observer import (
    Codec,
    Feature,
    ObservationLayout,
    Piece,
    flags,
    per_game,
    remember,
    seat_view,
)
from formosa_envs.core.payment import pay_units

from .state import CARD_CODES, MARKERS, NUM_DECKS, TaiwanState

if TYPE_CHECKING:
    from .game import TaiwanGame

S = 5
KINDS = ("declare", "act", "pay", "region", "warehouse", "judicial", "cleanup")
UNIT_COUNT = 9
RESOURCE_NAMES = ("wood", "brick", "steel", "stone")
FACTORIES = ("sawmill", "brickworks", "steelworks", "stone_factory")


def seat_features(copies: dict[str, int] | None = None) -> list[Feature]:
    """Per-seat quantities and encodings; limits come from the building ``copies``."""
    copies = copies or {}
    top = max(copies.values(), default=4)
    return [*flags("present", "is_turn", "is_start"),
            Feature("coins", "score", 100), Feature("vp", "signed_score", 50, neg_knee=10),
            *(Feature(r, "count", 5) for r in RESOURCE_NAMES),
            Feature("workers", "count", 5), Feature("merchants", "count", 5),
            Feature("tribal", "linear", 3 * copies.get("tribal_village", top)),
            *(Feature(f"wh_{r}", "linear", 3 * copies.get("warehouse", top))
              for r in RESOURCE_NAMES),
            Feature("markers", "linear", MARKERS),
            *(Feature(f"{f}_used", "linear", copies.get(f, top)) for f in FACTORIES),
            Feature("temple_used", "linear", copies.get("temple", top))]


SEAT_COLUMNS = Codec(seat_features())
GLOBALS = Codec([Feature("round", "count", 10), Feature("final_round"),
                 Feature("empty", "linear", 18 + NUM_DECKS)])
UNITS = Codec([Feature(f"unit{u}", "count", 5) for u in range(UNIT_COUNT)])
LAYOUT = ObservationLayout([
    Piece("seats", (S, SEAT_COLUMNS.width), "per-seat public state, egocentric: "
          + SEAT_COLUMNS.describe()),
    Piece("tracks", (S, CARD_CODES, 6), "uncompleted cards per seat, card x space "
          "(count / most copies of a type)"),
    Piece("built", (S, CARD_CODES), "completed cards per seat (count / most copies)"),
    Piece("bought", (S, 18), "building types bought per seat (count / most copies)"),
    Piece("exclusive", (4, S), "holder of each red building's ability (egocentric)"),
    Piece("regions", (4, S + 1, 2), "per region and owner (+ neutral): markers/7, rank "
          "of its first placement among the owners there ((rank+1)/6)"),
    Piece("piles", (18,), "copies left per building type / most copies"),
    Piece("in_game", (18,), "building types drawn for this game"),
    Piece("face_up", (NUM_DECKS, 16), "face-up landmark of each deck"),
    Piece("deck_sizes", (NUM_DECKS,), "face-down cards per deck / largest deck"),
    Piece("phase", (7,), "round phase one-hot"),
    Piece("decision", (len(KINDS),), "the observer's pending decision kind"),
    Piece("units", (UNIT_COUNT,), "units left to pay in the observer's payment, per kind "
          "(count~5)"),
    Piece("globals", (GLOBALS.width,), GLOBALS.describe()),
    Piece("players", (4,), "player count one-hot (2-5)"),
])


SEATS_AT, SEAT_WIDTH = LAYOUT.offsets["seats"], SEAT_COLUMNS.width


class Limits:
    """A game's observation limits, read once from its data files, and its memos of
    encoded pieces (keyed by the raw content of each piece)."""

    def __init__(self, game: TaiwanGame) -> None:
        copies = {b.key: b.copies for b in game.buildings}
        self.seats = Codec(seat_features(copies))
        self.copies = float(max(copies.values()))
        self.deck = float(max(1, *(len(d) for d in game.deck_cards)))
        self.cards: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.regions: dict[tuple, np.ndarray] = {}
        self.table: dict[tuple, np.ndarray] = {}
        self.units: dict[tuple, np.ndarray] = {}


def limits(game: TaiwanGame) -> Limits:
    """The game's :class:`Limits` (built once per game)."""
    return per_game(game, "taiwan.limits", lambda: Limits(game))


def _units(lim: Limits, pending: tuple[int, ...]) -> np.ndarray:
    """The ``units`` piece of a payment's pending units (memoised by them)."""
    found = lim.units.get(pending)
    if found is None:
        counts = [0] * UNIT_COUNT
        for unit in pending:
            counts[unit] += 1
        found = remember(lim.units, pending, UNITS.encode_flat(counts))
    return found


TABLE_AT = LAYOUT.offsets["piles"]
"""Where the table pieces start: ``piles`` to ``players``, the end of the vector."""


def observe(game: TaiwanGame, s: TaiwanState, viewer: int) -> np.ndarray:
    """The observation vector of ``viewer``."""
    vec, views = game.obs_buffer  # a reusable buffer with a view per piece
    lim = limits(game)
    vec.fill(0.0)
    order, rel = seat_view(viewer, s.num_players)
    vec[SEATS_AT:SEATS_AT + SEAT_WIDTH * len(order)] = _seat_rows(lim, s, order)
    _write_cards(s, views, order, lim)
    exclusive = views["exclusive"]
    for k, owner in enumerate(s.exclusive):
        if owner >= 0:
            exclusive[k, rel[owner]] = 1.0
    key = (viewer, *map(tuple, s.regions))
    regions = lim.regions.get(key)
    if regions is None:
        regions = remember(lim.regions, key, _regions(s, rel))
    views["regions"][:] = regions
    _write_table(lim, s, vec, views, viewer)
    return vec.copy()


def _seat_rows(lim: Limits, s: TaiwanState, order: list[int]) -> np.ndarray:
    """Per-seat features, encoded in one vectorised step (rows back to back)."""
    raw: list[int] = []
    for p in order:
        raw += (1, p == s.turn, p == s.start_player, s.coins[p], s.vp[p], *s.res[p],
                s.workers[p], s.merchants[p], s.tribal[p], *s.warehouse[p], s.markers[p],
                *s.factory_used[p], s.temple_used[p])
    return lim.seats.encode_flat(raw)


def _write_cards(s: TaiwanState, views: dict[str, np.ndarray], order: list[int],
                 lim: Limits) -> None:
    """Each seat's time track, completed cards and types bought (memoised per seat)."""
    tracks, built, bought = views["tracks"], views["built"], views["bought"]
    memo = lim.cards
    for i, p in enumerate(order):
        key = (*map(tuple, s.track[p]), -1, *s.built[p], -1, *s.bought[p])
        rows = memo.get(key)
        if rows is None:
            rows = remember(memo, key, _card_rows(s.track[p], s.built[p], s.bought[p],
                                                  lim.copies))
        tracks[i], built[i], bought[i] = rows


def _card_rows(track: list[list[int]], built: list[int], bought: list[int],
               copies: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One seat's rows: cards on its time track (card x space), completed cards and types
    bought, each count divided by the most copies any type has (a landmark is one card).

    Counts are gathered in Python first: one numpy write per distinct card,
    not one per copy."""
    tracks = np.zeros((CARD_CODES, 6), dtype=np.float32)
    done = np.zeros(CARD_CODES, dtype=np.float32)
    unit = 1.0 / copies
    on_track: dict[tuple[int, int], int] = {}
    for code, space in track:
        key = (code, min(space, 6) - 1)
        on_track[key] = on_track.get(key, 0) + 1
    for (code, space), count in on_track.items():
        tracks[code, space] = count * unit
    for code in set(built):
        done[code] = built.count(code) * unit
    types = np.array(bought, dtype=np.float32)
    types *= unit
    return tracks, done, types


def _regions(s: TaiwanState, rel: dict[int, int]) -> np.ndarray:
    """Per region and owner: markers (/7) and the rank of the owner's first marker
    among the owners there, ``(rank + 1) / (S + 1)`` (earlier placement wins ties)."""
    view = np.zeros(LAYOUT.shapes["regions"], dtype=np.float32)
    for r, markers in enumerate(s.regions):
        first: dict[int, int] = {}
        for i, owner in enumerate(markers):
            col = rel.get(owner, S)  # the neutral colour sits in the last column
            first.setdefault(col, i)
        for rank, (col, i) in enumerate(sorted(first.items(), key=lambda item: item[1])):
            view[r, col] = (markers.count(markers[i]) / MARKERS, (rank + 1) / (S + 1))
    return view


def _write_table(lim: Limits, s: TaiwanState, vec: np.ndarray, views: dict[str, np.ndarray],
                 viewer: int) -> None:
    """The table pieces (memoised by their content), then the viewer's decision."""
    key = (*s.piles, *s.in_game, *s.face_up, *map(len, s.decks), s.phase, s.round,
           s.final_round)
    table = lim.table.get(key)
    if table is None:
        _table(lim, s, views)
        remember(lim.table, key, vec[TABLE_AT:].copy())
    else:
        vec[TABLE_AT:] = table
    if not s.over and s.stack and s.stack[-1].player == viewer:
        d = s.stack[-1]
        views["decision"][KINDS.index(d.kind)] = 1.0
        if d.kind == "pay":
            views["units"][:] = _units(lim, pay_units(d))


def _table(lim: Limits, s: TaiwanState, views: dict[str, np.ndarray]) -> None:
    """Piles, building types in the game, landmarks, phase, globals and player count."""
    views["piles"][:] = s.piles
    views["piles"] *= 1.0 / lim.copies
    views["in_game"][:] = s.in_game
    face_up = views["face_up"]
    for d, card in enumerate(s.face_up):
        if card >= 0:
            face_up[d, card] = 1.0
    views["deck_sizes"][:] = [len(deck) / lim.deck for deck in s.decks]
    views["phase"][s.phase] = 1.0
    empty = sum(1 for t in range(18) if s.in_game[t] and s.piles[t] == 0)
    empty += sum(1 for d in range(NUM_DECKS) if s.face_up[d] < 0 and not s.decks[d])
    views["globals"][:] = GLOBALS.encode_flat((s.round, s.final_round, empty))
    views["players"][s.num_players - 2] = 1.0
