"""Unit tests of the pure scoring functions of Formosa Tea (``scoring.py``).

Expected values are worked out by hand from ``seeds/tea.md`` (TEA-8.3, TEA-8.4, TEA-8.6,
TEA-12.7, TEA-14.3, R-18, R-24, R-26).
"""

from __future__ import annotations

import pytest

from formosa_envs.games.tea.scoring import (
    GOOD,
    NORMAL,
    POOR,
    batch_quality,
    flavor_bonus,
    icon_multiplier,
    rank_awards,
    scented_vp,
    tech_research_vp,
)

OOLONG, BLACK, GREEN = range(3)


@pytest.mark.parametrize(("levels", "flavor", "quality"), [
    ((0, 0, 0), 0, NORMAL),          # nothing wet, no Flavor
    ((3, 0, 0), 1, NORMAL),          # W 0, 1 Flavor cube
    ((0, 0, 0), 2, GOOD),            # W 0, 2 Flavor
    ((5, 0, 0), 2, GOOD),            # WL-0 cubes do not count as water
    ((1, 1, 0), 4, NORMAL),          # W 1: never Good
    ((0, 2, 0), 6, NORMAL),          # W 2
    ((0, 0, 1), 0, NORMAL),          # W 2 from one WL-2 cube
    ((0, 3, 0), 0, POOR),            # W 3
    ((0, 1, 1), 5, POOR),            # W 1 + 2 = 3
    ((0, 0, 2), 0, POOR),            # W 4
])
def test_batch_quality(levels: tuple, flavor: int, quality: int) -> None:
    """TEA-8.3 [III.2]: Poor if W >= 3, Good if W = 0 and F >= 2, else Normal."""
    assert batch_quality(levels, flavor) == quality


@pytest.mark.parametrize(("flavor", "bonus"), [(0, 0), (1, 0), (2, 0), (3, 3), (4, 6),
                                                (5, 10), (6, 15), (7, 15), (8, 15)])
def test_flavor_bonus_and_hsu_doubling(flavor: int, bonus: int) -> None:
    """TEA-8.4, R-18 [III.2; Hsu Ying Xiang]: 3/4/5/6 Flavor -> 3/6/10/15, 7-8 as 6;
    doubled for Hsu."""
    assert flavor_bonus(flavor) == bonus
    assert flavor_bonus(flavor, doubled=True) == 2 * bonus


@pytest.mark.parametrize(("cubes", "tea", "buds", "wei", "vp"), [
    (5, OOLONG, (1, 1, 1), False, 20),   # (2 + 1 + 1) x 5
    (4, BLACK, (0, 2, 0), False, 16),    # 2 matching: 4 x 4
    (3, GREEN, (2, 1, 0), False, 9),     # 2 others: 3 x 3
    (3, GREEN, (2, 1, 0), True, 18),     # Wei: 3 x (2 x 2 + 1 x 2)
    (6, OOLONG, (0, 0, 0), False, 0),    # no bud
    (1, OOLONG, (0, 0, 0), True, 0),
    (2, BLACK, (1, 1, 1), True, 14),     # Wei: 2 x (2 + 3 + 2)
])
def test_scented_vp(cubes: int, tea: int, buds: tuple, wei: bool, vp: int) -> None:
    """TEA-8.6 [III, Scented Tea; Wei Jing Shi]: cubes x the sum of bud values (2 when the
    bud matches the tea, 1 otherwise; +1 each for Wei)."""
    assert scented_vp(cubes, tea, buds, wei=wei) == vp


@pytest.mark.parametrize(("values", "awards"), [
    ([3, 1, 0], [10, 5, 0]),
    ([2, 2, 1], [10, 10, 5]),            # tied first; second is the next value
    ([2, 1, 1, 0], [10, 5, 5, 0]),       # tied second
    ([4, 4, 4], [10, 10, 10]),
    ([0, 0, 0], [0, 0, 0]),              # a count of 0 never scores
    ([2, 0], [10, 0]),                   # 2 players: nothing is not "second"
    ([5, 3, 2, 1], [10, 5, 0, 0]),
])
def test_rank_awards_1916_tie_rule(values: list[int], awards: list[int]) -> None:
    """R-26, TEA-12.6 [Events 1889, 1916]: every tied player gets the full VP of the rank;
    the second rank is the next distinct value; 0 scores nothing."""
    assert rank_awards(values, 10, 5) == awards


def test_rank_awards_first_only() -> None:
    """TEA-12.10 [Events 1936, 1964]: a first-only award (second worth 0)."""
    assert rank_awards([2, 2, 1], 5, 0) == [5, 5, 0]
    assert rank_awards([0, 1, 0], 5, 0) == [0, 5, 0]


REWARDS = ("disc_oxidation", "merchant_vp", "action_global", "advance_any", "merchant_vp",
           "disc_drying", "action_processing", "merchant_vp")
VALUES = (0, 1, 0, 0, 2, 0, 0, 4)


@pytest.mark.parametrize(("level", "multiplier"), [(0, 0), (1, 0), (2, 1), (4, 1), (5, 2),
                                                   (7, 2), (8, 4)])
def test_icon_multiplier_is_the_highest_level_reached(level: int, multiplier: int) -> None:
    """TEA-14.3, R-24 [Scoring]: the highest "x VP per icon" space reached, not a sum."""
    assert icon_multiplier(level, REWARDS, VALUES) == multiplier


def test_tech_research_one_vp_per_two_spaces() -> None:
    """TEA-12.7, R-45 [Events 1903]: 1 VP per 2 tech spaces over the 3 tracks, rounded down."""
    assert tech_research_vp([0, 0, 0]) == 0
    assert tech_research_vp([1, 0, 0]) == 0
    assert tech_research_vp([1, 1, 1]) == 1
    assert tech_research_vp([5, 0, 2]) == 3
    assert tech_research_vp([8, 8, 8]) == 12
