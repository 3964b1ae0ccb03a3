"""What the other seats' plays say about their hidden hands, for a determinized search.

A determinized search (:class:`~formosa_envs.agents.mcts.MCTSAgent`) deals the cards it
cannot see afresh at every simulation, every deal equally likely. In Formosa Flowers a
seat's plays tell more: a seat that played card ``c`` probably held no card it valued
more. :class:`FlowersPlayBelief` is told every move at the table (``inform``, as
OpenSpiel's bots are told each action) and keeps, for each other seat's play of the
current round, the cards the Flowers heuristic would have played instead (valued at
that decision, from what every seat sees and the card played). A deal in which a seat
holds such a card *breaks* that play. ``determinize`` draws deals by rejection: a deal
breaking ``v`` plays is kept with chance ``eps ** v``; after ``redraws`` fresh deals the
last one is kept. A play whose seat later played one of the cards it would have preferred
says that the model did not hold there, so it is dropped.

``eps`` = 0.25 comes from a diagnostic on deals never evaluated
(``benchmarks/flowers_belief.py``: seed 5,100,000, 12 games against
``mcts:200:heuristic``): the opponent's true hand broke a kept play 0.084 times
per play, a uniformly dealt hand about 0.35 times, a ratio near 0.25.

It reads what every seat sees (field, piles, the card being matched, scores, tokens) and
the cards played; nothing hidden: the cards it may exclude are all cards outside the
field, the piles and the card being matched, the same set whoever asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from formosa_envs.games.flowers.actions import PLAY0
from formosa_envs.games.flowers.rules import PLAY

from .heuristics.flowers import card_mask, play_values


@dataclass(frozen=True)
class SeenPlay:
    """A seat's play: the round, the seat, the card, and the bit mask of the cards not
    open to all that the heuristic would have played instead."""

    round: int
    seat: int
    card: int
    preferred: int


class FlowersPlayBelief:
    """Deals weighted by the other seats' plays of this round (module docstring)."""

    def __init__(self, eps: float = 0.25, redraws: int = 30) -> None:
        if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 < eps <= 1:
            raise ValueError(f"eps must be a number in (0, 1], got {eps!r}")
        if isinstance(redraws, bool) or not isinstance(redraws, int) or redraws < 0:
            raise ValueError(f"redraws must be a whole number >= 0, got {redraws!r}")
        self.eps, self.redraws = float(eps), redraws
        self.plays: list[SeenPlay] = []

    def reset(self) -> None:
        """Forget the plays (a new game)."""
        self.plays = []

    def inform(self, game: Any, state: Any, player: int, action: int) -> None:
        """Told that ``player`` chose ``action`` at ``state`` (before it is applied)."""
        if player < 0 or not state.stack or state.stack[-1].kind != PLAY:
            return
        card = action - PLAY0
        seen = _open(state) | {card}
        hidden = [c for c in range(len(game.cards)) if c not in seen]
        value, others = play_values(game, state, player, card, hidden)
        preferred = card_mask(c for c, v in zip(hidden, others, strict=True) if v > value + 1e-9)
        self.plays = [p for p in self.plays if p.round == state.round]
        self.plays.append(SeenPlay(state.round, player, card, preferred))

    def constraints(self, state: Any, viewer: int) -> list[tuple[int, int]]:
        """``(seat, preferred mask)`` of each kept play of this round by another seat."""
        plays = [p for p in self.plays if p.round == state.round]
        kept = []
        for i, play in enumerate(plays):
            later = card_mask(p.card for p in plays[i + 1:] if p.seat == play.seat)
            if play.seat != viewer and not later & play.preferred:
                kept.append((play.seat, play.preferred))
        return kept

    def determinize(self, game: Any, state: Any, viewer: int,
                    rng: np.random.Generator) -> Any:
        """A deal of the cards ``viewer`` cannot see, drawn by rejection (module docstring)."""
        constraints = self.constraints(state, viewer)
        world = game.determinize(state, viewer, rng)
        for _ in range(self.redraws if constraints else 0):
            broken = sum(1 for seat, mask in constraints if card_mask(world.hands[seat]) & mask)
            if broken == 0 or rng.random() < self.eps ** broken:
                break
            world = game.determinize(state, viewer, rng)
        return world


def _open(state: Any) -> set[int]:
    """The cards every seat sees: the field, the piles, the card being matched."""
    seen = set(state.field)
    for pile in state.piles:
        seen.update(pile)
    if state.pending >= 0:
        seen.add(state.pending)
    return seen

