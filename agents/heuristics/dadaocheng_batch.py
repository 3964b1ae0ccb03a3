"""Dadaocheng planning with numpy: every grid after the movements, rated all at once.

* :func:`final_grids` applies every pair of movements (16 flips + 120 swaps each) and keeps
  the distinct grids that hold a line, in the order of their first way to be reached.
* :func:`rate_grids` runs the greedy cascade of many grids at once (the same values as
  :meth:`.dadaocheng_plan.Scorer.search` with no budget left).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from formosa_envs.games.dadaocheng.grid import LINES

from .dadaocheng_moves import AXES, MOVE_INDEX, MOVES, SPACES_OF_LINE, Move

if TYPE_CHECKING:
    from .dadaocheng_plan import Scorer


def _move_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per movement: the cell each cell's disc comes from, and which cell is flipped."""
    perm = np.tile(np.arange(16), (len(MOVES), 1))
    flip = np.zeros((len(MOVES), 16), dtype=bool)
    for i, m in enumerate(MOVES):
        if len(m) == 1:
            flip[i, m[0]] = True
        else:
            perm[i, m[0]], perm[i, m[1]] = m[1], m[0]
    return perm, flip


_PERM, _FLIP = _move_tables()
_AXIS_CELLS = np.array(AXES).T            # 4 x 8: the k-th cell of each row and column


def _after(cur: np.ndarray, alt: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, ...]:
    """Grids (..., len(moves), 16) after each of ``moves`` from grids (..., 16)."""
    perm, flip = _PERM[moves], _FLIP[moves]
    c, a = cur[..., perm], alt[..., perm]
    return np.where(flip, a, c), np.where(flip, c, a)


_MOVE_A = np.array([m[0] for m in MOVES])          # a flip's cell, a swap's lower cell
_MOVE_B = np.array([m[-1] for m in MOVES])         # a flip's cell, a swap's upper cell
_IS_SWAP = np.array([len(m) == 2 for m in MOVES])
_BYTES = np.uint32(0x01010101)
_HIGH = np.uint32(0x80808080)


def _has_line(cur: np.ndarray) -> np.ndarray:
    """Whether each grid (..., 16 int8 colours 0-7) holds a candidate line, on each row's
    four cells as one uint32 (byte k = column k): a row has one when its first or last
    three bytes match; a column when bytes k of three rows in a row match (some byte of
    the OR of two row differences is zero)."""
    r = np.ascontiguousarray(cur, dtype=np.int8).view(np.uint32)
    step = r ^ (r >> np.uint32(8))
    rows = ((step & np.uint32(0xFFFF)) == 0) | ((step & np.uint32(0xFFFF00)) == 0)
    d01, d12, d23 = r[..., 0] ^ r[..., 1], r[..., 1] ^ r[..., 2], r[..., 2] ^ r[..., 3]
    cols = _zero_byte(d01 | d12) | _zero_byte(d12 | d23)
    return rows[..., 0] | rows[..., 1] | rows[..., 2] | rows[..., 3] | cols


def _zero_byte(v: np.ndarray) -> np.ndarray:
    """Whether some byte of each uint32 is zero (exact: borrows start at a zero byte)."""
    return ((v - _BYTES) & ~v & _HIGH) != 0


