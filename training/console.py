"""The command-line front of the training entry points (``python -m training.train`` etc.).

Like the ``formosa`` command, a bad command line, a bad training option, a bad
agent spec or an unusable file or folder ends with one line on stderr,
``PROG: error: MESSAGE``, and exit status 2 (no usage text, no traceback). A
genuine bug still raises with its traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from formosa_envs.core.errors import FormosaError

USAGE_ERROR = 2  # exit status of a usage error (argparse's, and the formosa CLI's)


class OneLineParser(argparse.ArgumentParser):
    """argparse whose errors are one line (``PROG: error: ... (see PROG -h)``), status 2."""

    def error(self, message: str) -> NoReturn:
        """Report a bad command line on one line and exit with status 2."""
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message} (see {self.prog} -h)\n")


def one_line(message: str) -> str:
    """``message`` with its lines joined by ``; `` (an error must fit on one line)."""
    return "; ".join(line.strip() for line in str(message).splitlines() if line.strip())


def run_console(prog: str, main: Callable[[list[str] | None], int],
                argv: Sequence[str] | None = None) -> int:
    """Run ``main(argv)``; bad input becomes ``PROG: error: ...`` on stderr and status 2.

    Caught: every :class:`FormosaError` (training options, agent specs, usage checks)
    and an ``OSError`` naming a file; ``SystemExit`` from argparse keeps its status.
    """
    try:
        return int(main(None if argv is None else list(argv)) or 0)
    except SystemExit as exc:  # -h (0) or a bad command line (2), already printed
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except FormosaError as exc:
        return _fail(prog, str(exc))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        if exc.filename is None:
            raise
        return _fail(prog, f"{exc.filename}: {exc.strerror or exc}")


def _fail(prog: str, message: str) -> int:
    print(f"{prog}: error: {one_line(message)}", file=sys.stderr)
    return USAGE_ERROR
