"""Formosa Tea observation: the whole table, egocentric and padded to 4 seats.

Everything on the table is open (R-35): baskets, factories, warehouses, discs, buds,
kept merchant cards, characters. Only the order of the bag and of the merchant deck
is unknown, and every draw is a chance event, so no seat's view depends on hidden
information. Per-seat rows put the observer first, then the following seats.

Every feature lies in [0, 1] (encodings: ``formosa_envs.core.observer``). VP is a
score: a fine part (/100) plus a saturating part, so a 2-player game's 160 VP and
150 VP stay apart; component counts are divided by their limits (2 Farmers, 3
Masters, the Basket's 8 with Li Chun Sheng, the bag, the disc supplies, the
Domestic and technology tracks of the board data); counters the rules leave open
(cubes in factories and warehouses, kept cards, deck sizes, card values) saturate.

Speed: each block is gathered as one flat Python list and written with one slice
assignment (a merchant card's features come from a precomputed table), so building
an observation costs a few dozen numpy calls, not hundreds.
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
    per_game,
    remember,
    seat_view,
)

from .state import (
    ACTION_DISC_SUPPLY,
    CUBES,
    DISPLAY_ROWS,
    DISPLAY_SLOTS,
    SPACES,
    TECH_DISC_SUPPLY,
    TeaState,
)

if TYPE_CHECKING:
    from .game import TeaGame

S = 4
KINDS = ("turn", "worker", "take", "extra_space", "extra_colour", "advance_mode", "lower",
         "scent_bud", "arai_extra", "tech_any", "tech_reward", "scent_cube", "disc_factory",
         "bonus_advance", "choose_merchant", "pay", "dodd_advance", "bonus_space",
         "event_discard", "event_1868", "draft", "setup_space", "setup_colour")
TEA_NAMES = ("oolong", "black", "green")


def seat_features(domestic_top: int = 15, tech_top: int = 8) -> list[Feature]:
    """Per-seat quantities and encodings (track lengths from the board data)."""
    return [
        *flags("present", "start", "turn", "passed"), Feature("vp", "score", 100),
        Feature("farmers", "linear", 2), Feature("masters", "linear", 3), Feature("parked"),
        Feature("placed_farmers", "linear", 2), Feature("placed_masters", "linear", 3),
        Feature("domestic", "linear", domestic_top), Feature("kept", "count", 10),
        *(Feature(f"basket{c}{w}", "linear", 8) for c in range(3) for w in range(3)),
        *(Feature(f"factory{t}{k}", "count", 6) for t in range(3) for k in range(4)),
        *flags(*(f"scent_{t}" for t in TEA_NAMES)), Feature("scent_cubes", "linear", 6),
        *(Feature(f"scent_buds{c}", "linear", 6) for c in range(3)),
        *(Feature(f"warehouse{t}{q}", "count", 6) for t in range(3) for q in range(3)),
        *(Feature(f"buds{c}", "linear", 6) for c in range(3)),
        *(Feature(f"tech_{t}", "linear", tech_top) for t in TEA_NAMES),
        Feature("market_discs", "linear", ACTION_DISC_SUPPLY[0]),
        Feature("processing_discs", "linear", ACTION_DISC_SUPPLY[1]),
        *(Feature(f"tech_discs{k}", "linear", TECH_DISC_SUPPLY) for k in range(4)),
        *(Feature(f"kept_icon{i}", "count", 8) for i in range(3)),
        *(Feature(f"kept_demand_{t}", "count", 8) for t in TEA_NAMES)]


def table_features() -> list[Feature]:
    """The plantation cubes, bag, table and decision counters after the seat rows."""
    return [*(Feature(f"cubes{sp}_{c}", "count", 3) for sp in range(SPACES) for c in range(3)),
            *(Feature(f"bag{c}", "linear", CUBES[c]) for c in range(3)),
            *(Feature(f"deck_stage{k}", "count", 12) for k in range(3)),
            Feature("returned", "count", 8), *flags(*(f"market{i}" for i in range(3 * S))),
            Feature("supply_market_discs", "linear", ACTION_DISC_SUPPLY[0]),
            Feature("supply_processing_discs", "linear", ACTION_DISC_SUPPLY[1]),
            *(Feature(f"supply_tech{k}", "linear", TECH_DISC_SUPPLY) for k in range(4)),
            Feature("count", "count", 2), Feature("optional"), Feature("steps", "count", 4)]


SEAT_COLUMNS = Codec(seat_features())
SEAT_RAW = len(SEAT_COLUMNS.features)
CARD_COLUMNS = Codec([Feature("present"), *flags(*(f"stage{k}" for k in range(3))),
                      *(Feature(f"demand_{t}", "count", 4) for t in TEA_NAMES),
                      *flags(*(f"icon{i}" for i in range(3))),
                      Feature("vp_good", "count", 20), Feature("vp_normal", "count", 20)])
CARD_WIDTH = CARD_COLUMNS.width
ONE_HOT_FEATURES = (
    ("masters", 36, "Tea Master position per track, one-hot over 9 spaces"),
    ("discs_on", 12, "technology discs on factories, tea x kind"),
    ("character", 7, "character one-hot"),
)
ONE_HOTS = sum(width for _, width, _ in ONE_HOT_FEATURES)
LAYOUT = ObservationLayout([
    # dense block: one Codec over the raw counters
    Piece("seat_counters", (S, SEAT_COLUMNS.width), "per seat, egocentric: "
          + SEAT_COLUMNS.describe()),
    Piece("plantation_cubes", (SPACES, 3), "cubes per space and colour (count~3)"),
    Piece("bag", (3,), "cubes in the bag per colour (/35, /28, /21)"),
    Piece("table", (4 + 3 * S + 6,), "deck per stage (count~12) and returned (count~8); "
          "Global Market occupancy per space x seat; supply: action discs /8, /4, "
          "technology discs /4"),
    Piece("context_values", (3,), "pending decision: count~2, optional, steps~4"),
    # merchant cards: one gather from a precomputed table
    Piece("display", (DISPLAY_ROWS * DISPLAY_SLOTS, CARD_WIDTH), "per slot: "
          + CARD_COLUMNS.describe()),
    # one-hot block: every 1 written with one scatter
    Piece("seat_one_hots", (S, ONE_HOTS), "per seat, egocentric: " + "; ".join(
        f"{name} ({width}): {doc}" for name, width, doc in ONE_HOT_FEATURES)),
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
DENSE_RAW = S * SEAT_RAW + len(table_features())


def dense_codec(game: TeaGame) -> Codec:
    """The game's dense-block codec (track lengths read once from its board data)."""
    def build() -> Codec:
        features = seat_features(len(game.board.domestic.vp) - 1, max(game.tech_top))
        return Codec(features * S + table_features())
    return per_game(game, "tea.dense", build)


KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
CONTEXT_TRACK = {"lower": 0, "tech_reward": 0, "disc_factory": 0, "advance_mode": 0}
CONTEXT_SPACE = ("take", "extra_colour", "setup_colour", "extra_space")


def card_table(game: TeaGame) -> np.ndarray:
    """Observation features of every merchant card, plus a zero row for an empty slot."""
    raw = np.zeros((len(game.merchants) + 1, len(CARD_COLUMNS.features)))
    for card in game.merchants:
        row = raw[card.id]
        row[0], row[card.stage] = 1, 1
        row[4:7] = card.demand
        row[7 + card.icon_index] = 1
        row[10:12] = (card.good, card.normal)
    return CARD_COLUMNS.encode(raw)


class Memos:
    """A game's dense codec and its memos of encoded pieces, keyed by their content."""

    def __init__(self, game: TeaGame) -> None:
        self.dense = dense_codec(game)
        self.display: dict[tuple[int, ...], np.ndarray] = {}
        self.plantation: dict[tuple[int, ...], list[int]] = {}
        self.weather: dict[tuple[int, ...], list[int]] = {}
        self.kept: dict[tuple[int, ...], list[int]] = {}
        self.rounds: dict[tuple[int, ...], list[int]] = {}


def observe(game: TeaGame, s: TeaState, viewer: int) -> np.ndarray:
    """The observation vector of ``viewer``."""
    memos = game.observer_memos
    ones: list[int] = []
    dense = _raw_pieces(game, memos, s, viewer, ones)
    vec = np.zeros(LAYOUT.size, dtype=np.float32)
    vec[:DENSE_END] = memos.dense.encode_flat(dense)
    vec[DENSE_END:OFF["seat_one_hots"]] = _display(game, memos, s)
    vec[np.array(ones, dtype=np.intp)] = 1.0
    return vec