def _second_shown(c: np.ndarray, a: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The showing colours (F x S x 16) after each of ``second`` from grids ``c``/``a``:
    a flip shows the cell's other side, a swap exchanges two cells."""
    shown = np.repeat(c[:, None, :], len(second), axis=1)
    swap = _IS_SWAP[second]
    jf = np.flatnonzero(~swap)
    cells = _MOVE_A[second[jf]]
    shown[:, jf, cells] = a[:, cells]
    js = np.flatnonzero(swap)
    lo, hi = _MOVE_A[second[js]], _MOVE_B[second[js]]
    shown[:, js, lo] = c[:, hi]
    shown[:, js, hi] = c[:, lo]
    return shown


def _second_other(c: np.ndarray, a: np.ndarray, grid: np.ndarray,
                  move: np.ndarray) -> np.ndarray:
    """The other sides (H x 16) of grids ``grid`` of ``c``/``a`` after one movement each."""
    other = a[grid]
    swap = _IS_SWAP[move]
    lo, hi, rows = _MOVE_A[move], _MOVE_B[move], np.arange(len(move))
    f = ~swap
    other[rows[f], lo[f]] = c[grid[f], lo[f]]
    other[rows[swap], lo[swap]] = a[grid[swap], hi[swap]]
    other[rows[swap], hi[swap]] = a[grid[swap], lo[swap]]
    return other


_LINE_MASK = np.array([[c in line for c in range(16)] for line in LINES])
_LINE_SPACES = np.array([list(sp) + [-1] * (2 - len(sp)) for sp in SPACES_OF_LINE])
_PLACES = np.int64(1) << (np.arange(16, dtype=np.int64) * 3)
_POW4 = 4 ** np.arange(5, dtype=np.int64)
_DECODE = np.array([[code // 4 ** c % 4 for c in range(5)] for code in range(4 ** 5)],
                   dtype=np.int64)
"""A storehouse space as one int, its cubes of colour c in base-4 digit c; the cubes."""
_CUBES = _DECODE.sum(axis=1)
_FLIP_BITS = np.where(_LINE_MASK, -1, 0).astype(np.int8)   # all bits set on a line's cells
_GAIN_CUBES = np.array([2 if len(line) == 4 else 1 for line in LINES])
_SPAN = np.array([-1, 0, 1, 2])
"""Line offset in its row or column by run code: 1 the first three cells, 2 the last
three, 3 all four (:func:`_greedy_lines`)."""


def _state_ids(cur: np.ndarray) -> np.ndarray:
    """One int per grid (N x 16 int8, colours 0-7) naming its showing colours: the two
    halves' bytes as uint64, the second shifted 3 bits (so no byte overlaps)."""
    halves = cur.view(np.uint64)
    return halves[:, 0] | (halves[:, 1] << np.uint64(3))


def _pack(cur: np.ndarray) -> np.ndarray:
    """Each grid's showing colours (..., 16) as one int (3 bits a cell), as one product
    with the cells' place values (the same integers as shifting and summing, faster)."""
    return cur @ _PLACES


def rate_grids(scorer: Scorer, cur: np.ndarray, alt: np.ndarray, steps: int = 64) -> np.ndarray:
    """Greedy cascade value of each grid (N x 16 arrays), all grids at once: every step
    collects the line worth most now (weight x length; ties to the lower line id), a
    repeated state ends in the loop reward, and the storehouses are settled at the end.

    Only the grids still cascading are kept in the working arrays (``rows`` names them);
    a grid that ends leaves its storehouses in ``final``."""
    w, owner = np.array(scorer.weights), np.array(scorer.owner)
    spaces = np.where((_LINE_SPACES >= 0) & (owner[_LINE_SPACES] != 0), _LINE_SPACES, -1).T
    start = np.array(scorer.store, dtype=np.int64).reshape(16, 5) @ _POW4
    final = np.repeat(start[None], len(cur), axis=0)
    value, rows = np.zeros(len(cur)), np.arange(len(cur))
    cur, alt, store = cur.astype(np.int8), alt.astype(np.int8), final.copy()
    keys = np.concatenate([np.full(5, -1.0), w * 3, w * 3, w * 4])   # by 5 x run code + colour
    history = _state_ids(cur)[None]
    for _ in range(steps):
        line, colour, has = _greedy_lines(cur, keys)
        if not has.all():
            final[rows[~has]] = store[~has]
            rows, cur, alt, store, history = (rows[has], cur[has], alt[has], store[has],
                                              history[:, has])
        if not len(rows):
            break
        value[rows] += w[colour] * _GAIN_CUBES[line]
        _stock(store, spaces, line, colour)
        swap = (cur ^ alt) & _FLIP_BITS[line]
        cur ^= swap
        alt ^= swap
        packed = _state_ids(cur)
        again = (history == packed).any(axis=0)
        if again.any():
            value[rows[again]] += scorer.loop_value
            final[rows[again]] = 0
            go = ~again
            rows, cur, alt, store = rows[go], cur[go], alt[go], store[go]
            history, packed = history[:, go], packed[go]
        history = np.concatenate([history, packed[None]])
    else:
        final[rows] = store
    return value + _settle_all(scorer, final, w)


def _greedy_lines(cur: np.ndarray, keys: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the grids that hold a line: the line to collect (the highest ``keys``: weight x
    length, ties to the lower id) and its colour; and which grids (of all ``cur``) hold one.
    Each row and column gets a run code: 1 its first three cells match, 2 its last three,
    3 all four, 0 none."""
    a, b, c, d = cur[:, _AXIS_CELLS].transpose(1, 0, 2)
    middle = b == c
    code = (middle & (a == b)).view(np.int8) | ((middle & (c == d)).view(np.int8) << 1)
    has = code.any(axis=1)
    if not has.all():
        code, b = code[has], b[has]
    k = np.take(keys, code * 5 + b).argmax(axis=1)
    rows = np.arange(len(k))
    return 3 * k + _SPAN[code[rows, k]], b[rows, k], has


def _stock(store: np.ndarray, spaces: np.ndarray, line: np.ndarray,
           colour: np.ndarray) -> None:
    """Stocking and corruption (DDC-5.6, 5.7) for each grid's collected line, in place:
    ``store`` holds each grid's spaces as base-4 codes, ``spaces[slot, line]`` a stocked
    space of the line (-1: none, or never stocked)."""
    for slot in range(2):
        space = spaces[slot, line]
        ok = space >= 0
        rows = np.flatnonzero(ok)
        if not len(rows):
            continue
        space = space[rows]
        new = store[rows, space] + _POW4[colour[rows]]
        store[rows, space] = np.where(_CUBES[new] >= 3, 0, new)


def _settle_all(scorer: Scorer, store: np.ndarray, w: np.ndarray) -> np.ndarray:
    """:meth:`Scorer.settle`'s storehouse value for every grid's storehouses (N x 16 base-4
    codes). A space's value is its cubes (``_DECODE``) times the weights, one product per
    code; the same numbers as multiplying each grid's N x 16 x 5 counts by the weights."""
    values = (_DECODE @ w)[store]
    total = np.zeros(len(store))
    for group in scorer.groups:
        if not group:
            continue
        spaces, sign = list(group), scorer.owner[group[0]]
        total += sign * scorer.store_weight * values[:, spaces].sum(axis=1)
        full = (store[:, spaces] > 0).all(axis=1)
        total += sign * (1 - scorer.store_weight) * values[:, spaces].max(axis=1) * full
    return total


def final_grids(cur: list[int], alt: list[int], firsts: Sequence[Move],
                seconds: Sequence[Move]) -> dict[tuple[int, ...], tuple[Move, ...]]:
    """Distinct grids holding a line after the movements, with the first movements to them.

    Each of ``firsts`` is followed by each of ``seconds``; with no ``seconds`` the first
    movement is the last one. Grids keep the order of their first way to be reached.
    """
    keys, ways = final_table(cur, alt, firsts, seconds)
    return {tuple(row): ways(k) for k, row in enumerate(keys.tolist())}


def final_table(cur: list[int], alt: list[int], firsts: Sequence[Move], seconds: Sequence[Move]
                ) -> tuple[np.ndarray, Callable[[int], tuple[Move, ...]]]:
    """:func:`final_grids` as arrays: the grids (K x 32, showing colours then the other
    sides) and a function from a grid's row to the movements that first reach it."""
    first = np.array([MOVE_INDEX[m] for m in firsts])
    c, a = _after(np.array(cur, dtype=np.int8), np.array(alt, dtype=np.int8), first)
    if seconds:
        second = np.array([MOVE_INDEX[m] for m in seconds])
        shown = _second_shown(c, a, second)     # the other sides only for hits (below)
    else:
        second = np.zeros(1, dtype=int)
        shown = c[:, None]
    hit_i, hit_j = np.nonzero(_has_line(shown))
    if not len(hit_i):
        return np.zeros((0, 32), dtype=np.int8), _no_way
    other = _second_other(c, a, hit_i, second[hit_j]) if seconds else a[hit_i]
    keys = np.concatenate([shown[hit_i, hit_j], other], axis=1)
    where = _first_of_each(keys)
    m1, m2 = first[hit_i[where]].tolist(), second[hit_j[where]].tolist()

    def ways(k: int) -> tuple[Move, ...]:
        return (MOVES[m1[k]], MOVES[m2[k]]) if seconds else (MOVES[m1[k]],)

    return keys[where], ways


def _no_way(k: int) -> tuple[Move, ...]:
    raise IndexError(f"no final grid {k}: no movements make a line")


def _first_of_each(keys: np.ndarray) -> np.ndarray:
    """Ascending indices of the first occurrence of each distinct row of ``keys`` (N x 32)."""
    k1, k2 = _pack(keys[:, :16]), _pack(keys[:, 16:])
    order = np.lexsort((k2, k1))               # stable: equal rows keep their order
    s1, s2 = k1[order], k2[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = (s1[1:] != s1[:-1]) | (s2[1:] != s2[:-1])
    return np.sort(order[new])
