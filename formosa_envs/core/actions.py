"""Fixed-size discrete action spaces built from named segments.

Every game exposes one ``Discrete(N)`` action space per configuration. The
space is the concatenation of named segments (``PASS``, ``PLAY_CARD[54]``, ...)
at fixed offsets, so ids are stable, documented and cheap to encode/decode::

    space = ActionSpace([Segment("PLAY_CARD", 54), Segment("PASS", 1)])
    a = space.encode("PLAY_CARD", 7)      # -> 7
    space.decode(54)                      # -> ("PASS", 0)
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ConfigError


@dataclass(frozen=True, slots=True)
class Segment:
    """A named, contiguous block of action ids."""

    name: str
    size: int
    doc: str = ""


class ActionSpace:
    """Named segments laid out back to back, with O(1) encode and decode."""

    def __init__(self, segments: list[Segment]) -> None:
        self.segments = tuple(segments)
        self.offsets: dict[str, int] = {}
        self.sizes: dict[str, int] = {}
        self._segment_of: list[str] = []
        self._index_of: list[int] = []
        for seg in self.segments:
            if seg.size <= 0:
                raise ConfigError(f"action segment {seg.name!r} must have a positive size")
            if seg.name in self.offsets:
                raise ConfigError(f"action segment {seg.name!r} is defined twice")
            self.offsets[seg.name] = len(self._segment_of)
            self.sizes[seg.name] = seg.size
            self._segment_of.extend([seg.name] * seg.size)
            self._index_of.extend(range(seg.size))
        self.size = len(self._segment_of)

    def __len__(self) -> int:
        return self.size

    def encode(self, segment: str, index: int = 0) -> int:
        """Return the action id of ``index`` within ``segment``."""
        size = self.sizes[segment]
        if not 0 <= index < size:
            raise IndexError(f"index {index} outside segment {segment!r} of size {size}")
        return self.offsets[segment] + index

    def decode(self, action: int) -> tuple[str, int]:
        """Return ``(segment name, index within the segment)`` of an action id."""
        if not 0 <= action < self.size:
            raise IndexError(f"action {action} outside the action space of size {self.size}")
        return self._segment_of[action], self._index_of[action]

    def contains(self, action: object) -> bool:
        """Whether ``action`` is an integer id inside the space."""
        return isinstance(action, int) and 0 <= action < self.size

    def describe(self) -> list[tuple[str, int, int, str]]:
        """Rows of ``(name, first id, size, doc)`` for documentation tables."""
        return [(s.name, self.offsets[s.name], s.size, s.doc) for s in self.segments]
