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
    value: float


Generator = Callable[[Any, Any, int], "list[Candidate] | None"]


def tea_candidates(game: Any, state: Any, me: int) -> list[Candidate] | None:
    """Every legal move of a Formosa Tea turn with its afterstate and heuristic value;
    ``None`` where the heuristic answers by rule (not a turn, one move, a completion)."""
    if state.stack[-1].kind != "turn":
        return None
    legal = game.legal_actions(state)
    first = tea_actions.COMPLETE0
    if len(legal) < 2 or any(first <= a < first + 4 for a in legal):
        return None
    rows = []
    for action in legal:
        after = tea_heuristic.follow_up(game, state, me, action)
        rows.append(Candidate(action, after, tea_eval.value(game, after, me)))
    return rows


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
