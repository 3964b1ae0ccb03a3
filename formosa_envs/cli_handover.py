"""``formosa train`` and ``formosa tournament``: the few flags checked before anything is
built (seed, config file, folders, agent counts), then a hand-over to the pipeline module,
which parses its own flags. Split from ``cli.py``; every error reaches the user as
``formosa CMD: error: ...`` through :func:`formosa_envs.cli.main`."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from formosa_envs.core.errors import FormosaError
from formosa_envs.tools.usage import (
    MAX_GAMES,
    MAX_WORKERS,
    OneLineParser,
    UsageError,
    check_input_file,
    check_output_folder,
    int_between,
    non_negative_int,
    positive_int,
)


def exit_status(exc: SystemExit) -> int:
    """The process status of an argparse exit: 0 for help, the code given, else 2."""
    code = exc.code
    if code is None:
        return 0
    return code if isinstance(code, int) else 2


def _extra(module: str) -> Any:
    """Import a training module, or explain which extra to install."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise FormosaError(f"this command needs the training extras ({exc.name} is missing): "
                           "pip install -e '.[train]'") from None


def cmd_train(args: argparse.Namespace) -> int:
    """Hand over to ``formosa_envs.training.ppo.train`` (its own flags: ``formosa train -h``)."""
    return _hand_over("formosa_envs.training.train", args.rest, _check_train_flags)


def cmd_tournament(args: argparse.Namespace) -> int:
    """Hand over to ``formosa_envs.evaluation.evaluate`` (its own flags: ``formosa tournament
    -h``)."""
    return _hand_over("formosa_envs.evaluation.evaluate", args.rest, _check_tournament_flags,
                      entry="run", prog="formosa tournament")


def _pre_parser(command: str) -> argparse.ArgumentParser:
    """A parser of the few flags checked here before a hand-over (others pass through)."""
    return OneLineParser(prog=f"formosa {command}", add_help=False, allow_abbrev=False)


def _check_train_flags(argv: list[str]) -> None:
    """Seed, config file and run folder of ``formosa train``, before anything is built."""
    p = _pre_parser("train")
    p.add_argument("--seed", type=non_negative_int)
    p.add_argument("--config")
    p.add_argument("--out")
    known, _ = p.parse_known_args(argv)
    if known.config is not None:
        check_input_file(known.config, "--config")
    if known.out is not None:
        check_output_folder(known.out, "--out")


def _check_tournament_flags(argv: list[str]) -> None:
    """Agents, seats, counts and output folders of ``formosa tournament``, before any game."""
    from formosa_envs.tools.record import check_record_folder
    p = _pre_parser("tournament")
    p.add_argument("--agents")
    p.add_argument("--players", type=positive_int)
    p.add_argument("--games", type=int_between(1, MAX_GAMES))
    p.add_argument("--workers", type=int_between(1, MAX_WORKERS))
    p.add_argument("--seed", type=non_negative_int)
    p.add_argument("--record")
    p.add_argument("--out")
    known, _ = p.parse_known_args(argv)
    specs = [s for s in (known.agents or "").split(",") if s.strip()]
    if known.agents is not None and len(specs) < 2:
        raise UsageError(f"--agents {known.agents!r}: a tournament needs at least two agents "
                         "(comma-separated), e.g. random,heuristic")
    if known.players is not None and known.players < 2:
        raise UsageError(f"--players {known.players}: a tournament seats at least 2 agents "
                         "per table (solo games: formosa simulate GAME --players 1)")
    if known.record is not None:
        check_record_folder(known.record)
    if known.out is not None:
        check_output_folder(known.out, "--out")


def _hand_over(module: str, argv: list[str], check: Callable[[list[str]], None],
               entry: str = "main", **keywords: str) -> int:
    """``check`` the flags checked here, then run ``module.<entry>(argv, **keywords)`` (an
    entry that raises on bad input, so the error is printed as ``formosa CMD: error: ...``)."""
    try:
        check(argv)
        return int(getattr(_extra(module), entry)(argv, **keywords) or 0)
    except SystemExit as exc:  # its own argparse: -h, or a bad command line
        return exit_status(exc)
    except (ValueError, FileNotFoundError) as exc:  # bad options, specs, files
        raise FormosaError(str(exc)) from None
