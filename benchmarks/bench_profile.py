"""Benchmark script: what one decision of ``env()`` play spends its time on, per game.

Random masked play through ``formosa_envs.env`` (the harness of ``formosa bench``), with
each engine entry point the env calls timed in place:

* ``observe``: the observation of the seat to move (``Game.observe``);
* ``legal``: listing its legal actions (``Game.legal_actions``; zero where the env reuses
  the list the engine made to find forced moves);
* ``apply``: applying the action and settling (``apply_legal_action``: handlers, automatic
  frames, the next decision);
* ``chance``: draws between decisions (``resolve_chance``);
* ``adapter``: the rest of the AEC env (masks, rewards, bookkeeping) and the loop's own
  work, i.e. ``raw_env()`` per decision minus the four above;
* ``wrappers``: PettingZoo's three wrappers, i.e. ``env()`` minus ``raw_env()`` per decision;
* the ratios of ``connect_four_v3``'s time per decision to the game's, through ``env()``
  and through ``raw_env()`` (the engine and adapter alone, without any wrapper).

All in microseconds per player decision, averaged over the run (the timers themselves add
well under a microsecond per call). Usage::

    python benchmarks/bench_profile.py [--seconds 4] [--players 2] [--games flowers,...]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

import formosa_envs
from formosa_envs.tools.bench import bench_aec

GAMES = ("flowers", "taiwan", "tea", "dadaocheng")
TIMED = {"observe": "observe", "legal_actions": "legal", "apply_legal_action": "apply",
         "resolve_chance": "chance"}


def _timed(spent: Counter, label: str, inner: Any) -> Any:
    clock = time.perf_counter

    def call(*args: Any) -> Any:
        start = clock()
        try:
            return inner(*args)
        finally:
            spent[label] += clock() - start
    return call


def profile(name: str, players: int, seconds: float) -> dict[str, float]:
    """Microseconds per decision of each part (see the module docstring)."""
    wrapped = bench_aec(formosa_envs.env(name, num_players=players), name, seconds)
    plain = bench_aec(formosa_envs.raw_env(name, num_players=players), name, seconds)
    env = formosa_envs.raw_env(name, num_players=players)
    spent: Counter = Counter()
    for method, label in TIMED.items():  # instance attributes shadow the game's methods
        setattr(env.game, method, _timed(spent, label, getattr(env.game, method)))
    timed = bench_aec(env, name, seconds)
    parts = {label: 1e6 * spent[label] / timed.decisions for label in TIMED.values()}
    raw_us, env_us = 1e6 / plain.rate, 1e6 / wrapped.rate
    parts["adapter"] = raw_us - sum(parts.values())
    parts["wrappers"] = env_us - raw_us
    parts["env()"] = env_us
    parts["raw_env()"] = raw_us
    return parts


def connect_four(seconds: float) -> dict[str, float]:
    """PettingZoo's ``connect_four_v3``: microseconds per decision through ``env()`` and
    ``raw_env()`` (the same loop)."""
    from pettingzoo.classic import connect_four_v3
    wrapped = bench_aec(connect_four_v3.env(), "c4", seconds)
    plain = bench_aec(connect_four_v3.raw_env(), "c4", seconds)
    return {"env()": 1e6 / wrapped.rate, "raw_env()": 1e6 / plain.rate}


def main() -> None:
    """One row per game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    columns = [*TIMED.values(), "adapter", "wrappers", "env()", "raw_env()"]
    print(f"us per decision, {args.players} players; ratio: connect_four_v3's time per "
          "decision over the game's (env(), raw_env()), measured just before")
    print(f"{'game':<11}" + "".join(f"{c:>10}" for c in columns) + f"{'ratios':>14}")
    for name in args.games.split(","):
        c4 = connect_four(args.seconds)
        parts = profile(name, args.players, args.seconds)
        ratios = f"{c4['env()'] / parts['env()']:.2f} {c4['raw_env()'] / parts['raw_env()']:.2f}"
        print(f"{name:<11}" + "".join(f"{parts[c]:10.1f}" for c in columns) + f"{ratios:>14}",
              flush=True)


if __name__ == "__main__":
    main()
