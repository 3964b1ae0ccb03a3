"""``formosa train flowers --backend jax``: jitted PPO on the JAX Flowers engine.

``python -m formosa_envs.training.jax.train flowers [--method ppo|gumbel] [--config TOML]
[--out DIR] [--minutes M] [--updates N] [--num-envs B] [--players N] [--seed S]
[--eval-games G] [--quiet]`` compiles the whole update (rollouts of ``num_envs`` games
against the JAX heuristic, random players and snapshots of the learner, as the config's
blocks say, then PPO) once, runs it until ``updates`` or ``minutes`` (compile time
excluded), then exports the policy as a numpy ``network.npz`` and evaluates it with
``formosa tournament``'s machinery against ``random`` and the Python ``heuristic``.
``--method gumbel`` runs Gumbel MuZero self-play instead (:mod:`.gumbel_train`).

Run folder: ``config.json``, ``metrics.csv`` (one row per update: losses, games finished,
the learner's win rate overall and against the random player, learner steps, wall
seconds), ``network.npz`` (actor + value head: ``policy:`` / ``az:`` specs play it; a network of
``learner_kinds`` names them and plays as ``residual:PATH:0``),
``networks/update-NNNNNN.npz`` every ``export_every`` updates (for learning curves) and
``summary.json`` (compile seconds, learner steps per second, the evaluation with Wilson
95% intervals). The folder must not hold an earlier run (JAX runs do not resume). Needs
the ``[jax]`` extra (and ``[train]`` for the evaluation's agents).
"""

from __future__ import annotations

import csv
import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from formosa_envs.training.jax.config import GAMES, INT_BOUNDS, JaxTrainConfig, load_jax_config

from formosa_envs.core.errors import ConfigError
from formosa_envs.tools.console import run_console
from formosa_envs.tools.progress import ProgressBar
from formosa_envs.tools.usage import OneLineParser, check_output_folder, int_between

FLAGS = {"minutes": float, "updates": int, "num-envs": int, "players": int, "seed": int,
         "eval-games": int}
FIELD = {"players": "num_players", "num-envs": "num_envs", "eval-games": "eval_games"}
DEFAULT_OUT = "runs/<game>_jax"
"""The run folder when --out is not given (``<game>``: the game trained)."""


