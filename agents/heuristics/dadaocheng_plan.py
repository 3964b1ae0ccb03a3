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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

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
        """Storehouse value at the end of the cascade, Full Houses taken; own Full House cubes."""
        if store is self.store and self.base is not None:
            return self.base
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
              seen: set[tuple[int, ...]], got: tuple[int, ...]) -> tuple[float, tuple[int, ...]]:
        lines = lines_of(cur)
        if not lines:
            value, extra = self.settle(store)
            return value, tuple(g + e for g, e in zip(got, extra, strict=True))
        self.nodes += 1
        options = sorted(((self.gain(cur, line), line) for line in lines), key=self._first)
        if self.nodes > self.budget:
            options = options[:1]
        best: tuple[float, tuple[int, ...]] = (float("-inf"), got)
        for (value, colour, cubes), line in options:
            now = list(got)
            now[colour] += cubes
            c2, a2 = flipped(cur, alt, line)
            key = tuple(c2)
            if key in seen:
                found = self._loop(now)
            else:
                seen.add(key)
                found = self._walk(c2, a2, self.stocked(store, line, colour), seen, tuple(now))
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


def _has_line(cur: np.ndarray) -> np.ndarray:
    """Whether each grid (..., 16) holds a candidate line."""
    a, b, c, d = (cur[..., cells] for cells in _AXIS_CELLS)
    return ((b == c) & ((a == b) | (c == d))).any(-1)


_LINE_MASK = np.array([[c in line for c in range(16)] for line in LINES])
_LINE_SPACES = np.array([list(sp) + [-1] * (2 - len(sp)) for sp in SPACES_OF_LINE])
_SHIFTS = np.arange(16, dtype=np.int64) * 3


def _pack(cur: np.ndarray) -> np.ndarray:
    """Each grid's showing colours (..., 16) as one int (3 bits a cell)."""
    return (cur.astype(np.int64) << _SHIFTS).sum(axis=-1)


def rate_grids(scorer: Scorer, cur: np.ndarray, alt: np.ndarray, steps: int = 64) -> np.ndarray:
    """Greedy cascade value of each grid (N x 16 arrays), all grids at once: every step
    collects the line worth most now (weight x length; ties to the lower line id), a
    repeated state ends in the loop reward, and the storehouses are settled at the end."""
    w, owner = np.array(scorer.weights), np.array(scorer.owner)
    cur, alt = cur.copy(), alt.copy()
    store = np.repeat(np.array(scorer.store, dtype=np.int64)[None], len(cur), axis=0)
    value, history, live = np.zeros(len(cur)), [_pack(cur)], np.arange(len(cur))
    for _ in range(steps):
        line, colour, live = _greedy_lines(cur[live], w, live)
        if not len(live):
            break
        value[live] += w[colour] * np.where(line % 3 == 2, 2, 1)
        _stock(store, owner, live, line, colour)
        mask = _LINE_MASK[line]
        c, a = cur[live], alt[live]
        cur[live], alt[live] = np.where(mask, a, c), np.where(mask, c, a)
        packed = _pack(cur[live])
        again = np.zeros(len(live), dtype=bool)
        for seen in history:
            again |= seen[live] == packed
        value[live[again]] += scorer.loop_value
        store[live[again]] = 0
        history.append(np.full(len(cur), -1, dtype=np.int64))
        history[-1][live] = packed
        live = live[~again]
    return value + _settle_all(scorer, store, w)


