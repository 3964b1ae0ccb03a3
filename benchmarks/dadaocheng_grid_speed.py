"""Speed of the JAX Dadaocheng grid's cascade search (``formosa_envs.jax.dadaocheng.grid``).

``python benchmarks/dadaocheng_grid_speed.py [--batch 1024] [--calls 20] [--repeats 3]
[--seed 0]``

Random side states of layouts dealt by the Python engine's setup and of random arrangements
of the same discs, ``--batch`` at a time through ``jit(vmap(can_end_checked))`` and, for scale,
``jit(vmap(candidates))``; compile apart, the mean of ``--calls`` calls, each repeat on fresh
states. Needs the ``[jax]`` extra.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from formosa_envs.games.dadaocheng.config import DadaochengConfig  # noqa: E402
from formosa_envs.games.dadaocheng.game import DadaochengGame  # noqa: E402
from formosa_envs.games.dadaocheng.scenario import new_game  # noqa: E402
from formosa_envs.jax.dadaocheng import grid  # noqa: E402


def seconds_per_call(function: Callable[..., Any], args: tuple, calls: int) -> float:
    """Mean wall time of one call (after a first, compiling call)."""
    jax.block_until_ready(function(*args))
    start = time.perf_counter()
    for _ in range(calls):
        jax.block_until_ready(function(*args))
    return (time.perf_counter() - start) / calls


def main() -> None:
    """Measure and print (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = DadaochengGame(DadaochengConfig(num_players=2))
    rng = np.random.default_rng(args.seed)
    dealt = [[game.disc_faces[d] for d in new_game(game, args.seed + i).cell_disc]
             for i in range(32)]
    shuffled = [np.array(game.disc_faces)[rng.permutation(16)] for _ in range(32)]
    layouts = np.array(dealt + shuffled, dtype=np.int32)
    search = jax.jit(jax.vmap(grid.can_end_checked))
    lines = jax.jit(jax.vmap(grid.candidates))
    for _ in range(args.repeats):
        faces = jnp.asarray(layouts[rng.integers(0, len(layouts), args.batch)])
        sides = jnp.asarray(rng.integers(0, 1 << 16, args.batch).astype(np.int32))
        per_call = seconds_per_call(search, (faces, sides), args.calls)
        scale = seconds_per_call(lines, (faces, sides), args.calls)
        print(f"batch {args.batch}: can_end {per_call * 1e3:.2f} ms/call "
              f"({args.batch / per_call:,.0f} searches/s); candidates {scale * 1e3:.3f} ms/call")


if __name__ == "__main__":
    main()
