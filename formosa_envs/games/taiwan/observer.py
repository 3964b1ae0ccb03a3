"""Taiwan Formosa observation: every public item, egocentric and padded to 5 seats.

Nothing in Taiwan Formosa is private: hands, tracks and boards are open. Only
the order of the face-down landmark cards is unknown, and every reveal is a
chance event, so no seat's observation depends on hidden information.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from formosa_envs.core.observer import ObservationLayout, Piece, scaled, seat_order
from formosa_envs.core.payment import pay_units

from .state import CARD_CODES, NUM_DECKS, TaiwanState

if TYPE_CHECKING:
    from .game import TaiwanGame

S = 5
SEAT_FEATURES = ("present", "is_turn", "is_start", "coins/100", "vp/100", "wood", "brick",
                 "steel", "stone", "workers", "merchants", "tribal", "wh_wood", "wh_brick",
                 "wh_steel", "wh_stone", "markers/7", "sawmill_used", "brickworks_used",
                 "steelworks_used", "stone_factory_used", "temple_used")
KINDS = ("declare", "act", "pay", "region", "warehouse", "judicial", "cleanup")
UNIT_COUNT = 9
LAYOUT = ObservationLayout([
    Piece("seats", (S, len(SEAT_FEATURES)), "per-seat public state, egocentric"),
    Piece("tracks", (S, CARD_CODES, 6), "uncompleted cards per seat, card x space (count/4)"),
    Piece("built", (S, CARD_CODES), "completed cards per seat (count/4)"),
    Piece("bought", (S, 18), "building types bought per seat (count/4)"),
    Piece("exclusive", (4, S), "holder of each red building's ability (egocentric)"),
    Piece("regions", (4, S + 1, 2), "per region and owner (+ neutral): markers/7, "
          "first placement (i+1)/10"),
    Piece("piles", (18,), "copies left per building type / 4"),
    Piece("in_game", (18,), "building types drawn for this game"),
    Piece("face_up", (NUM_DECKS, 16), "face-up landmark of each deck"),
    Piece("deck_sizes", (NUM_DECKS,), "face-down cards per deck / 4"),
    Piece("phase", (7,), "round phase one-hot"),
    Piece("decision", (len(KINDS),), "the observer's pending decision kind"),
    Piece("units", (UNIT_COUNT,), "units left to pay in the observer's payment (count/10)"),
    Piece("globals", (3,), "round/20, final round, empty piles/5"),
    Piece("players", (4,), "player count one-hot (2-5)"),
])


def observe(game: TaiwanGame, s: TaiwanState, viewer: int) -> np.ndarray:
    """The observation vector of ``viewer``."""
    vec, views = game.obs_buffer  # a reusable buffer with a view per piece
    vec.fill(0.0)
    order = seat_order(viewer, s.num_players)
    rel = {p: i for i, p in enumerate(order)}
    views["seats"][:len(order)] = _seat_rows(s, order)
    _write_cards(s, views, order)
    exclusive = views["exclusive"]
    for k, owner in enumerate(s.exclusive):
        if owner >= 0:
            exclusive[k, rel[owner]] = 1.0
    _write_regions(s, views["regions"], rel)
    _write_table(game, s, views, viewer)
    return vec.copy()


SEAT_SCALE = np.array([1, 1, 1, 100, 100, 10, 10, 10, 10, 10, 10, 6, 6, 6, 6, 6, 7,
                       1, 1, 1, 1, 1], dtype=np.float32)


def _seat_rows(s: TaiwanState, order: list[int]) -> np.ndarray:
    """Per-seat features, scaled to [0, 1] in one vectorised step."""
    rows = [[1, p == s.turn, p == s.start_player, s.coins[p], max(s.vp[p], 0), *s.res[p],
             s.workers[p], s.merchants[p], s.tribal[p], *s.warehouse[p], s.markers[p],
             *s.factory_used[p], s.temple_used[p]] for p in order]
    return np.minimum(np.asarray(rows, dtype=np.float32) / SEAT_SCALE, 1.0)


def _write_cards(s: TaiwanState, views: dict[str, np.ndarray], order: list[int]) -> None:
    """Cards on each seat's time track, completed cards and types bought (count / 4).

    Counts are gathered in Python first: one numpy write per distinct card,
    not one per copy."""
    tracks, built, bought = views["tracks"], views["built"], views["bought"]
    for i, p in enumerate(order):
        on_track: dict[tuple[int, int], int] = {}
        for code, space in s.track[p]:
            key = (code, min(space, 6) - 1)
            on_track[key] = on_track.get(key, 0) + 1
        for (code, space), count in on_track.items():
            tracks[i, code, space] = count * 0.25
        for code in set(s.built[p]):
            built[i, code] = s.built[p].count(code) * 0.25
    bought[:len(order)] = [s.bought[p] for p in order]
    bought *= 0.25


def _write_regions(s: TaiwanState, view: np.ndarray, rel: dict[int, int]) -> None:
    """Markers per region and owner (/7) and each owner's first placement ((i+1)/10)."""
    for r, markers in enumerate(s.regions):
        first: dict[int, int] = {}
        for i, owner in enumerate(markers):
            col = rel.get(owner, S)  # the neutral colour sits in the last column
            first.setdefault(col, i)
        for col, i in first.items():
            view[r, col] = (markers.count(markers[i]) / 7, (i + 1) / 10)


def _write_table(game: TaiwanGame, s: TaiwanState, views: dict[str, np.ndarray],
                 viewer: int) -> None:
    views["piles"][:] = s.piles
    views["piles"] *= 0.25
    views["in_game"][:] = s.in_game
    face_up, sizes = views["face_up"], views["deck_sizes"]
    for d, card in enumerate(s.face_up):
        if card >= 0:
            face_up[d, card] = 1.0
        sizes[d] = len(s.decks[d]) / 4
    views["phase"][s.phase] = 1.0
    if not s.over and s.stack and s.stack[-1].player == viewer:
        d = s.stack[-1]
        views["decision"][KINDS.index(d.kind)] = 1.0
        if d.kind == "pay":
            for unit in pay_units(d):
                views["units"][unit] += 0.1
    empty = sum(1 for t in range(18) if s.in_game[t] and s.piles[t] == 0)
    empty += sum(1 for d in range(NUM_DECKS) if s.face_up[d] < 0 and not s.decks[d])
    views["globals"][:] = (scaled(s.round, 20), float(s.final_round), scaled(empty, 5))
    views["players"][s.num_players - 2] = 1.0
