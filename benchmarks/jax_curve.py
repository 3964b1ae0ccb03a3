"""Learning curve of a JAX PPO run against the Python heuristic (or another opponent).

    .venv/bin/python benchmarks/jax_curve.py RUN_DIR [--games 1000] [--seed 8000000]
        [--opponent heuristic] [--updates 200,400] [--workers 2]
        [--png docs/images/flowers_jax_curve.png]

Plays every exported snapshot of ``RUN_DIR`` (``networks/update-*.npz``, or those of
``--updates``, then the final ``network.npz``) against the opponent in ``formosa
tournament``'s machinery: the run's game (Flowers for runs from before the ``game`` key)
at its player count, the policy against that many minus one opponents, seats rotated, on
a validation seed (not the run's evaluation seed). Each snapshot's training minute comes
from ``metrics.csv``. Writes ``RUN_DIR/curve.json`` and, with ``--png``, a plot.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path
from typing import Any

from formosa_envs.evaluation.evaluate import run_tournament, win_share
from formosa_envs.tools.usage import non_negative_int, positive_int


def update_list(text: str) -> list[int]:
    """``--updates``: comma-separated positive update numbers."""
    return [positive_int(part) for part in text.split(",")]


def snapshots(run: Path, updates: list[int] | None = None) -> list[tuple[int, Path]]:
    """``(update, file)`` of every exported network (or of those ``updates``), the final
    one last; an update with no snapshot is refused by number."""
    found = sorted((int(p.stem.split("-")[1]), p) for p in (run / "networks").glob("*.npz"))
    if updates is not None:
        missing = sorted(set(updates) - {update for update, _ in found})
        if missing:
            raise SystemExit(f"jax_curve: no snapshot of update {missing[0]} in "
                             f"{run / 'networks'}")
        found = [(update, path) for update, path in found if update in updates]
    rows = list(csv.DictReader((run / "metrics.csv").open()))
    return [*found, (int(rows[-1]["update"]), run / "network.npz")]


def minutes_at(run: Path) -> dict[int, float]:
    """Training minutes at the end of each update (``metrics.csv``'s ``wall_s``)."""
    return {int(r["update"]): float(r["wall_s"]) / 60
            for r in csv.DictReader((run / "metrics.csv").open())}


def curve(run: Path, games: int, seed: int, opponent: str = "heuristic",
          updates: list[int] | None = None, workers: int = 1) -> list[dict[str, Any]]:
    """One point per snapshot: update, minutes, win share with its Wilson interval."""
    config = json.loads((run / "config.json").read_text())
    players, game = config["num_players"], config.get("game", "flowers")
    minutes = minutes_at(run)
    points = []
    for update, path in snapshots(run, updates):  # a learner of some kinds: residual:
        spec = f"residual:{path}:0" if config.get("learner_kinds") else f"policy:{path}"
        result = run_tournament(game, [spec] + [opponent] * (players - 1), players,
                                games, seed=seed, workers=workers, show_progress=False)
        share = win_share(result, spec, opponent)
        points.append({"update": update, "minutes": round(minutes[update], 2),
                       "file": path.name, **share})
        print(f"{path.name}: {share['win_rate']:.1%} ({share['win_low']:.1%}-"
              f"{share['win_high']:.1%}) at {minutes[update]:.1f} min", flush=True)
    return points


def plot(points: list[dict[str, Any]], players: int, png: Path, game: str = "flowers",
         opponent: str = "heuristic") -> None:
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
    ax.set_ylabel(f"win share vs {opponent}")
    ax.set_title(f"JAX PPO, {game}, {players} players")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=100)


def main() -> None:
    """Evaluate the snapshots, write ``curve.json``, draw the plot if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--games", type=positive_int, default=1000)
    parser.add_argument("--seed", type=non_negative_int, default=8_000_000)
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--updates", type=update_list,
                        help="comma-separated updates whose snapshots to play (default: all)")
    parser.add_argument("--workers", type=positive_int, default=1)
    parser.add_argument("--png", type=Path)
    args = parser.parse_args()
    points = curve(args.run, args.games, args.seed, args.opponent, args.updates,
                   args.workers)
    name = "curve.json" if args.opponent == "heuristic" else f"curve_{args.opponent}.json"
    (args.run / name).write_text(json.dumps(points, indent=2))
    if args.png:
        config = json.loads((args.run / "config.json").read_text())
        plot(points, config["num_players"], args.png, config.get("game", "flowers"),
             args.opponent)


if __name__ == "__main__":
    main()
