"""Soft cloning targets: the share of a search's root visits that went to each action.

A search teacher's most-visited move is a noisy label where several moves are nearly
as good; the visit shares say so. ``mcts`` keeps its root statistics in
``last_search`` (action -> (visits, mean value)); :func:`visit_shares` turns them into a
target distribution, and a decision that was not searched (one legal action, or a teacher
without root statistics) gets the one-hot of the recorded action.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def has_root_statistics(agent: Any) -> bool:
    """Whether ``agent`` records its last search's root visits (``last_search``)."""
    return isinstance(getattr(agent, "last_search", None), dict)


def visit_shares(agent: Any, action: int, num_actions: int) -> np.ndarray:
    """The visit share of every action at ``agent``'s last search root (float16, sums to
    1), or the one-hot of ``action`` when that search has no visits."""
    target = np.zeros(num_actions, np.float32)
    stats = getattr(agent, "last_search", None) or {}
    for move, (visits, _) in stats.items():
        target[int(move)] = max(float(visits), 0.0)
    total = float(target.sum())
    if total <= 0.0:
        target[:] = 0.0
        target[action] = 1.0
        return target.astype(np.float16)
    return (target / total).astype(np.float16)
