"""The learning-curve picture of a training run (matplotlib, Agg backend)."""

from __future__ import annotations

import csv
from pathlib import Path


def read_csv(path: Path) -> list[dict[str, str]]:
    """Rows of a CSV file ([] if it does not exist)."""
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def plot_learning_curve(run_dir: Path, out: Path | None = None,
                        xlabel: str = "learner timesteps") -> Path:
    """Win rate vs each evaluation opponent (with 95% CI) and the training reward."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = out or run_dir / "learning_curve.png"
    evals = read_csv(run_dir / "eval.csv")
    progress = read_csv(run_dir / "logs" / "progress.csv")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for opponent in sorted({r["opponent"] for r in evals}):
        rows = [r for r in evals if r["opponent"] == opponent]
        x = [int(r["timesteps"]) for r in rows]
        y = [float(r["win_rate"]) for r in rows]
        lo = [float(r["win_low"]) for r in rows]
        hi = [float(r["win_high"]) for r in rows]
        top.plot(x, y, marker="o", label=f"vs {opponent}")
        top.fill_between(x, lo, hi, alpha=0.2)
    top.axhline(0.5, color="grey", lw=0.8, ls="--")
    _wall_axis(top, evals)
    top.set_ylim(0, 1)
    top.set_ylabel("win rate (95% CI)")
    top.set_title(f"Learning curve: {run_dir.name}")
    top.legend(loc="lower right")
    _plot_reward(bottom, progress)
    bottom.set_xlabel(xlabel)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def _wall_axis(axis: object, evals: list[dict[str, str]]) -> None:
    """A top axis in wall-clock minutes when the evaluations record them."""
    import numpy as np
    points = sorted({(int(r["timesteps"]), float(r["wall_minutes"])) for r in evals
                     if r.get("wall_minutes")})
    steps = np.array([p[0] for p in points], dtype=float)
    wall = np.array([p[1] for p in points], dtype=float)
    if len(points) < 2 or np.any(np.diff(steps) <= 0) or np.any(np.diff(wall) <= 0):
        return
    top = axis.secondary_xaxis(  # type: ignore[attr-defined]
        "top", functions=(lambda x: np.interp(x, steps, wall),
                          lambda m: np.interp(m, wall, steps)))
    top.set_xlabel("wall-clock minutes (warm start included)")


def _plot_reward(axis: object, progress: list[dict[str, str]]) -> None:
    rows = [r for r in progress if r.get("rollout/ep_rew_mean") and r.get("time/total_timesteps")]
    x = [int(float(r["time/total_timesteps"])) for r in rows]
    y = [float(r["rollout/ep_rew_mean"]) for r in rows]
    axis.plot(x, y, color="tab:green")  # type: ignore[attr-defined]
    axis.set_ylabel("mean episode reward\n(rank: +1 win, -1 loss)")  # type: ignore[attr-defined]
    axis.axhline(0.0, color="grey", lw=0.8, ls="--")  # type: ignore[attr-defined]
