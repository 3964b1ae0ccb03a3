"""Measure the ecosystem recipes that learn (docs/ecosystem.md, "Recipes that learn").

``python benchmarks/ecosystem_learning.py
[--clients torchrl,tianshou,tianshou-dqn,agilerl,supersuit,openspiel] [--cpu-seconds 180]
[--games 400] [--seed 0] [--eval-seed 7000000] [--out FILE.json]``

For each client whose library imports in this venv, the recipe's ``train_agent`` runs twice
with the same training seed: with no training (the untrained network: "before") and with
``--cpu-seconds`` of this process's CPU time ("after"). Both policies play 2-player Formosa
Flowers against a uniformly random opponent and against the heuristic, ``--games`` games
each (seats rotated, game ``i`` seeded ``eval-seed + i``: never a training deal, whose seeds
stay below 1,000,000), and the win share prints with its 95% Wilson interval. The TorchRL,
Tianshou, SuperSuit and AgileRL recipes run in ``.venv-eco`` (the ``[ecosystem]`` extra), the
OpenSpiel one in the main venv (``[spiel]``); ``make ecosystem-bench`` runs both. A client
that does not import is listed as skipped, not failed. Figures go to ``--out`` as JSON.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from formosa_envs.envs import evaluate_learner  # noqa: E402

RECIPES = {"torchrl": ("torchrl", "examples.ecosystem.torchrl_recipe"),
           "tianshou": ("tianshou", "examples.ecosystem.tianshou_recipe"),
           "tianshou-dqn": ("tianshou", "examples.ecosystem.tianshou_dqn_recipe"),
           "agilerl": ("agilerl", "examples.ecosystem.agilerl_recipe"),
           "supersuit": ("supersuit", "examples.ecosystem.supersuit_recipe"),
           "openspiel": ("pyspiel", "examples.openspiel_recipe")}
"""Client name: (the library's import name, the recipe module with ``train_agent``)."""
OPPONENTS = ("random", "heuristic")


def build_parser() -> argparse.ArgumentParser:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default=",".join(RECIPES),
                        help=f"comma-separated, from {', '.join(RECIPES)}")
    parser.add_argument("--cpu-seconds", type=float, default=180.0)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0, help="training seed")
    parser.add_argument("--eval-seed", type=int, default=7_000_000)
    parser.add_argument("--out", type=Path, default=None)
    return parser


def measure_client(client: str, args: argparse.Namespace) -> dict[str, Any]:
    """Before and after figures of one client's recipe (see the module docstring)."""
    library, module_name = RECIPES[client]
    if importlib.util.find_spec(library) is None:
        return {"client": client, "skipped": f"{library} is not installed in this venv"}
    train_agent = importlib.import_module(module_name).train_agent
    row: dict[str, Any] = {"client": client, "cpu_budget_s": args.cpu_seconds,
                           "train_seed": args.seed}
    for phase, budget in (("before", 0.0), ("after", args.cpu_seconds)):
        cpu, wall = time.process_time(), time.perf_counter()
        act = train_agent(seed=args.seed, cpu_seconds=budget, progress=phase == "after")
        row[f"{phase}_train_cpu_s"] = round(time.process_time() - cpu, 1)
        row[f"{phase}_train_wall_s"] = round(time.perf_counter() - wall, 1)
        for opponent in OPPONENTS:
            score = evaluate_learner(act, "flowers", opponent, games=args.games,
                                     seed=args.eval_seed)
            row[f"{phase}_vs_{opponent}"] = {"games": score.games, "wins": score.wins,
                                             "win_rate": score.win_rate, "low": score.low,
                                             "high": score.high}
            print(f"{client:10} {phase:6} vs {opponent:9}: {score}", flush=True)
    return row


def main(argv: list[str] | None = None) -> int:
    """Run the selected clients and print/write their figures."""
    args = build_parser().parse_args(argv)
    clients = [c.strip() for c in args.clients.split(",") if c.strip()]
    unknown = sorted(set(clients) - set(RECIPES))
    if unknown:
        raise SystemExit(f"--clients: unknown {unknown}; choose from {', '.join(RECIPES)}")
    if args.games < 1 or args.cpu_seconds < 0:
        raise SystemExit("--games must be >= 1 and --cpu-seconds >= 0")
    rows = []
    for client in clients:
        row = measure_client(client, args)
        if "skipped" in row:
            print(f"{client:10} skipped: {row['skipped']}", flush=True)
        rows.append(row)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
