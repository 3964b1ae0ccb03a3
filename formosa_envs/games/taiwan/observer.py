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
    seat_order,
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


class Limits:
    """A game's observation limits, read once from its data files."""

    def __init__(self, game: TaiwanGame) -> None:
        copies = {b.key: b.copies for b in game.buildings}
        self.seats = Codec(seat_features(copies))
        self.copies = float(max(copies.values()))
        self.deck = float(max(1, *(len(d) for d in game.deck_cards)))


def limits(game: TaiwanGame) -> Limits:
    """The game's :class:`Limits` (built once per game)."""
    return per_game(game, "taiwan.limits", lambda: Limits(game))


def observe(game: TaiwanGame, s: TaiwanState, viewer: int) -> np.ndarray:
    """The observation vector of ``viewer``."""
    vec, views = game.obs_buffer  # a reusable buffer with a view per piece
    vec.fill(0.0)
    order = seat_order(viewer, s.num_players)
    rel = {p: i for i, p in enumerate(order)}
    views["seats"][:len(order)] = _seat_rows(game, s, order)
    _write_cards(s, views, order, limits(game).copies)
    exclusive = views["exclusive"]
    for k, owner in enumerate(s.exclusive):
        if owner >= 0:
            exclusive[k, rel[owner]] = 1.0
    _write_regions(s, views["regions"], rel)
    _write_table(game, s, views, viewer)
    return vec.copy()


def _seat_rows(game: TaiwanGame, s: TaiwanState, order: list[int]) -> np.ndarray:
    """Per-seat features, encoded in one vectorised step."""
    rows = [[1, p == s.turn, p == s.start_player, s.coins[p], s.vp[p], *s.res[p],
             s.workers[p], s.merchants[p], s.tribal[p], *s.warehouse[p], s.markers[p],
             *s.factory_used[p], s.temple_used[p]] for p in order]
    return limits(game).seats.encode(rows)


def _write_cards(s: TaiwanState, views: dict[str, np.ndarray], order: list[int],
                 copies: float) -> None:
    """Cards on each seat's time track, completed cards and types bought, each count
    divided by the most copies any type has (a landmark is one card).

    Counts are gathered in Python first: one numpy write per distinct card,
    not one per copy."""
    tracks, built, bought = views["tracks"], views["built"], views["bought"]
    unit = 1.0 / copies
    for i, p in enumerate(order):
        on_track: dict[tuple[int, int], int] = {}
        for code, space in s.track[p]:
            key = (code, min(space, 6) - 1)
            on_track[key] = on_track.get(key, 0) + 1
        for (code, space), count in on_track.items():
            tracks[i, code, space] = count * unit
        for code in set(s.built[p]):
            built[i, code] = s.built[p].count(code) * unit
    bought[:len(order)] = [s.bought[p] for p in order]
    bought *= unit


def _write_regions(s: TaiwanState, view: np.ndarray, rel: dict[int, int]) -> None:
    """Per region and owner: markers (/7) and the rank of the owner's first marker
    among the owners there, ``(rank + 1) / (S + 1)`` (earlier placement wins ties)."""
    for r, markers in enumerate(s.regions):
        first: dict[int, int] = {}
        for i, owner in enumerate(markers):
            col = rel.get(owner, S)  # the neutral colour sits in the last column
            first.setdefault(col, i)
        for rank, (col, i) in enumerate(sorted(first.items(), key=lambda item: item[1])):
            view[r, col] = (markers.count(markers[i]) / MARKERS, (rank + 1) / (S + 1))


def _write_table(game: TaiwanGame, s: TaiwanState, views: dict[str, np.ndarray],
                 viewer: int) -> None:
    lim = limits(game)
    views["piles"][:] = s.piles
    views["piles"] *= 1.0 / lim.copies
    views["in_game"][:] = s.in_game
    face_up = views["face_up"]
    for d, card in enumerate(s.face_up):
        if card >= 0:
            face_up[d, card] = 1.0
    views["deck_sizes"][:] = [len(deck) / lim.deck for deck in s.decks]
    views["phase"][s.phase] = 1.0
    if not s.over and s.stack and s.stack[-1].player == viewer:
        d = s.stack[-1]
        views["decision"][KINDS.index(d.kind)] = 1.0
        if d.kind == "pay":
            units = [0] * UNIT_COUNT
            for unit in pay_units(d):
                units[unit] += 1
            views["units"][:] = UNITS.encode(units)
    empty = sum(1 for t in range(18) if s.in_game[t] and s.piles[t] == 0)
    empty += sum(1 for d in range(NUM_DECKS) if s.face_up[d] < 0 and not s.decks[d])
    views["globals"][:] = GLOBALS.encode((s.round, s.final_round, empty))
    views["players"][s.num_players - 2] = 1.0
