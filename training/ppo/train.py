"""Self-play training with MaskablePPO: ``formosa train <game>`` / ``python -m
formosa_envs.training.ppo.train``.

The learner (one MaskablePPO policy) plays the single-agent view of a formosa
env: its seat rotates every episode and its opponents are drawn per episode
from uniform-random players, the game's heuristic, and frozen snapshots of
itself (``training/ppo/opponents.py``). The run directory holds::

    checkpoints/latest.zip   resume point (``--resume``)
    pool/snapshot_*.npz      frozen snapshots used as opponents
    logs/progress.csv        SB3 training log (and TensorBoard events if installed)
    eval.csv                 periodic win rates vs random and heuristic, with 95% CIs
    model.zip, policy.npz    the final model (SB3) and its numpy actor
    (formosa_envs.agents.PolicyAgent)
    network.npz              actor and critic as one network (``az:PATH``, ``policy:PATH``)
    clone/                   the warm start's data and cloning run (``clone_games`` > 0)
    learning_curve.png       win rates and reward over training
    final/                   the final tournament (table, CSV, JSON, PNG)
    summary.json             headline figures of the run
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from formosa_envs.training.ppo.config import INT_BOUNDS, TrainConfig, load_config

from formosa_envs.core.errors import ConfigError
from formosa_envs.evaluation.evaluate import format_table, run_tournament, save_result, win_share
from formosa_envs.evaluation.solo import format_solo_table, solo_share
from formosa_envs.games import GAMES
from formosa_envs.tools.console import OneLineParser, run_console
from formosa_envs.tools.usage import (
    UsageError,
    check_input_file,
    check_output_folder,
    int_between,
    positive_float,
)

EVAL_OPPONENTS = ("random", "heuristic")


def make_env_fns(config: TrainConfig, pool_dir: Path) -> list[Any]:
    """One picklable constructor per vectorised env (seeded ``seed + i``; env ``i`` plays
    :func:`env_player_counts` ``[i]`` seats)."""
    from functools import partial

    from formosa_envs.training.ppo.opponents import OpponentPool

    from formosa_envs.envs.single_agent import SingleAgentEnv
    pool = OpponentPool(config.game, str(pool_dir), config.random, config.heuristic,
                        config.snapshots, config.pool_size)
    return [partial(SingleAgentEnv, config.game, opponents=pool,
                    reward_mode=config.reward_mode, shaping=config.shaping,
                    num_players=players)
            for players in env_player_counts(config)]


def env_player_counts(config: TrainConfig) -> list[int]:
    """The seat count of each training env: ``player_counts`` cycled, else ``num_players``."""
    counts = config.player_counts or [config.num_players]
    return [counts[i % len(counts)] for i in range(config.n_envs)]


def make_vec_env(config: TrainConfig, pool_dir: Path) -> Any:
    """The vectorised training env: one process (dummy) or one process per env (subproc)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor
    fns = make_env_fns(config, pool_dir)
    venv = SubprocVecEnv(fns) if config.vec_env == "subproc" else DummyVecEnv(fns)
    venv.seed(config.seed)
    return VecMonitor(venv)


def latest_checkpoint(run_dir: Path) -> Path:
    """The run's resume point; :class:`ConfigError` when there is none."""
    latest = run_dir / "checkpoints" / "latest.zip"
    if not latest.is_file():
        raise ConfigError(f"--resume: no checkpoint at {latest} (train without --resume, or "
                          "give the --out of an earlier run)")
    return latest


