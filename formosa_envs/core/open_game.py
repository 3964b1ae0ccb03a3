"""Games where every seat sees the whole table: only chance (dice, shuffled piles) is
unknown, so observations need no hiding and determinization is a copy.

:class:`OpenGame` supplies the view methods every such game would otherwise repeat,
from two class attributes: ``observer`` (a module with ``LAYOUT``, an
:class:`~formosa_envs.core.observer.ObservationLayout`, and ``observe(game, state,
seat)``) and ``max_decisions`` (the truncation guard). A game still writes its rules,
``check_invariants``, ``render`` and ``action_label``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from .engine import CHANCE
from .stack_game import StackGame


class OpenGame(StackGame):
    """A :class:`StackGame` with open information and a module-defined observation."""

    hidden_information: ClassVar[bool] = False
    title: ClassVar[str] = "game"
    observer: ClassVar[Any]
    max_decisions: ClassVar[int] = 5000

    @property
    def observation_size(self) -> int:
        """Length of a seat's observation."""
        return self.observer.LAYOUT.size

    @property
    def state_size(self) -> int:
        """Seat 0's view is the global state: nothing but chance is hidden."""
        return self.observer.LAYOUT.size

    @property
    def max_game_length(self) -> int:
        """Truncation guard in player decisions (a guard, not a rule)."""
        return self.max_decisions

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """The observation of ``seat``."""
        return self.observer.observe(self, state, seat)

    def observe_many(self, states: Sequence[Any], seat: int) -> np.ndarray:
        """The observations of ``seat`` in each of ``states``, one row each; the
        observer's batched encoder where it has one (``observer.observe_many``)."""
        batched = getattr(self.observer, "observe_many", None)
        if batched is None or not states:
            return super().observe_many(states, seat)
        return batched(self, list(states), seat)

    def observation_pieces(self) -> list[tuple[str, int, tuple[int, ...], str]]:
        """The named pieces of the observation."""
        return self.observer.LAYOUT.describe()

    def state_vector(self, state: Any) -> np.ndarray:
        """The global state: seat 0's view, since nothing is private."""
        return self.observer.observe(self, state, 0)

    def determinize(self, state: Any, viewer: int, rng: np.random.Generator) -> Any:
        """Nothing is hidden: unrevealed piles are unordered pools drawn by chance."""
        return state.clone()

    def segment_label(self, state: Any, action: int, labels: dict[str, Any]) -> str:
        """Label ``action`` with ``labels[segment](game, state, index)``; a chance outcome
        is labelled by its frame kind."""
        if not state.over and state.stack and state.stack[-1].player == CHANCE:
            return f"{state.stack[-1].kind} -> {action}"
        segment, index = self.action_space.decode(action)
        return labels[segment](self, state, index)

