"""Self-play PPO on Ray RLlib: ``formosa train <game> --backend rllib`` / ``python -m
formosa_envs.training.rllib.train <game>`` (needs the ``[rllib]`` extra).

The run uses the game's training TOML (``training/configs/<game>_rllib.toml`` when
there is one, else ``<game>.toml``: the same keys and flags as the SB3 path, but no warm
start, whose keys must stay 0) plus the RLlib settings below. Locally it
starts a Ray instance of its own; with ``--address`` (``auto`` on a cluster
node, or ``ray://head:10001``) it joins a running cluster and spreads the env
runners over it. Modes (``--mode``): ``league`` (default: one learner against
scripted random/heuristic seats and frozen snapshots of itself, mixed by the
TOML's ``random``/``heuristic``/``snapshots`` weights), ``shared`` (one module
for every seat) and ``per_seat`` (one module per seat).

The run directory (``--out``, default ``runs/<game>-rllib``) holds::

    checkpoints/latest/      RLlib checkpoint (``--resume``; agent spec rllib:PATH)
    league.json              counters and snapshot ids, for --resume
    logs/progress.csv        per-iteration losses, env steps/s and env-measured rewards
    eval.csv                 periodic win rates vs random and heuristic, with 95% CIs
    policy.npz               the evaluated module as a numpy actor (policy:PATH)
    learning_curve.png, final/, summary.json   as the SB3 path

Win rates and scores come from the env (the tournament plays the exported
actor), never from RLlib's episode returns.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from formosa_envs.training.ppo.callbacks import append_eval_rows
from formosa_envs.training.ppo.config import CONFIG_DIR, TrainConfig
from formosa_envs.training.ppo.export import save_policy_npz
from formosa_envs.training.ppo.report import plot_learning_curve
from formosa_envs.training.ppo.train import build_parser as sb3_parser
from formosa_envs.training.ppo.train import (
    config_from_args,
    final_report,
    make_evaluator,
    print_summary,
)

from formosa_envs.core.errors import ConfigError
from formosa_envs.tools.console import run_console
from formosa_envs.tools.progress import ProgressBar
from formosa_envs.tools.usage import check_input_file, check_output_folder, int_between

MODES = ("shared", "per_seat", "league")
PROGRESS_FIELDS = ["iteration", "time/total_timesteps", "rollout/ep_rew_mean", "episodes",
                   "mean_decisions", "env_steps_per_s", "total_loss", "policy_loss",
                   "vf_loss", "entropy", "snapshots"]
PROG = "python -m formosa_envs.training.ppo.train_rllib"
MAX_RUNNERS = 256  # --runners, --learners: remote actors of one run (a large cluster's worth)
MAX_ENVS_PER_RUNNER = 256  # --envs-per-runner: vectorised envs in one runner process
INSTALL_HINT = "--backend rllib needs Ray RLlib, the [rllib] extra: pip install -e '.[rllib]'"


@dataclass
class RLlibSettings:
    """The RLlib-only knobs (everything else comes from :class:`TrainConfig`)."""

    mode: str = "league"
    runners: int = 1
    envs_per_runner: int = 4
    learners: int = 0
    address: str | None = None
    eval_module: str | None = None

    def validate(self, num_players: int) -> None:
        """Raise :class:`ConfigError` (a ValueError) naming the first bad setting."""
        if self.mode not in MODES:
            raise ConfigError(f"--mode must be one of {MODES}, got {self.mode!r}")
        counts = (self.runners, self.learners, self.envs_per_runner)
        if not (all(isinstance(c, int) and not isinstance(c, bool) for c in counts)
                and 0 <= self.runners <= MAX_RUNNERS and 0 <= self.learners <= MAX_RUNNERS
                and 1 <= self.envs_per_runner <= MAX_ENVS_PER_RUNNER):
            raise ConfigError(f"--runners and --learners must be >= 0 (at most {MAX_RUNNERS}) "
                              f"and --envs-per-runner >= 1 (at most {MAX_ENVS_PER_RUNNER}), "
                              f"got {self.runners!r}, {self.learners!r} and "
                              f"{self.envs_per_runner!r}")
        if self.eval_module and self.eval_module not in module_ids(self.mode, num_players):
            raise ConfigError(f"--eval-module {self.eval_module!r} is not a module of mode "
                              f"{self.mode}: {module_ids(self.mode, num_players)}")

    def evaluated_module(self) -> str:
        """The module exported and evaluated: learner, shared or seat_0 by default."""
        return self.eval_module or {"league": "learner", "shared": "shared",
                                    "per_seat": "seat_0"}[self.mode]


def module_ids(mode: str, num_players: int) -> list[str]:
    """The trained modules of ``mode`` (see ``formosa_envs.envs.rllib_config``)."""
    if mode == "per_seat":
        return [f"seat_{i}" for i in range(num_players)]
    return ["learner" if mode == "league" else "shared"]


def build_algorithm(config: TrainConfig, settings: RLlibSettings) -> Any:
    """The PPO algorithm for a run (TOML hyper-parameters mapped onto RLlib's)."""
    from formosa_envs.envs.rllib_config import build_ppo_config
    mix = config.random + config.heuristic + config.snapshots
    scripted = {"random": config.random / mix, "heuristic": config.heuristic / mix}
    training = {"lr": config.learning_rate, "gamma": config.gamma,
                "lambda_": config.gae_lambda, "entropy_coeff": config.ent_coef,
                "clip_param": config.clip_range, "num_epochs": config.n_epochs,
                "train_batch_size_per_learner": config.n_steps * config.n_envs,
                "minibatch_size": config.batch_size}
    ppo = build_ppo_config(config.game, config.num_players, settings.mode,
                           runners=settings.runners, envs_per_runner=settings.envs_per_runner,
                           learners=settings.learners,
                           seed=config.seed, scripted=scripted, net_arch=config.net_arch,
                           activation=config.activation, training=training)
    ppo.environment(env_config={**ppo.env_config, "reward_mode": config.reward_mode,
                                "shaping": config.shaping})
    return ppo.build_algo()


def export_module(algo: Any, module_id: str, activation: str, path: Path) -> Path:
    """Write ``module_id``'s actor as a numpy ``.npz`` (agent spec ``policy:PATH``)."""
    from formosa_envs.envs.rllib import module_layers
    from formosa_envs.envs.rllib_config import learner_state
    return save_policy_npz(module_layers(learner_state(algo, module_id)), activation, path)


class RLlibRun:
    """One training run: the loop, snapshots, evaluation, checkpoints and resume."""

    def __init__(self, config: TrainConfig, settings: RLlibSettings, show_progress: bool):
        self.config, self.settings = config, settings
        self.run_dir = Path(config.out)
        self.show_progress = show_progress
        self.algo: Any = None
        self.counters = {"timesteps": 0, "iteration": 0, "next_snapshot": config.snapshot_every,
                         "next_eval": config.eval_every,
                         "next_checkpoint": config.checkpoint_every}
        self.evaluate = make_evaluator(config, config.eval_games, seed_offset=10_000)
        self.last_eval = ""

    @property
    def league_file(self) -> Path:
        """Where counters and snapshot ids are saved next to the checkpoint."""
        return self.run_dir / "league.json"

    def start(self, resume: bool) -> None:
        """Build the algorithm; on ``resume`` restore the latest checkpoint and counters."""
        from formosa_envs.envs.rllib_config import start_ray
        start_ray(self.settings.address, results_dir=str(self.run_dir / "ray_results"))
        self.algo = build_algorithm(self.config, self.settings)
        if resume:
            self._restore()

    def _restore(self) -> None:
        from formosa_envs.envs.rllib_config import add_snapshot, learner_state, push_weights
        latest = self.run_dir / "checkpoints" / "latest"
        if not latest.is_dir() or not self.league_file.exists():
            raise ValueError(f"--resume: no checkpoint at {latest} (or no {self.league_file})")
        saved = json.loads(self.league_file.read_text())
        for module_id in saved["snapshots"]:  # the same modules again; weights come next
            add_snapshot(self.algo, self.config.pool_size, module_id=module_id)
        self.algo.restore_from_path(str(latest))
        snapshots = saved["snapshots"]
        push_weights(self.algo, {m: learner_state(self.algo, m) for m in snapshots})
        self.counters = saved["counters"]

    def loop(self) -> float:
        """Train until ``total_timesteps`` env steps; return the minutes spent."""
        c = self.config
        bar = ProgressBar(c.total_timesteps, "training (rllib)", enabled=self.show_progress,
                          start=self.counters["timesteps"])
        start = time.perf_counter()
        while self.counters["timesteps"] < c.total_timesteps:
            tick = time.perf_counter()
            result = self.algo.train()
            steps = int(result["env_runners"].get("num_env_steps_sampled", 0))
            self.counters["timesteps"] += steps
            self.counters["iteration"] += 1
            self._log(result, steps / max(time.perf_counter() - tick, 1e-9))
            self._periodic()
            bar.update(self.counters["timesteps"], self.last_eval)
        bar.close()
        self.save_checkpoint()
        return (time.perf_counter() - start) / 60

    def _periodic(self) -> None:
        from formosa_envs.envs.rllib_config import add_snapshot
        c, t = self.config, self.counters["timesteps"]
        if t >= self.counters["next_snapshot"]:
            if self.settings.mode == "league" and c.snapshots > 0:
                add_snapshot(self.algo, c.pool_size)
            self.counters["next_snapshot"] = _next_multiple(t, c.snapshot_every)
        if t >= self.counters["next_eval"]:
            self.run_evaluation()
            self.counters["next_eval"] = _next_multiple(t, c.eval_every)
        if t >= self.counters["next_checkpoint"]:
            self.save_checkpoint()
            self.counters["next_checkpoint"] = _next_multiple(t, c.checkpoint_every)

    def run_evaluation(self) -> list[dict[str, Any]]:
        """The evaluated module's actor vs random and heuristic (env scores); eval.csv."""
        policy = self.export(self.run_dir / "eval_policy.npz")
        rows = self.evaluate(policy, self.counters["timesteps"])
        append_eval_rows(self.run_dir / "eval.csv", rows)
        self.last_eval = "  " + " ".join(f"vs {r['opponent']} {r['win_rate']:.0%}" for r in rows)
        return rows

    def export(self, path: Path) -> Path:
        """The evaluated module's actor as ``.npz``."""
        return export_module(self.algo, self.settings.evaluated_module(),
                             self.config.activation, path)

    def save_checkpoint(self) -> None:
        """RLlib checkpoint plus counters and snapshot ids (for ``--resume``)."""
        from formosa_envs.envs.rllib_config import snapshot_ids
        latest = self.run_dir / "checkpoints" / "latest"
        self.algo.save_to_path(str(latest.resolve()))
        self.league_file.write_text(json.dumps(
            {"counters": self.counters, "snapshots": snapshot_ids(self.algo)}, indent=1))

    def _log(self, result: dict[str, Any], steps_per_s: float) -> None:
        totals = collect_totals(self.algo)
        row = {"iteration": self.counters["iteration"],
               "time/total_timesteps": self.counters["timesteps"],
               "env_steps_per_s": round(steps_per_s, 1),
               **env_statistics(totals),
               **learner_losses(result, self.settings.evaluated_module()),
               "snapshots": len([m for m in self.algo.config.policies
                                 if m.startswith("snapshot_")])}
        path = self.run_dir / "logs" / "progress.csv"
        path.parent.mkdir(parents=True, exist_ok=True)
        new = not path.exists()
        with path.open("a", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=PROGRESS_FIELDS)
            if new:
                writer.writeheader()
            writer.writerow({k: row.get(k, "") for k in PROGRESS_FIELDS})

    def stop(self) -> None:
        """Release the algorithm's actors."""
        if self.algo is not None:
            self.algo.stop()


def collect_totals(algo: Any) -> dict[str, float]:
    """Finished games, summed learner reward and decisions over every env of every env
    runner since the last call (each env then starts counting afresh)."""
    def drain(runner: Any) -> list[dict[str, float]]:
        return [env.unwrapped.drain_totals() for env in runner.env.envs]
    remote = algo.env_runner_group.num_remote_env_runners() > 0
    per_runner = algo.env_runner_group.foreach_env_runner(drain, local_env_runner=not remote)
    totals = {"episodes": 0, "reward": 0.0, "decisions": 0}
    for env_totals in (t for runner in per_runner for t in runner):
        for key, value in env_totals.items():
            totals[key] += value
    return totals


def env_statistics(totals: dict[str, float]) -> dict[str, Any]:
    """Mean final reward (the learner's, or seat 0's) and game length, from the env."""
    games = int(totals["episodes"])
    if not games:
        return {"episodes": 0}
    return {"episodes": games, "rollout/ep_rew_mean": totals["reward"] / games,
            "mean_decisions": totals["decisions"] / games}


def learner_losses(result: dict[str, Any], module_id: str) -> dict[str, float]:
    """The evaluated module's PPO losses from RLlib's result dict."""
    stats = result.get("learners", {}).get(module_id, {})
    return {k: float(stats[k]) for k in ("total_loss", "policy_loss", "vf_loss", "entropy")
            if k in stats}


def _next_multiple(now: int, every: int) -> int:
    return (now // every + 1) * every


def train_rllib(config: TrainConfig, settings: RLlibSettings, resume: bool = False,
                show_progress: bool = True) -> dict[str, Any]:
    """Run (or resume) an RLlib run; return the summary written to ``summary.json``."""
    import torch
    torch.set_num_threads(1)
    settings.validate(config.num_players)
    if config.player_counts:
        raise ConfigError("training option player_counts is not supported by the RLlib "
                          "backend (one seat count per run); use the sb3 backend or remove it")
    run = RLlibRun(config, settings, show_progress)
    run.run_dir.mkdir(parents=True, exist_ok=True)
    (run.run_dir / "config.json").write_text(json.dumps(
        {**config.__dict__, "rllib": asdict(settings)}, indent=2))
    try:
        run.start(resume)
        minutes = run.loop()
        policy = run.export(run.run_dir / "policy.npz")
        run.run_evaluation()
        timesteps = run.counters["timesteps"]
    finally:
        run.stop()
    plot_learning_curve(run.run_dir, xlabel="RLlib env steps (scripted seats not counted)")
    summary = final_report(config, run.run_dir, policy, timesteps, minutes, show_progress)
    summary["backend"] = {"name": "rllib", **asdict(settings)}
    (run.run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def build_parser() -> argparse.ArgumentParser:
    """The SB3 path's flags plus the RLlib settings."""
    parser = sb3_parser()
    parser.prog, parser.description = "formosa train --backend rllib", "Self-play PPO on RLlib."
    parser.add_argument("--mode", choices=MODES, default="league")
    parser.add_argument("--runners", type=int_between(0, MAX_RUNNERS), default=1,
                        help=f"remote env runners, 0 to {MAX_RUNNERS} (0: sample in the driver "
                             "process; default 1)")
    parser.add_argument("--envs-per-runner", type=int_between(1, MAX_ENVS_PER_RUNNER),
                        default=4, help=f"envs in each runner, 1 to {MAX_ENVS_PER_RUNNER} "
                                        "(default 4)")
    parser.add_argument("--learners", type=int_between(0, MAX_RUNNERS), default=0,
                        help=f"remote learners, 0 to {MAX_RUNNERS} (0: learn in the driver "
                             "process; default 0); each needs a CPU (or GPU) of its own")
    parser.add_argument("--address", default=None,
                        help="Ray cluster to join (auto, or ray://head:10001); default: "
                             "start a local Ray")
    parser.add_argument("--eval-module", default=None,
                        help="module to export and evaluate (default learner/shared/seat_0)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``formosa train --backend rllib`` and ``python -m
    formosa_envs.training.ppo.train_rllib``.

    A bad command line exits with status 2 (one line); a missing Ray, bad options and
    unusable ``--config``/``--out`` raise a :class:`ConfigError`/:class:`FormosaError`
    before anything is built (:func:`cli` prints those as one line, status 2).
    """
    args = build_parser().parse_args(argv)
    require_ray()
    if args.config is not None:
        check_input_file(args.config, "--config")
    elif (CONFIG_DIR / f"{args.game}_rllib.toml").is_file():
        args.config = str(CONFIG_DIR / f"{args.game}_rllib.toml")
    config = config_from_args(args)
    if config.init or config.clone_games or config.value_warmup:
        raise ConfigError("formosa train --backend rllib has no warm start: set init = '', "
                          "clone_games = 0 and value_warmup = 0 (the SB3 backend has it), "
                          f"got init={config.init!r}, clone_games={config.clone_games}, "
                          f"value_warmup={config.value_warmup}")
    if args.out is None:
        config.out = f"runs/{config.game}-rllib"
    check_output_folder(config.out, "--out" if args.out is not None else "out",
                        default=args.out is None)
    settings = RLlibSettings(args.mode, args.runners, args.envs_per_runner, args.learners,
                             args.address, args.eval_module)
    settings.validate(config.num_players)
    summary = train_rllib(config, settings, resume=args.resume, show_progress=not args.quiet)
    print_summary(summary, config.out)
    return 0


def require_ray() -> None:
    """Raise :class:`ConfigError` with the install hint unless Ray RLlib can be imported."""
    # A real import: find_spec would answer from sys.modules for an already-loaded
    # ray.rllib even where ``ray`` itself can no longer be imported.
    try:
        import ray  # noqa: F401
        import ray.rllib  # noqa: F401
    except ImportError as exc:  # no ray (or one without RLlib)
        raise ConfigError(f"{INSTALL_HINT} ({exc})") from None


def cli(argv: list[str] | None = None) -> int:
    """``python -m formosa_envs.training.ppo.train_rllib``: :func:`main`, bad input as one line and
    status 2."""
    return run_console(PROG, main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())