def build_model(config: TrainConfig, venv: Any, run_dir: Path, resume: bool,
                init: Path | None = None) -> Any:
    """A new MaskablePPO (started from the network ``init`` when given), or the run's
    latest checkpoint when resuming."""
    import torch
    from formosa_envs.training.ppo.export import load_checkpoint
    from sb3_contrib import MaskablePPO
    if resume:
        try:  # corrupt, or another run's (other game, player count or n_envs)
            return load_checkpoint(latest_checkpoint(run_dir), env=venv)
        except ConfigError as exc:
            raise ConfigError(f"--resume: cannot continue the run in {run_dir}: {exc}") \
                from None
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[config.activation]
    model = MaskablePPO(
        "MlpPolicy", venv, learning_rate=config.learning_rate, n_steps=config.n_steps,
        batch_size=config.batch_size, n_epochs=config.n_epochs, gamma=config.gamma,
        gae_lambda=config.gae_lambda, ent_coef=config.ent_coef, clip_range=config.clip_range,
        policy_kwargs={"net_arch": list(config.net_arch), "activation_fn": activation},
        seed=config.seed, device="cpu", verbose=0)
    if init is not None:
        from formosa_envs.training.ppo.warm_start import load_init
        load_init(model, init)
    return model


def configure_logger(model: Any, run_dir: Path) -> list[str]:
    """CSV logs always; TensorBoard event files when tensorboard is installed."""
    from stable_baselines3.common.logger import configure
    formats = ["csv"]
    try:
        import tensorboard  # noqa: F401
        formats.append("tensorboard")
    except ImportError:
        pass
    model.set_logger(configure(str(run_dir / "logs"), formats))
    return formats


def make_evaluator(config: TrainConfig, games: int, seed_offset: int) -> Any:
    """``evaluate(policy_path, timesteps) -> rows``: the policy vs each baseline, seats rotated."""
    def evaluate(policy: Path, timesteps: int) -> list[dict[str, Any]]:
        if config.num_players == 1:  # solo: the objective is the opponent
            share = solo_share(config.game, f"policy:{policy}", games,
                               seed=config.seed + seed_offset)
            return [{"timesteps": timesteps, "opponent": "objective",
                     **{k: share[k] for k in ("games", "wins", "win_rate", "win_low",
                                              "win_high")}}]
        rows = []
        for opponent in EVAL_OPPONENTS:
            result = run_tournament(config.game, [f"policy:{policy}", opponent],
                                    config.num_players, games, seed=config.seed + seed_offset,
                                    workers=1, show_progress=False)
            share = win_share(result, f"policy:{policy}")
            rows.append({"timesteps": timesteps, "opponent": opponent, **share})
        return rows
    return evaluate


def train(config: TrainConfig, resume: bool = False, show_progress: bool = True) -> dict:
    """Run (or resume) a training run; return the summary written to ``summary.json``."""
    import torch
    from formosa_envs.training.ppo.callbacks import SelfPlayCallback, checkpoint_wall_minutes
    from formosa_envs.training.ppo.export import export_network, export_policy
    from formosa_envs.training.ppo.report import plot_learning_curve
    from formosa_envs.training.ppo.warm_start import ValueWarmup, clone_stage
    from stable_baselines3.common.callbacks import CallbackList
    config.validate()
    run_dir = Path(config.out)
    if resume:
        latest_checkpoint(run_dir)  # before anything is written
    elif config.init:
        from formosa_envs.training.ppo.warm_start import check_init
        check_init(config.init)     # a file that is no network fails before anything is made
    start = time.perf_counter()
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps(config.__dict__, indent=2))
    init = Path(config.init) if config.init else None
    if config.clone_games and not resume:
        init = clone_stage(config, run_dir, show_progress)
    torch.set_num_threads(1)  # tiny MLPs: more threads only add contention (ms per op)
    venv = make_vec_env(config, run_dir / "pool")
    model = build_model(config, venv, run_dir, resume, init)
    configure_logger(model, run_dir)
    evaluator = make_evaluator(config, config.eval_games, seed_offset=10_000)
    earlier = checkpoint_wall_minutes(run_dir) * 60 if resume else 0.0
    selfplay = SelfPlayCallback(config, run_dir, evaluator, show_progress,
                                wall_offset_s=earlier + time.perf_counter() - start)
    callback = CallbackList([ValueWarmup(config.value_warmup), selfplay]) \
        if config.value_warmup else selfplay
    remaining = max(config.total_timesteps - model.num_timesteps, 0)
    model.learn(remaining, callback=callback, reset_num_timesteps=not resume)
    minutes = selfplay.wall_minutes()   # warm start and earlier parts of a resumed run included
    venv.close()
    model.save(run_dir / "model.zip")
    policy = export_policy(model, run_dir / "policy.npz")
    export_network(model, run_dir / "network.npz")   # actor + critic, for az:PATH
    selfplay.run_evaluation(model.num_timesteps)
    plot_learning_curve(run_dir)
    return final_report(config, run_dir, policy, model.num_timesteps, minutes, show_progress)


