"""Measure a learned agent the way the learned-agent tables (docs/learned-agents.md) report it.

``python benchmarks/learned_agents.py GAME AGENT [--vs-heuristic 4000] [--vs-random 1000]
[--fair-share 4:400] [--solo 200] [--seed 7000000] [--workers 2] [--out FILE.json]``

* ``--vs-heuristic N`` / ``--vs-random N``: 2-player games against that opponent, seats
  rotated (each deal played from both seats), win share with its 95% Wilson interval.
* ``--fair-share P:N``: N games at a table of P seats, the agent against P-1 heuristics
  (seats rotated): its win share against the fair share 1/P.
* ``--solo N``: single-player games (Dadaocheng): the objective rate, and the mean score
  against the heuristic's on the same deals (the per-deal difference and its 95% interval).
* ``--timing N``: N 2-player games against the heuristic (seats rotated; ``--timing-players
  P``: P seats, the agent against P-1 heuristics; ``--timing-opponent SPEC``: another
  opponent, e.g. ``mcts:200:heuristic``), every decision timed: the mean milliseconds per
  decision of the agent and of the opponent, side by side (the fair-compute figure).

The seed is a 32-bit tournament seed (default 7,000,000); training data seeds are 64-bit
with bit 63 set and PPO env seeds are ``seed + i`` for small ``i``, so these deals are
never training deals. Every figure prints as it is measured and the whole set is written
to ``--out`` as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from formosa_envs.evaluation.evaluate import run_tournament, win_share  # noqa: E402
from formosa_envs.evaluation.solo import paired_difference, solo_infos, solo_summary  # noqa: E402
from formosa_envs.evaluation.timing import think_times  # noqa: E402
from formosa_envs.games import GAMES  # noqa: E402

EVAL_SEED = 7_000_000


def head_to_head(game: str, agent: str, opponent: str, games: int, seed: int,
                 workers: int) -> dict[str, Any]:
    """``agent`` against ``opponent`` over ``games`` 2-player games."""
    start = time.perf_counter()
    result = run_tournament(game, [agent, opponent], 2, games, seed=seed, workers=workers,
                            show_progress=False)
    return {"players": 2, "opponents": [opponent], **win_share(result, agent),
            "seed": seed, "wall_s": round(time.perf_counter() - start, 1)}


def fair_share(game: str, agent: str, players: int, games: int, seed: int,
               workers: int) -> dict[str, Any]:
    """``agent`` with ``players - 1`` heuristic opponents: its win share and 1/players."""
    start = time.perf_counter()
    specs = [agent] + ["heuristic"] * (players - 1)
    result = run_tournament(game, specs, players, games, seed=seed, workers=workers,
                            show_progress=False)
    return {"players": players, "opponents": specs[1:], **win_share(result, agent),
            "fair_share": 1 / players, "seed": seed,
            "wall_s": round(time.perf_counter() - start, 1)}


def solo(game: str, agent: str, games: int, seed: int) -> dict[str, Any]:
    """The single-player objective rate and the paired score against the heuristic."""
    start = time.perf_counter()
    ours = solo_infos(game, agent, games, seed)
    paired = {**paired_difference(ours, solo_infos(game, "heuristic", games, seed)),
              "seed": seed, "baseline": "heuristic"}
    return {"players": 1, **solo_summary(ours), "seed": seed, "vs_heuristic_scores": paired,
            "wall_s": round(time.perf_counter() - start, 1)}


def line(name: str, row: dict[str, Any]) -> str:
    """One printed figure."""
    rate = row.get("win_rate", row.get("objective_rate", 0.0))
    low = row.get("win_low", row.get("objective_low", 0.0))
    high = row.get("win_high", row.get("objective_high", 0.0))
    extra = f" (fair share {row['fair_share']:.1%})" if "fair_share" in row else ""
    return (f"{name}: {rate:.2%} [{low:.2%}, {high:.2%}] over {row['games']} games{extra}, "
            f"{row['wall_s']:.0f} s")


def paired_line(paired: dict[str, Any]) -> str:
    """The solo mean score against the heuristic's on the same deals."""
    low, high = paired["difference_ci95"]
    return (f"solo mean score {paired['mean_score']:.2f} against the heuristic's "
            f"{paired['baseline_mean_score']:.2f} on the same {paired['games']} deals: "
            f"{paired['mean_difference']:+.2f} [{low:+.2f}, {high:+.2f}]")


def timing_line(t: dict[str, Any], games: int, opponent: str = "heuristic") -> str:
    """The timing figures as one line (solo tables have no opponent: the control only)."""
    against = "" if not t["opponent_decisions"] else (
        f" against {opponent}'s {t[f'{opponent}_ms_per_decision']:.3f} ms "
        f"({t['ratio']:.2f}x)")
    return (f"timing: {t['agent_ms_per_decision']:.3f} ms per decision{against} over {games} "
            f"games; {opponent} in the agent's seat (control) "
            f"{t['control_ms_per_decision']:.3f} ms ({t['ratio_to_control']:.2f}x)")


def main(argv: list[str] | None = None) -> int:
    """Run the requested measurements and print/write them."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("agent", help="agent spec, e.g. pretrained or policy:runs/x/policy.npz")
    p.add_argument("--vs-heuristic", type=int, default=0)
    p.add_argument("--vs-random", type=int, default=0)
    p.add_argument("--fair-share", default="", help="P:N (seats:games)")
    p.add_argument("--solo", type=int, default=0)
    p.add_argument("--timing", type=int, default=0, help="games timed against the heuristic")
    p.add_argument("--timing-players", type=int, default=2,
                   help="seats of the timed games (the agent and heuristics)")
    p.add_argument("--timing-opponent", default="heuristic",
                   help="the agent spec the timed games seat against the agent "
                        "(e.g. mcts:200:heuristic for the raised targets)")
    p.add_argument("--seed", type=int, default=EVAL_SEED)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    rows: dict[str, Any] = {"game": args.game, "agent": args.agent}
    jobs = [("vs_heuristic", args.vs_heuristic,
             lambda: head_to_head(args.game, args.agent, "heuristic", args.vs_heuristic,
                                  args.seed, args.workers)),
            ("vs_random", args.vs_random,
             lambda: head_to_head(args.game, args.agent, "random", args.vs_random,
                                  args.seed, args.workers)),
            ("solo", args.solo, lambda: solo(args.game, args.agent, args.solo, args.seed))]
    if args.fair_share:
        players, games = (int(x) for x in args.fair_share.split(":"))
        jobs.append((f"fair_share_{players}p", games,
                     lambda: fair_share(args.game, args.agent, players, games, args.seed,
                                        args.workers)))
    for name, count, job in jobs:
        if count:
            rows[name] = job()
            print(line(name, rows[name]), flush=True)
            if "vs_heuristic_scores" in rows[name]:
                print(paired_line(rows[name]["vs_heuristic_scores"]), flush=True)
    if args.timing:
        rows["timing"] = think_times(args.game, args.agent, args.timing, args.seed,
                                     args.timing_players, args.timing_opponent)
        print(timing_line(rows["timing"], args.timing, args.timing_opponent), flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
