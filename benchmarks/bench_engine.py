"""Benchmark script: env and engine speed of every game at 2 players, in one run.

For each game it reports, measured side by side in one process (so the ratio holds on a
busy shared machine):

* ``env() vs c4``: decisions/s of random masked play through ``formosa_envs.env`` against
  PettingZoo's ``connect_four_v3`` (the harness of ``formosa bench``);
* ``clone us``: the median time of ``game.clone`` at mid-game states;
* ``step us``: the median of ``apply_action`` + ``legal_mask`` + ``observe`` of the seat
  to move next (chance resolved in between, not timed), at mid-game states, with the
  three parts' medians;
* heuristic decisions/s (CPU time inside the heuristic) for Formosa Tea and Dadaocheng.

Mid-game states are the middle third of random games on fixed seeds, so every run times
the same positions. Usage::

    python benchmarks/bench_engine.py [--seconds 4] [--games flowers,taiwan,tea,dadaocheng]
        [--players 2] [--heuristic-seeds 3] [--baseline REF]

With ``--baseline REF`` every game's row is measured twice, one after the other in fresh
processes: with the code at git ``REF`` (a temporary worktree) and with this tree.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.tools.bench import run_bench

GAMES = ("flowers", "taiwan", "tea", "dadaocheng")
HERE = Path(__file__).resolve().parent


def mid_game_states(game: Any, seeds: int = 6) -> list[Any]:
    """Copies of the states at player decisions in the middle third of random games."""
    picked: list[Any] = []
    for seed in range(seeds):
        rng, state, seen = np.random.default_rng(1000 + seed), game.new_initial_state(), []
        while not game.is_terminal(state) and state.decisions < game.max_game_length:
            if game.current_player(state) == CHANCE:
                game.resolve_chance(state, rng)
                continue
            seen.append(game.clone(state))
            legal = game.legal_actions(state)
            game.apply_action(state, legal[int(rng.integers(len(legal)))])
        third = len(seen) // 3
        picked += seen[third:2 * third]
    return picked


def time_clone(game: Any, states: list[Any], repeat: int = 20) -> float:
    """Median over states of the mean clone time, in microseconds."""
    per_state = []
    clock = time.perf_counter
    for state in states:
        start = clock()
        for _ in range(repeat):
            game.clone(state)
        per_state.append((clock() - start) / repeat)
    return 1e6 * statistics.median(per_state)


def time_step(game: Any, states: list[Any], seed: int = 7) -> dict[str, float]:
    """Median microseconds of apply_action, legal_mask, observe and their sum per state."""
    rng, clock = np.random.default_rng(seed), time.perf_counter
    parts: dict[str, list[float]] = {"apply": [], "mask": [], "observe": [], "step": []}
    for state in states:
        legal = game.legal_actions(state)
        action = legal[int(rng.integers(len(legal)))]
        s = game.clone(state)
        t0 = clock()
        game.apply_action(s, action)
        t1 = clock()
        if game.current_player(s) == CHANCE:
            game.resolve_chance(s, rng)
        if game.is_terminal(s):
            continue
        mover = game.current_player(s)
        t2 = clock()
        game.legal_mask(s)
        t3 = clock()
        game.observe(s, mover)
        t4 = clock()
        for name, dt in (("apply", t1 - t0), ("mask", t3 - t2), ("observe", t4 - t3),
                         ("step", t1 - t0 + t4 - t2)):
            parts[name].append(dt)
    return {name: 1e6 * statistics.median(values) for name, values in parts.items()}


def heuristic_rate(game_name: str, players: int, seeds: int) -> float:
    """Heuristic self-play decisions per CPU second inside the heuristic (fixed seeds), with
    the heuristics of the checkout ``formosa_envs`` was imported from."""
    import formosa_envs
    tree = Path(formosa_envs.__file__).resolve().parent.parent
    sys.path.insert(0, str(HERE))
    from bench_heuristics import measure
    got = measure(game_name, players, seeds, None, None if tree == HERE.parent else str(tree))
    return got["decisions"] / max(got["seconds"], 1e-9)


def row(name: str, players: int, seconds: float, heuristic_seeds: int) -> str:
    """One table row: the env ratio, clone, step and (Tea, Dadaocheng) heuristic rate."""
    results = {r.name: r.rate for r in run_bench(name, players, seconds)}
    c4, env = results["connect_four_v3 env()"], results[f"{name} env()"]
    game = make_game(name, num_players=players)
    states = mid_game_states(game)
    clone = time_clone(game, states)
    step = time_step(game, states)
    heur = (f"{heuristic_rate(name, players, heuristic_seeds):12,.0f}"
            if name in ("tea", "dadaocheng") and heuristic_seeds else f"{'':>12}")
    return (f"{name:<11}{c4:10,.0f}{env:9,.0f}{env / c4:7.2f}{clone:10.1f}"
            f"{step['step']:9.1f}{step['apply']:8.1f}{step['mask']:7.1f}"
            f"{step['observe']:7.1f}{heur}")


def baseline_rows(ref: str, args: argparse.Namespace) -> None:
    """Each game's row with the code at ``ref`` (a temporary git worktree) and with this
    tree, one after the other in fresh processes, so both meet the same machine load."""
    with tempfile.TemporaryDirectory(prefix="bench_engine_") as tmp:
        tree = str(Path(tmp) / "baseline")
        subprocess.run(["git", "worktree", "add", "--detach", tree, ref], cwd=HERE.parent,
                       check=True, capture_output=True)
        try:
            for name in args.games.split(","):
                for label, path in ((f"{ref[:8]}", tree), ("this tree", str(HERE.parent))):
                    code = ("import sys; sys.path.insert(0, sys.argv[1]); import bench_engine; "
                            "print(bench_engine.row(sys.argv[2], int(sys.argv[3]), "
                            "float(sys.argv[4]), int(sys.argv[5])))")
                    out = subprocess.run(
                        [sys.executable, "-c", code, str(HERE), name, str(args.players),
                         str(args.seconds), str(args.heuristic_seeds)],
                        cwd=path, env={**os.environ, "PYTHONPATH": path}, check=True,
                        capture_output=True, text=True).stdout
                    print(f"{out.strip().splitlines()[-1]}  {label}", flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=HERE.parent,
                           check=True, capture_output=True)


def main() -> None:
    """Print one table row per game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per contender, env()")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--heuristic-seeds", type=int, default=3)
    parser.add_argument("--baseline", default=None, metavar="REF",
                        help="also run each row with the code at git REF (before/after)")
    args = parser.parse_args()
    print(f"bench_engine: {args.players} players; load average {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} cores")
    print(f"{'game':<11}{'c4 env/s':>10}{'env/s':>9}{'ratio':>7}{'clone us':>10}"
          f"{'step us':>9}{'apply':>8}{'mask':>7}{'obs':>7}{'heur dec/s':>12}")
    if args.baseline:
        baseline_rows(args.baseline, args)
        return
    for name in args.games.split(","):
        print(row(name, args.players, args.seconds, args.heuristic_seeds), flush=True)

if __name__ == "__main__":
    main()
