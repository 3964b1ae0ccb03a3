"""The Taiwan Formosa state schema: every field's type, length and range (``core.schema``).

Counts the rules leave unlimited (coins, VP, resources, workers) are bounded by
``state.MAX_COINS`` / ``MAX_VP`` / ``MAX_COUNT``: ceilings the engine itself holds them
at, proved (in ``state.py``) out of reach of legal play under the length guard, so the
loader and the engine agree: every state the engine reaches, from a legal game or from
any save that loads, loads again; a corrupt save holding 10**9 of something is refused.

Decision frames (``FRAMES``): each kind's ``ctx`` length and bounds, its ``count``, and
what its ids must name in the state: a ``reveal`` a deck with cards left and no face-up
card, a ``declare``/``act`` the seat whose turn it is, a discard the resources held, and
a pending ``pay`` exactly the payment the rules would have pushed (a valid purpose, its
units the end of that purpose's cost, its sources those that can pay it now).
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.frame_checks import count_within, ctx_requires, payment_frame
from formosa_envs.core.schema import (
    CHANCE_ONLY,
    PLAYERS,
    SEAT,
    StateSchema,
    fail,
    flags,
    frame,
    ints,
    last_seat,
    one_of,
    schema,
    seat,
    upto,
)

from . import actions as A
from .flow import TYPES_IN_GAME
from .rules import (
    HOT_SPRING,
    P_CHARITY,
    P_COINS,
    P_ITEMS,
    P_LANDMARK,
    P_MERCHANT,
    P_OVERTIME,
    P_TEMPLE,
    PUBLIC_ART,
    UNITS,
)
from .state import (
    CARD_CODES,
    HAND_LIMIT,
    MARKERS,
    MAX_COINS,
    MAX_COUNT,
    MAX_VP,
    NUM_DECKS,
    RESOURCES,
    Phase,
)

TYPES = 18
REGION_COUNT = 4
RED_BUILDINGS = 4
MAX_SPACE = 6
"""A card's time-track space: at most 5 (the longest time) plus a Demolition delay."""
SETUP_STEPS = TYPES_IN_GAME + NUM_DECKS + 2


def _copies(game: Any) -> tuple[int, ...]:
    return tuple(b.copies for b in game.buildings)


def _most_copies(game: Any) -> int:
    return max(b.copies for b in game.buildings)


def _cards(game: Any) -> int:
    """Every card a player could ever hold on the track or built."""
    return sum(b.copies for b in game.buildings) + len(game.landmarks)


def _landmarks(game: Any) -> int:
    return len(game.landmarks)


def _last_landmark(game: Any) -> int:
    return len(game.landmarks) - 1


def _last_owner(game: Any) -> int:
    """Seats, plus the neutral colour ``num_players`` in the 2-player game."""
    return game.num_players if game.num_players == 2 else game.num_players - 1


def _region_size(game: Any) -> int:
    return MARKERS * game.num_players + (game.num_players == 2)


def _vp_not_negative_in_play(game: Any, s: Any) -> None:
    """VP go below 0 only in final scoring (uncompleted cards), never during play."""
    if not s.over:
        for p, vp in enumerate(s.vp):
            if vp < 0:
                fail(f"vp[{p}]", f"must be >= 0 before the game is over, got {vp}")


def _counts(hi: Any = MAX_COUNT) -> Any:
    return ints(0, hi, shape=(PLAYERS,))


# ----- decision frames ----------------------------------------------------------------------

MAX_DICE = 7
"""Dice one player rolls at most (2 plus 5 bought)."""
_EXCHANGES = ((P_ITEMS, "items"), (P_COINS, "coins"), (P_MERCHANT, "merchant"))


def _payment_costs(game: Any, s: Any, p: int, purpose: int) -> Any:
    """The cost of a payment's purpose (``rules.complete_purpose``), or why it is not valid."""
    if 0 <= purpose < TYPES:
        if not (s.in_game[purpose] and s.piles[purpose] > 0):
            return "must name a building type in the game with copies left"
        return [game.purchase_units(s, p, game.buildings[purpose])]
    if P_LANDMARK <= purpose < P_LANDMARK + NUM_DECKS:
        if s.face_up[purpose - P_LANDMARK] < 0:
            return "must name a landmark deck with a face-up card"
        return [game.purchase_units(s, p, game.landmarks[s.face_up[purpose - P_LANDMARK]])]
    for base, key in _EXCHANGES:
        if base <= purpose < base + len(A.OUTPUTS):
            return [UNITS[key]]
    if P_OVERTIME <= purpose < P_OVERTIME + A.TRACK_SLOTS:
        track = s.track[p]
        if purpose - P_OVERTIME >= len(track) or track[purpose - P_OVERTIME][1] < 2:
            return "must name an entry of the payer's time track 2 or more spaces from the end"
        return [UNITS["overtime"]]
    if P_CHARITY <= purpose < P_CHARITY + REGION_COUNT:
        return [game.charity_units(purpose - P_CHARITY)]
    if purpose == P_TEMPLE:
        return [UNITS["temple"]]
    return (f"must be a building type 0..{TYPES - 1}, {P_LANDMARK} + a deck, "
            f"{P_ITEMS}/{P_COINS}/{P_MERCHANT} + an output 0..{len(A.OUTPUTS) - 1}, "
            f"{P_OVERTIME} + a track entry, {P_CHARITY} + a region or {P_TEMPLE}")


