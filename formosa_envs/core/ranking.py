"""Standings from per-seat sort keys: ranks, winners, win shares, rank returns (stdlib only).

A game orders its seats by :meth:`~formosa_envs.core.engine.Game.ranking_keys`: one key per
seat, compared as Python compares tuples, so a tie-break is a second item
(``(VP, coins)`` in Taiwan Formosa). A higher key ranks higher; equal keys are a tie the
rules leave shared. Every outcome, the env's reward modes, the single-agent view, the
picture's caption and the tournament's statistics, comes from these keys through the
functions below, so they always agree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any


def top_positions(keys: Sequence[Any]) -> list[int]:
    """The positions holding the largest key (several on a tie)."""
    best = max(keys)
    return [p for p, k in enumerate(keys) if k == best]


def ranks_of(keys: Sequence[Any]) -> list[float]:
    """Rank of each position: 1 = best; tied keys share their average rank.

    ``ranks_of([(10, 0), (20, 1), (20, 1), (20, 0)]) == [4.0, 1.5, 1.5, 3.0]``.
    """
    return [sum(1 for other in keys if other > k) + (sum(1 for other in keys if other == k) + 1)
            / 2 for k in keys]


def shares_of(winners: Sequence[int], count: int) -> list[float]:
    """Each of ``count`` positions' share of a victory shared evenly by ``winners``."""
    share = 1.0 / len(winners) if winners else 0.0
    return [share if p in winners else 0.0 for p in range(count)]


def rank_returns(keys: Sequence[Any]) -> list[float]:
    """Zero-sum rank returns: mean over opponents of sign(own key - their key).

    Two players: +1 / -1 (0 each on a tie). One player: 0 (nobody to beat).
    """
    n = len(keys)
    if n == 1:
        return [0.0]
    return [sum((a > b) - (a < b) for b in keys) / (n - 1) for a in keys]


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` (fractional successes ok).

    Returns ``(0.0, 1.0)`` when ``n`` is 0 (nothing is known).
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # the interval contains p; rounding could leave it a hair short (e.g. 6 of 6 gave
    # an upper bound of 0.9999999999999999, and negative error bars in the plot)
    return max(0.0, min(p, center - half)), min(1.0, max(p, center + half))
