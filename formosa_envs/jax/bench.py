"""Throughput of the JAX Formosa Flowers engine, with PGX's Connect Four for scale.

Random legal play (:func:`.sample.sample_legal`, the same sampler for both games) through
:class:`formosa_envs.jax.FlowersVecEnv` (auto-reset), ``steps``
batched steps inside one jitted ``lax.scan``; every environment makes one player decision
per step, so decisions/s = batch x steps / seconds. Compile time is measured apart
(``jit(...).lower(...).compile()``), and the run is the best of ``repeats``. PGX (the
``[jax]`` extra installs it) is optional: without it the Connect Four column is left out.
The heuristic column is the same play with every decision made by the JAX heuristic
(:class:`.flowers.heuristic.FlowersHeuristicJax`, engine step included).
``formosa bench flowers --backend jax`` and ``benchmarks/bench_jax.py`` print these figures.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from .sample import sample_legal


def time_scan(step: Callable[[Any, jax.Array], Any], carry: Any, steps: int,
              repeats: int) -> tuple[float, float]:
    """``(compile seconds, best run seconds)`` of ``steps`` scanned calls of ``step``."""
    def body(c: tuple, _: Any) -> tuple:
        inner, key = c
        key, sub = jax.random.split(key)
        return (step(inner, sub), key), None

    def run(c: Any, key: jax.Array) -> Any:
        return jax.lax.scan(body, (c, key), None, length=steps)[0]

    key = jax.random.PRNGKey(1)
    start = time.perf_counter()
    compiled = jax.jit(run).lower(carry, key).compile()
    compile_s = time.perf_counter() - start
    out = compiled(carry, key)
    jax.block_until_ready(out)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        out = compiled(*out)
        jax.block_until_ready(out)
        best = min(best, time.perf_counter() - start)
    return compile_s, best


def bench_random_play(vec: Any, steps: int, repeats: int) -> dict[str, float]:
    """Random legal play on a vec env of this package (``_step`` and ``reset``)."""
    def step(out: Any, key: jax.Array) -> Any:
        k_act, k_env = jax.random.split(key)
        return vec._step(out.state, sample_legal(k_act, out.legal_action_mask), k_env)

    compile_s, run_s = time_scan(step, vec.reset(jax.random.PRNGKey(0)), steps, repeats)
    return {"compile_s": compile_s, "run_s": run_s,
            "decisions_per_s": vec.num_envs * steps / run_s}


def bench_flowers(batch: int, players: int, steps: int, repeats: int) -> dict[str, float]:
    """Random legal play on the Flowers vec env at ``batch``."""
    from formosa_envs.jax import FlowersVecEnv

    return bench_random_play(FlowersVecEnv(batch, players), steps, repeats)


def bench_heuristic(batch: int, players: int, steps: int, repeats: int) -> dict[str, float]:
    """Heuristic play (every seat) on the Flowers vec env at ``batch``."""
    from formosa_envs.jax import FlowersVecEnv
    from formosa_envs.jax.flowers.heuristic import FlowersHeuristicJax

    vec = FlowersVecEnv(batch, players)
    act = jax.vmap(FlowersHeuristicJax(vec.engine).act)

    def step(out: Any, key: jax.Array) -> Any:
        k_act, k_env = jax.random.split(key)
        return vec._step(out.state, act(out.state, jax.random.split(k_act, batch)), k_env)

    compile_s, run_s = time_scan(step, vec.reset(jax.random.PRNGKey(0)), steps, repeats)
    return {"compile_s": compile_s, "run_s": run_s, "decisions_per_s": batch * steps / run_s}


def bench_connect_four(batch: int, steps: int, repeats: int) -> dict[str, float] | None:
    """PGX Connect Four, random legal play with auto-reset, or None without PGX."""
    return bench_pgx("connect_four", batch, steps, repeats)


def bench_rows(batches: list[int], players: int = 2, steps: int = 200, repeats: int = 3,
               pgx: bool = True) -> list[dict[str, Any]]:
    """One row per batch size: Flowers (random and heuristic play), Connect Four (None
    without PGX) and the ratio of random play to it."""
    rows = []
    for batch in batches:
        flowers = bench_flowers(batch, players, steps, repeats)
        heuristic = bench_heuristic(batch, players, steps, repeats)
        c4 = bench_connect_four(batch, steps, repeats) if pgx else None
        ratio = flowers["decisions_per_s"] / c4["decisions_per_s"] if c4 else None
        rows.append({"batch": batch, "flowers": flowers, "heuristic": heuristic,
                     "connect_four": c4, "ratio": ratio})
    return rows


def format_rows(rows: list[dict[str, Any]], players: int, steps: int) -> str:
    """The benchmark table."""
    lines = [f"jax {jax.__version__} on {jax.devices()[0].platform}, Flowers {players} "
             f"players, {steps} steps per run",
             f"{'batch':>6} {'flowers dec/s':>14} {'compile s':>10} {'heuristic dec/s':>16} "
             f"{'c4 dec/s':>12} "
             f"{'c4 compile s':>12} {'ratio':>6}"]
    for row in rows:
        flowers, c4, ratio = row["flowers"], row["connect_four"], row["ratio"]
        c4_text = (f"{c4['decisions_per_s']:12,.0f} {c4['compile_s']:12.1f} {ratio:6.2f}"
                   if c4 else f"{'n/a':>12} {'n/a':>12} {'n/a':>6}")
        lines.append(f"{row['batch']:6d} {flowers['decisions_per_s']:14,.0f} "
                     f"{flowers['compile_s']:10.1f} "
                     f"{row['heuristic']['decisions_per_s']:16,.0f} {c4_text}")
    return "\n".join(lines)


def bench_dadaocheng(batch: int, players: int, steps: int, repeats: int) -> dict[str, float]:
    """Random legal play on the Dadaocheng vec env at ``batch`` (observations included)."""
    from formosa_envs.jax.dadaocheng.vec_env import DadaochengVecEnv

    return bench_random_play(DadaochengVecEnv(batch, players), steps, repeats)


def bench_pgx(name: str, batch: int, steps: int, repeats: int) -> dict[str, float] | None:
    """A PGX game (``pgx.make(name)``), random legal play with auto-reset; None without
    PGX."""
    try:
        import pgx
    except ImportError:
        return None
    env = pgx.make(name)
    init, play = jax.vmap(env.init), jax.vmap(env.step)

    def step(state: Any, key: jax.Array) -> Any:
        k_act, k_play, k_reset = jax.random.split(key, 3)
        state = play(state, sample_legal(k_act, state.legal_action_mask),
                     jax.random.split(k_play, batch))
        fresh = init(jax.random.split(k_reset, batch))
        return jax.tree_util.tree_map(
            lambda new, old: jnp.where(
                state.terminated.reshape((-1,) + (1,) * (old.ndim - 1)), new, old),
            fresh, state)

    state = jax.jit(init)(jax.random.split(jax.random.PRNGKey(0), batch))
    compile_s, run_s = time_scan(step, state, steps, repeats)
    return {"compile_s": compile_s, "run_s": run_s, "decisions_per_s": batch * steps / run_s}


def dadaocheng_rows(batches: list[int], players: int = 2, steps: int = 20,
                    repeats: int = 2) -> list[dict[str, Any]]:
    """One row per batch size: Dadaocheng, and PGX's sparrow mahjong and Leduc hold'em for
    scale (None without PGX)."""
    return [{"batch": batch, "dadaocheng": bench_dadaocheng(batch, players, steps, repeats),
             "sparrow_mahjong": bench_pgx("sparrow_mahjong", batch, steps, repeats),
             "leduc_holdem": bench_pgx("leduc_holdem", batch, steps, repeats)}
            for batch in batches]


def format_dadaocheng(rows: list[dict[str, Any]], players: int, steps: int) -> str:
    """The Dadaocheng benchmark table."""
    lines = [f"jax {jax.__version__} on {jax.devices()[0].platform}, Dadaocheng {players} "
             f"players, {steps} steps per run",
             f"{'batch':>6} {'dadaocheng dec/s':>17} {'compile s':>10} "
             f"{'sparrow mahjong dec/s':>22} {'leduc dec/s':>12}"]
    for row in rows:
        others = [f"{row[k]['decisions_per_s']:,.0f}" if row[k] else "n/a"
                  for k in ("sparrow_mahjong", "leduc_holdem")]
        lines.append(f"{row['batch']:6d} {row['dadaocheng']['decisions_per_s']:17,.0f} "
                     f"{row['dadaocheng']['compile_s']:10.1f} {others[0]:>22} {others[1]:>12}")
    return "\n".join(lines)
