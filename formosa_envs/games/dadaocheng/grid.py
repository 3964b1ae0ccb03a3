"""Dadaocheng disc grid: geometry, candidate lines and cascade analysis (pure, stdlib only).

Cells are ``0..15``, ``cell = 4*row + col`` (row 0 = North, col 0 = West). Colours: 0 red,
1 white, 2 green, 3 yellow, 4 black. A *side state* is a 16-bit int: bit ``c`` set means the
disc in cell ``c`` shows its back (``seeds/dadaocheng.md`` DDC-5, DDC-6, R-5, R-6, R-9, R-12).

Line ids: ``12*o + 3*i + v`` with ``o`` 0 = row / 1 = column, ``i`` the row or column index and
``v`` 0 = cells 0-2, 1 = cells 1-3, 2 = cells 0-3 along the line (DDC-5.1, DDC-5.6).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

CORNERS: tuple[int, ...] = (0, 3, 12, 15)
SIDES: tuple[str, ...] = ("S", "W", "N", "E")
SIDE_S, SIDE_W, SIDE_N, SIDE_E = range(4)
NUM_CELLS = 16
NUM_LINES = 24
BLACK = 4

_SPANS: tuple[tuple[int, int], ...] = ((0, 3), (1, 4), (0, 4))


def _make_lines() -> tuple[tuple[int, ...], ...]:
    lines: list[tuple[int, ...]] = []
    for o in range(2):
        for i in range(4):
            for lo, hi in _SPANS:
                lines.append(tuple(4 * i + k if o == 0 else 4 * k + i for k in range(lo, hi)))
    return tuple(lines)


LINES: tuple[tuple[int, ...], ...] = _make_lines()
"""The 24 lines, cells in order along the line (West to East, North to South)."""

LINE_MASKS: tuple[int, ...] = tuple(sum(1 << c for c in line) for line in LINES)
"""Bit mask of each line's cells."""

# The four cells of each row (k = 0..3) and column (k = 4..7), in order along the line.
_AXES: tuple[tuple[int, ...], ...] = tuple(LINES[3 * k + 2] for k in range(8))


def _axis_candidate(colours: Sequence[int]) -> int:
    """The span code v of the maximal run of 3+ in four colours, or -1 when there is none."""
    a, b, c, d = colours
    if b == c and a == b and c == d:
        return 2
    if b == c and a == b:
        return 0
    if b == c and c == d:
        return 1
    return -1


def candidates(colours: Sequence[int]) -> list[int]:
    """Candidate line ids for the 16 showing colours, ascending (DDC-5.1, R-9).

    Each row and column holds at most one candidate: its maximal run of 3 or 4 equal colours;
    a run of 4 is only the length-4 line (``v = 2``).
    """
    if len(colours) != NUM_CELLS:
        raise ValueError(f"expected {NUM_CELLS} colours, got {len(colours)}")
    out: list[int] = []
    for k, axis in enumerate(_AXES):
        v = _axis_candidate([colours[c] for c in axis])
        if v >= 0:
            out.append(3 * k + v)
    return out


def stocked_spaces(line: int) -> list[tuple[int, int]]:
    """(side code, space index) of each end of ``line`` on the grid edge (DDC-5.6, R-7).

    Rows stock W (cells 0-2) and/or E (cells 1-3) space r; columns stock N (rows 0-2) and/or S
    (rows 1-3) space c; a length-4 line stocks both ends (W then E, N then S).
    """
    if not 0 <= line < NUM_LINES:
        raise ValueError(f"line id {line} out of range 0..{NUM_LINES - 1}")
    o, rest = divmod(line, 12)
    i, v = divmod(rest, 3)
    first, last = (SIDE_W, SIDE_E) if o == 0 else (SIDE_N, SIDE_S)
    return [(side, i) for side, touches in ((first, v != 1), (last, v != 0)) if touches]


def showing(faces: Sequence[tuple[int, int]], sides: int) -> list[int]:
    """The 16 showing colours: ``faces[cell][bit c of sides]`` (sun side when the bit is 0)."""
    return [faces[c][(sides >> c) & 1] for c in range(NUM_CELLS)]


