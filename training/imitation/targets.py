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


def value_shares(agent: Any, action: int, num_actions: int, temperature: float
                 ) -> np.ndarray:
    """A softmax of the mean values at ``agent``'s last search root, divided by
    ``temperature`` (float16, sums to 1; actions not valued get nothing), or the one-hot
    of ``action`` when nothing was searched.

    With a teacher that values every legal move by the same play-outs
    (:class:`~formosa_envs.agents.flat_mc.FlatMonteCarloAgent`), a student trained on these
    learns logits whose differences are the value differences over ``temperature``: the
    advantage of each move over another, which a residual agent can read
    (:mod:`formosa_envs.agents.residual`).
    """
    stats = getattr(agent, "last_search", None) or {}
    moves = [int(m) for m, (visits, _) in stats.items() if visits > 0]
    target = np.zeros(num_actions, np.float32)
    if not moves:
        target[action] = 1.0
        return target.astype(np.float16)
    values = np.array([stats[m][1] for m in moves], np.float64) / temperature
    weights = np.exp(values - values.max())
    target[moves] = weights / weights.sum()
    return target.astype(np.float16)