def final_report(config: TrainConfig, run_dir: Path, policy: Path, timesteps: int,
                 minutes: float, show_progress: bool) -> dict:
    """The final tournament (policy, random, heuristic) and the run's summary."""
    specs = [f"policy:{policy}", *EVAL_OPPONENTS]
    if config.num_players == 1:
        return solo_report(config, run_dir, specs, timesteps, minutes)
    result = run_tournament(config.game, specs, config.num_players, config.final_games,
                            seed=config.seed + 20_000, workers=config.workers,
                            show_progress=show_progress)
    paths = save_result(result, run_dir / "final")
    table = format_table(result)
    (run_dir / "final" / "table.txt").write_text(table + "\n")
    summary = {"game": config.game, "num_players": config.num_players, "timesteps": timesteps,
               "train_minutes": round(minutes, 2),
               "vs": {opp: head_to_head(result, specs[0], opp) for opp in EVAL_OPPONENTS},
               "table": table, "files": {k: str(v) for k, v in paths.items()}}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def solo_report(config: TrainConfig, run_dir: Path, specs: list[str], timesteps: int,
                minutes: float) -> dict:
    """Solo runs: each agent's objective rate, mean score and tiers over the final games."""
    rows = {spec: solo_share(config.game, spec, config.final_games, seed=config.seed + 20_000)
            for spec in specs}
    table = format_solo_table(rows)
    (run_dir / "final").mkdir(exist_ok=True)
    (run_dir / "final" / "table.txt").write_text(table + "\n")
    summary = {"game": config.game, "num_players": 1, "timesteps": timesteps,
               "train_minutes": round(minutes, 2), "solo": rows, "table": table}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def head_to_head(result: Any, spec: str, opponent: str) -> dict[str, float]:
    """The policy's win share against one opponent across their games."""
    return win_share(result, spec, against=opponent)


FLAGS: dict[str, str] = {
    "players": "num_players", "timesteps": "total_timesteps", "n-envs": "n_envs",
    "seed": "seed", "out": "out", "workers": "workers", "vec-env": "vec_env",
    "eval-every": "eval_every", "eval-games": "eval_games", "final-games": "final_games",
    "snapshot-every": "snapshot_every", "checkpoint-every": "checkpoint_every",
    "n-steps": "n_steps", "batch-size": "batch_size", "learning-rate": "learning_rate",
    "init": "init", "clone-games": "clone_games", "value-warmup": "value_warmup",
}
"""Command-line flag -> :class:`TrainConfig` field it overrides."""

HELP: dict[str, str] = {
    "num_players": "players per game (within the game's range; 1: Dadaocheng solo)",
    "total_timesteps": "learner decisions to train for", "n_envs": "vectorised envs",
    "seed": "master seed", "workers": "processes of the final tournament",
    "eval_every": "timesteps between evaluations", "eval_games": "games per evaluation",
    "final_games": "games of the final tournament",
    "snapshot_every": "timesteps between frozen snapshots",
    "checkpoint_every": "timesteps between checkpoints", "n_steps": "steps per env per update",
    "batch_size": "PPO minibatch (at most n_steps * n_envs)",
    "clone_games": "heuristic games cloned into the starting policy (0: none)",
    "value_warmup": "timesteps at the start with the actor frozen",
}
"""Flag help (the allowed range is added from :data:`INT_BOUNDS`)."""