def _greedy_lines(cur: np.ndarray, w: np.ndarray,
                  live: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the grids that hold a line: the line to collect, its colour, and their rows."""
    a, b, c, d = (cur[:, cells] for cells in _AXIS_CELLS)
    left, right = (b == c) & (a == b), (b == c) & (c == d)
    span = np.where(left & right, 2, np.where(left, 0, np.where(right, 1, -1)))
    has = (span >= 0).any(axis=1)
    span, b = span[has], b[has]
    key = np.where(span >= 0, w[b] * np.where(span == 2, 4, 3), -1.0)
    k = key.argmax(axis=1)
    rows = np.arange(len(k))
    return 3 * k + span[rows, k], b[rows, k], live[has]


def _stock(store: np.ndarray, owner: np.ndarray, live: np.ndarray, line: np.ndarray,
           colour: np.ndarray) -> None:
    """Stocking and corruption (DDC-5.6, 5.7) for each grid's collected line, in place."""
    for slot in range(2):
        space = _LINE_SPACES[line, slot]
        ok = (space >= 0) & (owner[space] != 0)
        rows, space, col = live[ok], space[ok], colour[ok]
        store[rows, space, col] += 1
        full = store[rows, space].sum(axis=-1) >= 3
        store[rows[full], space[full]] = 0


def _settle_all(scorer: Scorer, store: np.ndarray, w: np.ndarray) -> np.ndarray:
    """:meth:`Scorer.settle`'s storehouse value for every grid's storehouses (N x 16 x 5)."""
    values = store @ w
    total = np.zeros(len(store))
    for group in scorer.groups:
        if not group:
            continue
        spaces, sign = list(group), scorer.owner[group[0]]
        total += sign * scorer.store_weight * values[:, spaces].sum(axis=1)
        full = (store[:, spaces].sum(axis=-1) > 0).all(axis=1)
        total += sign * (1 - scorer.store_weight) * values[:, spaces].max(axis=1) * full
    return total


def final_grids(cur: list[int], alt: list[int], firsts: Sequence[Move],
                seconds: Sequence[Move]) -> dict[tuple[int, ...], tuple[Move, ...]]:
    """Distinct grids holding a line after the movements, with the first movements to them.

    Each of ``firsts`` is followed by each of ``seconds``; with no ``seconds`` the first
    movement is the last one. Grids keep the order of their first way to be reached.
    """
    first = np.array([MOVE_INDEX[m] for m in firsts])
    c, a = _after(np.array(cur, dtype=np.int8), np.array(alt, dtype=np.int8), first)
    if seconds:
        second = np.array([MOVE_INDEX[m] for m in seconds])
        c, a = _after(c, a, second)
    else:
        second = np.zeros(1, dtype=int)
        c, a = c[:, None], a[:, None]
    hit_i, hit_j = np.nonzero(_has_line(c))
    if not len(hit_i):
        return {}
    keys = np.concatenate([c[hit_i, hit_j], a[hit_i, hit_j]], axis=1)
    where = _first_of_each(keys)
    found: dict[tuple[int, ...], tuple[Move, ...]] = {}
    for k, row in zip(where.tolist(), keys[where].tolist(), strict=True):
        m1 = MOVES[first[hit_i[k]]]
        found[tuple(row)] = (m1, MOVES[second[hit_j[k]]]) if seconds else (m1,)
    return found


def _first_of_each(keys: np.ndarray) -> np.ndarray:
    """Ascending indices of the first occurrence of each distinct row of ``keys`` (N x 32)."""
    k1, k2 = _pack(keys[:, :16]), _pack(keys[:, 16:])
    order = np.lexsort((k2, k1))               # stable: equal rows keep their order
    s1, s2 = k1[order], k2[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = (s1[1:] != s1[:-1]) | (s2[1:] != s2[:-1])
    return np.sort(order[new])


def best_movements(cur: list[int], alt: list[int], scorer: Scorer, rerank: Rerank | None,
                   firsts: Sequence[Move], seconds: Sequence[Move], deep: int = 24,
                   wide: int = 6) -> tuple[Move, ...] | None:
    """The movements to the best final grid, or None if no movements make a line."""
    grids = final_grids(cur, alt, firsts, seconds)
    if not grids:
        return None
    keys = list(grids)
    table = np.array(keys, dtype=np.int8)
    values = rate_grids(scorer, table[:, :16], table[:, 16:])
    order = np.argsort(-values, kind="stable")[:deep]
    rated = [(values[i], keys[i], grids[keys[i]]) for i in order.tolist()]
    deeper = []
    for _, key, moves in rated:
        value, got = scorer.value_of((list(key[:16]), list(key[16:])), scorer.budget)
        deeper.append((value, got, moves))
    deeper.sort(key=lambda r: r[0], reverse=True)
    if rerank is None:
        return deeper[0][2]
    best = max(deeper[:wide], key=lambda r: r[0] - scorer.worth(r[1]) + rerank(r[1]))
    return best[2]


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
                                tuple(got))
            seen.discard(key)
        rated.append((value + rest[0], rest[1], line))
    if rerank is None:
        return max(rated)[2]
    return max(rated, key=lambda r: r[0] - scorer.worth(r[1]) + rerank(r[1]))[2]
