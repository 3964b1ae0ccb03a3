"""Benchmark script: heuristic decisions/s per game, the current code against a baseline.

Both run in fresh processes on the same engine (this tree's): the baseline's heuristic
modules (``agents/heuristics/<game>*.py`` at ``--baseline``, read with ``git show``) are
put in front of the package's path in its process. The same fixed seeds are played with
each, rounds interleaved, and the best round counts (the machine is shared); every
decision of both must agree, or the script says where they part. Usage::

    python benchmarks/bench_heuristics.py [--baseline REF] [--games dadaocheng,tea]
        [--players 1,2,4] [--seeds 3] [--rounds 2] [--whole-tree]

With ``--whole-tree`` the baseline is the whole checkout at REF (its engine and its
heuristics, from a temporary git worktree), so engine work counts as well.

Only the CPU time inside the heuristic is counted (engine steps and chance are not; CPU
time, so other processes on a busy machine do not count).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BASELINE = "8344882"
"""The last commit before the Dadaocheng and Tea heuristics were made faster."""


def _baseline_dir(ref: str, games: list[str], into: Path) -> Path:
    """Write the baseline's heuristic modules of ``games`` into ``into``; return it."""
    names = subprocess.run(["git", "ls-tree", "--name-only", ref, "agents/heuristics/"],
                           cwd=ROOT, check=True, capture_output=True, text=True).stdout.split()
    for name in names:
        stem = Path(name).name
        if any(stem.startswith(game) for game in games) and stem.endswith(".py"):
            text = subprocess.run(["git", "show", f"{ref}:{name}"], cwd=ROOT, check=True,
                                  capture_output=True, text=True).stdout
            (into / stem).write_text(text)
    return into


def measure(game_name: str, players: int, seeds: int, old: str | None,
            root: str | None = None) -> dict[str, Any]:
    """Play heuristic self-play games; the heuristic's decisions, seconds and a digest.
    ``root``: the checkout to import from (default: this one); an older checkout may keep
    its heuristics in a top-level ``agents`` package."""
    sys.path.insert(0, root or str(ROOT))
    import importlib

    import numpy as np
    # an older checkout keeps its heuristics in a top-level package (the editable install
    # maps formosa_envs.agents to this checkout's, so that name would pick the wrong ones)
    older = root is not None and (Path(root) / "agents" / "__init__.py").is_file()
    heuristics = importlib.import_module("agents.heuristics" if older
                                         else "formosa_envs.agents.heuristics")
    if old:
        heuristics.__path__.insert(0, old)
    HeuristicAgent = heuristics.HeuristicAgent

    from formosa_envs.core.engine import CHANCE
    from formosa_envs.games import make_game

    game = make_game(game_name, num_players=players)
    digest, decisions, spent = hashlib.sha256(), 0, 0.0
    for seed in range(seeds):
        seats = [HeuristicAgent(game_name, seed=10 * seed + p) for p in range(players)]
        rng, state = np.random.default_rng(seed), game.new_initial_state()
        while not game.is_terminal(state) and state.decisions < game.max_game_length:
            player = game.current_player(state)
            if player == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                start = time.process_time()
                action = seats[player].act_on_state(game, state)
                spent += time.process_time() - start
                decisions += 1
            digest.update(int(action).to_bytes(2, "little"))
            game.apply_action(state, action)
    return {"decisions": decisions, "seconds": spent, "digest": digest.hexdigest()}


def _run(game: str, players: int, seeds: int, old: str | None,
         tree: str | None = None) -> dict[str, Any]:
    """:func:`measure` in a fresh interpreter (so neither side warms the other's caches);
    with ``tree``, everything (engine and heuristics) imported from that checkout."""
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); "
            "from bench_heuristics import measure; "
            "print(json.dumps(measure(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), "
            "sys.argv[5] or None, sys.argv[6] or None)))")
    env = {**os.environ, "PYTHONPATH": tree} if tree else None
    out = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent), game,
                          str(players), str(seeds), old or "", tree or ""],
                         cwd=tree or ROOT, env=env, check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def compare(game: str, players: int, seeds: int, rounds: int, old: str | None,
            tree: str | None = None) -> str:
    """One table row: baseline and current decisions/s, their ratio, and agreement."""
    best: dict[str, dict[str, Any]] = {}
    for _ in range(rounds):
        for side, path, root in (("old", old, tree), ("new", None, None)):
            got = _run(game, players, seeds, path, root)
            if side not in best or got["seconds"] < best[side]["seconds"]:
                best[side] = got
    rate = {side: r["decisions"] / max(r["seconds"], 1e-9) for side, r in best.items()}
    same = (best["old"]["digest"] == best["new"]["digest"]
            and best["old"]["decisions"] == best["new"]["decisions"])
    return (f"{game:<11} {players:>2}p {best['new']['decisions']:>8} {rate['old']:>10.0f} "
            f"{rate['new']:>10.0f} {rate['new'] / rate['old']:>7.2f}x  "
            f"{'identical' if same else 'DIFFERENT DECISIONS'}")


def main() -> None:
    """Print one row per game and player count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default=DEFAULT_BASELINE)
    parser.add_argument("--games", default="dadaocheng,tea")
    parser.add_argument("--players", default="", help="e.g. 2,4 (default: per game)")
    parser.add_argument("--seeds", type=int, default=3, help="games per row")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved timings per side")
    parser.add_argument("--whole-tree", action="store_true",
                        help="the baseline's engine too (a worktree of it), not only its "
                             "heuristics on this tree's engine")
    args = parser.parse_args()
    games = args.games.split(",")
    counts = {"dadaocheng": [1, 2, 4], "tea": [2, 3, 4], "flowers": [2, 4], "taiwan": [2, 4]}
    with tempfile.TemporaryDirectory(prefix="bench_heuristics_") as tmp:
        tree: str | None = None
        if args.whole_tree:
            tree = str(Path(tmp) / "baseline")
            subprocess.run(["git", "worktree", "add", "--detach", tree, args.baseline],
                           cwd=ROOT, check=True, capture_output=True)
            old = None
        else:
            old = str(_baseline_dir(args.baseline, games, Path(tmp)))
        what = "engine and heuristics" if tree else "heuristics on this engine"
        print(f"baseline {args.baseline} ({what}); heuristic decisions/s (time inside the "
              "heuristic)")
        print(f"{'game':<11} {'n':>3} {'decisions':>8} {'baseline':>10} {'current':>10} "
              f"{'ratio':>8}")
        for game in games:
            players = ([int(p) for p in args.players.split(",")] if args.players
                       else counts.get(game, [2]))
            for n in players:
                print(compare(game, n, args.seeds, args.rounds, old, tree), flush=True)
        if tree:
            subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=ROOT,
                           check=True, capture_output=True)


if __name__ == "__main__":
    main()