def build_parser() -> argparse.ArgumentParser:
    """Flags for every training option (defaults come from the game's TOML); a bad value
    is one line naming the flag and the allowed range, exit status 2."""
    parser = OneLineParser(prog="formosa train", description="Train an agent for a game "
                            "(MaskablePPO self-play by default; --backend for the others).")
    parser.add_argument("game", choices=sorted(GAMES), help="game name")
    parser.add_argument("--config", help="TOML file (default training/configs/<game>.toml)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument("--backend", choices=("sb3", "rllib", "jax", "afterstate"), default="sb3",
                        help="sb3: MaskablePPO in this process (default); rllib: Ray RLlib "
                             "(python -m formosa_envs.training.ppo.train_rllib -h for its "
                             "flags); jax: "
                             "jitted PPO (Flowers, Dadaocheng) or Gumbel MuZero (Flowers) "
                             "(python -m formosa_envs.training.jax.train -h); afterstate: "
                             "an evaluator of the heuristic's candidate moves")
    for flag, name in FLAGS.items():
        parser.add_argument(f"--{flag}", default=None, **_flag_kind(name))
    return parser


def _flag_kind(name: str) -> dict[str, Any]:
    """argparse ``type``/``choices``/``help`` of the flag of field ``name``."""
    if name in INT_BOUNDS:
        low, high = INT_BOUNDS[name]
        return {"type": int_between(low, high), "help": f"{HELP[name]}: {low:,} to {high:,}"}
    if name == "learning_rate":
        return {"type": positive_float, "help": "learning rate, > 0 and <= 1"}
    if name == "vec_env":
        return {"choices": ("dummy", "subproc"), "help": "dummy: one process; subproc: "
                "one process per env"}
    if name == "init":
        return {"help": "an exported network (.npz, e.g. the best.npz of a behaviour-cloning "
                "run) to start "
                        "from; its layer sizes must match net_arch"}
    return {"help": "run folder (default runs/<game>)"}


def config_from_args(args: argparse.Namespace) -> TrainConfig:
    """Merge the TOML defaults with the flags given (errors name the flag or the file)."""
    overrides = {name: getattr(args, flag.replace("-", "_")) for flag, name in FLAGS.items()}
    flags = {name: f"--{flag}" for flag, name in FLAGS.items()}
    return load_config(args.game, args.config, flags=flags, **overrides)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``formosa train``: bad flags exit with status 2 (one line); bad
    options, files and folders raise a :class:`FormosaError` before anything is built
    (:func:`cli` prints those as one line too)."""
    args = build_parser().parse_args(argv)
    if args.backend != "sb3":
        raise UsageError(f"--backend {args.backend}: this is the sb3 learner; run "
                         "formosa train (formosa_envs.training.train), which picks the backend")
    if args.config is not None:
        check_input_file(args.config, "--config")
    if args.init:
        check_input_file(args.init, "--init")
    config = config_from_args(args)
    check_output_folder(config.out, "--out" if args.out is not None else "out",
                        default=args.out is None)
    os.environ.setdefault("PYTHONHASHSEED", "0")
    summary = train(config, resume=args.resume, show_progress=not args.quiet)
    print_summary(summary, config.out)
    return 0


def print_summary(summary: dict, out: str) -> None:
    """The final table, the policy's win rate against each opponent, the run folder."""
    print(summary["table"])
    for opponent, share in summary.get("vs", {}).items():
        print(f"policy vs {opponent}: win rate {share['win_rate']:.1%} "
              f"(95% CI {share['win_low']:.1%}-{share['win_high']:.1%}, {share['games']} games)")
    print(f"run directory: {out}")


def cli(argv: list[str] | None = None) -> int:
    """``python -m formosa_envs.training.ppo.train``: :func:`main`, bad input as one line and
    status 2."""
    return run_console("formosa train", main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())
