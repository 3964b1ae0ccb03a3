"""Dadaocheng final scoring (DDC-13): pure functions, unit-testable without a state."""

from __future__ import annotations

import math
from collections.abc import Sequence

MANSION_SETS = (0, 4, 10, 16, 23, 31, 39)


def mansion_vp(count: int) -> int:
    """Prestige of ``count`` Mansions: sets of 6 score 39, the remainder by the table."""
    return 39 * (count // 6) + MANSION_SETS[count % 6]


def den_penalty(total_opium: int, players: int) -> int:
    """Each Opium Den costs ceil(all opium used / players) (DDC-13.6, R-23)."""
    return math.ceil(total_opium / players) if total_opium > 0 else 0


def most_buildings_bonus(counts: Sequence[int]) -> list[int]:
    """1920: 5 prestige to every player tied for the most buildings (at least one)."""
    best = max(counts)
    return [5 if best > 0 and c == best else 0 for c in counts]


def solo_tier(score: int) -> str:
    """The single-player objective reached: none, apprentice, experienced or master."""
    for threshold, name in ((70, "master"), (60, "experienced"), (50, "apprentice")):
        if score >= threshold:
            return name
    return "none"
