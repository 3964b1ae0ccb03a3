"""A dependency-free progress bar for long loops (writes to stderr)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], total: int, label: str = "", stream: TextIO | None = None,
             enabled: bool = True, every: float = 0.2) -> Iterator[T]:
    """Yield ``items`` while drawing ``label [#####.....] k/total  rate/s  eta``."""
    out = stream or sys.stderr
    start = last = time.perf_counter()
    done = 0
    for item in items:
        yield item
        done += 1
        now = time.perf_counter()
        if enabled and (now - last >= every or done == total):
            last = now
            out.write("\r" + _bar(label, done, total, now - start))
            out.flush()
    if enabled and done:
        out.write("\n")
        out.flush()


def _bar(label: str, done: int, total: int, elapsed: float, width: int = 30,
         start: int = 0) -> str:
    frac = min(done / total, 1.0) if total else 1.0
    fill = int(frac * width)
    rate = (done - start) / elapsed if elapsed > 0 else 0.0
    eta = (total - done) / rate if rate > 0 else 0.0
    return (f"{label} [{'#' * fill}{'.' * (width - fill)}] {done}/{total} "
            f"{rate:,.1f}/s eta {eta:,.0f}s ")


class ProgressBar:
    """A progress bar updated by hand with absolute counts, for loops we do not own."""

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None,
                 enabled: bool = True, every: float = 0.5, start: int = 0) -> None:
        self.total, self.label, self.enabled, self.every = total, label, enabled, every
        self.out = stream or sys.stderr
        self.begin = self.last = time.perf_counter()
        self.start = start  # a resumed run starts part-way; the rate counts new work only
        self.done_drawn = False

    def update(self, done: int, note: str = "") -> None:
        """Record that ``done`` of ``total`` units are finished; redraw if due."""
        now = time.perf_counter()
        done = min(done, self.total)
        finished = done >= self.total
        if finished and self.done_drawn:
            return
        if self.enabled and (now - self.last >= self.every or finished):
            self.done_drawn = finished
            self.last = now
            bar = _bar(self.label, done, self.total, now - self.begin, start=self.start)
            self.out.write("\r" + bar + note)
            self.out.flush()

    def close(self) -> None:
        """End the bar's line."""
        if self.enabled:
            self.out.write("\n")
            self.out.flush()
