"""Benchmark script: a formosa game's decisions/s vs PettingZoo connect_four_v3.

Runs ``formosa bench`` for every player count of the game; the ratios are measured
side by side in one process, so they hold on a busy shared machine. Usage::

    python benchmarks/bench.py [--game flowers|taiwan] [--seconds 10]
"""

from __future__ import annotations

import argparse

from formosa_envs.games import GAMES
from formosa_envs.tools.bench import format_bench, run_bench


def main() -> None:
    """Print one table per player count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--game", default="flowers")
    args = parser.parse_args()
    info = GAMES[args.game]
    for players in range(info.min_players, info.max_players + 1):
        print(format_bench(run_bench(args.game, players, args.seconds), args.game, players))
        print()


if __name__ == "__main__":
    main()
