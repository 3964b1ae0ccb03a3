"""Formosa Tea observation: the whole table, egocentric and padded to 4 seats.

Everything on the table is open (R-35): baskets, factories, warehouses, discs, buds,
kept merchant cards, characters. Only the order of the bag and of the merchant deck
is unknown, and every draw is a chance event, so no seat's view depends on hidden
information. Per-seat rows put the observer first, then the following seats.
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
SEAT = ("present", "is_start", "is_turn", "passed", "vp/100", "farmers/2", "masters/3",
        "parked", "placed_farmers/2", "placed_masters/3", "domestic/15", "kept/10")
LAYOUT = ObservationLayout([
    Piece("seats", (S, len(SEAT)), "per-seat counters, egocentric"),
    Piece("basket", (S, 9), "basket cubes per colour x WL (/6)"),
    Piece("factory", (S, 12), "factory cubes per tea x (WL 0-2, Flavor) (/6)"),
    Piece("scent", (S, 8), "scented factory: tea one-hot, cubes/6, buds per colour/4"),
    Piece("warehouse", (S, 9), "warehouse cubes per tea x quality (/6)"),
    Piece("buds", (S, 3), "buds held per colour (/4)"),
    Piece("masters", (S, 4, 9), "Tea Master position per track (one-hot over spaces)"),
    Piece("tech", (S, 3), "technology levels (/8)"),
    Piece("discs", (S, 6), "action discs (2) and technology discs held (4) (/4)"),
    Piece("discs_on", (S, 12), "technology discs on factories, tea x kind"),
    Piece("kept", (S, 6), "kept cards per icon (/8) and demanding oolong/black/green (/8)"),
    Piece("character", (S, 7), "character one-hot"),
    Piece("plantation", (SPACES, 12), "per space: in play, cubes per colour/3, bud one-hot, "
          "worker owner (egocentric 4) + any"),
    Piece("weather", (4, 3), "WL one-hot above each column"),
    Piece("next_weather", (4, 3), "WL one-hot each column will show next round"),
    Piece("bag", (3,), "cubes in the bag per colour (/35)"),
    Piece("display", (DISPLAY_ROWS * DISPLAY_SLOTS, 12), "per slot: present, stage one-hot, "
          "demand/4, icon one-hot, VP good/normal/poor /20"),
    Piece("deck", (4,), "cards left per stage (/12) and returned (/8)"),
    Piece("market", (3, S), "Global Market occupancy per space and seat"),
    Piece("supply", (6,), "action discs (/8, /4) and technology discs (/4) in the supply"),
    Piece("events", (11, 3), "per event: in the game, this round's, already resolved"),
    Piece("draft", (7,), "characters face up in the draft"),
    Piece("round", (6,), "round one-hot"),
    Piece("phase", (4,), "phase one-hot"),
    Piece("decision", (len(KINDS),), "the observer's pending decision kind"),
    Piece("context", (4 + 3 + 16 + 3,), "decision context: track, tea, space, count/2, "
          "optional, steps/4"),
    Piece("players", (3,), "player count one-hot (2-4)"),
])


def observe(game: TeaGame, s: TeaState, viewer: int) -> np.ndarray:
    """The observation vector of ``viewer``."""
    vec, views = game.obs_buffer
    vec.fill(0.0)
    order = seat_order(viewer, s.num_players)
    rel = {p: i for i, p in enumerate(order)}
    for i, p in enumerate(order):
        _write_seat(game, s, views, i, p)
    _write_plantation(game, s, views, rel)
    _write_merchants(game, s, views, rel)
    _write_rounds(game, s, views)
    _write_decision(s, views, viewer)
    np.minimum(vec, 1.0, out=vec)  # counters beyond their scale saturate
    return vec.copy()


def _write_seat(game: TeaGame, s: TeaState, v: dict[str, np.ndarray], i: int, p: int) -> None:
    v["seats"][i] = (1, p == s.start_player, p == s.turn, s.passed[p], s.vp[p] / 100,
                     s.farmers[p] / 2, s.masters[p] / 3, s.parked[p], s.placed[p][0] / 2,
                     s.placed[p][1] / 3, s.domestic[p] / 15, len(s.kept[p]) / 10)
    v["basket"][i] = s.basket[p]
    v["factory"][i] = s.factory[p]
    tea, cubes, *buds = s.scent[p]
    if tea >= 0:
        v["scent"][i, tea] = 1
    v["scent"][i, 3] = cubes / 6
    v["scent"][i, 4:7] = buds
    v["warehouse"][i] = s.warehouse[p]
    v["buds"][i] = s.buds[p]
    for t, pos in enumerate(s.master_pos[p]):
        if pos >= 0:
            v["masters"][i, t, min(pos, 8)] = 1
    v["tech"][i] = s.tech[p]
    v["discs"][i] = (*s.action_discs[p], *s.tech_discs[p])
    for code in s.discs_on[p]:
        v["discs_on"][i, code] += 1
    for c in s.kept[p]:
        card = game.merchants[c]
        v["kept"][i, card.icon_index] += 1
        for tea_i in range(3):
            v["kept"][i, 3 + tea_i] += card.demand[tea_i] > 0
    if s.character[p] >= 0:
        v["character"][i, s.character[p]] = 1
    for name in ("basket", "factory", "warehouse"):
        v[name][i] /= 6
    v["scent"][i, 4:7] /= 4
    v["buds"][i] /= 4
    v["tech"][i] /= 8
    v["discs"][i] /= 4
    v["kept"][i] /= 8


def _write_plantation(game: TeaGame, s: TeaState, v: dict[str, np.ndarray],
                      rel: dict[int, int]) -> None:
    plant = v["plantation"]
    for sp in range(SPACES):
        if sp % 4 not in s.columns:
            continue
        row = plant[sp]
        row[0] = 1
        row[1:4] = s.cubes[sp]
        row[1:4] /= 3
        if s.bud[sp] >= 0:
            row[4 + s.bud[sp]] = 1
        if s.occupant[sp] >= 0:
            row[7 + rel[s.occupant[sp]]] = 1
            row[11] = 1
    for col in range(4):
        v["weather"][col, game.water_level(s, col)] = 1
        nxt = s.weather[(col + 1) % 4] if col < 3 else s.weather[0]
        face = s.face[nxt] ^ (col == 3)
        v["next_weather"][col, game.board.weather[nxt].faces[face]] = 1
    v["bag"][:] = s.bag
    v["bag"] /= 35


def _write_merchants(game: TeaGame, s: TeaState, v: dict[str, np.ndarray],
                     rel: dict[int, int]) -> None:
    display = v["display"]
    for r in range(DISPLAY_ROWS):
        for c, card_id in enumerate(s.display[r]):
            if card_id < 0:
                continue
            card = game.merchants[card_id]
            row = display[DISPLAY_SLOTS * r + c]
            row[0] = 1
            row[card.stage] = 1
            row[4:7] = card.demand
            row[4:7] /= 4
            row[7 + card.icon_index] = 1
            row[10:12] = (card.good / 20, card.normal / 20)
    v["deck"][:] = (*(len(p) / 12 for p in s.deck_pools), len(s.deck_tail) / 8)
    for g, owners in enumerate(s.market):
        for p in owners:
            v["market"][g, rel[p]] = 1
    v["supply"][:] = (s.action_supply[0] / 8, s.action_supply[1] / 4,
                      *(k / 4 for k in s.tech_supply))


def _write_rounds(game: TeaGame, s: TeaState, v: dict[str, np.ndarray]) -> None:
    for k, e in enumerate(s.events):
        v["events"][e, 0] = 1
        v["events"][e, 1] = k + 1 == s.round
        v["events"][e, 2] = k + 1 < s.round
    for c in s.draft_pool:
        v["draft"][c] = 1
    v["round"][min(s.round, 6) - 1] = 1
    v["phase"][s.phase] = 1
    v["players"][s.num_players - 2] = 1


def _write_decision(s: TeaState, v: dict[str, np.ndarray], viewer: int) -> None:
    if s.over or not s.stack or s.stack[-1].player != viewer:
        return
    d = s.stack[-1]
    if d.kind in KINDS:
        v["decision"][KINDS.index(d.kind)] = 1
    ctx = v["context"]
    if d.kind in ("lower", "tech_reward", "disc_factory") and d.ctx:
        ctx[min(d.ctx[0], 3)] = 1
    if d.kind in ("take", "extra_colour", "setup_colour", "extra_space") and d.ctx:
        ctx[7 + d.ctx[0]] = 1
    if d.kind == "advance_mode":
        ctx[d.ctx[0]] = 1
        ctx[25] = min(d.ctx[1] / 4, 1.0)
    if d.kind in ("scent_cube",) and s.scent[viewer][0] >= 0:
        ctx[4 + s.scent[viewer][0]] = 1
    ctx[23] = min(d.count / 2, 1.0)
    ctx[24] = d.optional
