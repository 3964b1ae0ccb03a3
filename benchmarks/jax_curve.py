"""Learning curve of a JAX PPO run against the Python heuristic.

    .venv/bin/python benchmarks/jax_curve.py RUN_DIR [--games 1000] [--seed 8000000]
        [--png docs/images/flowers_jax_curve.png]

Plays every exported snapshot of ``RUN_DIR`` (``networks/update-*.npz``, then the final
``network.npz``) against the heuristic in ``formosa tournament``'s machinery: at the run's
player count, the policy against that many minus one heuristics, seats rotated, on a
validation seed (not the run's evaluation seed). Each snapshot's training minute comes
from ``metrics.csv``. Writes ``RUN_DIR/curve.json`` and, with ``--png``, a plot.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path
from typing import Any

from formosa_envs.evaluation.evaluate import run_tournament, win_share


def snapshots(run: Path) -> list[tuple[int, Path]]:
    """``(update, file)`` of every exported network, the final one last."""
    found = sorted((int(p.stem.split("-")[1]), p) for p in (run / "networks").glob("*.npz"))
    rows = list(csv.DictReader((run / "metrics.csv").open()))
    return [*found, (int(rows[-1]["update"]), run / "network.npz")]


def minutes_at(run: Path) -> dict[int, float]:
    """Training minutes at the end of each update (``metrics.csv``'s ``wall_s``)."""
    return {int(r["update"]): float(r["wall_s"]) / 60
            for r in csv.DictReader((run / "metrics.csv").open())}


def curve(run: Path, games: int, seed: int) -> list[dict[str, Any]]:
    """One point per snapshot: update, minutes, win share with its Wilson interval."""
    players = json.loads((run / "config.json").read_text())["num_players"]
    minutes = minutes_at(run)
    points = []
    for update, path in snapshots(run):
        spec = f"policy:{path}"
        result = run_tournament("flowers", [spec] + ["heuristic"] * (players - 1), players,
                                games, seed=seed, show_progress=False)
        share = win_share(result, spec, "heuristic")
        points.append({"update": update, "minutes": round(minutes[update], 2),
                       "file": path.name, **share})
        print(f"{path.name}: {share['win_rate']:.1%} ({share['win_low']:.1%}-"
              f"{share['win_high']:.1%}) at {minutes[update]:.1f} min", flush=True)
    return points


def plot(points: list[dict[str, Any]], players: int, png: Path) -> None:
    """The win share against the training minutes, with its interval."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    x = [p["minutes"] for p in points]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(x, [p["win_rate"] for p in points], marker="o")
    ax.fill_between(x, [p["win_low"] for p in points], [p["win_high"] for p in points],
                    alpha=0.25)
    ax.axhline(1 / players, color="grey", linestyle="--", label="fair share")
    ax.set_xlabel("training minutes")
    ax.set_ylabel("win share vs heuristic")
    ax.set_title(f"JAX PPO, Formosa Flowers, {players} players")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=100)


def main() -> None:
    """Evaluate the snapshots, write ``curve.json``, draw the plot if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=8_000_000)
    parser.add_argument("--png", type=Path)
    args = parser.parse_args()
    points = curve(args.run, args.games, args.seed)
    (args.run / "curve.json").write_text(json.dumps(points, indent=2))
    if args.png:
        players = json.loads((args.run / "config.json").read_text())["num_players"]
        plot(points, players, args.png)


if __name__ == "__main__":
    main()
