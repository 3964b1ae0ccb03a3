"""Observation vectors built from named pieces, seen from one seat.

A :class:`ObservationLayout` lays named pieces (``"own_hand"``, ``"piles"`` with
shape ``(max_seats, 54)``, ...) back to back in one flat float32 vector; each
piece is written through a numpy view, so building an observation never
concatenates. Per-seat pieces are ordered egocentrically (the observer first,
then the following seats clockwise) and padded to the game's maximum seat
count, with a ``seat_present`` piece so one network serves every player count.

Every feature lies in [0, 1] and distinct game values stay distinct (the env
declares ``Box(0, 1)``). Counters go through a :class:`Codec`, one encoding per
quantity (:class:`Feature`):

* ``linear``: ``v / max``, where ``max`` is the rules' own limit (a flag, a
  component count); exceeding it is a bug the contract check reports;
* ``count``: :func:`soft_count`, linear ``v / (2 knee)`` up to the knee, then
  ``1 - knee / (2 v)``: continuous with its slope, strictly increasing, below 1,
  for counters the rules leave unbounded (coins, cubes in hand, rounds);
* ``score`` (scores and tie-breaks): two columns, a fine part ``min(v / knee, 1)``
  that resolves the usual range and the ``count`` part that keeps ordering every
  larger value; ``signed_score`` adds a third column, ``soft_count(-v)``, for a
  score that may fall below zero.

Encodings are computed in float64 and cast once, so sums of fractions never
round past 1; :func:`soft_count` keeps consecutive integers distinct in float32
up to :func:`distinct_limit` (2896 * sqrt(knee), far beyond any game's values).
"""

from __future__ import annotations

import array
import functools
import math
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import ConfigError


@dataclass(frozen=True, slots=True)
class Piece:
    """A named block of the observation with its shape and meaning."""

    name: str
    shape: tuple[int, ...]
    doc: str = ""

    @property
    def size(self) -> int:
        """Number of floats in the piece."""
        return int(np.prod(self.shape))


