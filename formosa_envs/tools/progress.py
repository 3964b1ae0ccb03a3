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


def _bar(label: str, done: int, total: int, elapsed: float, width: int = 30) -> str:
    frac = done / total if total else 1.0
    fill = int(frac * width)
    rate = done / elapsed if elapsed > 0 else 0.0
    eta = (total - done) / rate if rate > 0 else 0.0
    return (f"{label} [{'#' * fill}{'.' * (width - fill)}] {done}/{total} "
            f"{rate:,.1f}/s eta {eta:,.0f}s ")
