"""The command-line front of the training entry points (``python -m
formosa_envs.training.ppo.train`` etc.).

Like the ``formosa`` command, a bad command line, a bad training option, a bad
agent spec or an unusable file or folder ends with one line on stderr,
``PROG: error: MESSAGE``, and exit status 2 (no usage text, no traceback). A
genuine bug still raises with its traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from formosa_envs.core.errors import FormosaError
from formosa_envs.tools.usage import USAGE_ERROR, OneLineParser, one_line

__all__ = ["USAGE_ERROR", "OneLineParser", "one_line", "run_console"]


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
