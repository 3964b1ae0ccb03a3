"""Candidate moves and their afterstates, as the search heuristics see them.

A *candidate generator* answers, for the deciding seat of a state, "which moves would the
heuristic weigh here, what position does each lead to, and what is each worth to it?".
The learned afterstate evaluator (:mod:`formosa_envs.agents.afterstate`) scores the same
afterstates with a network instead of the heuristic's hand-made value, and its training
data (:mod:`formosa_envs.training.afterstate`) labels them by play-outs.

A generator returns ``None`` where the heuristic answers by a direct rule (one legal
move, a completion, a decision that is not a whole turn); the caller then plays the
heuristic's own answer. Otherwise it returns :class:`Candidate` rows with the afterstate
(the state after the move and the seat's own follow-up decisions, answered by the
heuristic's rules, up to the next chance event, another seat's decision or the seat's
next turn) and the heuristic's value of it:

* Formosa Tea (:func:`tea_candidates`): one row per legal move of a turn.
* Dadaocheng (:func:`dadaocheng_candidates`): at a turn's first movement, one row per
  plan (pair of movements) of the heuristic's last shortlist; the row's action is the
  first movement and ``then`` the rest of the plan, which the agent commits to.
* Formosa Flowers (:func:`flowers_candidates`): one row per card that may be played, and
  at a keep-or-cash choice one row for each; the afterstate stops before the next reveal.

Nothing here reads hidden information: an afterstate stops before the next draw, and the
values read only what the seat may see (Dadaocheng's face-down piles are never looked at).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from formosa_envs.games.flowers.rules import KEEP_OR_CASH as FLOWERS_KEEP_OR_CASH
from formosa_envs.games.flowers.rules import PLAY as FLOWERS_PLAY
from formosa_envs.games.tea import actions as tea_actions

from .heuristics import dadaocheng as dadaocheng_heuristic
from .heuristics import flowers as flowers_heuristic
from .heuristics import tea as tea_heuristic
from .heuristics import tea_eval
from .heuristics.dadaocheng_value import Valuer


@dataclass
class Candidate:
    """One move the heuristic weighs: the action, its afterstate and the heuristic's value."""

    action: int
    after: Any
    """The afterstate; ``None`` where the generator was asked to keep only the best."""
    value: float
    then: tuple[int, ...] = ()
    """The seat's next decisions that the candidate commits to (a Dadaocheng plan's second
    movement and the answers up to its afterstate): the agent that plays ``action`` plays
    these next, while they are legal and due."""


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


def dadaocheng_candidates(game: Any, state: Any, me: int, keep: int | None = None
                          ) -> list[Candidate] | None:
    """The plans (pairs of movements) the Dadaocheng heuristic weighs last at the first
    movement of a turn, each with the afterstate of the whole turn (the plan, then the
    heuristic's own answers to the cascade and the purchases) and the seat's value of it;
    ``None`` at any other decision or with fewer than two plans. With ``keep``, only the
    ``keep`` plans the heuristic rates best are played out (a turn's afterstate costs
    about as much as the heuristic's whole decision), so every row has its afterstate."""
    plans = dadaocheng_heuristic.turn_plans(game, state)
    if plans is None or len(plans) < 2:
        return None
    rows: list[Candidate] = []
    for _, plan in plans[:keep]:
        actions = [a for move in plan for a in dadaocheng_heuristic.movement_actions(move)]
        after, played = _dadaocheng_turn(game, state, me, actions)
        rows.append(Candidate(actions[0], after, dadaocheng_value(game, after, me),
                              tuple(played[1:])))
    return rows


def _dadaocheng_turn(game: Any, state: Any, me: int, plan: list[int]
                     ) -> tuple[Any, list[int]]:
    """A copy of ``state`` after ``plan``'s movements and ``me``'s own decisions after them
    (the heuristic's answers), stopped at chance, another seat's decision or a new turn;
    and the actions that got there (the agent that chooses this plan plays them, so the
    turn it scored is the turn it plays, without answering each decision again)."""
    s, rng, pending, played = state.clone(), np.random.default_rng(0), list(plan), []
    played.append(pending.pop(0))
    game.apply_legal_action(s, played[-1])
    while not s.over:
        d = s.stack[-1]
        if d.player != me or (not pending and d.kind == "move" and d.count == 2):
            break
        legal = game.legal_actions(s)
        if pending and pending[0] in legal:
            played.append(pending.pop(0))
        else:
            pending.clear()
            played.append(dadaocheng_heuristic.choose(game, s, rng))
        game.apply_legal_action(s, played[-1])
    return s, played