class ObservationLayout:
    """Offsets of named pieces inside one flat float32 vector."""

    def __init__(self, pieces: list[Piece]) -> None:
        self.pieces = tuple(pieces)
        self.offsets: dict[str, int] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        self._spans: dict[str, tuple[int, int, tuple[int, ...] | None]] = {}
        offset = 0
        for piece in self.pieces:
            if piece.name in self.offsets:
                raise ConfigError(f"observation piece {piece.name!r} is defined twice")
            self.offsets[piece.name] = offset
            self.shapes[piece.name] = piece.shape
            reshape = piece.shape if len(piece.shape) > 1 else None
            self._spans[piece.name] = (offset, offset + piece.size, reshape)
            offset += piece.size
        self.size = offset

    def new_vector(self) -> np.ndarray:
        """A zeroed observation vector."""
        return np.zeros(self.size, dtype=np.float32)

    def view(self, vec: np.ndarray, name: str) -> np.ndarray:
        """A writable view of piece ``name`` inside ``vec``, in the piece's shape."""
        start, end, shape = self._spans[name]
        return vec[start:end] if shape is None else vec[start:end].reshape(shape)

    def describe(self) -> list[tuple[str, int, tuple[int, ...], str]]:
        """Rows of ``(name, offset, shape, doc)`` for documentation tables."""
        return [(p.name, self.offsets[p.name], p.shape, p.doc) for p in self.pieces]

    def buffer(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """A reusable zeroed vector and a view of every piece inside it.

        Observers fill the views, then return ``vec.copy()``: no view is built
        per call, which keeps observation building cheap.
        """
        vec = self.new_vector()
        return vec, {p.name: self.view(vec, p.name) for p in self.pieces}


def seat_order(viewer: int, num_players: int) -> list[int]:
    """Seats as the viewer sees them: itself first, then clockwise."""
    return [(viewer + k) % num_players for k in range(num_players)]


@functools.lru_cache(maxsize=64)
def seat_view(viewer: int, num_players: int) -> tuple[tuple[int, ...], dict[int, int]]:
    """:func:`seat_order` as a tuple and its inverse (seat -> egocentric position), made
    once per viewer and player count for the observers; the dict must not be changed."""
    order = tuple(seat_order(viewer, num_players))
    return order, {p: i for i, p in enumerate(order)}


def relative_seat(seat: int, viewer: int, num_players: int) -> int:
    """Position of ``seat`` in ``viewer``'s egocentric order (0 = the viewer)."""
    return (seat - viewer) % num_players


def one_hot(view: np.ndarray, index: int | None) -> None:
    """Set ``view[index] = 1`` (nothing when index is None)."""
    if index is not None:
        view[index] = 1.0


def scaled(value: float, scale: float) -> float:
    """``value / scale`` clipped to [0, 1], for bounded observation features."""
    return min(max(value / scale, 0.0), 1.0)


def soft_count(value: float, knee: float) -> float:
    """A non-negative counter in [0, 1): ``v / (2 knee)`` up to the knee, then
    ``1 - knee / (2 v)`` (continuous with its slope, strictly increasing)."""
    if value <= knee:
        return max(value, 0.0) / (2.0 * knee)
    return 1.0 - knee / (2.0 * value)


def distinct_limit(knee: float) -> int:
    """The largest integer up to which :func:`soft_count` keeps every integer distinct
    in float32: past the knee the gap between ``v`` and ``v + 1`` is about
    ``knee / (2 v^2)``, which must exceed float32's spacing 2**-24 below 1."""
    return int(math.sqrt(knee * 2.0 ** 23))


ENCODINGS = ("linear", "count", "score", "signed_score")
_COLUMNS = {"linear": 1, "count": 1, "score": 2, "signed_score": 3}
_LINEAR, _FINE, _SOFT = 0, 1, 2
TABLE_LOW, TABLE_SPAN = 128, 384
"""Raw integers ``-TABLE_LOW..TABLE_SPAN-TABLE_LOW-1`` (-128..255) are encoded by table
look-up (:meth:`Codec.encode_flat`)."""


@dataclass(frozen=True, slots=True)
class Feature:
    """One raw quantity of a dense block and its encoding (see the module docstring).

    ``scale`` is the rules' maximum for ``linear`` and the knee otherwise; a
    ``signed_score`` uses ``neg_knee`` (default: ``scale``) below zero.
    """

    name: str
    encoding: str = "linear"
    scale: float = 1.0
    neg_knee: float | None = None

    def __post_init__(self) -> None:
        if self.encoding not in ENCODINGS:
            raise ConfigError(f"feature {self.name!r}: encoding must be one of {ENCODINGS}, "
                              f"got {self.encoding!r}")
        if not self.scale > 0:
            raise ConfigError(f"feature {self.name!r}: scale must be positive")

    def columns(self) -> list[tuple[str, int, float, float]]:
        """``(label, kind, scale, sign)`` of each column this feature writes."""
        if self.encoding == "linear":
            return [(f"{self.name}/{self.scale:g}", _LINEAR, self.scale, 1.0)]
        soft = (f"{self.name}~{self.scale:g}", _SOFT, self.scale, 1.0)
        if self.encoding == "count":
            return [soft]
        cols = [(f"{self.name}/{self.scale:g}", _FINE, self.scale, 1.0), soft]
        if self.encoding == "signed_score":
            cols.append((f"-{self.name}~{self.neg_knee or self.scale:g}", _SOFT,
                         self.neg_knee or self.scale, -1.0))
        return cols


def flags(*names: str) -> list[Feature]:
    """0/1 features (``linear`` with maximum 1)."""
    return [Feature(name) for name in names]


class Codec:
    """Encodes a flat list of raw quantities (one per :class:`Feature`) into columns.

    The same feature list may be repeated (one copy per seat); ``encode`` takes the
    raw values in feature order and returns ``width`` float32 columns in [0, 1].
    """

    def __init__(self, features: Sequence[Feature]) -> None:
        self.features = tuple(features)
        source, kinds, scales, signs, self.labels = [], [], [], [], []
        for i, feature in enumerate(self.features):
            for label, kind, scale, sign in feature.columns():
                source.append(i)
                kinds.append(kind)
                scales.append(scale)
                signs.append(sign)
                self.labels.append(label)
        self.width = len(source)
        kind = np.array(kinds)
        self._source = np.array(source, dtype=np.intp)
        self._identity = bool(np.array_equal(self._source, np.arange(len(self.features))))
        self._factor = np.array(signs, dtype=np.float64) / np.array(scales, dtype=np.float64)
        # non-linear columns start at 0 (a signed score's other sign), fine parts stop at 1
        self._lower = np.where(kind == _LINEAR, -np.inf, 0.0)
        self._upper = np.where(kind == _FINE, 1.0, np.inf)
        self._soft = np.flatnonzero(kind == _SOFT)
        self._table: np.ndarray | None = None
        self._gathers: dict[int, np.ndarray] = {}

    def encode(self, raw: Sequence[float] | np.ndarray) -> np.ndarray:
        """The encoded columns of ``raw`` (computed in float64, cast once); a 2-D
        ``raw`` encodes one row per seat."""
        x = np.asarray(raw, dtype=np.float64)
        if not self._identity:
            x = x[..., self._source]
        x = x * self._factor
        np.maximum(x, self._lower, out=x)
        np.minimum(x, self._upper, out=x)
        if self._soft.size:  # soft_count: 0.5 min(x, 1) + 0.5 - 0.5 / max(x, 1)
            s = x[..., self._soft]
            x[..., self._soft] = 0.5 * np.minimum(s, 1.0) + (0.5 - 0.5 / np.maximum(s, 1.0))
        return x.astype(np.float32)

    def encode_flat(self, raw: Sequence[int]) -> np.ndarray:
        """``encode(raw)`` flattened, for ``k`` rows of raw integers laid back to back.

        Integers in ``-128..255`` (counters, flags, a score below zero) are looked up in a
        table of their encodings, built once with :meth:`encode` itself, so the result is
        the same bytes; any other value (larger, a float) takes :meth:`encode`.
        """
        gather = self._gathers.get(len(raw))
        if gather is None:
            gather = self._gather(len(raw))
        try:  # bytearray() converts a list of small ints faster than bytes()
            x = np.frombuffer(bytearray(raw), dtype=np.uint8)
        except (TypeError, ValueError):
            try:  # a negative value: signed bytes
                x = np.frombuffer(array.array("b", raw), dtype=np.int8)
            except (TypeError, ValueError, OverflowError):
                return self.encode(np.reshape(np.asarray(raw, dtype=np.float64),
                                              (-1, len(self.features)))).reshape(-1)
        if self._identity:
            return self._lookup()[gather + x]
        return self._lookup()[gather[0] + x[gather[1]]]

    def _lookup(self) -> np.ndarray:
        """Encodings of the integers from ``-TABLE_LOW``, column by column (built once)."""
        if self._table is None:
            values = np.arange(-TABLE_LOW, TABLE_SPAN - TABLE_LOW, dtype=np.float64)
            raw = np.repeat(values[:, None], len(self.features), axis=1)
            self._table = np.ascontiguousarray(self.encode(raw).T).reshape(-1)
        return self._table

    def _gather(self, size: int) -> Any:
        """Table offsets (and raw positions) of every output column for ``size`` raw values."""
        rows, extra = divmod(size, len(self.features))
        if extra:
            raise ConfigError(f"codec of {len(self.features)} features got {size} raw values, "
                              "not a whole number of rows")
        offsets = np.tile(np.arange(self.width, dtype=np.intp) * TABLE_SPAN + TABLE_LOW, rows)
        if self._identity:
            gather: Any = offsets
        else:
            positions = (np.arange(rows, dtype=np.intp)[:, None] * len(self.features)
                         + self._source[None, :]).reshape(-1)
            gather = (offsets, positions)
        self._gathers[size] = gather
        return gather

    def describe(self, count: int | None = None) -> str:
        """The column labels, for a piece's documentation (the first ``count`` only)."""
        return ", ".join(self.labels[:count])


MEMO_LIMIT = 4096
"""Entries a content-keyed memo of encoded pieces holds before it starts afresh."""


def remember(memo: dict, key: Any, value: Any) -> Any:
    """Store ``value`` under ``key`` in a memo of encoded pieces and return it.

    Observers memoise pieces by the raw content they are built from (the key holds
    every input of the piece), so an entry is never stale: a state changed in any way
    gives another key. The memo is emptied when it reaches :data:`MEMO_LIMIT`."""
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


_PER_GAME: dict[int, dict[str, Any]] = {}
"""Per-game caches by ``id(game)``; each entry is dropped when its game is collected
(``weakref.finalize``), before the id can be reused. A plain dict: a look-up is one hash
of an int, where a ``WeakKeyDictionary`` builds a weak reference on every call."""


def per_game(game: object, name: str, build: Callable[[], Any]) -> Any:
    """``build()`` computed once per game object and ``name`` (limits read from the
    game's data files, codecs built from them); forgotten with the game."""
    cache = _PER_GAME.get(id(game))
    if cache is None:
        cache = _PER_GAME[id(game)] = {}
        weakref.finalize(game, _PER_GAME.pop, id(game), None)
    found = cache.get(name)
    if found is None:
        found = cache[name] = build()
    return found
