"""Dadaocheng planning for the heuristic: the two movements and the cascade's line choices.

A grid is a pair of lists ``(cur, alt)``: the colour each cell shows and the colour on the
other side of its disc. Discs do not move during a cascade and a disc's two sides differ,
so within a cascade ``cur`` alone identifies a grid state (the repetition check, DDC-6.3).

* :class:`Scorer` values a cascade path: each collected cube at its colour weight, the
  storehouse left behind (cubes on one's own spaces are worth ``store_weight`` of their
  value, on an opponent's they count against, times ``deny``), the Full House it makes
  (DDC-7) and, when the path revisits a grid state, the loop reward (DDC-6.4).
* The cascade is searched depth first, lines tried best-first (weight x length); past a
  node budget only that greedy line is followed. :func:`rate_grids` runs the greedy
  cascade of many grids at once with numpy (the same values as a search with no budget).
* :func:`best_movements` applies every pair of movements (16 flips + 120 swaps each) with
  numpy, keeps the distinct grids that hold a line, rates them all greedily, searches the
  best ``deep`` of them more widely and reranks the best ``wide`` with the caller's
  purchase-aware value of the cubes gained (about 10 ms a first movement).
* :func:`best_line` searches the rest of the cascade after each candidate line, with the
  cascade's history for the repetition check.
"""


from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from formosa_envs.games.dadaocheng.grid import LINES

from .dadaocheng_batch import final_grids, final_table, rate_grids
from .dadaocheng_moves import (
    AXES,
    LINE_CELL,
    LINE_CUBES,
    LINE_LENGTH,
    MOVE_INDEX,
    MOVES,
    SPACES_OF_LINE,
    YELLOW_RED_GREEN,
    Grid,
    Move,
    Rerank,
    flipped,
    lines_of,
    lines_of_state,
    moved,
)

__all__ = ["AXES", "MOVES", "MOVE_INDEX", "SPACES_OF_LINE", "Grid", "Move", "Rerank",
           "Scorer", "best_line", "best_movements", "final_grids", "flipped", "lines_of",
           "moved", "rank_movements", "rate_grids"]

@dataclass
class Scorer:
    """Values of cascade paths for the active seat (see the module docstring).

    ``owner[space]`` is 1 for the active seat's spaces, ``-deny`` for an opponent's and 0
    for spaces never stocked (covered sides and Stores); ``groups`` lists each player's
    stockable spaces, the active seat's first.
    """

    weights: list[float]
    owner: list[float]
    groups: list[tuple[int, ...]]
    store: list[tuple[int, ...]]
    store_weight: float = 0.35
    loop_value: float = 6.0
    budget: int = 60
    nodes: int = 0
    memo: dict[tuple[int, ...], tuple[float, tuple[int, ...]]] = field(default_factory=dict)
    space_memo: dict[tuple[int, ...], float] = field(default_factory=dict)
    settle_memo: dict[tuple[tuple[int, ...], ...], tuple[float, tuple[int, ...]]] = field(
        default_factory=dict)
    base: tuple[float, tuple[int, ...]] | None = None

    def gain(self, cur: Sequence[int], line: int) -> tuple[float, int, int]:
        """(value, colour, cubes) of collecting ``line`` (DDC-5.5)."""
        colour, cubes = cur[LINES[line][0]], 2 if len(LINES[line]) == 4 else 1
        return self.weights[colour] * cubes, colour, cubes

    def _first(self, option: tuple[tuple[float, int, int], int]) -> tuple[float, int]:
        """Order of trying lines: weight x length, highest first, then the lower id."""
        (_, colour, _), line = option
        return -self.weights[colour] * len(LINES[line]), line

    def stocked(self, store: list[tuple[int, ...]], line: int,
                colour: int) -> list[tuple[int, ...]]:
        """Storehouses after stocking ``line`` and corruption (DDC-5.6, DDC-5.7)."""
        out = store
        for sp in SPACES_OF_LINE[line]:
            if self.owner[sp]:
                if out is store:
                    out = store[:]
                cubes = list(out[sp])
                cubes[colour] += 1
                out[sp] = (0,) * 5 if sum(cubes) >= 3 else tuple(cubes)
        return out

    def worth(self, cubes: Sequence[int]) -> float:
        """Weighted value of some cubes."""
        return sum(w * n for w, n in zip(self.weights, cubes, strict=False))

    def _space(self, cubes: tuple[int, ...]) -> float:
        found = self.space_memo.get(cubes)
        if found is None:
            found = self.space_memo[cubes] = self.worth(cubes)
        return found

    def settle(self, store: list[tuple[int, ...]]) -> tuple[float, tuple[int, ...]]:
        """Storehouse value at the end of the cascade, Full Houses taken; own Full House cubes
        (memoised by the storehouses' contents)."""
        if store is self.store and self.base is not None:
            return self.base
        key = tuple(store)
        found = self.settle_memo.get(key)
        if found is None:
            found = self.settle_memo[key] = self._settle(store)
        return found

    def _settle(self, store: list[tuple[int, ...]]) -> tuple[float, tuple[int, ...]]:
        total, mine = 0.0, (0,) * 5
        for i, group in enumerate(self.groups):
            if not group:
                continue
            values = [self._space(store[sp]) for sp in group]
            sign = self.owner[group[0]]
            total += sign * self.store_weight * sum(values)
            if all(values):
                best = max(range(len(group)), key=values.__getitem__)
                total += sign * (1 - self.store_weight) * values[best]
                if i == 0:
                    mine = store[group[best]]
        if store is self.store:
            self.base = (total, mine)
        return total, mine

    def search(self, grid: Grid, seen: set[tuple[int, ...]],
               budget: int) -> tuple[float, tuple[int, ...]]:
        """Best (value, cubes gained) of the cascade from ``grid`` with states ``seen``."""
        self.budget, self.nodes = budget, 0
        return self._walk(grid[0], grid[1], self.store, seen, (0,) * 5)

    def _walk(self, cur: list[int], alt: list[int], store: list[tuple[int, ...]],
              seen: set[tuple[int, ...]], got: tuple[int, ...],
              state: tuple[int, ...] | None = None) -> tuple[float, tuple[int, ...]]:
        lines = lines_of_state(tuple(cur) if state is None else state)
        if not lines:
            value, extra = self.settle(store)
            return value, tuple(g + e for g, e in zip(got, extra, strict=True))
        self.nodes += 1
        weights, options = self.weights, []
        for line in lines:   # tried in the order of ``_first``: weight x length, then the id
            colour = cur[LINE_CELL[line]]
            options.append((-weights[colour] * LINE_LENGTH[line], line,
                            weights[colour] * LINE_CUBES[line], colour, LINE_CUBES[line]))
        if len(options) > 1:
            options.sort()
            if self.nodes > self.budget:
                options = options[:1]
        best: tuple[float, tuple[int, ...]] = (float("-inf"), got)
        for _, line, value, colour, cubes in options:
            now = list(got)
            now[colour] += cubes
            c2, a2 = flipped(cur, alt, line)
            key = tuple(c2)
            if key in seen:
                found = self._loop(now)
            else:
                seen.add(key)
                found = self._walk(c2, a2, self.stocked(store, line, colour), seen, tuple(now),
                                   key)
                seen.discard(key)
            if value + found[0] > best[0]:
                best = (value + found[0], found[1])
        return best

    def _loop(self, got: list[int]) -> tuple[float, tuple[int, ...]]:
        """The loop reward (DDC-6.4): fixed cubes, the best "any" cube, the sign's 3 PP."""
        for colour in YELLOW_RED_GREEN:
            got[colour] += 1
        got[max(range(5), key=self.weights.__getitem__)] += 1
        return self.loop_value, tuple(got)

    def value_of(self, grid: Grid, budget: int) -> tuple[float, tuple[int, ...]]:
        """Memoised cascade value of a grid just after planning."""
        key = (*grid[0], *grid[1], budget)
        found = self.memo.get(key)
        if found is None:
            found = self.search(grid, {tuple(grid[0])}, budget)
            self.memo[key] = found
        return found


