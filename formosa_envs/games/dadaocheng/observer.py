"""Dadaocheng observation: the grid (both sides of every disc), storehouses, players.

Everything is open (R-4): both faces of each disc, storehouses, hands, cards, credit,
opium tracks. Only the order of the face-down ship piles and event deck is unknown,
and each reveal is a chance event. Per-seat rows put the observer first. Built like
the Formosa Tea observer: one dense slice assignment and one scatter of ones.

Every feature lies in [0, 1] (encodings: ``formosa_envs.core.observer``). Credit (the
tie-break) and prestige (which Opium Dens can push below 0) are scores: a fine part
plus a saturating part (and one for negative prestige), so late-game leaders stay
apart; hand cubes, opium used, cards owned, storehouse cubes and card values are
counters that saturate instead of clipping; pile sizes are divided by the piles'
limits; this turn's flags are 0/1 and its use counts (Markets, Dens, Workshops)
saturate.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

import numpy as np

from formosa_envs.core.observer import (
    Codec,
    Feature,
    ObservationLayout,
    Piece,
    flags,
    remember,
    seat_view,
)

from .content import MAX_PILE
from .shop import ships_left_per_level
from .state import USED_SIZE, DadaochengState

if TYPE_CHECKING:
    from .game import DadaochengGame

S = 4
KINDS = ("move", "swap_to", "line", "loop_any", "loop_gift", "full_house", "discard", "lose",
         "purchase", "pay", "give", "take", "store_space", "convert", "exchange_more")
COLOUR_NAMES = ("red", "white", "green", "yellow", "black")
SEAT_FEATURES = [
    *flags("present", "turn", "start"), *(Feature(f"hand_{c}", "count", 6) for c in COLOUR_NAMES),
    Feature("credit", "score", 20), Feature("opium", "count", 10),
    Feature("sign", "count", 3), *(Feature(f"ships{k}", "count", 6) for k in (1, 2, 3)),
    *(Feature(f"buildings{t}", "count", 6) for t in range(5)),
    Feature("prestige", "signed_score", 100, neg_knee=10)]
SHIP_FEATURES = [*(Feature(f"cost_{c}", "count", 3) for c in COLOUR_NAMES[:4]),
                 Feature("required", "count", 10), Feature("credit", "count", 5),
                 Feature("prestige", "count", 15)]
USED_FEATURES = [Feature("temple"), Feature("event"), Feature("markets", "count", 2),
                 Feature("dens", "count", 2), *flags("store", "market", "workshop", "den"),
                 Feature("workshops", "count", 2)]
SEAT_COLUMNS = Codec(SEAT_FEATURES)
SEAT_DENSE = SEAT_COLUMNS.width
SEAT_RAW = len(SEAT_FEATURES)
DENSE = Codec([*SEAT_FEATURES * S, *(Feature(f"store{k}", "count", 2) for k in range(80)),
               *SHIP_FEATURES * 3, *(Feature(f"ships_left{k}", "linear", 12) for k in range(3)),
               *(Feature(f"buildings_left{t}", "linear", MAX_PILE) for t in range(5)),
               *USED_FEATURES, Feature("count", "count", 3)])
LAYOUT = ObservationLayout([
    Piece("seat_counters", (S, SEAT_DENSE), "per seat, egocentric: "
          + SEAT_COLUMNS.describe()),
    Piece("storehouse", (16, 5), "cubes per space and colour (count~2)"),
    Piece("ships", (3, 7), "face-up ship per level: " + Codec(SHIP_FEATURES).describe()),
    Piece("piles", (3 + 5,), "ships left per level /12 (the pile), buildings left per type "
          f"/{MAX_PILE} (the data's limit)"),
    Piece("used", (USED_SIZE,), "this turn: " + Codec(USED_FEATURES).describe()),
    Piece("context_values", (1,), "pending decision: count~3"),
    Piece("grid", (16, 16), "per cell: sun colour, back colour, showing colour (one-hot "
          "each), back side up"),
    Piece("spaces", (16, 6), "per space: Store, covered, owner (egocentric 4)"),
    Piece("seat_sides", (S, 4), "the side each seat owns (S, W, N, E)"),
    Piece("ship_up", (3,), "a face-up ship on each level"),
    Piece("events", (14, 2), "per event: this round's, revealed"),
    Piece("round", (10,), "round one-hot"),
    Piece("decision", (len(KINDS),), "the observer's pending decision kind"),
    Piece("context", (16 + 5,), "decision context: the swap's first cell, the colour given"),
    Piece("players", (4,), "player count one-hot (1-4)"),
])
OFF = LAYOUT.offsets
PADDING = [[0] * (SEAT_RAW * (S - n)) for n in range(S + 1)]
"""The seat rows of the seats a table of ``n`` lacks (all zeros)."""
DENSE_END = OFF["grid"]
GRID_SIZE = LAYOUT.shapes["grid"][0] * LAYOUT.shapes["grid"][1]
BOARD_END = OFF["spaces"] + LAYOUT.shapes["spaces"][0] * LAYOUT.shapes["spaces"][1]
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}


def observe(game: DadaochengGame, s: DadaochengState, viewer: int) -> np.ndarray:
    """The observation vector of ``viewer``."""
    vec = np.zeros(LAYOUT.size, dtype=np.float32)
    order, rel = seat_view(viewer, s.num_players)
    prestige = game.prestige(s)
    dense: list[float] = []
    ones: list[int] = []
    for i, p in enumerate(order):
        dense += _seat_row(game, s, p, prestige[p])
        ones.append(OFF["seat_sides"] + 4 * i + s.sides_of[p])
    dense += PADDING[len(order)]
    dense.extend(chain.from_iterable(s.storehouse))
    memos = game.observer_memos
    ship_rows = memos.ship_rows
    for level, ship in enumerate(s.ship_up):
        dense += ship_rows[ship]
        if ship >= 0:
            ones.append(OFF["ship_up"] + level)
    dense += ships_left_per_level(game, s) + s.piles + s.used
    ones += _round_ones(memos.rounds, s)
    dense.append(_decision(s, viewer, ones))
    vec[:DENSE_END] = DENSE.encode_flat(dense)
    _board(memos, s, order, rel, vec, ones)
    vec[ones] = 1.0
    return vec


def _board(memos: Memos, s: DadaochengState, order: tuple[int, ...],
           rel: dict[int, int], vec: np.ndarray, ones: list[int]) -> None:
    """Write the ``grid`` piece into ``vec`` and add the ``spaces`` piece's ones to
    ``ones``. Each cell's row depends only on its disc and the side up (one gather from a
    per-game table); the grid is memoised by the discs and sides, the spaces by the
    Stores, covered sides, owners and viewer."""
    memo = memos.grid
    key = (*s.cell_disc, *s.flipped)
    grid = memo.get(key)
    if grid is None:
        grid = remember(memo, key, _grid(memos.cell_rows, s))
    vec[DENSE_END:DENSE_END + GRID_SIZE] = grid
    memo = memos.spaces
    key = (*s.remodelled, *s.covered, *s.sides_of, -1, *order)
    found = memo.get(key)
    if found is None:
        found = remember(memo, key, _space_ones(s, rel))
    ones += found


def _grid(rows: np.ndarray, s: DadaochengState) -> np.ndarray:
    """The ``grid`` piece from the per-game cell ``rows`` (all zeros while the layout is
    being placed)."""
    if min(s.cell_disc) < 0:
        return np.zeros(GRID_SIZE, dtype=np.float32)
    return rows[[2 * d + (f != 0) for d, f in zip(s.cell_disc, s.flipped, strict=True)]
                ].reshape(-1)


class Memos:
    """A game's tables for its observations and its memos of encoded pieces (each keyed
    by the raw content of its piece, so an entry is never stale)."""

    def __init__(self, game: DadaochengGame) -> None:
        self.ship_rows = _ship_rows(game)
        self.cell_rows = _cell_rows(game)
        self.grid: dict[tuple[int, ...], np.ndarray] = {}
        self.spaces: dict[tuple[int, ...], list[int]] = {}
        self.rounds: dict[tuple[int, ...], list[int]] = {}


def _ship_rows(game: DadaochengGame) -> dict[int, tuple[int, ...]]:
    """Each ship's raw ``ships`` row (cost, required credit, credit, prestige); -1: none."""
    rows = {ship.id: (*ship.cost, ship.required, ship.credit, ship.prestige)
            for ship in game.ships}
    rows[-1] = (0,) * len(SHIP_FEATURES)
    return rows


