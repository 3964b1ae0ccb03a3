"""Formosa Tea observation: the whole table, egocentric and padded to 4 seats.

Everything on the table is open (R-35): baskets, factories, warehouses, discs, buds,
kept merchant cards, characters. Only the order of the bag and of the merchant deck
is unknown, and every draw is a chance event, so no seat's view depends on hidden
information. Per-seat rows put the observer first, then the following seats.

Speed: each block is gathered as one flat Python list and written with one slice
assignment (a merchant card's features come from a precomputed table), so building
an observation costs a few dozen numpy calls, not hundreds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from formosa_envs.core.observer import ObservationLayout, Piece, seat_order

from .state import DISPLAY_ROWS, DISPLAY_SLOTS, SPACES, TeaState

if TYPE_CHECKING:
    from .game import TeaGame

S = 4
KINDS = ("turn", "worker", "take", "extra_space", "extra_colour", "advance_mode", "lower",
         "scent_bud", "arai_extra", "tech_any", "tech_reward", "scent_cube", "disc_factory",
         "bonus_advance", "choose_merchant", "pay", "dodd_advance", "bonus_space",
         "event_discard", "event_1868", "draft", "setup_space", "setup_colour")
SEAT_FEATURES = (  # dense counters first, then the sparse one-hot blocks
    ("counters", 12, "present, start, turn, passed, vp/100, farmers/2, masters/3, parked, "
                     "placed farmers/2, placed masters/3, domestic/15, kept/10"),
    ("basket", 9, "basket cubes per colour x WL (/6)"),
    ("factory", 12, "factory cubes per tea x (WL 0-2, Flavor) (/6)"),
    ("scent", 7, "scented factory: tea one-hot, cubes/6, buds per colour/4"),
    ("warehouse", 9, "warehouse cubes per tea x quality (/6)"),
    ("buds", 3, "buds held per colour (/4)"),
    ("tech", 3, "technology levels (/8)"),
    ("discs", 6, "action discs (2) and technology discs held (4) (/4)"),
    ("kept", 6, "kept cards per icon and demanding oolong/black/green (/8)"),
    ("masters", 36, "Tea Master position per track, one-hot over 9 spaces"),
    ("discs_on", 12, "technology discs on factories, tea x kind"),
    ("character", 7, "character one-hot"),
)
SEAT_WIDTH = sum(width for _, width, _ in SEAT_FEATURES)
DENSE = SEAT_WIDTH - 36 - 12 - 7
ONE_HOTS = SEAT_WIDTH - DENSE
MASTERS0, DISCS_ON0, CHARACTER0 = 0, 36, 48
CARD_WIDTH = 12
LAYOUT = ObservationLayout([
    # dense block: written with one slice assignment and one scaling
    Piece("seat_counters", (S, DENSE), "per seat, egocentric: " + "; ".join(
        f"{name} ({width}): {doc}" for name, width, doc in SEAT_FEATURES[:9])),
    Piece("plantation_cubes", (SPACES, 3), "cubes per space and colour (/3)"),
    Piece("bag", (3,), "cubes in the bag per colour (/35)"),
    Piece("table", (4 + 3 * S + 6,), "deck per stage/12 and returned/8; Global Market "
          "occupancy per space x seat; supply: action discs /8, /4, technology discs /4"),
    Piece("context_values", (3,), "pending decision: count/2, optional, steps/4"),
    # merchant cards: one gather from a precomputed table
    Piece("display", (DISPLAY_ROWS * DISPLAY_SLOTS, CARD_WIDTH), "per slot: present, stage "
          "one-hot, demand/4, icon one-hot, VP good/20, normal/20"),
    # one-hot block: every 1 written with one scatter
    Piece("seat_one_hots", (S, SEAT_WIDTH - DENSE), "per seat, egocentric: " + "; ".join(
        f"{name} ({width}): {doc}" for name, width, doc in SEAT_FEATURES[9:])),
    Piece("plantation_flags", (SPACES, 9), "per space: in play, bud one-hot, worker owner "
          "(egocentric 4), any worker"),
    Piece("weather", (4, 6), "per column: WL one-hot now, WL one-hot next round"),
    Piece("events", (11, 3), "per event: in the game, this round's, already resolved"),
    Piece("draft", (7,), "characters face up in the draft"),
    Piece("round", (6,), "round one-hot"),
    Piece("phase", (4,), "phase one-hot"),
    Piece("decision", (len(KINDS),), "the observer's pending decision kind"),
    Piece("context", (4 + 3 + 16,), "decision context: track, tea, space"),
    Piece("players", (3,), "player count one-hot (2-4)"),
])
OFF = LAYOUT.offsets
DENSE_END = OFF["display"]
SCALE = np.concatenate([
    np.tile(np.array([1, 1, 1, 1, 0.01, 0.5, 1 / 3, 1, 0.5, 1 / 3, 1 / 15, 0.1]
                     + [1 / 6] * 21 + [1, 1, 1, 1 / 6, 0.25, 0.25, 0.25]
                     + [1 / 6] * 9 + [0.25] * 3 + [0.125] * 3 + [0.25] * 6 + [0.125] * 6), S),
    [1 / 3] * (SPACES * 3), [1 / 35] * 3, [1] * (4 + 3 * S + 6), [0.5, 1, 0.25]],
).astype(np.float32)
ONE_HOTS = SEAT_WIDTH - DENSE
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
CONTEXT_TRACK = {"lower": 0, "tech_reward": 0, "disc_factory": 0, "advance_mode": 0}
CONTEXT_SPACE = ("take", "extra_colour", "setup_colour", "extra_space")


def card_table(game: TeaGame) -> np.ndarray:
    """Observation features of every merchant card, plus a zero row for an empty slot."""
    table = np.zeros((len(game.merchants) + 1, CARD_WIDTH), dtype=np.float32)
    for card in game.merchants:
        row = table[card.id]
        row[0], row[card.stage] = 1, 1
        row[4:7] = np.array(card.demand) / 4
        row[7 + card.icon_index] = 1
        row[10:12] = (card.good / 20, card.normal / 20)
    return table


def observe(game: TeaGame, s: TeaState, viewer: int) -> np.ndarray:
    """The observation vector of ``viewer``."""
    vec = np.zeros(LAYOUT.size, dtype=np.float32)
    order = seat_order(viewer, s.num_players)
    rel = {p: i for i, p in enumerate(order)}
    dense: list[float] = []
    ones: list[int] = []
    for i, p in enumerate(order):
        dense += _dense_row(game, s, p)
        ones += _one_hot_columns(s, p, OFF["seat_one_hots"] + i * ONE_HOTS)
    dense += [0] * (DENSE * (S - len(order)))
    for space in s.cubes:
        dense += space
    dense += s.bag
    dense += _table_row(s, rel)
    _plantation_ones(game, s, rel, ones)
    _round_ones(s, ones)
    _decision(s, viewer, dense, ones)
    vec[:DENSE_END] = dense
    vec[:DENSE_END] *= SCALE
    vec[DENSE_END:OFF["seat_one_hots"]] = game.card_features[
        [c for row in s.display for c in row]].reshape(-1)
    vec[ones] = 1.0
    np.minimum(vec, 1.0, out=vec)  # counters beyond their scale saturate
    return vec


def _dense_row(game: TeaGame, s: TeaState, p: int) -> list[int]:
    """The dense per-seat features of ``p``, unscaled (``SEAT_FEATURES[:9]``)."""
    tea, cubes, *buds = s.scent[p]
    kept = [0] * 6
    for c in s.kept[p]:
        card = game.merchants[c]
        kept[card.icon_index] += 1
        for t in range(3):
            kept[3 + t] += card.demand[t] > 0
    return [1, int(p == s.start_player), int(p == s.turn), int(s.passed[p]), max(s.vp[p], 0),
            s.farmers[p], s.masters[p], s.parked[p], *s.placed[p], s.domestic[p],
            len(s.kept[p]), *s.basket[p], *s.factory[p], int(tea == 0), int(tea == 1),
            int(tea == 2), cubes, *buds, *s.warehouse[p], *s.buds[p], *s.tech[p],
            *s.action_discs[p], *s.tech_discs[p], *kept]


def _one_hot_columns(s: TeaState, p: int, base: int) -> list[int]:
    """Flat indices of the ones in ``p``'s Master, disc-on-factory and character blocks."""
    ones = [base + 9 * t + min(pos, 8) for t, pos in enumerate(s.master_pos[p]) if pos >= 0]
    ones += [base + 36 + code for code in s.discs_on[p]]
    if s.character[p] >= 0:
        ones.append(base + 48 + s.character[p])
    return ones


