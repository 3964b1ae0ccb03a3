"""Observation vectors built from named pieces, seen from one seat.

A :class:`ObservationLayout` lays named pieces (``"own_hand"``, ``"piles"`` with
shape ``(max_seats, 54)``, ...) back to back in one flat float32 vector; each
piece is written through a numpy view, so building an observation never
concatenates. Per-seat pieces are ordered egocentrically (the observer first,
then the following seats clockwise) and padded to the game's maximum seat
count, with a ``seat_present`` piece so one network serves every player count.
"""

from __future__ import annotations

from dataclasses import dataclass

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
