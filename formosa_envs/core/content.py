"""Pieces every game's content module shares: a data-file loader and historical events.

A game's content module declares its row classes (``core.data``) and validates what the
rules need of its tables; how a file option is resolved and cached, and what an event
card is, are the same in every game and live here once:

* :func:`file_loader` turns ``load(file)`` into ``load(path=None)``: the packaged
  default file when no path is given, memoised by the file's path, size and
  modification time (:func:`~formosa_envs.core.data.cached_by_file`), so an edited
  file is read again.
* :class:`HistoricalEvent` is the key, year and name of an event card; a game adds its
  own fields and the ``source``/``note`` every row carries. :func:`events_by_year`
  loads a ``[[event]]`` table in the order the game draws its timeline.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .data import bounded, cached_by_file, load_rows

T = TypeVar("T")
E = TypeVar("E", bound="HistoricalEvent")
FIRST_YEAR, LAST_YEAR = 1800, 2000
"""The years an event card may carry."""


def file_loader(default: Path) -> Callable[[Callable[[Path], T]], Callable[..., T]]:
    """Decorate ``load(file: Path) -> T`` into ``load(path=None) -> T``.

    ``path`` (a ``str`` or ``Path``; None or empty for ``default``) is read at most once
    while the file is unchanged; the loader keeps ``cache_clear()``.
    """
    def wrap(load: Callable[[Path], T]) -> Callable[..., T]:
        cached = cached_by_file(load)

        @functools.wraps(load)
        def loader(path: str | Path | None = None) -> T:
            return cached(Path(path) if path else default)

        # the signature is ``(path=None)``, not ``load``'s ``(file)``
        del loader.__wrapped__  # type: ignore[attr-defined]
        loader.__annotations__ = {"path": "str | Path | None",
                                  "return": load.__annotations__.get("return", "Any")}
        loader.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        return loader
    return wrap


@dataclass(frozen=True)
class HistoricalEvent:
    """A historical event card: its effect is implemented by ``key``."""

    key: str
    year: int = bounded(FIRST_YEAR, LAST_YEAR)
    name: str


def events_by_year(file: Path, row_class: type[E]) -> tuple[E, ...]:
    """The ``[[event]]`` rows of ``file`` as ``row_class``, earliest year first."""
    return tuple(sorted(load_rows(file, "event", row_class), key=lambda e: e.year))