def flip_line(sides: int, line: int) -> int:
    """The side state after exhausting ``line``: every disc of the line flipped (DDC-5.8)."""
    return sides ^ LINE_MASKS[line]


def _axis_bits(sides: int, k: int) -> int:
    """The 4 side bits of row k (k < 4) or column k - 4, in order along the line."""
    if k < 4:
        return (sides >> (4 * k)) & 0xF
    j = k - 4
    return ((sides >> j) & 1) | ((sides >> (j + 3)) & 2) | ((sides >> (j + 6)) & 4) | (
        (sides >> (j + 9)) & 8)


def _axis_tables(faces: Sequence[tuple[int, int]]) -> list[list[int]]:
    """For each row/column k, the candidate line id (or -1) for each of its 16 side patterns."""
    tables: list[list[int]] = []
    for k, axis in enumerate(_AXES):
        table = []
        for bits in range(16):
            v = _axis_candidate([faces[c][(bits >> n) & 1] for n, c in enumerate(axis)])
            table.append(3 * k + v if v >= 0 else -1)
        tables.append(table)
    return tables


def state_candidates(faces: Sequence[tuple[int, int]], sides: int) -> list[int]:
    """Candidate line ids of the grid with these faces in this side state."""
    return candidates(showing(faces, sides))


def cascade_can_end(faces: Sequence[tuple[int, int]], start: int) -> dict[int, bool]:
    """For every side state reachable from ``start``, whether the cascade can still end (DDC-6.2).

    A step chooses any candidate line and flips it. A state maps to True when some sequence of
    choices reaches a state without candidate (such states map to True themselves), else False.
    Each state is expanded once (iterative search); "can end" is then spread backwards from the
    terminal states over the reverse graph.
    """
    if len(faces) != NUM_CELLS:
        raise ValueError(f"expected {NUM_CELLS} faces, got {len(faces)}")
    tables = _axis_tables(faces)
    masks = LINE_MASKS
    parents: dict[int, list[int]] = {start: []}
    terminal: list[int] = []
    stack = [start]
    while stack:
        state = stack.pop()
        has_line = False
        for k in range(8):
            line = tables[k][_axis_bits(state, k)]
            if line < 0:
                continue
            has_line = True
            nxt = state ^ masks[line]
            back = parents.get(nxt)
            if back is None:
                parents[nxt] = [state]
                stack.append(nxt)
            else:
                back.append(state)
        if not has_line:
            terminal.append(state)
    can_end = dict.fromkeys(parents, False)
    queue = deque(terminal)
    for state in terminal:
        can_end[state] = True
    while queue:
        state = queue.popleft()
        for prev in parents[state]:
            if not can_end[prev]:
                can_end[prev] = True
                queue.append(prev)
    return can_end


def no_three_in_a_line(colours: Sequence[int]) -> bool:
    """Multiplayer layout condition (R-5): no row or column has 3 consecutive equal colours."""
    return not candidates(colours)


def groups_at_most_two(colours: Sequence[int]) -> bool:
    """Solo layout condition (R-6): no orthogonally connected same-colour group of 3+ cells.

    A connected group of 3 or more always contains a cell with two same-colour neighbours, and
    conversely, so checking every cell's neighbours is enough.
    """
    if len(colours) != NUM_CELLS:
        raise ValueError(f"expected {NUM_CELLS} colours, got {len(colours)}")
    for cell in range(NUM_CELLS):
        same = sum(colours[n] == colours[cell] for n in NEIGHBOURS[cell])
        if same >= 2:
            return False
    return True


def _neighbours(cell: int) -> tuple[int, ...]:
    r, c = divmod(cell, 4)
    steps = ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
    return tuple(4 * rr + cc for rr, cc in steps if 0 <= rr < 4 and 0 <= cc < 4)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(c) for c in range(NUM_CELLS))
"""Orthogonal neighbours of each cell, ascending."""