def observe_many(game: TeaGame, states: list[TeaState], viewer: int) -> np.ndarray:
    """The observation vectors of ``viewer`` in each of ``states`` (one row each): the
    Python pieces per state, then one encoding, one gather and one scatter for them all."""
    memos = game.observer_memos
    vec = np.zeros((len(states), LAYOUT.size), dtype=np.float32)
    dense: list[float] = []
    ones: list[int] = []
    for row, s in enumerate(states):
        start = len(ones)
        dense += _raw_pieces(game, memos, s, viewer, ones)
        if row:
            shift = row * LAYOUT.size
            ones[start:] = [i + shift for i in ones[start:]]
        vec[row, DENSE_END:OFF["seat_one_hots"]] = _display(game, memos, s)
    vec[:, :DENSE_END] = memos.dense.encode_flat(dense).reshape(len(states), DENSE_END)
    vec.reshape(-1)[np.array(ones, dtype=np.intp)] = 1.0
    return vec


def _raw_pieces(game: TeaGame, memos: Memos, s: TeaState, viewer: int,
                ones: list[int]) -> list[float]:
    """The dense block's raw values of ``viewer``'s view of ``s``; the flat indices of its
    ones are appended to ``ones``."""
    order, rel = seat_view(viewer, s.num_players)
    dense: list[float] = []
    base = OFF["seat_one_hots"]
    for i, p in enumerate(order):
        dense += _dense_row(game, memos, s, p)
        ones += _one_hot_columns(s, p, base + i * ONE_HOTS)
    dense += [0] * (SEAT_RAW * (S - len(order)))
    dense.extend(chain.from_iterable(s.cubes))
    dense += s.bag
    dense += _table_row(s, rel)
    _plantation_ones(game, memos, s, rel, ones)
    ones += _round_ones(memos, s)
    _decision(s, viewer, dense, ones)
    return dense


def _display(game: TeaGame, memos: Memos, s: TeaState) -> np.ndarray:
    """The merchant cards' features, slot by slot (memoised by the display's content)."""
    key = (*s.display[0], *s.display[1], *s.display[2], *s.display[3])
    found = memos.display.get(key)
    if found is None:
        found = remember(memos.display, key, game.card_features[list(key)].reshape(-1))
    return found


def _kept(game: TeaGame, cards: list[int]) -> list[int]:
    """Icons per tea and cards demanding each tea among the kept ``cards``."""
    kept = [0] * 6
    for c in cards:
        card = game.merchants[c]
        kept[card.icon_index] += 1
        for t in range(3):
            kept[3 + t] += card.demand[t] > 0
    return kept