def _table_row(s: TeaState, rel: dict[int, int]) -> list[float]:
    market = [0] * (3 * S)
    for g, owners in enumerate(s.market):
        for p in owners:
            market[S * g + rel[p]] = 1
    return [*(len(p) / 12 for p in s.deck_pools), len(s.deck_tail) / 8, *market,
            s.action_supply[0] / 8, s.action_supply[1] / 4, *(k / 4 for k in s.tech_supply)]


def _plantation_ones(game: TeaGame, s: TeaState, rel: dict[int, int], ones: list[int]) -> None:
    base = OFF["plantation_flags"]
    ones += game.play_flag_ones                      # "in play": fixed for the player count
    bud, occupant = s.bud, s.occupant
    for sp in game.play_spaces:
        if bud[sp] >= 0:
            ones.append(base + 9 * sp + 1 + bud[sp])
        if occupant[sp] >= 0:
            ones += (base + 9 * sp + 4 + rel[occupant[sp]], base + 9 * sp + 8)
    base, faces, weather, face = OFF["weather"], game.weather_faces, s.weather, s.face
    for col in range(4):
        tile, nxt = weather[col], weather[(col + 1) % 4]
        ones += (base + 6 * col + faces[tile][face[tile]],
                 base + 6 * col + 3 + faces[nxt][face[nxt] ^ (col == 3)])


def _round_ones(s: TeaState, ones: list[int]) -> None:
    base = OFF["events"]
    for k, e in enumerate(s.events):
        ones.append(base + 3 * e)
        if k + 1 == s.round:
            ones.append(base + 3 * e + 1)
        elif k + 1 < s.round:
            ones.append(base + 3 * e + 2)
    ones += [OFF["draft"] + c for c in s.draft_pool]
    ones += (OFF["round"] + min(s.round, 6) - 1, OFF["phase"] + s.phase,
             OFF["players"] + s.num_players - 2)


def _decision(s: TeaState, viewer: int, dense: list[float], ones: list[int]) -> None:
    """The observer's pending decision: its kind, context and counters."""
    d = s.stack[-1] if s.stack and not s.over else None
    if d is None or d.player != viewer:
        dense += (0, 0, 0)
        return
    if d.kind in KIND_INDEX:
        ones.append(OFF["decision"] + KIND_INDEX[d.kind])
    ctx = OFF["context"]
    if d.kind in CONTEXT_TRACK and d.ctx:
        ones.append(ctx + min(d.ctx[0], 3))
    if d.kind in CONTEXT_SPACE and d.ctx:
        ones.append(ctx + 7 + d.ctx[0])
    if d.kind == "scent_cube" and s.scent[viewer][0] >= 0:
        ones.append(ctx + 4 + s.scent[viewer][0])
    steps = d.ctx[1] if d.kind == "advance_mode" else 0
    dense += (d.count, int(d.optional), steps)
