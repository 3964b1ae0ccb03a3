"""The Formosa Flowers state schema: every field's type, length and range (``core.schema``).

Card ids are ``0..53``; hands hold at most the hand size, every zone holds each card
at most once (that each card is in exactly one zone is the conservation check's).
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.schema import (
    CHANCE_ONLY,
    PLAYERS,
    SEAT,
    StateSchema,
    flags,
    frame,
    ints,
    one_of,
    schema,
    seat,
    upto,
)

from .actions import MULTIPLIER
from .rules import CAPTURE_PLAYED, CAPTURE_REVEALED, DEAL, KEEP_OR_CASH, PLAY, REVEAL
from .state import MAX_TOKENS_PER_PLAYER, NUM_CARDS, TOKEN_SUPPLY, Phase

LAST_CARD = NUM_CARDS - 1
PILE_VP_MAX = 4 * NUM_CARDS
"""No scoring set gives more than 4 VP a card (Treasure and Typhoon: 10 VP for 3)."""


def _hand_size(game: Any) -> int:
    return int(game.hand_size)


def _deal_total(game: Any) -> int:
    return int(game.deal_total)


def _max_score(game: Any) -> int:
    """Below the target before the last round, plus one cash-out (once a round)."""
    return int(game.config.target_vp) - 1 + PILE_VP_MAX * MULTIPLIER[-1]


def _card_zone() -> Any:
    return ints(0, LAST_CARD, shape=(upto(NUM_CARDS),), unique=True)


_CAPTURE = frame(SEAT, ctx=1, lo=0, hi=LAST_CARD)

STATE_SCHEMA: StateSchema = schema(
    deck=_card_zone(),
    hands=ints(0, LAST_CARD, shape=(PLAYERS, upto(_hand_size)), unique=True),
    field=_card_zone(),
    piles=ints(0, LAST_CARD, shape=(PLAYERS, upto(NUM_CARDS)), unique=True),
    pile_vp=ints(0, PILE_VP_MAX, shape=(PLAYERS,)),
    tokens=ints(0, MAX_TOKENS_PER_PLAYER, shape=(PLAYERS,)),
    supply=ints(0, TOKEN_SUPPLY),
    scores=ints(0, _max_score, shape=(PLAYERS,)),
    cashed=flags(shape=(PLAYERS,)),
    round=ints(1),  # one more a round: no guard bounds it (an env may raise the guard)
    round_start=seat(),
    turn=seat(),
    phase=one_of(Phase),
    dealt=ints(0, _deal_total),
    pending=ints(-1, LAST_CARD),
    turn_captures=_card_zone(),
    frames={DEAL: frame(CHANCE_ONLY), REVEAL: frame(CHANCE_ONLY), PLAY: frame(SEAT),
            CAPTURE_PLAYED: _CAPTURE, CAPTURE_REVEALED: _CAPTURE, KEEP_OR_CASH: frame(SEAT)},
)
