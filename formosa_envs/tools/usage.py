"""Checks of command-line input, made before any work starts.

argparse ``type=`` functions for numbers (they raise
:class:`argparse.ArgumentTypeError`, which argparse reports against the flag),
and checks of the files and folders a command will read or write, so that a
bad destination fails in the first second, not after the games were played.
Every failure is a :class:`UsageError` (a :class:`FormosaError`) whose message
names the argument, the value and what is allowed.
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from formosa_envs.core.errors import FormosaError


class UsageError(FormosaError):
    """A command-line argument that cannot be used (the CLI exits with status 2)."""


MAX_GAMES = 10_000_000  # --games: beyond this a run cannot finish (or be held in memory)
MAX_WORKERS = 256  # --workers: worker processes on one machine
USAGE_ERROR = 2  # exit status of a usage error (argparse's own status)


class OneLineParser(argparse.ArgumentParser):
    """argparse whose errors are one line (``PROG: error: ... (see PROG -h)``), status 2.

    The one parser class of the ``formosa`` command and of the ``python -m formosa_envs.training.*``
    entry points.
    """

    def error(self, message: str) -> NoReturn:
        """Report a bad command line on one line and exit with status 2."""
        self.exit(USAGE_ERROR, f"{self.prog}: error: {one_line(message)} (see {self.prog} -h)\n")


def one_line(message: str) -> str:
    """``message`` with its lines joined by ``; `` (an error must fit on one line)."""
    return "; ".join(line.strip() for line in str(message).splitlines() if line.strip())


def int_between(low: int, high: int) -> Callable[[str], int]:
    """argparse type: an integer from ``low`` to ``high``."""
    def parse(text: str) -> int:
        value = _integer(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low:,} to "
                                             f"{high:,}, got {text!r}")
        return value
    parse.__name__ = f"int_{low}_to_{high}"
    return parse


def int_at_least(low: int) -> Callable[[str], int]:
    """argparse type: an integer >= ``low`` (the upper bound is checked elsewhere, e.g.
    a game's own player range)."""
    def parse(text: str) -> int:
        value = _integer(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be a whole number >= {low}, got {text!r}")
        return value
    parse.__name__ = f"int_at_least_{low}"
    return parse


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return value


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0 (seeds, seats)."""
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """argparse type: a finite number > 0 (durations)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return value


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None


def check_input_file(path: str | Path, flag: str) -> Path:
    """A file the command will read: it must exist and not be a folder."""
    source = Path(path)
    if source.is_dir():
        raise UsageError(f"{flag} {source}: is a folder, not a file")
    if not source.is_file():
        raise UsageError(f"{flag} {source}: file not found")
    if not os.access(source, os.R_OK):
        raise UsageError(f"{flag} {source}: the file cannot be read (permission denied)")
    return source


def check_output_file(path: str | Path, flag: str) -> Path:
    """A file the command will write: not a folder, and writable (tried, then undone)."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{flag} {target}: is a folder; give a file name, e.g. "
                         f"{target / 'game.json'}")
    if not target.name:
        raise UsageError(f"{flag}: give a file name")
    _check_creatable(target.parent, flag, target)
    if target.exists():
        try:
            with target.open("a", encoding="utf-8"):
                pass  # append mode: opening for writing changes nothing
        except OSError as exc:
            raise UsageError(f"{flag} {target}: cannot write the file ({exc.strerror})") \
                from None
    return target


def check_output_folder(path: str | Path, flag: str, default: bool = False) -> Path:
    """A folder the command will write into: not a file, and files can be created in it
    (or in the folder that will hold it). Nothing is left behind by the check, except
    that a command's own ``default`` folder (``runs/<game>``, not a path the user typed)
    has its parent folders created, as a fresh checkout has no ``runs/``."""
    target = Path(path)
    if default and not target.parent.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists() and not target.is_dir():
        raise UsageError(f"{flag} {target}: is a file, not a folder")
    _check_creatable(target, flag, target)
    return target


def _check_creatable(folder: Path, flag: str, target: Path) -> None:
    """Raise unless ``folder`` exists and takes new files, or its parent does (only the
    final folder is ever created: :func:`make_folder`)."""
    base = folder if str(folder) else Path(".")
    if not base.exists():
        parent = base.parent
        if not parent.is_dir():
            what = "is a file" if parent.exists() else "does not exist"
            raise UsageError(f"{flag} {target}: the folder {parent} {what}; only the last "
                             f"folder of a path is created ({base.name}), so make {parent} "
                             "first or check the path for a typo")
        base = parent
    if not base.is_dir():
        raise UsageError(f"{flag} {target}: {base} is a file, so no folder can be made there")
    try:
        Path(tempfile.mkdtemp(prefix=".formosa-check-", dir=base)).rmdir()
    except OSError as exc:
        raise UsageError(f"{flag} {target}: cannot create files in {base} "
                         f"({exc.strerror or exc})") from None


def make_folder(folder: str | Path, flag: str = "output") -> Path:
    """Create ``folder`` if missing, but never its parents: a missing parent (a typo such
    as ``/nonexistent_dir/x``) raises :class:`UsageError` naming it. The one helper for
    every output path (``save_record``, the replay page, training outputs)."""
    target = Path(folder)
    if target.is_dir():
        return target
    _check_creatable(target, flag, target)
    target.mkdir(exist_ok=True)
    return target
