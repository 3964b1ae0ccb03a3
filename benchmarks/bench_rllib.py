"""RLlib throughput: env steps per second with 1 and 2 env runners, for every game.

Each configuration builds a PPO algorithm (``shared`` mode: one masked module
for all seats, the setting of docs/scaling-out.md), runs one warm-up iteration, then times
``--iterations`` training iterations: the rate printed is env steps sampled
per second of wall time, sampling and learning included.

Configurations run one after another in one process, so their ratios are
comparable on a busy machine. Usage (needs the ``[rllib]`` extra)::

    python benchmarks/bench_rllib.py [--games flowers,tea] [--players 2]
        [--runners 1,2] [--envs-per-runner 4] [--batch 4000] [--iterations 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from typing import Any

from formosa_envs.games import GAMES
from formosa_envs.tools.progress import progress


def measure(game: str, players: int, runners: int, envs: int, batch: int,
            iterations: int) -> dict[str, float]:
    """Env steps/s (wall time) of ``iterations`` PPO iterations after a warm-up one."""
    from formosa_envs.envs.rllib_config import build_ppo_config
    training = {"train_batch_size_per_learner": batch, "minibatch_size": 512,
                "num_epochs": 1}
    algo = build_ppo_config(game, players, "shared", runners=runners, envs_per_runner=envs,
                            training=training).build_algo()
    try:
        algo.train()
        steps = 0
        start = time.perf_counter()
        for _ in range(iterations):
            result = algo.train()
            steps += int(result["env_runners"]["num_env_steps_sampled"])
        wall = time.perf_counter() - start
    finally:
        algo.stop()
    return {"steps_per_s": steps / wall, "steps": steps}


def main(argv: list[str] | None = None) -> int:
    """Print one row per game and runner count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--runners", default="1,2")
    parser.add_argument("--envs-per-runner", type=int, default=4)
    parser.add_argument("--batch", type=int, default=4000)
    parser.add_argument("--iterations", type=int, default=3)
    args = parser.parse_args(argv)
    import torch

    from formosa_envs.envs.rllib_config import start_ray
    torch.set_num_threads(1)
    work = tempfile.mkdtemp(prefix="frb", dir="/tmp")
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    start_ray(results_dir=f"{work}/results", temp_dir=f"{work}/ray")
    cases = [(g, int(r)) for g in args.games.split(",") for r in args.runners.split(",")]
    rows: list[tuple[str, int, dict[str, Any]]] = []
    try:
        for game, runners in progress(cases, len(cases), "bench rllib"):
            rows.append((game, runners, measure(game, args.players, runners,
                                                args.envs_per_runner, args.batch,
                                                args.iterations)))
    finally:
        import ray
        ray.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{args.players} players, {args.envs_per_runner} envs per runner, batch {args.batch}, "
          f"{os.cpu_count()} CPUs")
    print(f"{'game':12} {'runners':>7} {'env steps/s':>12}")
    for game, runners, r in rows:
        print(f"{game:12} {runners:>7} {r['steps_per_s']:>12,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
