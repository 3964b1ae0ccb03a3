"""Candidate moves and their afterstates, as the search heuristics see them.

A *candidate generator* answers, for the deciding seat of a state, "which moves would the
heuristic weigh here, what position does each lead to, and what is each worth to it?".
The learned afterstate evaluator (:mod:`formosa_envs.agents.afterstate`) scores the same
afterstates with a network instead of the heuristic's hand-made value, and its training
data (:mod:`formosa_envs.training.afterstate`) labels them by play-outs.

A generator returns ``None`` where the heuristic answers by a direct rule (one legal
move, a completion, a decision that is not a whole turn); the caller then plays the
heuristic's own answer. Otherwise it returns :class:`Candidate` rows, one per legal move,
with the afterstate (the state after the move and the seat's own follow-up decisions,
answered by the heuristic's rules, up to the next chance event, another seat's decision
or the seat's next turn) and the heuristic's value of it. Nothing here reads hidden
information: an afterstate stops before the next draw, and the values read only what the
seat may see.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from formosa_envs.games.tea import actions as tea_actions

from .heuristics import tea as tea_heuristic
from .heuristics import tea_eval


@dataclass
class Candidate:
    """One move the heuristic weighs: the action, its afterstate and the heuristic's value."""

    action: int
    after: Any
    """The afterstate; ``None`` where the generator was asked to keep only the best."""
    value: float


Generator = Callable[..., "list[Candidate] | None"]
"""``generate(game, state, seat, keep=None)``: the candidates (see :func:`tea_candidates`)."""


def tea_candidates(game: Any, state: Any, me: int, keep: int | None = None
                   ) -> list[Candidate] | None:
    """Every legal move of a Formosa Tea turn with its afterstate and heuristic value;
    ``None`` where the heuristic answers by rule (not a turn, one move, a completion).
    With ``keep``, only the afterstates of the ``keep`` best values survive (the rows
    :func:`~formosa_envs.agents.afterstate.top_candidates` picks); the others' ``after``
    is ``None``."""
    if state.stack[-1].kind != "turn":
        return None
    legal = game.legal_actions(state)
    first = tea_actions.COMPLETE0
    if len(legal) < 2 or any(first <= a < first + 4 for a in legal):
        return None
    rows: list[Candidate] = []
    kept = KeptBest(rows, keep)
    for action in legal:
        after = tea_heuristic.follow_up(game, state, me, action)
        rows.append(Candidate(action, after, tea_eval.value(game, after, me)))
        kept.offer(len(rows) - 1)
    return rows


class KeptBest:
    """Drops the afterstates of rows that can no longer be among the ``keep`` best.

    A decision that holds every candidate's afterstate at once (a whole copy of the state
    each) allocates and touches several times the memory of the heuristic's own search,
    which holds one at a time; measured over 40 Tea games, keeping 5 of ~9.5 took the
    afterstate agent from 1.88-1.99x to 1.69-1.74x the heuristic's time per decision.
    Ties go to the earlier row, as in the stable sort of ``top_candidates``.
    """

    def __init__(self, rows: list[Candidate], keep: int | None) -> None:
        self.rows, self.keep, self.heap = rows, keep, []

    def offer(self, index: int) -> None:
        """Row ``index`` was added: drop the afterstate of the worst row beyond ``keep``."""
        if self.keep is None:
            return
        heapq.heappush(self.heap, (self.rows[index].value, -index))
        if len(self.heap) > self.keep:
            _, worst = heapq.heappop(self.heap)
            self.rows[-worst].after = None


GENERATORS: dict[str, Generator] = {"tea": tea_candidates}
"""Games with a candidate generator."""
SEAT_VALUES: dict[str, Callable[[Any, Any, int], float]] = {"tea": tea_eval.value}
"""Each such game's heuristic value ``value(game, state, seat)`` of a position for one seat
(features of the net, the end of a truncated play-out)."""


def seat_values(game_name: str, game: Any, state: Any, known: dict[int, float] | None = None
                ) -> list[float]:
    """The heuristic's value of ``state`` for every seat (seat order); ``known`` values
    (already computed, e.g. a candidate's own) are not computed again."""
    value, known = SEAT_VALUES[game_name], known or {}
    return [known[seat] if seat in known else value(game, state, seat)
            for seat in range(game.num_players)]


def candidate_generator(game_name: str) -> Generator:
    """The candidate generator of ``game_name``; ``ValueError`` naming the games that have one."""
    if game_name not in GENERATORS:
        raise ValueError(f"no afterstate candidates for game {game_name!r}; games with "
                         f"them: {', '.join(GENERATORS)}")
    return GENERATORS[game_name]
