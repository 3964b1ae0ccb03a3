"""The decision-stack implementation of the engine contract (DESIGN.md section 3).

:class:`StackGame` keeps a stack of :class:`~formosa_envs.core.decisions.Decision`
frames in ``state.stack``: the top frame is the pending decision, handlers per kind say
what is legal and what an answer does, and :meth:`StackGame.advance` (the phase flow)
runs whenever the stack empties.
"""

from __future__ import annotations

from abc import abstractmethod
from bisect import bisect_right
from typing import Any, ClassVar

import numpy as np

from .args import check_own_state, check_rng, is_integer
from .decisions import Decision, Handler
from .engine import AUTO, CHANCE, TERMINAL, Game
from .errors import IllegalActionError


class StackGame(Game):
    """A :class:`Game` driven by a stack of :class:`Decision` frames.

    Subclasses provide ``handlers`` (kind -> :class:`Handler`), keep the stack
    in ``state.stack`` and a ``state.over`` flag, and implement
    :meth:`advance`, called whenever the stack is empty to run the phase flow
    (push the next decision, or end the game).
    """

    handlers: ClassVar[dict[str, Handler]] = {}
    apply_forced: ClassVar[bool] = False
    """Apply player decisions whose only legal option is forced, without asking."""

    @abstractmethod
    def advance(self, state: Any) -> None:
        """Phase flow: push the next decision(s) or set ``state.over``."""

    def settle(self, state: Any) -> None:
        """Run automatic frames and the phase flow until a decision is pending or the
        game is over.

        A frame whose ``player`` is ``AUTO`` is a continuation ("then advance the
        next Tea Master", "then end the turn"): it is popped and applied at once,
        so rules can queue the steps of a compound effect under the decisions
        that interrupt them. No seat ever sees an ``AUTO`` frame. With
        ``apply_forced``, a player decision with a single legal option is applied
        too (there is no choice to ask for).
        """
        stack, handlers = state.stack, self.handlers
        while not state.over:
            if not stack:
                self.advance(state)
            elif stack[-1].player == AUTO:
                d = stack.pop()
                handlers[d.kind].apply(self, state, d, 0)
            elif not self.apply_forced or stack[-1].player == CHANCE:
                return
            else:
                d = stack[-1]
                legal = handlers[d.kind].legal(self, state, d)
                if len(legal) != 1:
                    self._listed = (state, d, legal)
                    return
                stack.pop()
                handlers[d.kind].apply(self, state, d, legal[0])

    _listed: tuple[Any, Decision, list[int]] | None = None
    """The last legal list :meth:`settle` made for a pending decision: (state, frame, ids)."""

    def listed_legal_actions(self, state: Any) -> list[int] | None:
        """The legal actions :meth:`settle` listed for the pending decision of ``state``
        (a game with ``apply_forced`` lists them to find forced decisions), or None.

        Only for a caller that knows ``state`` was not changed since the engine last moved
        it (the env, while it has not handed the state out): the list is the one the last
        settle of this very state and frame made. Do not change the list."""
        listed = self._listed
        if listed is not None and listed[0] is state and not state.over \
                and state.stack and state.stack[-1] is listed[1]:
            return listed[2]
        return None

    def current_player(self, state: Any) -> int:
        """The player of the top frame, or ``TERMINAL``."""
        if state.over:
            return TERMINAL
        return state.stack[-1].player

    def top(self, state: Any) -> Decision:
        """The pending decision (the top frame)."""
        return state.stack[-1]

    def legal_actions(self, state: Any) -> list[int]:
        """Legal ids of the top frame (chance outcomes at chance nodes)."""
        check_own_state(self, state, "legal_actions")
        if state.over:
            return []
        d = state.stack[-1]
        if d.player == CHANCE:
            return [o for o, _ in self.handlers[d.kind].outcomes(self, state, d)]
        return self.handlers[d.kind].legal(self, state, d)

    def legal_mask(self, state: Any) -> np.ndarray:
        """An int8 mask over the action space marking the legal actions (all zeros at a
        chance node or once the game is over)."""
        check_own_state(self, state, "legal_mask")
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if not state.over and state.stack[-1].player != CHANCE:
            d = state.stack[-1]
            mask[self.handlers[d.kind].legal(self, state, d)] = 1
        return mask

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        """Outcomes of the top chance frame; empty at player decisions."""
        check_own_state(self, state, "chance_outcomes")
        if state.over or state.stack[-1].player != CHANCE:
            return []
        d = state.stack[-1]
        return self.handlers[d.kind].outcomes(self, state, d)

    def apply_action(self, state: Any, action: int) -> None:
        """Validate ``action`` against the top frame, apply it and settle."""
        check_own_state(self, state, "apply_action")
        if state.over:
            raise IllegalActionError(f"action {action!r} was given but the game is over")
        if not self.is_legal(state, state.stack[-1], action):
            raise IllegalActionError(self.illegal_message(state, action))
        self.apply_legal_action(state, action)

    def apply_legal_action(self, state: Any, action: int) -> None:
        """Apply ``action`` without re-checking it (the caller checked the mask; the state
        must still be one of this game's: ``ArgumentError`` otherwise)."""
        check_own_state(self, state, "apply_legal_action")
        d = state.stack.pop()
        self.handlers[d.kind].apply(self, state, d, int(action))
        if d.player != CHANCE:
            state.decisions += 1
        self.settle(state)

    def sample_chance(self, state: Any, rng: np.random.Generator) -> int:
        """Draw one chance outcome with the caller's generator (``Game.sample_chance``:
        the same draw, without ``Generator.choice``'s argument checks, see
        :func:`draw_index`); ``IllegalActionError`` when no chance event is pending."""
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            raise IllegalActionError("sample_chance called but no chance event is pending: "
                                     + self.decision_description(state))
        return outcomes[_CDFS.draw(tuple([p for _, p in outcomes]), rng)][0]

    def apply_chance(self, state: Any, rng: np.random.Generator) -> int:
        """Sample a chance outcome with ``rng``, apply it and return it.

        Equivalent to ``apply_action(state, sample_chance(state, rng))`` without
        re-validating an outcome that was drawn from the legal ones (the env's
        and the simulators' fast path).
        """
        check_own_state(self, state, "apply_chance")
        if state.over:
            raise IllegalActionError("apply_chance called but the game is over")
        d = state.stack[-1]
        if d.player != CHANCE:
            raise IllegalActionError("apply_chance called at a player decision: "
                                     + self.decision_description(state))
        check_rng(rng, "apply_chance")
        outcome = self.sample_chance(state, rng)
        state.stack.pop()
        self.handlers[d.kind].apply(self, state, d, outcome)
        self.settle(state)
        return outcome

    def resolve_chance(self, state: Any, rng: np.random.Generator,
                       record: list[int] | None = None) -> None:
        """Resolve every pending chance event with ``rng`` (appending outcomes to ``record``).

        The same draws as repeated :meth:`apply_chance` calls, in one tight loop.
        """
        if rng.__class__ is not np.random.Generator:
            check_rng(rng, "resolve_chance")
        check_own_state(self, state, "resolve_chance")
        stack, handlers, sample, settle = state.stack, self.handlers, self.sample_chance, \
            self.settle
        while not state.over and stack[-1].player == CHANCE:
            handler = handlers[stack[-1].kind]
            if not handler.resolve_run(self, state, rng, record):
                outcome = sample(state, rng)
                d = stack.pop()
                handler.apply(self, state, d, outcome)
                if record is not None:
                    record.append(outcome)
            settle(state)

    def is_legal(self, state: Any, d: Decision, action: Any) -> bool:
        """Whether ``action`` answers decision ``d``."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            return False
        return self.handlers[d.kind].is_legal(self, state, d, int(action))

    def illegal_message(self, state: Any, action: Any) -> str:
        """Explain why ``action`` is rejected: the action, the decision, the legal count."""
        legal = self.legal_actions(state)
        if is_integer(action) and not state.over and state.stack[-1].player == CHANCE:
            what = f"chance outcome {int(action)}"
        elif is_integer(action) and self.action_space.contains(int(action)):
            what = f"action {int(action)} ({self.action_label(state, int(action))})"
        else:
            what = f"action {action!r} (the action space is 0..{self.num_actions - 1})"
        who = self.decision_description(state)
        return f"{what} is not legal: {who}; {len(legal)} action(s) are legal: {legal[:12]}" + (
            " ..." if len(legal) > 12 else "")

    def decision_description(self, state: Any) -> str:
        """A sentence naming the pending decision and who makes it."""
        if state.over:
            return "the game is over"
        d = state.stack[-1]
        who = "chance" if d.player == CHANCE else f"player {d.player}"
        return f"{who} is {self.handlers[d.kind].describe(self, state, d)}"


def draw_index(p: np.ndarray, rng: np.random.Generator) -> int:
    """The index ``rng.choice(len(p), p=p)`` draws, by the steps it takes (cumulative
    sums scaled to end at 1, one uniform draw, the first sum above it) without its
    checks of ``p``, which cost more than the draw. ``p`` must be a valid float64
    probability vector (the engine's own outcomes); tests/test_speed_observation.py
    holds the two equal over many vectors and generator states."""
    cdf = p.cumsum()
    cdf /= cdf[-1]
    return int(cdf.searchsorted(rng.random(), side="right"))


class CumulativeTables:
    """The cumulative sums :func:`draw_index` builds, kept per probability vector.

    A game's chance events repeat the same few distributions (a die, a bag's colour
    counts, a pile of ``n`` cards), so the sums are computed once per distinct vector,
    with the very numpy steps of :func:`draw_index`, and a draw is one uniform number
    and a binary search (``bisect_right`` is ``searchsorted(side="right")``): the same
    index from the same generator state, at a fraction of the cost. The table is
    emptied when it holds :data:`LIMIT` vectors.
    """

    LIMIT = 4096

    def __init__(self) -> None:
        self._sums: dict[tuple[float, ...], list[float]] = {}

    def draw(self, probs: tuple[float, ...], rng: np.random.Generator) -> int:
        """The index ``draw_index(p, rng)`` draws for the normalised ``probs``."""
        sums = self._sums.get(probs)
        if sums is None:
            if len(self._sums) >= self.LIMIT:
                self._sums.clear()
            p = np.array(probs, dtype=np.float64)
            cdf = (p / p.sum()).cumsum()
            cdf /= cdf[-1]
            sums = self._sums[probs] = cdf.tolist()
        return bisect_right(sums, rng.random())


_CDFS = CumulativeTables()
"""The process's cumulative tables (the draws depend only on the probabilities)."""
