"""``formosa train GAME --backend afterstate``: label, fit, export, evaluate.

1. **Labels** (:mod:`.data`): heuristic games whose sampled decisions have their top
   candidates played out; written to ``labels.npz`` (a later run with the same settings
   and ``--out`` reuses them: the labels depend only on the settings).
2. **Fit** (:mod:`.fit`): the two-headed evaluator, whole games held out, early stopping;
   exported as ``evaluator.npz`` (play it as ``afterstate:RUN/evaluator.npz``).
3. **Evaluation**: ``eval_games`` 2-player games (or a table of ``num_players``) against the
   heuristic, seats rotated, tournament seed ``eval_seed`` (32-bit: never a training deal),
   with the win share's 95% Wilson interval; and the mean thinking time per decision of the
   agent and of the heuristic, measured side by side in the same games
   (:func:`formosa_envs.evaluation.timing.think_times`).

The run folder holds ``config.json``, ``labels.npz``, ``evaluator.npz`` and ``report.json``
(the fit's history, the evaluation and the wall time of each stage).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
from formosa_envs.agents import make_agent

from formosa_envs.core.errors import ConfigError
from formosa_envs.evaluation.evaluate import run_tournament, win_share
from formosa_envs.evaluation.timing import think_times
from formosa_envs.games import GAMES, make_game
from formosa_envs.tools.console import run_console
from formosa_envs.tools.usage import MAX_WORKERS, OneLineParser, check_output_folder, int_between

from .config import AfterstateConfig, default_config_path, load_afterstate_config
from .data import ROW_KEYS, generate_labels, merge

PROG = "formosa train GAME --backend afterstate"
LABEL_SETTINGS = ("num_players", "games", "label_rate", "top_k", "playouts", "horizon",
                  "seed", "reply")
"""The settings the labels depend on (a run reuses ``labels.npz`` only when they match)."""


def load_or_label(run: Path, game: str, config: AfterstateConfig, log: Any,
                  show_progress: bool) -> tuple[dict[str, np.ndarray], float]:
    """The run's labels: ``labels.npz`` reused when made with the same settings, extended
    by the new games only when it holds fewer games of otherwise the same settings."""
    path, meta_path = run / "labels.npz", run / "labels.json"
    wanted = {"game": game, **{k: getattr(config, k) for k in LABEL_SETTINGS}}
    saved, saved_games = _saved_labels(path, meta_path, wanted)
    if saved is not None and saved_games == config.games:
        log(f"reusing {path}")
        return saved, 0.0
    start = time.perf_counter()
    first = saved_games if saved is not None else 0
    if first:
        log(f"reusing the labels of games 0-{first - 1} in {path}; labelling the rest")
    labels = generate_labels(config, game, show_progress, first=first)
    if saved is not None:
        labels = merge([saved, labels])
    np.savez(path, **labels)
    meta_path.write_text(json.dumps(wanted, indent=2) + "\n")
    return labels, time.perf_counter() - start


def _saved_labels(path: Path, meta_path: Path, wanted: dict[str, Any]
                  ) -> tuple[dict[str, np.ndarray] | None, int]:
    """The labels saved with the ``wanted`` settings or the same with fewer games, and
    their game count; ``(None, 0)`` otherwise (missing, other settings, unreadable or
    incomplete files are labelled again and written over)."""
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        games = meta.get("games") if isinstance(meta, dict) else None
        if not isinstance(games, int) or not 0 < games <= wanted["games"] \
                or {**meta, "games": wanted["games"]} != wanted:
            return None, 0
        with np.load(path, allow_pickle=False) as npz:
            return {k: npz[k] for k in ROW_KEYS}, games
    except (OSError, ValueError, KeyError, EOFError):
        return None, 0


def evaluate(game: str, spec: str, config: AfterstateConfig, workers: int,
             show_progress: bool) -> dict[str, Any]:
    """Win share of ``spec`` against the heuristic and the time per decision of both."""
    result = run_tournament(game, [spec, "heuristic"], config.num_players, config.eval_games,
                            seed=config.eval_seed, workers=workers,
                            show_progress=show_progress)
    share = win_share(result, result.config["names"][0])
    times = think_times(game, spec, 8, config.eval_seed, config.num_players)
    return {"seed": config.eval_seed, **share, "timing": times}


def run_afterstate(game: str, out: str | Path, config: AfterstateConfig | None = None,
                   workers: int | None = None, show_progress: bool = True,
                   log: Any = print) -> dict[str, Any]:
    """Run the three stages (module docstring) into folder ``out``; the report."""
    from .fit import export_evaluator, fit_evaluator
    if game not in GAMES:
        raise ConfigError(f"game must be one of {', '.join(sorted(GAMES))}, got {game!r}")
    config = config or AfterstateConfig()
    config.validate()
    if workers is not None:
        config.workers = workers
    make_agent("heuristic", game, 0)
    from formosa_envs.agents.candidates import REPLY_VALUES, candidate_generator
    try:
        candidate_generator(game)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if config.reply and game not in REPLY_VALUES:
        raise ConfigError(f"reply = 1 needs a game with a reply feature "
                          f"({', '.join(REPLY_VALUES)}), not {game!r}")
    run = check_output_folder(out, "--out")
    run.mkdir(exist_ok=True)
    (run / "config.json").write_text(json.dumps({"game": game, **asdict(config)}, indent=2))
    labels, label_s = load_or_label(run, game, config, log, show_progress)
    engine = make_game(game, num_players=config.num_players)
    net, fit = fit_evaluator(labels, engine.num_actions, config, log)
    path = export_evaluator(net, game, config, run / "evaluator.npz")
    report: dict[str, Any] = {"game": game, "label_s": round(label_s, 1), "fit": fit,
                              "evaluator": str(path)}
    if config.eval_games:
        start = time.perf_counter()
        report["evaluation"] = evaluate(game, f"afterstate:{path}", config, config.workers,
                                        show_progress)
        report["evaluation"]["wall_s"] = round(time.perf_counter() - start, 1)
    (run / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    return report


def main(argv: list[str] | None = None) -> int:
    """``formosa train GAME --backend afterstate [--config TOML] [--out DIR] ...``."""
    p = OneLineParser(prog=PROG, description="Afterstate evaluator from play-out labels.")
    p.add_argument("game", choices=sorted(GAMES), help="the game")
    p.add_argument("--backend", choices=["afterstate"], default="afterstate",
                   help="afterstate (set by formosa train --backend afterstate)")
    p.add_argument("--config", default=None,
                   help="a TOML file (default training/configs/GAME_afterstate.toml)")
    p.add_argument("--out", default=None, help="the run folder (default runs/GAME_afterstate)")
    p.add_argument("--games", type=int_between(1, 1_000_000), default=None,
                   help="override games (labelled heuristic games)")
    p.add_argument("--eval-games", type=int_between(0, 1_000_000), default=None,
                   help="override eval_games")
    p.add_argument("--workers", type=int_between(1, MAX_WORKERS), default=None,
                   help="worker processes (default: the config's)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    args = p.parse_args(argv)
    path = args.config or default_config_path(args.game)
    config = load_afterstate_config(path, games=args.games, eval_games=args.eval_games)
    out = args.out or f"runs/{args.game}_afterstate"
    if args.out is None:
        check_output_folder(out, "--out", default=True)
    report = run_afterstate(args.game, out, config, args.workers, not args.quiet)
    ev = report.get("evaluation")
    if ev:
        print(f"afterstate:{report['evaluator']} vs heuristic: {ev['win_rate']:.1%} "
              f"[{ev['win_low']:.1%}, {ev['win_high']:.1%}] over {ev['games']} games; "
              f"{ev['timing']['agent_ms_per_decision']:.2f} ms per decision (heuristic "
              f"{ev['timing']['heuristic_ms_per_decision']:.2f} ms)")
    return 0


def cli(argv: list[str] | None = None) -> int:
    """:func:`main` with bad input reported as one line and status 2."""
    return run_console(PROG, main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())
