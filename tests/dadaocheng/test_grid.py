"""Tests of the Dadaocheng grid geometry and cascade analysis (``grid.py``).

Rules: ``seeds/dadaocheng.md`` DDC-5.1 (candidates, R-9), DDC-5.6 (stocking, R-7), DDC-5.8
(exhaustion), DDC-6.2 (the cascade cannot end, R-12) and the setup conditions R-5 / R-6.
"""

from __future__ import annotations

import random

import pytest

from formosa_envs.games.dadaocheng.grid import (
    CORNERS,
    LINES,
    SIDES,
    candidates,
    cascade_can_end,
    flip_line,
    groups_at_most_two,
    no_three_in_a_line,
    showing,
    stocked_spaces,
)

R, W, G, Y, K = range(5)
S_, W_, N_, E_ = (SIDES.index(s) for s in "SWNE")

# §4.1 placeholder discs: (sun colour, back colour).
DISCS = {
    "D01": (K, R), "D02": (K, W), "D03": (K, G), "D04": (K, Y),
    "D05": (R, W), "D06": (R, G), "D07": (R, K), "D08": (W, Y),
    "D09": (W, G), "D10": (W, K), "D11": (G, R), "D12": (G, W),
    "D13": (G, Y), "D14": (Y, R), "D15": (Y, G), "D16": (Y, K),
}

