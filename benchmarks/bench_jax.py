"""Throughput of the JAX Formosa Flowers engine, with PGX's Connect Four for scale
(:mod:`formosa_envs.jax.bench`; ``formosa bench flowers --backend jax`` prints the same).

    .venv/bin/python benchmarks/bench_jax.py --batch 1 64 256 1024 4096
"""

from __future__ import annotations

import argparse
import json

import jax

from formosa_envs.jax.bench import bench_rows, format_rows


def main() -> None:
    """Run the benchmark and print a table (and JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, nargs="+", default=[1, 64, 256, 1024, 4096])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-pgx", action="store_true", help="skip PGX Connect Four")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    rows = bench_rows(args.batch, args.players, args.steps, args.repeats, not args.no_pgx)
    print(format_rows(rows, args.players, args.steps))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"jax": jax.__version__, "players": args.players, "rows": rows}, out,
                      indent=2)


if __name__ == "__main__":
    main()
