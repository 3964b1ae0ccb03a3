"""Pieces the games' batched environments share: read-through properties of a step's
output and the numpy adapters' check of a batch of actions."""

from __future__ import annotations

from typing import Any

import numpy as np


def state_field(name: str, doc: str) -> property:
    """A property of a step's output that reads ``name`` from its ``state`` (a jitted step
    returns each array once; the output names the ones a learner reads)."""
    return property(lambda self: getattr(self.state, name), doc=doc)


def done_flag(step: Any) -> Any:
    """The games that ended in ``step``, by the rules or by truncation."""
    return step.terminated | step.truncated


def check_actions(actions: Any, legal: np.ndarray) -> np.ndarray:
    """``actions`` as a numpy integer array, one per game of the ``legal`` masks
    (``bool[B, A]``); a ``ValueError`` names the wrong shape or type, or the games whose
    action is out of range or illegal (the first eight)."""
    actions = np.asarray(actions)
    games, num_actions = legal.shape
    if actions.shape != (games,) or not np.issubdtype(actions.dtype, np.integer):
        raise ValueError(f"actions must be integers of shape ({games},), "
                         f"got {actions.dtype} {actions.shape}")
    inside = (actions >= 0) & (actions < num_actions)
    ok = inside & legal[np.arange(games), np.where(inside, actions, 0)]
    if not ok.all():
        bad = np.flatnonzero(~ok)
        raise ValueError(f"illegal action(s) in environment(s) {bad[:8].tolist()}: "
                         f"{actions[bad[:8]].tolist()} (see legal_action_mask)")
    return actions