# Filler: a G/Y checkerboard has no run of 3 anywhere.
FILLER = [G if (c // 4 + c % 4) % 2 == 0 else Y for c in range(16)]


def paint(*groups: tuple[int, tuple[int, ...]]) -> list[int]:
    """The filler grid with the given cells painted in the given colours."""
    grid = list(FILLER)
    for colour, cells in groups:
        for c in cells:
            grid[c] = colour
    return grid


def scenario(text: str) -> tuple[list[tuple[int, int]], int]:
    """Faces and side state of a §4.1 scenario: ``Dnn`` sun side up, ``Dnn*`` back up."""
    tokens = text.replace("/", " ").split()
    assert len(tokens) == 16
    faces = [DISCS[t.rstrip("*")] for t in tokens]
    sides = sum(1 << c for c, t in enumerate(tokens) if t.endswith("*"))
    return faces, sides


LOOP_3X3 = "D01 D02 D04 D05 / D07* D10* D16* D08 / D11 D12 D13 D14 / D09 D15 D06 D03"
LOOP_3X4 = "D07 D01* D06 D11* / D10 D02* D09 D12* / D16 D04* D15 D13* / D05 D08 D14 D03"


def test_line_table() -> None:
    """24 lines, id = 12*o + 3*i + v, cells in order along the line (DDC-5.1)."""
    assert CORNERS == (0, 3, 12, 15) and SIDES == ("S", "W", "N", "E")
    assert len(LINES) == 24
    assert LINES[0] == (0, 1, 2) and LINES[1] == (1, 2, 3) and LINES[2] == (0, 1, 2, 3)
    assert LINES[3 * 2 + 1] == (9, 10, 11)
    assert LINES[12] == (0, 4, 8) and LINES[13] == (4, 8, 12) and LINES[14] == (0, 4, 8, 12)
    assert LINES[12 + 3 * 3 + 2] == (3, 7, 11, 15)


def test_candidates_none_on_filler() -> None:
    assert candidates(FILLER) == []


@pytest.mark.parametrize(("grid", "expected"), [
    (paint((R, (0, 1, 2))), [0]),  # row 0 cells 0-2
    (paint((R, (13, 14, 15))), [10]),  # row 3 cells 1-3
    (paint((W, (8, 9, 10, 11))), [8]),  # a run of 4 is only v = 2
    (paint((K, (3, 7, 11, 15))), [23]),  # black counts, column of 4
    (paint((R, (5, 9, 13))), [16]),  # column 1 rows 1-3
    (paint((R, (0, 1, 2)), (R, (5, 9))), [0, 15]),  # T: row 0 and column 1 rows 0-2
    (paint((R, (0, 1, 2)), (R, (4, 8))), [0, 12]),  # L sharing corner cell 0
    (paint((R, (4, 5, 6)), (R, (1, 9))), [3, 15]),  # cross on cell 5
    (paint((W, (4, 5, 6, 7)), (W, (1, 9, 13))), [5, 17]),  # row of 4 crossed by a column of 4
    (paint((R, (0, 1)), (R, (3,))), []),  # R R G R: not consecutive
])
def test_candidates_shapes(grid: list[int], expected: list[int]) -> None:
    """Maximal runs of 3 or 4 per row/column; T, L and cross give two candidates (R-9)."""
    assert candidates(grid) == expected


def test_stocked_spaces_table() -> None:
    """The DDC-5.6 table: W/E space r for rows, N/S space c for columns."""
    for i in range(4):
        assert stocked_spaces(3 * i) == [(W_, i)]
        assert stocked_spaces(3 * i + 1) == [(E_, i)]
        assert stocked_spaces(3 * i + 2) == [(W_, i), (E_, i)]
        assert stocked_spaces(12 + 3 * i) == [(N_, i)]
        assert stocked_spaces(12 + 3 * i + 1) == [(S_, i)]
        assert stocked_spaces(12 + 3 * i + 2) == [(N_, i), (S_, i)]
    for line, cells in enumerate(LINES):  # a line of 3 touches exactly one edge
        assert len(stocked_spaces(line)) == len(cells) - 2
    with pytest.raises(ValueError):
        stocked_spaces(24)


def test_showing_and_flip_line() -> None:
    """Exhaustion flips every disc of the line (DDC-5.8); flipping twice restores the state."""
    assert flip_line(0, 2) == 0b1111
    assert flip_line(0, 12) == (1 << 0) | (1 << 4) | (1 << 8)
    assert flip_line(flip_line(0x1234, 7), 7) == 0x1234
    faces = [DISCS[f"D{n:02d}"] for n in range(1, 17)]
    assert showing(faces, 0) == [f[0] for f in faces]
    assert showing(faces, 0xFFFF) == [f[1] for f in faces]
    assert showing(faces, flip_line(0, 0))[:4] == [R, W, G, K]


def test_scenario_colours() -> None:
    """The showing colours printed in §4.1 for both loop scenarios."""
    faces, sides = scenario(LOOP_3X3)
    assert showing(faces, sides) == [K, K, K, R, K, K, K, W, G, G, G, Y, W, Y, R, K]
    faces, sides = scenario(LOOP_3X4)
    assert showing(faces, sides) == [R] * 4 + [W] * 4 + [Y] * 4 + [R, W, Y, K]


@pytest.mark.parametrize("text", [LOOP_3X3, LOOP_3X4], ids=["3x3", "3x4"])
def test_loop_scenarios_cannot_end(text: str) -> None:
    """DDC-6.2 / R-12: in both printed loops no sequence of choices ends the cascade."""
    faces, sides = scenario(text)
    assert candidates(showing(faces, sides))
    can_end = cascade_can_end(faces, sides)
    assert can_end[sides] is False
    assert not any(can_end.values())


def test_finite_cascade_can_end() -> None:
    """A red line whose discs have different backs: one collection, then no line."""
    faces, sides = scenario("D05 D06 D07 D01 / D08 D09 D11 D14 / D12 D15 D02 D10 / D03 D13 D16 D04")
    assert candidates(showing(faces, sides)) == [0]
    after = flip_line(sides, 0)
    assert candidates(showing(faces, after)) == []
    assert cascade_can_end(faces, sides) == {sides: True, after: True}


def test_choice_between_exit_and_trap() -> None:
    """Start offers row 0 (to a state without lines) and column 0 (into a closed 2-cycle)."""
    faces = [(G, G)] * 16
    faces[0], faces[1], faces[2] = (R, W), (R, G), (R, Y)
    faces[4], faces[8], faces[5], faces[6] = (R, K), (R, Y), (K, R), (K, R)
    for cell, colour in zip((3, 7, 9, 10, 11, 12, 13, 14, 15), (G, Y, G, W, G, W, Y, G, W),
                            strict=True):
        faces[cell] = (colour, colour)
    start = 0
    assert candidates(showing(faces, start)) == [0, 12]
    exit_state, trap = flip_line(start, 0), flip_line(start, 12)
    trap2 = flip_line(trap, 3)
    assert cascade_can_end(faces, start) == {
        start: True, exit_state: True, trap: False, trap2: False}


def test_uniform_colour_faces() -> None:
    """All discs red on both sides: every state has 8 lines of 4; 128 states, none ends."""
    can_end = cascade_can_end([(R, R)] * 16, 0)
    assert len(can_end) == 128 and not any(can_end.values())


def test_no_lines_maps_to_true() -> None:
    faces = [(c, c) for c in FILLER]
    assert cascade_can_end(faces, 0) == {0: True}


def _naive_can_end(faces: list[tuple[int, int]], start: int) -> dict[int, bool]:
    """Reference: reachable set by recursion, then a fixed point of "some successor ends"."""
    succ: dict[int, list[int]] = {}

    def visit(s: int) -> None:
        if s in succ:
            return
        succ[s] = [flip_line(s, ln) for ln in candidates(showing(faces, s))]
        for t in succ[s]:
            visit(t)

    visit(start)
    ends = {s for s, nxt in succ.items() if not nxt}
    changed = True
    while changed:
        changed = False
        for s, nxt in succ.items():
            if s not in ends and any(t in ends for t in nxt):
                ends.add(s)
                changed = True
    return {s: s in ends for s in succ}


def test_against_naive_reference() -> None:
    """Random two-colour grids (dense lines, loops and exits) agree with a naive reference."""
    rng = random.Random(7)
    mixed = 0
    for _ in range(150):
        faces = [(rng.randrange(2), rng.randrange(3)) for _ in range(16)]
        start = rng.getrandbits(16)
        result = cascade_can_end(faces, start)
        assert result == _naive_can_end(faces, start)
        mixed += len(set(result.values())) == 2
    assert mixed > 0


def test_setup_conditions() -> None:
    """R-5: no 3 consecutive in a row/column; R-6: no connected group of 3+ (L shapes too)."""
    assert no_three_in_a_line(FILLER) and groups_at_most_two(FILLER)
    line = paint((R, (4, 5, 6)))
    assert not no_three_in_a_line(line) and not groups_at_most_two(line)
    ell = paint((R, (4, 5, 9)))  # an L of 3: allowed with 2-4 players, not solo
    assert no_three_in_a_line(ell) and not groups_at_most_two(ell)
    pair = paint((R, (4, 5)), (R, (10,)))  # a pair and a diagonal: both allowed
    assert no_three_in_a_line(pair) and groups_at_most_two(pair)
    column = paint((W, (7, 11, 15)))
    assert not no_three_in_a_line(column)
