"""Benchmark script: a network agent's time per decision with numpy's BLAS threads and on one.

``python benchmarks/bench_blas_threads.py [--game taiwan] [--players 5] [--agent pretrained]
[--loads 0,2,3] [--reps 6] [--games 3] [--out FILE.json]``

The agent plays ``--games`` games against heuristics, each decision timed (wall time inside
``act_on_state``), once with BLAS held at one thread for the whole run (``threadpoolctl``)
and once with numpy's default thread count (``one_blas_thread`` taken off the methods it
decorates), the two alternating ``--reps`` times so that a change in the machine's load
falls on both alike; the median of the reps is reported. Which of the two an agent ships
with depends on its network's size (``agents/threads.py``, ``LARGE_LAYER``).
``--loads`` runs the comparison with that many busy background
processes (spinning Python loops) started first: 0 is the machine as it is, and on a 2-core
machine 2 or 3 is a tournament's two workers with something beside them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from formosa_envs.agents import AgentSpecError, make_agent  # noqa: E402
from formosa_envs.agents.az import AZAgent  # noqa: E402
from formosa_envs.agents.policy import PolicyAgent  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from formosa_envs.evaluation.timing import think_times  # noqa: E402
from formosa_envs.games import GAMES  # noqa: E402
from formosa_envs.tools.usage import non_negative_int, positive_int  # noqa: E402

DECORATED = ((PolicyAgent, "act"), (AZAgent, "search"))
"""The methods that ``one_blas_thread`` wraps (``__wrapped__`` is the plain method)."""


def _spin() -> None:
    while True:
        pass


@contextlib.contextmanager
def busy_processes(count: int) -> Iterator[None]:
    """``count`` background processes that spin until the block ends."""
    procs = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(count)]
    for proc in procs:
        proc.start()
    try:
        yield
    finally:
        for proc in procs:
            proc.terminate()
            proc.join()


@contextlib.contextmanager
def default_threads() -> Iterator[None]:
    """Every decorated method unwrapped: numpy's BLAS threads as the process has them."""
    saved = [(cls, name, cls.__dict__[name]) for cls, name in DECORATED]
    for cls, name, method in saved:
        setattr(cls, name, method.__wrapped__)
    try:
        yield
    finally:
        for cls, name, method in saved:
            setattr(cls, name, method)


def agent_ms(args: argparse.Namespace) -> float:
    """The agent's mean milliseconds per decision over ``args.games`` timed games."""
    return think_times(args.game, args.agent, args.games, args.seed, args.players)[
        "agent_ms_per_decision"]


def compare(args: argparse.Namespace, load: int) -> dict[str, Any]:
    """Alternated reps of both modes under ``load`` busy processes: the medians and ratio."""
    times: dict[str, list[float]] = {"default_threads": [], "one_thread": []}
    with busy_processes(load):
        for _ in range(args.reps):
            with default_threads():
                times["default_threads"].append(agent_ms(args))
            with threadpool_limits(limits=1, user_api="blas"):
                times["one_thread"].append(agent_ms(args))
    medians = {mode: statistics.median(values) for mode, values in times.items()}
    return {"busy_processes": load, **{f"{k}_ms": round(v, 4) for k, v in medians.items()},
            "ratio": round(medians["default_threads"] / medians["one_thread"], 3),
            "reps": {k: [round(v, 4) for v in vs] for k, vs in times.items()}}


def counts(text: str) -> list[int]:
    """Comma-separated whole numbers >= 0 (an argparse type)."""
    return [non_negative_int(part) for part in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    """Print one line per load level (and write them to ``--out``)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=sorted(GAMES), default="taiwan")
    p.add_argument("--players", type=positive_int, default=5)
    p.add_argument("--agent", default="pretrained")
    p.add_argument("--loads", type=counts, default=[0, 2, 3],
                   help="busy background processes, e.g. 0,2,3")
    p.add_argument("--reps", type=positive_int, default=6)
    p.add_argument("--games", type=positive_int, default=3)
    p.add_argument("--seed", type=int, default=100)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    info = GAMES[args.game]
    if not info.min_players <= args.players <= info.max_players:
        p.error(f"--players: {args.game} is played by {info.min_players}-{info.max_players} "
                f"players, got {args.players}")
    try:  # a bad spec fails here, before any load starts
        make_agent(args.agent, args.game, 0)
    except AgentSpecError as exc:
        p.error(f"--agent: {exc}")
    rows = []
    for load in args.loads:
        rows.append(compare(args, load))
        row = rows[-1]
        print(f"{load} busy processes: {row['default_threads_ms']:.3f} ms per decision with "
              f"numpy's threads, {row['one_thread_ms']:.3f} ms on one ({row['ratio']:.2f}x)",
              flush=True)
    if args.out:
        args.out.write_text(json.dumps({"game": args.game, "players": args.players,
                                        "agent": args.agent, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