def dadaocheng_value(game: Any, state: Any, seat: int) -> float:
    """A Dadaocheng position's worth to ``seat``: its prestige plus the heuristic's worth
    of its best purchase plan for the cubes in hand."""
    hand = tuple(state.hand[seat])
    return float(game.scores(state)[seat]) + Valuer(game, state, seat).value(hand)


def flowers_candidates(game: Any, state: Any, me: int, keep: int | None = None
                       ) -> list[Candidate] | None:
    """Every card a Formosa Flowers seat may play (or keep and cash out at that choice),
    each with its afterstate (the play, then the seat's own capture choice by the
    heuristic's rules, up to the reveal) and the seat's value of it
    (:func:`~formosa_envs.agents.heuristics.flowers.seat_value`); ``None`` at other
    decisions or with one legal move. ``keep`` as in :func:`tea_candidates`."""
    if state.stack[-1].kind not in (FLOWERS_PLAY, FLOWERS_KEEP_OR_CASH):
        return None
    legal = game.legal_actions(state)
    if len(legal) < 2:
        return None
    rows: list[Candidate] = []
    kept = KeptBest(rows, keep)
    for action in legal:
        after = _flowers_follow_up(game, state, me, action)
        rows.append(Candidate(action, after, flowers_heuristic.seat_value(game, after, me)))
        kept.offer(len(rows) - 1)
    return rows


def _flowers_follow_up(game: Any, state: Any, me: int, action: int) -> Any:
    """A copy of ``state`` after ``action`` and ``me``'s own decisions after it (the
    heuristic's answers), stopped at chance, another seat's decision or ``me``'s next play."""
    s, rng = state.clone(), np.random.default_rng(0)
    game.apply_legal_action(s, action)
    while not s.over and s.stack[-1].player == me and s.stack[-1].kind != FLOWERS_PLAY:
        game.apply_legal_action(s, flowers_heuristic.choose(game, s, rng))
    return s


def flowers_turn_start(state: Any) -> bool:
    """Whether a Formosa Flowers seat is about to play a card."""
    return state.stack[-1].kind == FLOWERS_PLAY


def tea_turn_start(state: Any) -> bool:
    """Whether a Formosa Tea seat is at the start of a whole turn."""
    return state.stack[-1].kind == "turn"


def dadaocheng_turn_start(state: Any) -> bool:
    """Whether a Dadaocheng seat is at the first of its turn's two movements."""
    d = state.stack[-1]
    return d.kind == "move" and d.count == 2


GENERATORS: dict[str, Generator] = {"tea": tea_candidates, "dadaocheng": dadaocheng_candidates,
                                    "flowers": flowers_candidates}
"""Games with a candidate generator."""
SEAT_VALUES: dict[str, Callable[[Any, Any, int], float]] = {
    "tea": tea_eval.value, "dadaocheng": dadaocheng_value,
    "flowers": flowers_heuristic.seat_value}
"""Each such game's heuristic value ``value(game, state, seat)`` of a position for one seat
(features of the net, the end of a truncated play-out)."""
TURN_STARTS: dict[str, Callable[[Any], bool]] = {"tea": tea_turn_start,
                                                  "dadaocheng": dadaocheng_turn_start,
                                                  "flowers": flowers_turn_start}
"""Whether the deciding seat of a state is at the start of a turn (play-out horizons)."""


def dadaocheng_reply(game: Any, state: Any, me: int) -> float:
    """The next seat's best single-movement gain on a Dadaocheng afterstate
    (:func:`~formosa_envs.agents.heuristics.dadaocheng.reply_gain`; solo: the seat's own)."""
    return dadaocheng_heuristic.reply_gain(game, state, (me + 1) % game.num_players)


REPLY_VALUES: dict[str, Callable[[Any, Any, int], float]] = {"dadaocheng": dadaocheng_reply}
"""Games whose evaluator may read the next seat's best reply to an afterstate
(``reply(game, state, me)``, VP): a value the heuristic's own candidate search never looks
at, since it plans only the deciding seat's turn."""


def reply_value(game_name: str, game: Any, state: Any, me: int) -> float:
    """:data:`REPLY_VALUES`' value of ``state`` for the seat after ``me``; ``ValueError``
    naming the games that have one."""
    if game_name not in REPLY_VALUES:
        raise ValueError(f"no reply feature for game {game_name!r}; games with one: "
                         f"{', '.join(REPLY_VALUES)}")
    return REPLY_VALUES[game_name](game, state, me)


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