def _cell_rows(game: DadaochengGame) -> np.ndarray:
    """Per disc and side up (row ``2 * disc + back up``): the cell's ``grid`` row, sun
    colour, back colour, showing colour (one-hot each) and the back-up flag."""
    rows = np.zeros((2 * len(game.disc_faces), 16), dtype=np.float32)
    for d, (sun, back) in enumerate(game.disc_faces):
        for up in (0, 1):
            row = rows[2 * d + up]
            row[sun] = row[5 + back] = row[10 + (back if up else sun)] = 1.0
            row[15] = up
    return rows


def _seat_row(game: DadaochengGame, s: DadaochengState, p: int, prestige: int) -> list[float]:
    levels = [0, 0, 0]
    level_of = game.ship_level
    for ship in s.ships[p]:
        levels[level_of[ship] - 1] += 1
    return [1, int(p == s.turn), int(p == s.start_player), *s.hand[p], s.credit[p], s.opium[p],
            s.sign[p], *levels, *s.buildings[p], prestige]


def _space_ones(s: DadaochengState, rel: dict[int, int]) -> list[int]:
    """Flat indices of the ones of the storehouse spaces piece."""
    ones: list[int] = []
    owner = {side: p for p, side in enumerate(s.sides_of)}
    base = OFF["spaces"]
    for space in range(16):
        side = space // 4
        at = base + 6 * space
        if s.remodelled[space]:
            ones.append(at)
        if s.covered[side]:
            ones.append(at + 1)
        elif side in owner:
            ones.append(at + 2 + rel[owner[side]])
    return ones


def _round_ones(memo: dict[tuple[int, ...], list[int]], s: DadaochengState) -> list[int]:
    """Ones of the events, round and player-count pieces (memoised by what they read)."""
    key = (*s.events, -1, s.round, s.num_players)
    found = memo.get(key)
    if found is None:
        found = remember(memo, key, _round_list(s))
    return found


def _round_list(s: DadaochengState) -> list[int]:
    ones: list[int] = []
    for k, e in enumerate(s.events):
        ones.append(OFF["events"] + 2 * e + 1)
        if k + 1 == s.round:
            ones.append(OFF["events"] + 2 * e)
    ones += (OFF["round"] + min(s.round, 10) - 1, OFF["players"] + s.num_players - 1)
    return ones


def _decision(s: DadaochengState, viewer: int, ones: list[int]) -> int:
    """The observer's pending decision (kind and context); returns its count."""
    d = s.stack[-1] if s.stack and not s.over else None
    if d is None or d.player != viewer:
        return 0
    if d.kind in KIND_INDEX:
        ones.append(OFF["decision"] + KIND_INDEX[d.kind])
    if d.kind == "swap_to":
        ones.append(OFF["context"] + d.ctx[0])
    if d.kind == "take" and d.ctx and d.ctx[0] >= 0:
        ones.append(OFF["context"] + 16 + d.ctx[0])
    return d.count
