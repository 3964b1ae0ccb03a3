"""Progress reports for long loops, on stderr, that suit where the output goes.

* On a terminal: a live `tqdm <https://tqdm.github.io/>`_ bar (``tqdm.auto``),
  redrawn in place.
* In Jupyter with ``ipywidgets`` installed: tqdm's notebook widget.
* Anywhere else (a log file, a pipe, ``make run > log``, a notebook without
  widgets): plain lines, no carriage returns: one line each time another tenth
  of the work is done or :data:`LINE_INTERVAL` seconds have passed, whichever
  comes first, and a last line when the loop ends.

Both entry points keep one call shape for every caller: :func:`progress` wraps
an iterable, :class:`ProgressBar` is updated by hand with absolute counts.
tqdm's own ``TQDM_*`` environment variables (e.g. ``TQDM_DISABLE=1``) apply
to the live bar.
"""

from __future__ import annotations

import importlib.util
import math
import os
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any, TextIO, TypeVar

from tqdm import tqdm as _std_tqdm

T = TypeVar("T")

LINE_INTERVAL = 30.0  # seconds between two log lines at most (line mode)
LINE_STEP = 0.1  # a log line at every further tenth of the total (line mode)
LINE_FORMAT = "{desc}{percentage:3.0f}% {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}]" \
              "{postfix}"
COUNT_FORMAT = "{desc}{n_fmt} [{elapsed}, {rate_fmt}]{postfix}"  # when the total is unknown


def progress(items: Iterable[T], total: int, label: str = "", stream: TextIO | None = None,
             enabled: bool = True, every: float = 0.2) -> Iterator[T]:
    """Yield ``items`` while reporting ``k/total`` (a bar on a terminal, lines elsewhere).

    ``every`` is the shortest time in seconds between two redraws of a live bar.
    """
    bar = ProgressBar(total, label, stream, enabled, every)
    done = 0
    try:
        for item in items:
            yield item
            done += 1
            bar.update(done)
    finally:
        bar.close()


class ProgressBar:
    """A progress report updated by hand with absolute counts, for loops we do not own.

    ``start`` is where a resumed run begins: the rate and the time left count
    new work only. ``every`` is the shortest time between two redraws of a live bar.
    """

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None,
                 enabled: bool = True, every: float = 0.5, start: int = 0) -> None:
        self.total, self.label, self.enabled, self.start = max(int(total), 0), label, \
            enabled, start
        self.out = stream or sys.stderr
        self._bar: Any = None
        self._lines: _LineReport | None = None
        self.closed = False
        if not enabled:
            return
        if live_output(self.out):
            self._bar = _live_bar(self.total, label, self.out, every, start)
        else:
            self._lines = _LineReport(self.total, label, self.out, start)

    def update(self, done: int, note: str = "") -> None:
        """Record that ``done`` of ``total`` units are finished (``note``: shown after)."""
        if self.closed:
            return
        done = min(int(done), self.total) if self.total else int(done)
        if self._bar is not None:
            if note:
                self._bar.set_postfix_str(note.strip(), refresh=False)
            if done != self._bar.n:
                self._bar.update(done - self._bar.n)
        elif self._lines is not None:
            self._lines.update(done, note.strip())

    def close(self) -> None:
        """End the report (a live bar's last redraw, or the final log line)."""
        if self.closed:
            return
        self.closed = True
        if self._bar is not None:
            self._bar.close()
        elif self._lines is not None:
            self._lines.close()


def live_output(stream: TextIO) -> bool:
    """Whether ``stream`` can show a bar redrawn in place: a terminal, or stderr in a
    Jupyter kernel that has ``ipywidgets`` (tqdm's notebook widget)."""
    if stream in (sys.stderr, sys.stdout) and _in_notebook_with_widgets():
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # no isatty, or a closed stream
        return False


def _in_notebook_with_widgets() -> bool:
    """A Jupyter kernel (IPython's IPKernelApp) where tqdm's widget front end works."""
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)() if ipython else None
    if shell is None or "IPKernelApp" not in getattr(shell, "config", {}):
        return False
    return importlib.util.find_spec("ipywidgets") is not None


def _live_bar(total: int, label: str, out: TextIO, every: float, start: int) -> Any:
    """tqdm's automatic front end: the notebook widget in Jupyter, else the terminal bar."""
    from tqdm.auto import tqdm as auto_tqdm
    # the widget replaces stderr in Jupyter; a stream given explicitly gets the text bar
    bar_class = auto_tqdm if out in (sys.stderr, sys.stdout) else _std_tqdm
    sized = _columns(out) > 0  # a terminal that reports no size (0x0) gets a fixed one
    fixed: dict[str, Any] = {} if sized else {"ncols": 80, "nrows": 20}
    return bar_class(total=total, desc=label or None, file=out, mininterval=every,
                     initial=start, dynamic_ncols=sized, leave=True, **fixed)


def _columns(out: TextIO) -> int:
    """The terminal's width in columns (0 when it does not say)."""
    try:
        return os.get_terminal_size(out.fileno()).columns
    except (AttributeError, ValueError, OSError):  # no fileno, or not a terminal
        return 0


class _LineReport:
    """Plain log lines: one per further tenth done or per LINE_INTERVAL seconds, then a
    final one; never a carriage return."""

    def __init__(self, total: int, label: str, out: TextIO, start: int) -> None:
        self.total, self.out, self.start = total, out, start
        self.desc = f"{label}: " if label else ""
        self.begin = self.last_time = time.perf_counter()
        self.done = self.printed = start
        self.note = ""

    def update(self, done: int, note: str) -> None:
        """Remember the count; write a line when another step or interval is reached."""
        self.done, self.note = done, note or self.note
        now = time.perf_counter()
        step = max(1, math.ceil(self.total * LINE_STEP)) if self.total else 1
        if done >= self.total or done - self.printed >= step \
                or now - self.last_time >= LINE_INTERVAL:
            self._write(now)

    def close(self) -> None:
        """The last line, unless it was already written for this count."""
        self._write(time.perf_counter())

    def _write(self, now: float) -> None:
        if self.done == self.printed:
            return
        self.printed, self.last_time = self.done, now
        line = _std_tqdm.format_meter(self.done, self.total or None, now - self.begin,
                                      prefix=self.desc, postfix=self.note or None,
                                      initial=self.start,
                                      bar_format=LINE_FORMAT if self.total else COUNT_FORMAT)
        self.out.write(line + "\n")
        self.out.flush()
