"""The afterstate evaluator's learning curve: win share against the heuristic by label games.

``python benchmarks/afterstate_curve.py GAME RUN_DIR [--games 50,100,200,400]
[--eval-games 200] [--seed 8000000] [--workers 2]``

For each count G, the evaluator is fitted (the run's own settings, ``config.json``) on the
labels of the run's first G games only (``labels.npz``; the same games a run with
``games = G`` labels, since game g's labels depend only on its seeds), exported to
``RUN_DIR/curve/evaluator-G.npz`` and played against the heuristic (2 players, seats
rotated, tournament seed ``--seed``). Printed as it goes, written to
``RUN_DIR/curve/curve.json`` and drawn to ``RUN_DIR/curve/curve.png`` (with matplotlib).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from formosa_envs.training.afterstate.config import AfterstateConfig  # noqa: E402
from formosa_envs.training.afterstate.fit import export_evaluator, fit_evaluator  # noqa: E402

from formosa_envs.evaluation.evaluate import run_tournament, win_share  # noqa: E402
from formosa_envs.games import make_game  # noqa: E402


def point(game: str, run: Path, labels: dict[str, np.ndarray], config: AfterstateConfig,
          games: int, eval_games: int, seed: int, workers: int) -> dict[str, Any]:
    """Fit on the first ``games`` games' labels and play the result against the heuristic."""
    rows = labels["game"] < games
    subset = {k: v[rows] for k, v in labels.items()}
    start = time.perf_counter()
    engine = make_game(game, num_players=config.num_players)
    net, fit = fit_evaluator(subset, engine.num_actions, config, log=lambda *_: None)
    path = export_evaluator(net, game, config, run / "curve" / f"evaluator-{games}.npz")
    spec = f"afterstate:{path}"
    result = run_tournament(game, [spec, "heuristic"], 2, eval_games, seed=seed,
                            workers=workers, show_progress=False)
    return {"label_games": games, "decisions": fit["train_decisions"] + fit["held_out_decisions"],
            "best_epoch": fit["best_epoch"], **win_share(result, result.config["names"][0]),
            "seed": seed, "wall_s": round(time.perf_counter() - start, 1)}


def plot(points: list[dict[str, Any]], out: Path) -> None:
    """Win share (95% interval) against label games."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [p["label_games"] for p in points]
    y = [p["win_rate"] for p in points]
    err = [[p["win_rate"] - p["win_low"] for p in points],
           [p["win_high"] - p["win_rate"] for p in points]]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.errorbar(x, y, yerr=err, marker="o", capsize=4, label="afterstate vs heuristic")
    ax.axhline(0.5, color="grey", linestyle="--", label="parity")
    ax.set_xscale("log")
    ax.set_xlabel("labelled heuristic games")
    ax.set_ylabel("win share (95% Wilson)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """Fit and evaluate each point; print, write and draw the curve."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("run", type=Path)
    p.add_argument("--games", default="50,100,200,400")
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--seed", type=int, default=8_000_000)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    saved = json.loads((args.run / "config.json").read_text(encoding="utf-8"))
    config = AfterstateConfig(**{k: v for k, v in saved.items() if k != "game"})
    with np.load(args.run / "labels.npz", allow_pickle=False) as npz:
        labels = {k: npz[k] for k in npz.files}
    (args.run / "curve").mkdir(exist_ok=True)
    points = []
    for games in (int(g) for g in args.games.split(",")):
        points.append(point(args.game, args.run, labels, config, games, args.eval_games,
                            args.seed, args.workers))
        q = points[-1]
        print(f"{games} label games ({q['decisions']:,} decisions): {q['win_rate']:.1%} "
              f"[{q['win_low']:.1%}, {q['win_high']:.1%}] over {q['games']} games", flush=True)
    (args.run / "curve" / "curve.json").write_text(json.dumps(points, indent=2) + "\n")
    plot(points, args.run / "curve" / "curve.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