def _dense_row(game: TeaGame, memos: Memos, s: TeaState, p: int) -> list[int]:
    """The raw per-seat quantities of ``p`` (``seat_features`` order)."""
    tea, cubes, *buds = s.scent[p]
    key = tuple(s.kept[p])
    kept = memos.kept.get(key)
    if kept is None:
        kept = remember(memos.kept, key, _kept(game, s.kept[p]))
    return [1, p == s.start_player, p == s.turn, s.passed[p], s.vp[p],  # bools are 0/1
            s.farmers[p], s.masters[p], s.parked[p], *s.placed[p], s.domestic[p],
            len(key), *s.basket[p], *s.factory[p], *SCENT_FLAGS[tea], cubes, *buds,
            *s.warehouse[p], *s.buds[p], *s.tech[p], *s.action_discs[p], *s.tech_discs[p],
            *kept]


SCENT_FLAGS = {-1: (0, 0, 0), 0: (1, 0, 0), 1: (0, 1, 0), 2: (0, 0, 1)}
"""The scent flags of each scented tea (-1: none)."""


def _one_hot_columns(s: TeaState, p: int, base: int) -> list[int]:
    """Flat indices of the ones in ``p``'s Master, disc-on-factory and character blocks."""
    ones = [base + 9 * t + min(pos, 8) for t, pos in enumerate(s.master_pos[p]) if pos >= 0]
    ones += [base + 36 + code for code in s.discs_on[p]]
    if s.character[p] >= 0:
        ones.append(base + 48 + s.character[p])
    return ones


def _table_row(s: TeaState, rel: dict[int, int]) -> list[int]:
    market = [0] * (3 * S)
    for g, owners in enumerate(s.market):
        for p in owners:
            market[S * g + rel[p]] = 1
    return [*map(len, s.deck_pools), len(s.deck_tail), *market, *s.action_supply,
            *s.tech_supply]


def _plantation_ones(game: TeaGame, memos: Memos, s: TeaState, rel: dict[int, int],
                     ones: list[int]) -> None:
    """Plantation ones (memoised by buds, workers and the viewer) and weather ones
    (memoised by the weather tiles, which change once a round)."""
    memo = memos.plantation
    key = (*s.bud, *s.occupant, *rel)
    found = memo.get(key)
    if found is None:
        found = remember(memo, key, _plantation_list(game, s, rel))
    ones += found
    key = (*s.weather, *s.face)
    found = memos.weather.get(key)
    if found is None:
        found = remember(memos.weather, key, _weather_list(game, s))
    ones += found


def _plantation_list(game: TeaGame, s: TeaState, rel: dict[int, int]) -> list[int]:
    """Flat indices of the ones of the plantation piece."""
    ones: list[int] = []
    base = OFF["plantation_flags"]
    ones += game.play_flag_ones                      # "in play": fixed for the player count
    bud, occupant = s.bud, s.occupant
    for sp in game.play_spaces:
        if bud[sp] >= 0:
            ones.append(base + 9 * sp + 1 + bud[sp])
        if occupant[sp] >= 0:
            ones += (base + 9 * sp + 4 + rel[occupant[sp]], base + 9 * sp + 8)
    return ones


def _weather_list(game: TeaGame, s: TeaState) -> list[int]:
    """Flat indices of the ones of the weather piece."""
    ones: list[int] = []
    base, faces, weather, face = OFF["weather"], game.weather_faces, s.weather, s.face
    for col in range(4):
        tile, nxt = weather[col], weather[(col + 1) % 4]
        ones += (base + 6 * col + faces[tile][face[tile]],
                 base + 6 * col + 3 + faces[nxt][face[nxt] ^ (col == 3)])
    return ones


def _round_ones(memos: Memos, s: TeaState) -> list[int]:
    """Ones of the events, draft, round, phase and player-count pieces (memoised by what
    they read)."""
    key = (*s.events, -1, *s.draft_pool, -1, s.round, s.phase, s.num_players)
    found = memos.rounds.get(key)
    if found is None:
        found = remember(memos.rounds, key, _round_list(s))
    return found


def _round_list(s: TeaState) -> list[int]:
    """Flat indices of the ones of :func:`_round_ones`."""
    ones: list[int] = []
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
    return ones


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
