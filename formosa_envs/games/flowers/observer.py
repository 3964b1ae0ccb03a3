"""Formosa Flowers observation: what one seat may see, as named pieces.

Per-seat pieces are egocentric (the observer first, then clockwise) and padded
to 4 seats. The observer sees its own hand, the field, every scoring pile,
tokens, scores and hand sizes — never other hands or the deck's content.

Every feature lies in [0, 1] (encodings: ``formosa_envs.core.observer``). A pile's
set VP and a seat's score are scores: a fine part (set VP / 40, score / target VP)
plus a saturating part that keeps every larger value distinct, so who leads stays
visible in the last round; the round is a saturating counter; tokens, hand size,
deck and supply are divided by their limits in the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from formosa_envs.core.observer import Codec, Feature, ObservationLayout, Piece, flags, seat_order

from .cards import NUM_CARDS
from .config import MAX_PLAYERS
from .rules import CAPTURE_PLAYED, CAPTURE_REVEALED, KEEP_OR_CASH, PLAY
from .state import MAX_TOKENS_PER_PLAYER, TOKEN_SUPPLY, FlowersState

if TYPE_CHECKING:
    from .game import FlowersGame

DECISION_KINDS = (PLAY, CAPTURE_PLAYED, CAPTURE_REVEALED, KEEP_OR_CASH)
S = MAX_PLAYERS


def seat_features(target_vp: int = 60) -> list[Feature]:
    """Per-seat quantities and encodings (the score's knee is the target VP)."""
    return [*flags("present", "is_turn", "is_start", "cashed"),
            Feature("tokens", "linear", MAX_TOKENS_PER_PLAYER),
            Feature("set_vp", "score", 40), Feature("score", "score", target_vp),
            Feature("hand_size", "linear", 8)]


SEAT_FEATURES = tuple(f.name for f in seat_features())
SEAT_COLUMNS = Codec(seat_features())
GLOBALS = Codec([Feature("deck", "linear", NUM_CARDS), Feature("supply", "linear", TOKEN_SUPPLY),
                 Feature("round", "count", 10), Feature("threshold", "linear", 7)])

LAYOUT = ObservationLayout([
    Piece("own_hand", (NUM_CARDS,), "cards in the observer's hand"),
    Piece("field", (NUM_CARDS,), "face-up field cards"),
    Piece("piles", (S, NUM_CARDS), "scoring pile of each seat, egocentric"),
    Piece("pending_card", (NUM_CARDS,), "the face-up card being matched (capture decisions)"),
    Piece("decision", (len(DECISION_KINDS),), "pending decision kind (observer's own)"),
    Piece("seats", (S, SEAT_COLUMNS.width), "per-seat features, egocentric: "
          + SEAT_COLUMNS.describe().replace("score/60", "score/target")
          .replace("score~60", "score~target")),
    Piece("globals", (GLOBALS.width,), GLOBALS.describe()),
    Piece("current_month", (13,), "Current Month variant: 0 = off, else the month"),
    Piece("players", (3,), "one-hot player count 2/3/4"),
])
HIDDEN_LAYOUT = ObservationLayout([
    Piece("hands", (S, NUM_CARDS), "every hand, absolute seat order"),
    Piece("deck", (NUM_CARDS,), "cards still in the deck"),
])


class FlowersObserver:
    """Builds observations into one reusable buffer (one observer per game)."""

    def __init__(self, game: FlowersGame) -> None:
        self.game = game
        self.vec, self.views = LAYOUT.buffer()
        self.threshold = game.config.vp_threshold
        self.month = game.config.current_month or 0
        self.seats = Codec(seat_features(game.config.target_vp))
        # the last two pieces never change during a game: write them once, clear the rest
        self.views["current_month"][self.month] = 1.0
        self.views["players"][game.num_players - 2] = 1.0
        self.dynamic = LAYOUT.offsets["current_month"]
        self.seats_at, self.seat_width = LAYOUT.offsets["seats"], self.seats.width

    def observe(self, s: FlowersState, viewer: int) -> np.ndarray:
        """The observation vector of seat ``viewer`` (a fresh array)."""
        vec, v, at = self.vec, self.views, LAYOUT.offsets
        vec[:self.dynamic] = 0.0
        order = seat_order(viewer, s.num_players)
        vec[self._card_bits(s, viewer, order)] = 1.0  # every 0/1 card feature in one write
        vec[self.seats_at:self.seats_at + self.seat_width * len(order)] = self._seat_rows(s, order)
        v["globals"][:] = GLOBALS.encode_flat((len(s.deck), s.supply, s.round, self.threshold))
        if not s.over and s.stack and s.stack[-1].player == viewer:
            vec[at["decision"] + DECISION_KINDS.index(s.stack[-1].kind)] = 1.0
        return vec.copy()

    def _card_bits(self, s: FlowersState, viewer: int, order: list[int]) -> list[int]:
        """Vector indices of the viewer's hand, the field, every pile and the pending card."""
        at = LAYOUT.offsets
        base = at["own_hand"]
        bits = [base + c for c in s.hands[viewer]]
        base = at["field"]
        bits += [base + c for c in s.field]
        for rel, seat in enumerate(order):
            base = at["piles"] + rel * NUM_CARDS
            bits += [base + c for c in s.piles[seat]]
        if s.pending >= 0:  # the card being matched lies face up: everyone sees it
            bits.append(at["pending_card"] + s.pending)
        return bits

    def _seat_rows(self, s: FlowersState, order: list[int]) -> np.ndarray:
        """The encoded seat rows of ``order``, back to back."""
        turn = -1 if s.over else s.turn
        raw: list[int] = []
        for p in order:
            raw += (1, p == turn, p == s.round_start, s.cashed[p], s.tokens[p], s.pile_vp[p],
                    s.scores[p], len(s.hands[p]))
        return self.seats.encode_flat(raw)


def state_vector(game: FlowersGame, s: FlowersState) -> np.ndarray:
    """Seat 0's observation followed by every hand and the deck (global view)."""
    hidden = HIDDEN_LAYOUT.new_vector()
    hands = HIDDEN_LAYOUT.view(hidden, "hands")
    for seat, hand in enumerate(s.hands):
        hands[seat, hand] = 1.0
    HIDDEN_LAYOUT.view(hidden, "deck")[s.deck] = 1.0
    return np.concatenate([game.observe(s, 0), hidden])
