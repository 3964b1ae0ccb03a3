"""Exact uniform random Dadaocheng setup as per-cell chance events (DDC-2.2, DDC-2.3, R-5, R-6).

The 4 opium discs (sun side black) go to the corners; the 12 commodity discs go to the other
cells, taken in increasing cell id order (:data:`NON_CORNER`). :class:`LayoutTable` enumerates
every valid colour layout of those 12 cells once; :func:`disc_probabilities` turns its prefix
counts into the chance distribution of the next cell's disc. Every valid colour layout has the
same number of disc permutations, so sampling cell by cell is exactly uniform over the valid
disc arrangements. Pure module: stdlib and numpy only.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

import numpy as np

from .grid import BLACK, CORNERS, NEIGHBOURS, NUM_CELLS

NON_CORNER: tuple[int, ...] = tuple(c for c in range(NUM_CELLS) if c not in CORNERS)
"""The 12 commodity cells in placement order: 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14."""
NUM_COLOURS = 5
BASE = NUM_COLOURS
_N = len(NON_CORNER)
_WEIGHTS = BASE ** np.arange(_N - 1, -1, -1, dtype=np.int64)  # first cell most significant


def _arrangements(counts: Sequence[int]) -> np.ndarray:
    """Every distinct ordering of a colour multiset (``counts[c]`` of colour c), one per row."""
    rows = np.zeros((1, 0), dtype=np.int8)
    left = np.array([counts], dtype=np.int8)
    for _ in range(sum(counts)):
        new_rows, new_left = [], []
        for colour in range(NUM_COLOURS):
            keep = left[:, colour] > 0
            if not keep.any():
                continue
            col = np.full((int(keep.sum()), 1), colour, dtype=np.int8)
            new_rows.append(np.hstack([rows[keep], col]))
            rest = left[keep].copy()
            rest[:, colour] -= 1
            new_left.append(rest)
        rows, left = np.vstack(new_rows), np.vstack(new_left)
    return rows


def _full_grids(layouts: np.ndarray) -> np.ndarray:
    """The 16-cell colour grids (corners black) of 12-cell layouts."""
    grids = np.full((len(layouts), NUM_CELLS), BLACK, dtype=np.int8)
    grids[:, list(NON_CORNER)] = layouts
    return grids


def _valid_mask(grids: np.ndarray, solo: bool) -> np.ndarray:
    """Vectorised layout condition: groups of at most 2 (solo, R-6) or no 3 in a line (R-5)."""
    ok = np.ones(len(grids), dtype=bool)
    if solo:
        for cell in range(NUM_CELLS):
            same = sum((grids[:, n] == grids[:, cell]).astype(np.int8) for n in NEIGHBOURS[cell])
            ok &= same <= 1
        return ok
    for i in range(4):
        for k in range(2):
            for a, b, c in (
                (4 * i + k, 4 * i + k + 1, 4 * i + k + 2),  # row i
                (4 * k + i, 4 * (k + 1) + i, 4 * (k + 2) + i),  # column i
            ):
                ok &= ~((grids[:, a] == grids[:, b]) & (grids[:, b] == grids[:, c]))
    return ok


class LayoutTable:
    """All valid colour layouts of the 12 non-corner cells for one commodity colour multiset.

    Layouts are stored as a sorted array of base-5 codes (first non-corner cell most
    significant), so the layouts sharing a prefix form one contiguous range.
    """

    def __init__(self, sun_colours: Sequence[int], solo: bool) -> None:
        """Enumerate the valid layouts of these 12 sun colours under the setup condition.

        Raises ValueError for a wrong number of discs, a colour outside 0..4, or a multiset
        that admits no valid layout (DDC-2.3: a disc file fails loudly at load).
        """
        colours = [int(c) for c in sun_colours]
        if len(colours) != _N:
            raise ValueError(f"expected {_N} commodity disc sun colours, got {len(colours)}")
        if any(not 0 <= c < NUM_COLOURS for c in colours):
            raise ValueError(f"sun colours must lie in 0..{NUM_COLOURS - 1}: {colours}")
        self.solo = bool(solo)
        self.multiset: Counter[int] = Counter(colours)
        counts = [self.multiset[c] for c in range(NUM_COLOURS)]
        layouts = _arrangements(counts)
        self.arrangements = len(layouts)
        valid = layouts[_valid_mask(_full_grids(layouts), self.solo)]
        if len(valid) == 0:
            condition = "groups of at most 2 (solo, R-6)" if self.solo else (
                "no 3 in a line (R-5)")
            raise ValueError(
                f"no valid disc layout: commodity sun colour counts {counts} (red, white, "
                f"green, yellow, black) cannot meet the setup condition {condition} with "
                f"black opium discs in the corners")
        self.codes: np.ndarray = np.sort(valid.astype(np.int64) @ _WEIGHTS)
        self._counts: dict[tuple[int, ...], int] = {}
        self._odds: dict[tuple[int, ...], dict[int, float]] = {}

    @property
    def total(self) -> int:
        """Number of valid layouts."""
        return len(self.codes)

    def __len__(self) -> int:
        return self.total

    def count(self, prefix: Sequence[int]) -> int:
        """Number of valid layouts whose first ``len(prefix)`` non-corner cells show ``prefix``
        (remembered per prefix: every layout deal asks for the same short prefixes)."""
        key = tuple(prefix)
        found = self._counts.get(key)
        if found is None:
            if len(self._counts) >= COUNT_MEMO_LIMIT:
                self._counts.clear()
            found = self._counts[key] = self._count(key)
        return found

    def colour_odds(self, prefix: tuple[int, ...]) -> dict[int, float]:
        """Per sun colour left after ``prefix``, the chance that one given disc of that
        colour goes in the next non-corner cell (:func:`disc_probabilities`' ``P(d)``, the
        same arithmetic), remembered per prefix. ``ValueError`` when the prefix extends to
        no valid layout or fills every cell."""
        found = self._odds.get(prefix)
        if found is None:
            left = self.multiset - Counter(prefix)
            if not left:
                raise ValueError("no unplaced disc: every non-corner cell is already filled")
            total = self.count(prefix)
            if total == 0:
                raise ValueError(f"placed colours {list(prefix)} extend to no valid layout")
            if len(self._odds) >= COUNT_MEMO_LIMIT:
                self._odds.clear()
            found = self._odds[prefix] = {c: self.count([*prefix, c]) / total / n
                                          for c, n in left.items()}
        return found

    def _count(self, prefix: tuple[int, ...]) -> int:
        n = len(prefix)
        if n > _N:
            raise ValueError(f"prefix longer than {_N} cells: {list(prefix)}")
        if any(not 0 <= c < NUM_COLOURS for c in prefix):
            return 0
        lo = 0
        for c in prefix:
            lo = lo * BASE + int(c)
        scale = BASE ** (_N - n)
        lo *= scale
        left, right = np.searchsorted(self.codes, [lo, lo + scale], side="left")
        return int(right - left)

    def layout(self, index: int) -> list[int]:
        """The ``index``-th valid layout (in code order) as 12 colours."""
        code = int(self.codes[index])
        out = []
        for _ in range(_N):
            code, c = divmod(code, BASE)
            out.append(c)
        return out[::-1]

    def grid(self, layout: Sequence[int]) -> list[int]:
        """The 16 showing colours of a 12-cell layout, corners black."""
        grid = [BLACK] * NUM_CELLS
        for cell, c in zip(NON_CORNER, layout, strict=True):
            grid[cell] = int(c)
        return grid


COUNT_MEMO_LIMIT = 1 << 16
"""Prefixes a :class:`LayoutTable` remembers the count of before it starts afresh."""


@functools.lru_cache(maxsize=16)
def layout_table(colours: tuple[int, ...], solo: bool) -> LayoutTable:
    """The cached :class:`LayoutTable` of these 12 commodity sun colours (any order)."""
    return LayoutTable(colours, solo)


def disc_probabilities(
    table: LayoutTable,
    placed_colours: Sequence[int],
    unplaced_discs: Sequence[tuple[int, int]],
) -> list[tuple[int, float]]:
    """The chance distribution of the disc for the next non-corner cell (DDC-2.3).

    ``placed_colours`` are the sun colours already on the earlier non-corner cells, in
    :data:`NON_CORNER` order; ``unplaced_discs`` are the commodity discs left as (disc id,
    sun colour). P(d) = count(prefix + colour(d)) / count(prefix) / (unplaced discs of that
    colour). Returns [(disc id, P)] in the given order, only for P > 0; the P sum to 1.
    """
    prefix = [int(c) for c in placed_colours]
    left = Counter(int(c) for _, c in unplaced_discs)
    if Counter(prefix) + left != table.multiset:
        raise ValueError(
            f"placed colours {prefix} and unplaced discs {list(unplaced_discs)} do not match "
            f"the table's sun colours {sorted(table.multiset.elements())}")
    per_colour = table.colour_odds(tuple(prefix))
    return [(d, per_colour[int(c)]) for d, c in unplaced_discs if per_colour[int(c)] > 0]