def best_movements(cur: list[int], alt: list[int], scorer: Scorer, rerank: Rerank | None,
                   firsts: Sequence[Move], seconds: Sequence[Move], deep: int = 24,
                   wide: int = 6) -> tuple[Move, ...] | None:
    """The movements to the best final grid, or None if no movements make a line."""
    ranked = rank_movements(cur, alt, scorer, rerank, firsts, seconds, deep, wide)
    return ranked[0][1] if ranked else None


def rank_movements(cur: list[int], alt: list[int], scorer: Scorer, rerank: Rerank | None,
                     firsts: Sequence[Move], seconds: Sequence[Move], deep: int = 24,
                     wide: int = 6) -> list[tuple[float, tuple[Move, ...]]]:
    """The plans :func:`best_movements` weighs last, best first, with their values: the
    ``wide`` best by the deeper search reranked with ``rerank`` (without it, only the best
    of the deeper search); empty if no movements make a line."""
    table, ways = final_table(cur, alt, firsts, seconds)
    if not len(table):
        return []
    values = rate_grids(scorer, table[:, :16], table[:, 16:])
    order = np.argsort(-values, kind="stable")[:deep].tolist()
    deeper = []
    for i, key in zip(order, table[order].tolist(), strict=True):
        value, got = scorer.value_of((key[:16], key[16:]), scorer.budget)
        deeper.append((value, got, ways(i)))
    deeper.sort(key=lambda r: r[0], reverse=True)
    if rerank is None:
        return [(deeper[0][0], deeper[0][2])]
    rated = [(r[0] - scorer.worth(r[1]) + rerank(r[1]), r[2]) for r in deeper[:wide]]
    return sorted(rated, key=lambda r: -r[0])   # stable: max() took the first of a tie


def best_line(grid: Grid, scorer: Scorer, history: Sequence[Sequence[int]],
              rerank: Rerank | None = None, budget: int = 3000) -> int:
    """The candidate line that starts the most valuable rest of the cascade (DDC-5.4)."""
    cur, alt = grid
    seen = {tuple(h) for h in history}
    scorer.nodes, scorer.budget = 0, budget
    rated = []
    for line in lines_of(cur):
        value, colour, cubes = scorer.gain(cur, line)
        got = [0] * 5
        got[colour] += cubes
        c2, a2 = flipped(cur, alt, line)
        key = tuple(c2)
        if key in seen:
            rest = scorer._loop(got)
        else:
            seen.add(key)
            rest = scorer._walk(c2, a2, scorer.stocked(scorer.store, line, colour), seen,
                                tuple(got), key)
            seen.discard(key)
        rated.append((value + rest[0], rest[1], line))
    if rerank is None:
        return max(rated)[2]
    return max(rated, key=lambda r: r[0] - scorer.worth(r[1]) + rerank(r[1]))[2]
