"""Formosa Tea scoring: pure functions, unit-testable without a state.

Tea quality (TEA-8.3), the flavor bonus (TEA-8.4), scented tea (TEA-8.6), majority
awards with the 1916 tie rule (R-26) and the final score (TEA-14).
"""

from __future__ import annotations

from collections.abc import Sequence

POOR, NORMAL, GOOD = 0, 1, 2
QUALITY_NAMES = ("Poor", "Normal", "Good")
FLAVOR_BONUS = {3: 3, 4: 6, 5: 10, 6: 15}


def batch_quality(levels: Sequence[int], flavor: int) -> int:
    """Quality of a raw batch: ``levels`` counts its cubes at WL 0, 1, 2 (outside Flavor).

    Poor if the total water is 3 or more; Good if it is 0 with 2+ Flavor cubes;
    Normal otherwise.
    """
    water = levels[1] + 2 * levels[2]
    if water >= 3:
        return POOR
    if water == 0 and flavor >= 2:
        return GOOD
    return NORMAL


def flavor_bonus(flavor: int, doubled: bool = False) -> int:
    """VP for a Good batch's Flavor cubes: 3/4/5/6 -> 3/6/10/15 (7+ as 6, R-18)."""
    bonus = FLAVOR_BONUS.get(min(flavor, 6), 0)
    return 2 * bonus if doubled else bonus


def scented_vp(cubes: int, tea: int, buds: Sequence[int], wei: bool = False) -> int:
    """Cubes x the summed Scented Value of the buds (2 same colour, 1 otherwise; +1 each
    for Wei Jing Shi)."""
    value = sum(count * ((2 if colour == tea else 1) + wei) for colour, count in enumerate(buds))
    return cubes * value


def rank_awards(values: Sequence[int], first: int, second: int) -> list[int]:
    """Majority VP: every player tied on the highest value gets ``first``, every player
    on the next distinct value gets ``second``; a value of 0 scores nothing (R-26)."""
    ranked = sorted({v for v in values if v > 0}, reverse=True)
    awards = [0] * len(values)
    for i, v in enumerate(values):
        if ranked and v == ranked[0]:
            awards[i] = first
        elif len(ranked) > 1 and v == ranked[1]:
            awards[i] = second
    return awards


def icon_multiplier(level: int, rewards: Sequence[str], values: Sequence[int]) -> int:
    """VP per merchant icon from a technology track: the value of the highest
    ``merchant_vp`` space reached (spaces 1..level), 0 if none (R-24)."""
    best = 0
    for space in range(1, level + 1):
        if rewards[space - 1] == "merchant_vp":
            best = values[space - 1]
    return best


def tech_research_vp(levels: Sequence[int]) -> int:
    """1903's game-end part: 1 VP per 2 technology spaces over the 3 tracks."""
    return sum(levels) // 2