def run(config: JaxTrainConfig, out: str | Path, show_progress: bool = True) -> dict[str, Any]:
    """Train, export and evaluate; returns the summary (also written to the run folder)."""
    import jax
    from formosa_envs.training.jax.nets import export_params
    from formosa_envs.training.jax.ppo import make_train

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(asdict(config), indent=2))
    vec = vec_env(config)
    init, train = make_train(vec, config)
    train = jax.jit(train, static_argnums=1)
    started = time.perf_counter()
    carry = jax.jit(init)(jax.random.PRNGKey(config.seed))
    carry, _ = train(carry, config.updates_per_call)         # compiles; counted as warm-up
    jax.block_until_ready(carry.params)
    compile_s = time.perf_counter() - started
    carry, rows, train_s = _train_loop(train, carry, config, out, show_progress)
    network = export_params(carry.params, config.activation, out / "network.npz",
                            sorted(set(config.learner_kinds)))
    steps = sum(r["learner_steps"] for r in rows)
    summary = {"compile_s": round(compile_s, 1), "train_s": round(train_s, 1),
               "updates": len(rows), "learner_steps": steps,
               "learner_steps_per_s": round(steps / train_s) if train_s else 0,
               "network": str(network), "vs": _evaluate(config, network, show_progress)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def vec_env(config: JaxTrainConfig) -> Any:
    """The batched JAX games of ``config.game`` the learner plays."""
    if config.game == "dadaocheng":
        from formosa_envs.jax.dadaocheng.vec_env import DadaochengVecEnv
        reward = "rank" if config.reward == "win" else config.reward  # win: from rank
        return DadaochengVecEnv(config.num_envs, num_players=config.num_players,
                                reward=reward)
    from formosa_envs.jax.flowers.vec_env import FlowersVecEnv
    return FlowersVecEnv(config.num_envs, num_players=config.num_players)


def _train_loop(train: Any, carry: Any, config: JaxTrainConfig, out: Path,
                show_progress: bool) -> tuple[Any, list[dict[str, Any]], float]:
    """Compiled calls of ``updates_per_call`` updates until the update or time budget."""
    import jax
    rows: list[dict[str, Any]] = []
    budget = config.minutes * 60 if config.minutes > 0 else float("inf")
    started = time.perf_counter()
    timed = budget < float("inf")      # progress in seconds of the budget, else in updates
    bar = ProgressBar(int(budget) if timed else config.updates, "jax ppo (s)" if timed
                      else "jax ppo (updates)", enabled=show_progress)
    while len(rows) < config.updates and time.perf_counter() - started < budget:
        calls = min(config.updates_per_call, config.updates - len(rows))
        elapsed = time.perf_counter() - started
        carry = carry._replace(lr_scale=_lr_scale(config, len(rows), elapsed, budget),
                               teacher_scale=_teacher_scale(config, len(rows), elapsed,
                                                            budget))
        carry, metrics = train(carry, calls)   # a shorter last call compiles once more
        metrics = jax.device_get(metrics)
        wall = time.perf_counter() - started
        for i in range(calls):
            rows.append({"update": len(rows) + 1, "wall_s": round(wall, 2),
                         **{k: float(v[i]) for k, v in metrics.items()},
                         "learner_steps": int(metrics["learner_steps"][i])})
        _export_snapshot(carry, config, out, len(rows), calls)
        bar.update(int(wall) if timed else len(rows),
                   f"update {len(rows)}, win {rows[-1]['win_rate']:.2f}, vs random "
                   f"{rows[-1]['win_rate_vs_random']:.2f}, vs heuristic "
                   f"{rows[-1]['win_rate_vs_heuristic']:.2f}")
    bar.close()
    _write_metrics(out / "metrics.csv", rows)
    return carry, rows, time.perf_counter() - started


def _lr_scale(config: JaxTrainConfig, done: int, elapsed: float, budget: float) -> Any:
    """The learning rate's factor for the next call: 1, or with ``anneal_lr`` the share of
    the budget left (time with ``minutes``, else updates), as PPO's linear annealing."""
    import numpy as np
    if not config.anneal_lr:
        return np.float32(1.0)
    used = elapsed / budget if budget < float("inf") else done / config.updates
    return np.float32(max(0.0, 1.0 - used))


def _teacher_scale(config: JaxTrainConfig, done: int, elapsed: float, budget: float) -> Any:
    """The kickstarting weight for the next call: ``kickstart`` falling linearly to 0 at
    ``kickstart_share`` of the budget (time with ``minutes``, else updates)."""
    import numpy as np
    used = elapsed / budget if budget < float("inf") else done / config.updates
    left = 1.0 - used / config.kickstart_share if config.kickstart_share > 0 else 0.0
    return np.float32(config.kickstart * max(0.0, left))


def _export_snapshot(carry: Any, config: JaxTrainConfig, out: Path, done: int,
                     calls: int) -> None:
    """``networks/update-NNNNNN.npz`` when this call crossed a multiple of export_every."""
    every = config.export_every
    if every and done // every > (done - calls) // every:
        from formosa_envs.training.jax.nets import export_params
        export_params(carry.params, config.activation,
                      out / "networks" / f"update-{done:06d}.npz",
                      sorted(set(config.learner_kinds)))


def _write_metrics(path: Path, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _evaluate(config: JaxTrainConfig, network: Path, show_progress: bool
              ) -> dict[str, dict[str, float]]:
    """The exported policy against random and against the heuristic (seats rotated; at
    more than 2 players, the policy against that many copies of the opponent)."""
    if config.eval_games == 0:
        return {}
    spec = f"residual:{network}:0" if config.learner_kinds else f"policy:{network}"
    if config.num_players == 1:
        from formosa_envs.evaluation.solo import paired_scores, solo_share
        return {"objective": solo_share(config.game, spec, config.eval_games,
                                        config.eval_seed),
                "heuristic_objective": solo_share(config.game, "heuristic",
                                                  config.eval_games, config.eval_seed),
                "paired_scores": paired_scores(config.game, spec, "heuristic",
                                               config.eval_games, config.eval_seed)}
    from formosa_envs.evaluation.evaluate import run_tournament, win_share
    results = {}
    for opponent in ("random", "heuristic"):
        lineup = [spec] + [opponent] * (config.num_players - 1)
        result = run_tournament(config.game, lineup, config.num_players,
                                config.eval_games, seed=config.eval_seed,
                                show_progress=show_progress)
        results[opponent] = win_share(result, spec, opponent)
    return results


def build_parser() -> OneLineParser:
    """The flags; a bad value is one line naming the flag, exit status 2."""
    parser = OneLineParser(prog="formosa train flowers|dadaocheng --backend jax",
                           description="Jitted self-play PPO on a JAX engine.")
    parser.add_argument("game", choices=list(GAMES),
                        help="the games with a JAX engine (gumbel: flowers)")
    parser.add_argument("--backend", choices=["jax"], default="jax",
                        help="jax (set by formosa train --backend jax)")
    parser.add_argument("--method", choices=["ppo", "gumbel"], default="ppo",
                        help="ppo: jitted PPO against heuristic, random and snapshot "
                             "opponents (default); gumbel: Gumbel MuZero self-play with mctx "
                             "(2 players; config training/configs/flowers_gumbel.toml)")
    parser.add_argument("--config",
                        help="TOML file (default training/configs/<game>_jax.toml)")
    parser.add_argument("--out", default=DEFAULT_OUT,
                        help="run folder (default runs/<game>_jax)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument("--minutes", type=float, help="training time budget (compile excluded)")
    for flag in ("updates", "num-envs", "players", "seed", "eval-games"):
        low, high = INT_BOUNDS[FIELD.get(flag, flag)]
        parser.add_argument(f"--{flag}", type=int_between(low, high),
                            help=f"{low:,} to {high:,}")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; bad options raise :class:`ConfigError` before JAX is imported."""
    args = build_parser().parse_args(argv)
    if args.method == "gumbel":
        if args.game != "flowers":
            raise ConfigError(f"--method gumbel runs on flowers, got {args.game}")
        return _main_gumbel(args)
    overrides = {FIELD.get(flag, flag.replace("-", "_")): getattr(args, flag.replace("-", "_"))
                 for flag in FLAGS}
    config = load_jax_config(args.config, args.game, **overrides)
    out = f"runs/{args.game}_jax" if args.out == DEFAULT_OUT else args.out
    _check_fresh_folder(check_output_folder(out, "--out", default=args.out == DEFAULT_OUT))
    _require_jax()
    summary = run(config, out, show_progress=not args.quiet)
    print(f"{summary['updates']} updates, {summary['learner_steps']:,} learner steps in "
          f"{summary['train_s']} s ({summary['learner_steps_per_s']:,}/s; compile "
          f"{summary['compile_s']} s)")
    for opponent, share in summary["vs"].items():
        if "win_rate" not in share:  # solo: the paired scores
            print(f"{opponent}: mean score {share['mean_score']:.1f} against the heuristic's "
                  f"{share['baseline_mean_score']:.1f} on the same {share['games']} deals")
            continue
        print(f"policy vs {opponent}: win rate {share['win_rate']:.1%} (95% CI "
              f"{share['win_low']:.1%}-{share['win_high']:.1%}, {share['games']} games)")
    print(f"run directory: {out}")
    return 0


def _main_gumbel(args: Any) -> int:
    """``--method gumbel``: the Gumbel MuZero self-play run (:mod:`.gumbel_train`)."""
    from formosa_envs.training.jax.gumbel_train import load_gumbel_config
    if args.players not in (None, 2):
        raise ConfigError(f"--method gumbel plays 2 players (the search's values are "
                          f"zero-sum), got --players {args.players}")
    if args.updates is not None:
        raise ConfigError("--method gumbel counts iterations, not updates: set iterations "
                          "in its --config")
    config = load_gumbel_config(args.config, minutes=args.minutes, seed=args.seed,
                                num_envs=args.num_envs, eval_games=args.eval_games)
    out = "runs/flowers_gumbel" if args.out == DEFAULT_OUT else args.out
    _check_fresh_folder(check_output_folder(out, "--out", default=args.out == DEFAULT_OUT))
    _require_jax(gumbel=True)
    from formosa_envs.training.jax.gumbel_train import run as run_gumbel
    summary = run_gumbel(config, out, show_progress=not args.quiet)
    print(f"{summary['iterations']} iterations, {summary['searched_decisions']:,} searched "
          f"decisions in {summary['train_s']} s (compile {summary['compile_s']} s)")
    for name, share in summary.items():
        if isinstance(share, dict) and "win_rate" in share:
            print(f"{name.replace('_', ' ')}: win rate {share['win_rate']:.1%} (95% CI "
                  f"{share['win_low']:.1%}-{share['win_high']:.1%}, {share['games']} games)")
    print(f"run directory: {out}")
    return 0


RUN_FILES = ("config.json", "metrics.csv", "network.npz", "summary.json", "networks")


def _check_fresh_folder(out: Path) -> None:
    """Refuse a folder holding an earlier run: its snapshots and metrics would mix with the
    new run's (JAX runs do not resume)."""
    found = [name for name in RUN_FILES if (out / name).exists()]
    if found:
        raise ConfigError(f"--out {out}: the folder already holds a run ({', '.join(found)}); "
                          "choose another --out (JAX runs do not resume)")


def _require_jax(gumbel: bool = False) -> None:
    import importlib.util
    needed = ("jax", "optax", "mctx") if gumbel else ("jax", "optax")
    if any(importlib.util.find_spec(name) is None for name in needed):
        raise ConfigError("--backend jax needs the [jax] extra: pip install -e '.[jax]'")


def cli(argv: list[str] | None = None) -> int:
    """``python -m formosa_envs.training.jax.train``: :func:`main`, bad input as one line, status
    2."""
    return run_console("formosa train --backend jax", main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())
