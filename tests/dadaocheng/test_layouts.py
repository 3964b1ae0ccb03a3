"""Tests of the exact uniform Dadaocheng setup (``layouts.py``).

Rules: ``seeds/dadaocheng.md`` DDC-2.2 / DDC-2.3 (per-cell chance events, counts 317,760 of
369,600 with 2-4 players and 193,704 solo for the §4.1 discs), R-5 and R-6.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from formosa_envs.games.dadaocheng.grid import groups_at_most_two, no_three_in_a_line
from formosa_envs.games.dadaocheng.layouts import (
    NON_CORNER,
    LayoutTable,
    disc_probabilities,
    layout_table,
)

# §4.1 commodity discs D05..D16 (disc id 4..15) and their sun colours: 3 of each commodity.
COMMODITY = [(4, 0), (5, 0), (6, 0), (7, 1), (8, 1), (9, 1),
             (10, 2), (11, 2), (12, 2), (13, 3), (14, 3), (15, 3)]
SUN = tuple(c for _, c in COMMODITY)
CONDITION = {False: no_three_in_a_line, True: groups_at_most_two}


def full_grid(layout: list[int]) -> list[int]:
    grid = [4] * 16
    for cell, c in zip(NON_CORNER, layout, strict=True):
        grid[cell] = c
    return grid


def test_non_corner_order() -> None:
    assert NON_CORNER == (1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14)


@pytest.mark.parametrize(("solo", "expected"), [(False, 317_760), (True, 193_704)])
def test_counts(solo: bool, expected: int) -> None:
    """DDC-2.3: the placeholder counts; count(()) is the total; first-cell counts add up."""
    table = layout_table(SUN, solo)
    assert table.arrangements == 369_600
    assert table.total == len(table) == expected
    assert table.count(()) == expected
    assert sum(table.count((c,)) for c in range(5)) == expected
    assert table.count((4,)) == 0
    assert layout_table(SUN, solo) is table


@pytest.mark.parametrize("solo", [False, True])
def test_stored_layouts_are_valid_and_complete(solo: bool) -> None:
    """Every stored layout meets the condition; a random ordering is stored iff it does."""
    table = layout_table(SUN, solo)
    rng = random.Random(3)
    for index in rng.sample(range(table.total), 300):
        layout = table.layout(index)
        assert Counter(layout) == Counter(SUN)
        assert CONDITION[solo](table.grid(layout))
        assert table.count(layout) == 1
    for _ in range(500):
        layout = list(SUN)
        rng.shuffle(layout)
        assert table.count(layout) == int(CONDITION[solo](full_grid(layout)))


@pytest.mark.parametrize("solo", [False, True])
@pytest.mark.parametrize("length", [6, 8])
def test_prefix_counts_by_brute_force(solo: bool, length: int) -> None:
    """count(prefix) equals a direct enumeration of the remaining cells with grid.py."""
    table = layout_table(SUN, solo)
    rng = random.Random(length)
    for _ in range(5):
        prefix = list(SUN)
        rng.shuffle(prefix)
        prefix = prefix[:length]
        rest = list((Counter(SUN) - Counter(prefix)).elements())
        tails = set(itertools.permutations(rest))
        expected = sum(CONDITION[solo](full_grid(prefix + list(t))) for t in tails)
        assert table.count(prefix) == expected


@pytest.mark.parametrize("solo", [False, True])
def test_first_cell_distribution(solo: bool) -> None:
    """P(colour of cell 1) = count((c,)) / total, split equally among that colour's discs."""
    table = layout_table(SUN, solo)
    probs = disc_probabilities(table, [], COMMODITY)
    assert [d for d, _ in probs] == [d for d, _ in COMMODITY]
    assert sum(p for _, p in probs) == pytest.approx(1.0)
    by_colour: Counter[int] = Counter()
    for d, p in probs:
        by_colour[dict(COMMODITY)[d]] += p
        assert p == pytest.approx(table.count((dict(COMMODITY)[d],)) / table.total / 3)
    for c in range(4):
        assert by_colour[c] == pytest.approx(table.count((c,)) / table.total)
        assert by_colour[c] == pytest.approx(0.25)  # the four colours are symmetric


def test_forbidden_disc_gets_no_probability() -> None:
    """Cells 1, 2, 4, 5 = white, green, red, red: a red disc in cell 6 would make R R R in row 1
    (R-5) and a red group of 3 (R-6), so the last red disc is not offered; all others are."""
    for solo in (False, True):
        table = layout_table(SUN, solo)
        placed = [1, 2, 0, 0]
        left = [(d, c) for d, c in COMMODITY if d not in (4, 5, 7, 10)]
        probs = disc_probabilities(table, placed, left)
        assert sum(p for _, p in probs) == pytest.approx(1.0)
        assert 6 not in {d for d, _ in probs}
        assert {d for d, _ in probs} == {d for d, _ in left} - {6}


@pytest.mark.parametrize("solo", [False, True])
def test_sampling_gives_valid_layouts(solo: bool) -> None:
    """16 layouts drawn cell by cell are valid; each full draw has probability 1/(total*3!^4)."""
    table = layout_table(SUN, solo)
    rng = random.Random(11 + solo)
    colour_of = dict(COMMODITY)
    for _ in range(16):
        placed: list[int] = []
        left = list(COMMODITY)
        path_p = 1.0
        for _cell in NON_CORNER:
            probs = disc_probabilities(table, placed, left)
            assert sum(p for _, p in probs) == pytest.approx(1.0)
            disc, p = rng.choices(probs, weights=[p for _, p in probs])[0]
            path_p *= p
            placed.append(colour_of[disc])
            left = [(d, c) for d, c in left if d != disc]
        assert CONDITION[solo](full_grid(placed))
        assert path_p == pytest.approx(1 / (table.total * math.factorial(3) ** 4))


def test_no_valid_layout_raises() -> None:
    """DDC-2.3: a disc file with no valid layout fails loudly."""
    with pytest.raises(ValueError, match="no valid disc layout"):
        LayoutTable([0] * 12, solo=False)
    with pytest.raises(ValueError, match="no valid disc layout"):
        LayoutTable([0] * 12, solo=True)
    with pytest.raises(ValueError, match="expected 12"):
        LayoutTable([0] * 11, solo=False)


def test_mismatched_discs_raise() -> None:
    table = layout_table(SUN, False)
    with pytest.raises(ValueError, match="do not match"):
        disc_probabilities(table, [0], COMMODITY)


def test_other_multiset() -> None:
    """A non-placeholder multiset (black on a commodity disc) is derived from the discs."""
    sun = (0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4)
    table = LayoutTable(sun, solo=False)
    assert 0 < table.total < table.arrangements == math.factorial(12) // (24 * 6 * 2 * 2)
    for index in range(0, table.total, max(1, table.total // 200)):
        assert no_three_in_a_line(table.grid(table.layout(index)))
