"""Tournament files: a CSV of agent statistics, the full result as JSON, and a PNG chart."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from formosa_envs.tools.usage import make_folder

if TYPE_CHECKING:
    from formosa_envs.evaluation.evaluate import TournamentResult

CSV_FIELDS = ("name", "spec", "games", "wins", "win_rate", "win_low", "win_high", "mean_score",
              "score_low", "score_high", "mean_rank", "mu", "sigma", "ordinal")


def save_result(result: TournamentResult, out_dir: str | Path) -> dict[str, Path]:
    """Write ``tournament.csv``, ``tournament.json`` and ``tournament.png`` into ``out_dir``
    and return their paths; the chart needs matplotlib (the ``[train]`` extra), so a core
    install writes the other two and returns no ``png``."""
    out = Path(out_dir)
    make_folder(out, "--out")  # only the last folder is made
    paths = {"csv": out / "tournament.csv", "json": out / "tournament.json",
             "png": out / "tournament.png"}
    seat_cols = [f"seat{i}_games" for i in range(result.config["num_players"])]
    with paths["csv"].open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow([*CSV_FIELDS, *seat_cols])
        for a in result.ranking():
            writer.writerow([getattr(a, f) for f in CSV_FIELDS] + a.seat_games)
    paths["json"].write_text(json.dumps(result.to_dict(), indent=1, default=str))
    if importlib.util.find_spec("matplotlib") is None:
        del paths["png"]
    else:
        plot_result(result, paths["png"])
    return paths


def plot_result(result: TournamentResult, path: str | Path) -> None:
    """Win rates with 95% CI and ratings with sigma error bars, as a PNG (Agg backend)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    agents = result.ranking()[::-1]  # best on top of horizontal bars
    names = [a.name for a in agents]
    y = np.arange(len(agents))
    fig = Figure(figsize=(11, 2.6 + 0.45 * len(agents)), layout="constrained")
    ax_win, ax_rating = fig.subplots(1, 2, sharey=True)
    rates = np.array([a.win_rate for a in agents])
    err = np.array([[a.win_rate - a.win_low for a in agents],
                    [a.win_high - a.win_rate for a in agents]])
    ax_win.barh(y, rates, xerr=err, capsize=4, color="tab:blue")
    ax_win.axvline(1 / result.config["num_players"], color="gray", ls="--",
                   label=f"chance (1/{result.config['num_players']})")
    ax_win.set(xlim=(0, 1), xlabel="win rate (95% Wilson CI)", title="win rate")
    ax_win.set_yticks(y, names)
    ax_rating.errorbar([a.mu for a in agents], y, xerr=[a.sigma for a in agents], fmt="o",
                       capsize=4, color="tab:orange", label="mu +/- sigma")
    ax_rating.scatter([a.ordinal for a in agents], y, marker="x", color="black", zorder=3,
                      label="mu - 3 sigma (ranking)")
    ax_rating.set(xlabel="openskill rating", title="Plackett-Luce rating")
    for ax in (ax_win, ax_rating):
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, frameon=False)
    cfg = result.config
    fig.suptitle(f"{cfg['game']} tournament, {cfg['num_players']} players, "
                 f"{cfg['total_games']} games, seed {cfg['seed']}")
    fig.savefig(path, dpi=110)
