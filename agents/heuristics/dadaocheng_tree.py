"""Dadaocheng purchase sets for the heuristic's plans, in a fixed search order.

:func:`purchase_tree` lists every set of items a hand might buy, depth first (see
:func:`tree_shape`), with each set's total cost, worth, where the search goes on when the
hand cannot pay it and the most any set skipped with it is worth. The shape of a tree
depends only on how many times each item may be bought, so it and the per-set item
counts are built once per shape (numpy); costs and worths are then a few array operations.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

Tree = tuple[list[list[int]], list[float], list[int], list[float], int]
Shape = tuple[list[int], list[tuple[int, int]], list[int]]


@lru_cache(maxsize=64)
def tree_shape(counts: tuple[int, ...]) -> Shape:
    """The purchase sets of items buyable ``counts`` times each, in search order: the set
    each extends (-1: none), the (item j, count - 1) it adds, and where to go on.

    Sets grow depth first: item ``j`` is added 1, 2, ... times, each followed by the sets
    that add items after ``j``. A cost the hand cannot pay stays unpayable when items are
    added, so an unpayable set skips its own extensions and the larger counts of its item.
    """
    parents: list[int] = []
    picks: list[tuple[int, int]] = []
    skips: list[int] = []

    def grow(i: int, parent: int) -> None:
        for j in range(i, len(counts)):
            group = []
            for k in range(counts[j]):
                group.append(len(parents))
                parents.append(parent)
                picks.append((j, k))
                skips.append(-1)
                grow(j + 1, len(parents) - 1)
            for g in group:
                skips[g] = len(parents)

    grow(0, -1)
    return parents, picks, skips


@lru_cache(maxsize=64)
def _shape_arrays(counts: tuple[int, ...]) -> dict[str, Any]:
    """Arrays of a shape: per set the item counts, its parent, its value slot (the flat
    index of ``values[k]`` of item ``j``), the sets of each depth, and the skip ranges."""
    parents, picks, skips = tree_shape(counts)
    n = len(parents)
    mult = np.zeros((n, len(counts)), dtype=np.int64)
    depth = np.zeros(n, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    slot = np.zeros(n, dtype=np.int64)
    for i, (parent, (j, k)) in enumerate(zip(parents, picks, strict=True)):
        if parent >= 0:
            mult[i] = mult[parent]
            depth[i] = depth[parent] + 1
        mult[i, j] += k + 1
        slot[i] = offsets[j] + k
    levels = [np.flatnonzero(depth == d) for d in range(int(depth.max(initial=-1)) + 1)]
    return {"mult": mult, "parent": np.array(parents, dtype=np.int64), "slot": slot,
            "levels": levels, "start": np.arange(1, n + 1), "stop": np.array(skips),
            "skips": skips}


def _range_max(values: np.ndarray, start: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """max(values[start:stop]) for each pair (-inf for an empty range), by a sparse table:
    row ``lv`` holds the max of each run of 2 ** lv values (-inf past the end)."""
    n = len(values)
    table = [np.concatenate([values, [-math.inf]])]
    while 2 ** len(table) <= n:
        prev, half = table[-1], 2 ** (len(table) - 1)
        row = np.full(n + 1, -math.inf)
        row[:n + 1 - half] = np.maximum(prev[:n + 1 - half], prev[half:])
        table.append(row)
    grid = np.stack(table)
    size = np.maximum(stop - start, 1)
    level = np.log2(size).astype(np.int64)          # floor: the largest run inside
    left = grid[level, np.minimum(start, n)]
    right = grid[level, np.maximum(stop - (1 << level), 0)]
    return np.where(stop > start, np.maximum(left, right), -math.inf)


def purchase_tree(costs: Sequence[Sequence[int]], values: Sequence[Sequence[float]]) -> Tree:
    """Every purchase set of the items (their costs, and ``values[j][k]``: the worth of
    buying k + 1 of item j) in search order, as parallel lists: its total cost, its worth,
    where to go on when the hand cannot pay it, and the most any set skipped with it is
    worth; and the largest count of one colour in any total. A set's worth is its parent's
    plus its own ``values[j][k]``, added in that order."""
    counts = tuple(len(v) for v in values)
    arrays = _shape_arrays(counts)
    if not len(arrays["parent"]):
        return [], [], [], [], 0
    cost = np.array(costs, dtype=np.int64).reshape(len(counts), 4)
    total = arrays["mult"] @ cost
    flat = np.array([x for v in values for x in v], dtype=np.float64)[arrays["slot"]]
    worth = np.zeros(len(flat) + 1)          # the last slot is the empty set's 0.0
    parent = arrays["parent"]
    for level in arrays["levels"]:
        worth[level] = worth[parent[level]] + flat[level]
    worth = worth[:-1]
    reach = _range_max(worth, arrays["start"], arrays["stop"])
    return total.tolist(), worth.tolist(), arrays["skips"], reach.tolist(), int(total.max())


@lru_cache(maxsize=4096)
def chosen(counts: tuple[int, ...], node: int) -> tuple[tuple[int, int], ...]:
    """The (item, times) picks of set ``node`` of a tree of ``counts``, in the order they
    were added (each item once, bought ``times`` times)."""
    parents, picks, _ = tree_shape(counts)
    out: list[tuple[int, int]] = []
    while node >= 0:
        j, k = picks[node]
        out[:0] = [(j, k + 1)]
        node = parents[node]
    return tuple(out)


SHORT_SHIFT, BLACK_SHIFT = 30, 24


@lru_cache(maxsize=4096)
def cube_codes(colour: int, have: int, top: int, black: int | None = None) -> list[int]:
    """For costs 0..``top`` of one colour against ``have`` cubes of it: the spare cubes
    (6 bits at ``6 * colour``) plus the missing ones (from bit 30), as one int; with
    ``black`` also the hand's blacks (+ 32, 6 bits at 24). Summed over the four colours
    they name a (spare cubes, missing units) pair: see :func:`decode`."""
    extra = (black + 32) << BLACK_SHIFT if black is not None else 0
    return [((have - t if have > t else 0) << 6 * colour)
            + ((t - have if t > have else 0) << SHORT_SHIFT) + extra for t in range(top + 1)]


def decode(code: int) -> tuple[tuple[int, ...], int]:
    """The (spare cubes of 5 colours, missing units) that :func:`cube_codes` sum to."""
    spare = (code & 63, code >> 6 & 63, code >> 12 & 63, code >> 18 & 63,
             (code >> BLACK_SHIFT & 63) - 32)
    return spare, code >> SHORT_SHIFT
