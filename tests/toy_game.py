"""A tiny game built on the core to prove the core is not shaped around Flowers.

"Discard duel" (2-3 players) exercises what Flowers does not: a repeated
optional decision (``count`` > 1, PASS to stop early) and out-of-turn
decisions (every other player discards, in seat order, after the active turn).

Setup deals 3 cards (values 1-12) to each player, one chance event per card.
A turn: keep up to two hand cards in your scoring pile, one at a time (PASS to
stop); then each other player holding cards discards one of them; then the
active player draws one card if the deck is not empty. The game ends when no
one holds a card. Score: the sum of kept values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from formosa_envs.core.actions import ActionSpace, Segment
from formosa_envs.core.config import build_config, check_player_count
from formosa_envs.core.decisions import Decision, Handler
from formosa_envs.core.engine import CHANCE
from formosa_envs.core.observer import ObservationLayout, Piece, seat_order
from formosa_envs.core.stack_game import StackGame

CARDS, HAND = 12, 3
SPACE = ActionSpace([Segment("KEEP", CARDS), Segment("DISCARD", CARDS), Segment("PASS", 1)])
PASS = SPACE.offsets["PASS"]
LAYOUT = ObservationLayout([Piece("hand", (CARDS,)), Piece("kept", (3, CARDS)),
                            Piece("gone", (CARDS,)), Piece("decision", (2,))])


@dataclass(frozen=True)
class ToyConfig:
    """Options of the toy game."""

    num_players: int = 2

    def __post_init__(self) -> None:
        check_player_count("toy", self.num_players, 2, 3)


@dataclass(slots=True)
class ToyState:
    """Hands, kept piles, discards, the unordered deck and the decision stack."""

    deck: list[int]
    hands: list[list[int]]
    kept: list[list[int]]
    gone: list[int] = field(default_factory=list)
    turn: int = 0
    dealt: int = 0
    stack: list[Decision] = field(default_factory=list)
    over: bool = False
    decisions: int = 0
    phase: int = 0

    def clone(self) -> ToyState:
        """An independent copy."""
        return ToyState(self.deck[:], [h[:] for h in self.hands], [k[:] for k in self.kept],
                        self.gone[:], self.turn, self.dealt, self.stack[:], self.over,
                        self.decisions, self.phase)


class Draw(Handler):
    """Chance: one card from the deck, to the next hand in the deal or to the drawer."""

    label = "drawing a card"

    def outcomes(self, game, s, d):
        """Uniform over the deck."""
        return [(c, 1 / len(s.deck)) for c in s.deck]

    def apply(self, game, s, d, card):
        """Give ``card`` to seat ``d.ctx[0]``."""
        s.deck.remove(card)
        s.hands[d.ctx[0]].append(card)


class Keep(Handler):
    """Keep one hand card; repeat while ``count`` remains; PASS stops (optional)."""

    label = "keeping cards"

    def legal(self, game, s, d):
        """KEEP each hand card, plus PASS."""
        return sorted(SPACE.encode("KEEP", c) for c in s.hands[d.player]) + [PASS]

    def apply(self, game, s, d, a):
        """Move the card, then ask again if count allows and cards remain."""
        if a == PASS:
            return
        card = a - SPACE.offsets["KEEP"]
        s.hands[d.player].remove(card)
        s.kept[d.player].append(card)
        if d.count > 1 and s.hands[d.player]:
            s.stack.append(d._replace(count=d.count - 1))


class Discard(Handler):
    """Out of turn: a non-active player discards one card."""

    label = "discarding a card"

    def legal(self, game, s, d):
        """DISCARD each hand card."""
        return sorted(SPACE.encode("DISCARD", c) for c in s.hands[d.player])

    def apply(self, game, s, d, a):
        """Discard the card."""
        card = a - SPACE.offsets["DISCARD"]
        s.hands[d.player].remove(card)
        s.gone.append(card)


class ToyGame(StackGame):
    """The toy game's rules."""

    name: ClassVar[str] = "toy"
    min_players, max_players = 2, 3
    state_class = ToyState
    handlers = {"draw": Draw(), "keep": Keep(), "discard": Discard()}

    def build_action_space(self):
        """KEEP[12], DISCARD[12], PASS."""
        return SPACE

    observation_size = property(lambda self: LAYOUT.size)
    state_size = property(lambda self: LAYOUT.size + CARDS * 3)
    max_game_length = property(lambda self: 200)
    max_chance_outcomes = property(lambda self: CARDS)

    def new_initial_state(self):
        """Everything in the deck, at the first deal."""
        n = self.num_players
        s = ToyState(list(range(CARDS)), [[] for _ in range(n)], [[] for _ in range(n)])
        self.settle(s)
        return s

    def advance(self, s):
        """Deal, then turns: keep (x2 optional), others discard, draw; end on empty hands."""
        n = self.num_players
        if s.dealt < HAND * n:
            s.stack.append(Decision("draw", CHANCE, ctx=(s.dealt % n,)))
            s.dealt += 1
        elif not any(s.hands):
            s.over = True
        elif s.phase == 0:
            s.phase = 1
            if s.hands[s.turn]:
                s.stack.append(Decision("keep", s.turn, count=2, optional=True))
        else:
            s.phase = 0
            if s.deck:
                s.stack.append(Decision("draw", CHANCE, ctx=(s.turn,)))
            others = [p for p in seat_order(s.turn, n)[1:] if s.hands[p]]
            s.stack.extend(Decision("discard", p) for p in reversed(others))
            s.turn = (s.turn + 1) % n

    def scores(self, s):
        """Sum of kept card values (card id + 1)."""
        return [float(sum(c + 1 for c in k)) for k in s.kept]

    def action_label(self, s, a):
        """``keep 5`` / ``discard 5`` / ``pass`` or a draw."""
        if not s.over and s.stack and s.stack[-1].player == CHANCE:
            return f"draw {a + 1}"
        seg, idx = SPACE.decode(a)
        return "pass" if seg == "PASS" else f"{seg.lower()} {idx + 1}"

    def observe(self, s, seat):
        """Own hand, kept piles (egocentric), discards, own decision kind."""
        vec = LAYOUT.new_vector()
        LAYOUT.view(vec, "hand")[s.hands[seat]] = 1
        for rel, p in enumerate(seat_order(seat, self.num_players)):
            LAYOUT.view(vec, "kept")[rel, s.kept[p]] = 1
        LAYOUT.view(vec, "gone")[s.gone] = 1
        if not s.over and s.stack[-1].player == seat:
            LAYOUT.view(vec, "decision")[0 if s.stack[-1].kind == "keep" else 1] = 1
        return vec

    def state_vector(self, s):
        """Seat 0's view plus every hand."""
        hands = np.zeros((3, CARDS), np.float32)
        for p, h in enumerate(s.hands):
            hands[p, h] = 1
        return np.concatenate([self.observe(s, 0), hands.ravel()])

    def render(self, s, viewer=None):
        """Hands and piles as text."""
        return "\n".join(f"P{p}: hand {h} kept {k}" for p, (h, k) in
                         enumerate(zip(s.hands, s.kept, strict=True)))

    def determinize(self, s, viewer, rng):
        """Reshuffle the deck and other hands."""
        out = s.clone()
        others = [p for p in range(self.num_players) if p != viewer]
        pool = sorted(out.deck + [c for p in others for c in out.hands[p]])
        pool = [pool[i] for i in rng.permutation(len(pool))]
        out.deck, pool = pool[:len(out.deck)], pool[len(out.deck):]
        for p in others:
            out.hands[p], pool = pool[:len(out.hands[p])], pool[len(out.hands[p]):]
        return out

    def check_conservation(self, s):
        """12 cards, each in exactly one place (the generic schema checks run first: the
        toy declares no ``state_schema``, so only its stack and counters are checked)."""
        places = s.deck + s.gone + [c for h in s.hands for c in h] + [c for k in s.kept for c in k]
        assert sorted(places) == list(range(CARDS))


def make_game(**options) -> ToyGame:
    """Build the toy game from keyword options."""
    return ToyGame(build_config(ToyConfig, "toy", **options))