def _on_turn(game: Any, s: Any, d: Any, path: str) -> None:
    """The dice and action decisions belong to the seat whose turn it is."""
    if d.player != s.turn:
        fail(f"{path}.player", f"must be the seat whose turn it is (field 'turn' is "
                               f"{s.turn}) for kind {d.kind!r}, got {d.player}")


def _cleanup_count(game: Any, s: Any, d: Any, path: str) -> None:
    """Discarding down to the hand limit: exactly the resources above it are owed."""
    owed = sum(s.res[d.player]) - HAND_LIMIT
    if d.count != owed:
        fail(f"{path}.count", f"must be {owed} (player {d.player} holds {owed + HAND_LIMIT} "
                              f"resources, the limit is {HAND_LIMIT}) for kind {d.kind!r}, "
                              f"got {d.count}")


def _reveal_ok(game: Any, s: Any, d: Any) -> bool:
    return bool(s.decks[d.ctx[0]]) and s.face_up[d.ctx[0]] < 0


def _held(game: Any, s: Any, d: Any) -> int:
    return sum(s.res[d.player])


FRAMES = {
    "draw_type": frame(CHANCE_ONLY),
    "reveal": frame(CHANCE_ONLY, ctx=1, lo=0, hi=NUM_DECKS - 1, check=ctx_requires(
        0, _reveal_ok, "must name a landmark deck with cards left and no face-up card")),
    "start": frame(CHANCE_ONLY),
    "roll": frame(CHANCE_ONLY, ctx=1, lo=0, hi=last_seat, count=(1, MAX_DICE)),
    "declare": frame(SEAT, check=_on_turn),
    "act": frame(SEAT, check=_on_turn),
    "pay": payment_frame(_payment_costs),
    "region": frame(SEAT, ctx=1, lo=min(PUBLIC_ART, HOT_SPRING), hi=max(PUBLIC_ART, HOT_SPRING)),
    "warehouse": frame(SEAT),
    "judicial": frame(SEAT, check=count_within(_held, "the resources the player holds")),
    "cleanup": frame(SEAT, count=(1, RESOURCES * MAX_COUNT - HAND_LIMIT),
                     check=_cleanup_count),
}


STATE_SCHEMA: StateSchema = schema(
    piles=ints(0, _copies, shape=(TYPES,)),
    in_game=flags(shape=(TYPES,)),
    decks=ints(0, _last_landmark, shape=(NUM_DECKS, upto(_landmarks)), unique=True),
    face_up=ints(-1, _last_landmark, shape=(NUM_DECKS,)),
    regions=ints(0, _last_owner, shape=(REGION_COUNT, upto(_region_size))),
    coins=_counts(MAX_COINS),
    vp=ints(-MAX_VP, MAX_VP, shape=(PLAYERS,)),
    res=ints(0, MAX_COUNT, shape=(PLAYERS, RESOURCES)),
    workers=_counts(),
    merchants=_counts(),
    tribal=_counts(),
    warehouse=ints(0, MAX_COUNT, shape=(PLAYERS, RESOURCES)),
    markers=_counts(MARKERS),
    track=ints((0, 0), (CARD_CODES - 1, MAX_SPACE), shape=(PLAYERS, upto(_cards), 2)),
    built=ints(0, CARD_CODES - 1, shape=(PLAYERS, upto(_cards))),
    bought=ints(0, _copies, shape=(PLAYERS, TYPES)),
    factory_used=ints(0, _most_copies, shape=(PLAYERS, RESOURCES)),
    temple_used=_counts(_most_copies),
    exclusive=seat(shape=(RED_BUILDINGS,), none=-1),
    round=ints(1),  # one more each round: never near the 64-bit bound
    start_player=seat(),
    turn=seat(),
    turns_done=ints(0, lambda game: game.num_players),
    phase=one_of(Phase),
    setup_step=ints(0, SETUP_STEPS),
    final_round=flags(),
    frames=FRAMES,
    checks=(_vp_not_negative_in_play,),
)
