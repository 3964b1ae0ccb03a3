"""The Gumbel search (:mod:`.gumbel`) against the JAX heuristic, batched on JAX.

One game per lane, the searcher in seat ``lane % 2`` (seats rotated), the other seat the
JAX heuristic (:class:`~formosa_envs.jax.flowers.heuristic.FlowersHeuristicJax`, which decides as
the Python heuristic does). The search plays without Gumbel noise (its deterministic
choice). Each side's time per decision is its batched call's wall time over the lanes.
"""

from __future__ import annotations

import time
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from formosa_envs.evaluation.ratings import wilson_interval
from formosa_envs.jax.flowers.engine import FlowersJax
from formosa_envs.jax.flowers.heuristic import FlowersHeuristicJax

from . import gumbel


def search_against_heuristic(engine: FlowersJax, params: Any, config: Any, games: int,
                             seed: int) -> dict[str, float]:
    """Win share of the search over ``games`` games (one per lane), with its 95% Wilson
    interval and both sides' milliseconds per decision."""
    heuristic = FlowersHeuristicJax(engine)
    sims, act = config.eval_simulations, config.activation
    searcher = jax.jit(lambda p, s, k: gumbel.search(engine, p, s, k, sims, act,
                                                     config.considered, gumbel_scale=0.0).action)
    answer = jax.jit(lambda s, k: jax.vmap(heuristic.act)(s, jax.random.split(k, games)))
    step = jax.jit(lambda s, a, k: jax.vmap(engine.step)(s, a, jax.random.split(k, games)))
    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    states = jax.jit(jax.vmap(engine.init))(jax.random.split(sub, games))
    seats = jnp.arange(games) % 2
    clock = {"search": 0.0, "heuristic": 0.0}
    calls = 0
    while not bool(states.terminated.all() | states.truncated.all()):
        key, k_search, k_answer, k_step = jax.random.split(key, 4)
        mine = _timed(clock, "search", searcher, params, states, k_search)
        theirs = _timed(clock, "heuristic", answer, states, k_answer)
        actions = jnp.where(states.current_player == seats, mine, theirs)
        states = step(states, actions, k_step)
        calls += 1
    rewards = np.asarray(states.rewards)[np.arange(games), np.asarray(seats)]
    wins = float((rewards > 0).sum() + 0.5 * (rewards == 0).sum())  # a tie: half a win
    low, high = wilson_interval(wins, games)
    per = 1000.0 / (max(calls - 1, 1) * games)  # the first call of each compiles: left out
    return {"games": games, "wins": wins, "win_rate": wins / games, "win_low": low,
            "win_high": high, "simulations": sims,
            "search_ms_per_decision": clock["search"] * per,
            "heuristic_ms_per_decision": clock["heuristic"] * per}


def _timed(clock: dict[str, float], name: str, fn: Any, *args: Any) -> Any:
    """``fn(*args)``, its wall time added to ``clock[name]`` after the first (compiling)
    call."""
    start = time.perf_counter()
    out = jax.block_until_ready(fn(*args))
    if clock.setdefault(f"{name}_calls", 0):
        clock[name] += time.perf_counter() - start
    clock[f"{name}_calls"] += 1
    return out
