"""Dadaocheng grid basics for the heuristic: grids, movements, candidate lines.

A grid is a pair of lists ``(cur, alt)``: the colour each cell shows and the colour on the
other side of its disc. A movement is ``(cell,)`` (a flip) or ``(a, b)`` with ``a < b`` (a
swap); :data:`MOVES` lists all 136 in a fixed order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from formosa_envs.games.dadaocheng.grid import LINES, stocked_spaces

Grid = tuple[list[int], list[int]]
Move = tuple[int, ...]                      # (cell,) a flip, (a, b) a swap with a < b
Rerank = Callable[[Sequence[int]], float]   # purchase-aware value of a hand gain (5 colours)

AXES: tuple[tuple[int, ...], ...] = tuple(LINES[3 * k + 2] for k in range(8))
MOVES: tuple[Move, ...] = tuple([(c,) for c in range(16)]
                                + [(a, b) for a in range(16) for b in range(a + 1, 16)])
MOVE_INDEX: dict[Move, int] = {m: i for i, m in enumerate(MOVES)}
SPACES_OF_LINE: tuple[tuple[int, ...], ...] = tuple(
    tuple(4 * side + k for side, k in stocked_spaces(line)) for line in range(len(LINES)))
YELLOW_RED_GREEN = (3, 0, 2)
LINE_CELL = tuple(line[0] for line in LINES)            # a cell of each line (its colour)
LINE_LENGTH = tuple(len(line) for line in LINES)
LINE_CUBES = tuple(2 if len(line) == 4 else 1 for line in LINES)   # cubes it collects


def lines_of(cur: Sequence[int]) -> list[int]:
    """Candidate line ids of the showing colours ``cur`` (DDC-5.1: maximal runs of 3 or 4)."""
    out = []
    for k, (a, b, c, d) in enumerate(AXES):
        x = cur[b]
        if x == cur[c]:
            if cur[a] == x:
                out.append(3 * k + 2 if cur[d] == x else 3 * k)
            elif cur[d] == x:
                out.append(3 * k + 1)
    return out


_LINES_SEEN: dict[tuple[int, ...], list[int]] = {}


def lines_of_state(state: tuple[int, ...]) -> list[int]:
    """:func:`lines_of` memoised by the showing colours (a tuple; do not change the list)."""
    found = _LINES_SEEN.get(state)
    if found is None:
        if len(_LINES_SEEN) >= 1 << 17:
            _LINES_SEEN.clear()
        found = _LINES_SEEN[state] = lines_of(state)
    return found


def moved(cur: list[int], alt: list[int], move: Move) -> Grid:
    """The grid after one planning movement (DDC-4.1)."""
    cur, alt = cur[:], alt[:]
    if len(move) == 1:
        c = move[0]
        cur[c], alt[c] = alt[c], cur[c]
    else:
        a, b = move
        cur[a], cur[b] = cur[b], cur[a]
        alt[a], alt[b] = alt[b], alt[a]
    return cur, alt


def flipped(cur: list[int], alt: list[int], line: int) -> Grid:
    """The grid after exhausting ``line`` (DDC-5.8)."""
    cur, alt = cur[:], alt[:]
    for c in LINES[line]:
        cur[c], alt[c] = alt[c], cur[c]
    return cur, alt
