"""The Formosa Flowers state: where every card is, tokens, scores, the decision stack."""

from __future__ import annotations

from dataclasses import dataclass, field

from formosa_envs.core.decisions import Decision

NUM_CARDS = 54
TOKEN_SUPPLY = 9
MAX_TOKENS_PER_PLAYER = 3


class Phase:
    """Steps of the phase flow, run when the decision stack is empty."""

    DEAL = 0
    TURN = 1
    REVEAL = 2
    SCORE = 3
    END_TURN = 4
    END_ROUND = 5


@dataclass(slots=True)
class FlowersState:
    """A complete Formosa Flowers position.

    The deck is an unordered pool: every draw is a chance event over it, so the
    state never holds a hidden order. ``pending`` is the card being matched
    (played or revealed) while a capture decision is open; ``turn_captures``
    lists the cards that entered the active player's pile this turn.
    """

    num_players: int
    deck: list[int]
    hands: list[list[int]]
    field: list[int]
    piles: list[list[int]]
    pile_vp: list[int]
    tokens: list[int]
    supply: int
    scores: list[int]
    cashed: list[bool]
    round: int = 1
    round_start: int = 0
    turn: int = 0
    phase: int = Phase.DEAL
    dealt: int = 0
    pending: int = -1
    turn_captures: list[int] = field(default_factory=list)
    stack: list[Decision] = field(default_factory=list)
    over: bool = False
    decisions: int = 0
    last_event: str = ""

    def clone(self) -> FlowersState:
        """An independent copy (lists copied, decisions are immutable)."""
        return FlowersState(
            self.num_players, self.deck[:], [h[:] for h in self.hands], self.field[:],
            [p[:] for p in self.piles], self.pile_vp[:], self.tokens[:], self.supply,
            self.scores[:], self.cashed[:], self.round, self.round_start, self.turn,
            self.phase, self.dealt, self.pending, self.turn_captures[:], self.stack[:],
            self.over, self.decisions, self.last_event)


def new_state(num_players: int) -> FlowersState:
    """The state before the first deal: every card in the deck, seat 0 to start."""
    n = num_players
    return FlowersState(
        num_players=n, deck=list(range(NUM_CARDS)), hands=[[] for _ in range(n)], field=[],
        piles=[[] for _ in range(n)], pile_vp=[0] * n, tokens=[0] * n, supply=TOKEN_SUPPLY,
        scores=[0] * n, cashed=[False] * n)


def card_locations(state: FlowersState) -> dict[int, str]:
    """Where each card is (``deck``, ``field``, ``hand{p}``, ``pile{p}``, ``pending``)."""
    where: dict[int, str] = {c: "deck" for c in state.deck}
    places = [("field", state.field), ("pending", [state.pending] if state.pending >= 0 else [])]
    places += [(f"hand{p}", h) for p, h in enumerate(state.hands)]
    places += [(f"pile{p}", pile) for p, pile in enumerate(state.piles)]
    for name, cards in places:
        for c in cards:
            if c in where:
                raise ValueError(f"card {c} is both in {where[c]} and {name}")
            where[c] = name
    return where
