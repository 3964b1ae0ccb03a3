"""Training callbacks: progress, frozen snapshots, periodic evaluation, checkpoints."""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Any

from formosa_envs.training.ppo.config import TrainConfig
from formosa_envs.training.ppo.export import export_policy
from stable_baselines3.common.callbacks import BaseCallback

from formosa_envs.tools.progress import ProgressBar

EVAL_FIELDS = ["timesteps", "opponent", "games", "wins", "win_rate", "win_low", "win_high",
               "wall_minutes"]


class SelfPlayCallback(BaseCallback):
    """Every few steps: update the progress bar, freeze snapshots, evaluate, checkpoint."""

    def __init__(self, config: TrainConfig, run_dir: Path, evaluate: Any,
                 show_progress: bool = True, wall_offset_s: float = 0.0) -> None:
        """``wall_offset_s``: the run's wall time before this process trained (the warm
        start, or the earlier part of a resumed run); evaluations record the sum."""
        super().__init__()
        self.config, self.run_dir, self.evaluate = config, run_dir, evaluate
        self.started = time.perf_counter() - wall_offset_s
        self.show_progress = show_progress
        self.bar: ProgressBar | None = None
        self.next: dict[str, int] = {}
        self.last_eval = ""

    def _on_training_start(self) -> None:
        now = self.num_timesteps
        c = self.config
        self.next = {"snapshot": _next_multiple(now, c.snapshot_every),
                     "eval": _next_multiple(now, c.eval_every),
                     "checkpoint": _next_multiple(now, c.checkpoint_every)}
        self.bar = ProgressBar(c.total_timesteps, "training", enabled=self.show_progress,
                               start=now)
        if now == 0 and (c.init or c.clone_games):
            self.run_evaluation(0)   # the warm start's own level: the curve's first point

    def _on_step(self) -> bool:
        t = self.num_timesteps
        if t >= self.next["snapshot"]:
            export_policy(self.model, self.run_dir / "pool" / f"snapshot_{t:09d}.npz")
            self.next["snapshot"] = _next_multiple(t, self.config.snapshot_every)
        if t >= self.next["eval"]:
            self.run_evaluation(t)
            self.next["eval"] = _next_multiple(t, self.config.eval_every)
        if t >= self.next["checkpoint"]:
            self.save_checkpoint()
            self.next["checkpoint"] = _next_multiple(t, self.config.checkpoint_every)
        if self.bar is not None:
            self.bar.update(t, self.last_eval)
        return True

    def _on_training_end(self) -> None:
        self.save_checkpoint()
        if self.bar is not None:
            self.bar.close()

    def run_evaluation(self, timesteps: int) -> list[dict[str, Any]]:
        """Evaluate the current policy against random and heuristic; log and store rows."""
        policy = export_policy(self.model, self.run_dir / "eval_policy.npz")
        rows = self.evaluate(policy, timesteps)
        wall = self.wall_minutes()
        for row in rows:
            row["wall_minutes"] = wall
            self.logger.record(f"eval/win_rate_vs_{row['opponent']}", row["win_rate"])
        append_eval_rows(self.run_dir / "eval.csv", rows)
        self.last_eval = "  " + " ".join(f"vs {r['opponent']} {r['win_rate']:.0%}" for r in rows)
        return rows

    def save_checkpoint(self) -> None:
        """Save the model for ``--resume`` (latest.zip) and its actor (latest.npz)."""
        folder = self.run_dir / "checkpoints"
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / "latest.tmp.zip"
        self.model.save(tmp)
        tmp.replace(folder / "latest.zip")
        export_policy(self.model, folder / "latest.npz")  # playable as policy:latest.npz
        (folder / "latest.json").write_text(json.dumps(
            {"timesteps": self.num_timesteps, "wall_minutes": self.wall_minutes()}) + "\n")

    def wall_minutes(self) -> float:
        """The run's wall-clock minutes so far (earlier parts of a resumed run included)."""
        return round((time.perf_counter() - self.started) / 60, 2)


def append_eval_rows(path: Path, rows: list[dict[str, Any]]) -> None:
    """Append evaluation rows to a CSV file (header written once)."""
    new = not path.exists()
    fields = EVAL_FIELDS if new else _header(path)
    with path.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, extrasaction="ignore")
        if new:
            writer.writeheader()
        for row in rows:
            writer.writerow({k: row.get(k, "") for k in fields})


def _header(path: Path) -> list[str]:
    """The columns of an existing CSV file (a run resumed from an older version keeps its
    own)."""
    with path.open(newline="") as handle:
        return next(csv.reader(handle), EVAL_FIELDS)


def last_wall_minutes(path: Path) -> float:
    """The wall time of the last evaluation in ``eval.csv`` (0 when there is none)."""
    if not path.exists():
        return 0.0
    with path.open(newline="") as handle:
        walls = [r.get("wall_minutes") for r in csv.DictReader(handle)]
    walls = [float(w) for w in walls if w]
    return walls[-1] if walls else 0.0


def checkpoint_wall_minutes(run_dir: Path) -> float:
    """The run's wall-clock minutes at its latest checkpoint (0 when unknown)."""
    path = run_dir / "checkpoints" / "latest.json"
    try:
        return float(json.loads(path.read_text())["wall_minutes"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0.0


def _next_multiple(now: int, every: int) -> int:
    return (now // every + 1) * every
