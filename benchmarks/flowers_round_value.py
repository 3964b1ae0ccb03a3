"""The round-start value table inside ``mcts:N:heuristic``, against a search of the same size.

Make the table (3.4 minutes on 2 cores; it is the table measured in docs/learned-agents.md,
"How far the target is"), then play it::

    python -m formosa_envs.training.round_value --out runs/flowers_round_value.npz
    python benchmarks/flowers_round_value.py runs/flowers_round_value.npz --games 400 \\
        --seed 7000000 --workers 2

The agent ``round-value:N`` is :class:`~formosa_envs.agents.mcts.MCTSAgent` with N
simulations, heuristic play-outs and tree prior (as ``mcts:N:heuristic``) whose play-outs
cut at the round's end are valued by the table (``horizon_value``) instead of the score
gain; ``round-value:N:belief`` (``--belief``) also draws its deals from
:class:`~formosa_envs.agents.belief.FlowersPlayBelief` (weighted by the opponent's plays
of the round). It plays ``--opponent`` (default ``mcts:200:heuristic``) in 2-player
Flowers, seats rotated; the tournament table is printed. Both search the same number of
simulations, so they think about as long per decision (``--timing G``: measured side by
side instead, over G games, one process, by
:func:`formosa_envs.evaluation.timing.think_times`; an agent's time includes what it
spends when told the other seat's moves).
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from typing import Any

from formosa_envs.agents import make_agent
from formosa_envs.agents.belief import FlowersPlayBelief
from formosa_envs.agents.mcts import MCTSAgent
from formosa_envs.agents.round_value import RoundValue

from formosa_envs.evaluation.evaluate import format_table, run_tournament
from formosa_envs.evaluation.timing import think_times
from formosa_envs.games import make_game

PREFIX = "round-value:"


def agent_factory(table_path: str, spec: str, game: str, seed: int | None) -> Any:
    """``round-value:N[:belief]`` with the table at ``table_path``; any other spec as
    usual."""
    if not spec.startswith(PREFIX):
        return make_agent(spec, game, seed)
    table = RoundValue.load(table_path)
    table.check_game(make_game(game, num_players=2))
    simulations, _, mode = spec[len(PREFIX):].partition(":")
    if mode not in ("", "belief"):
        raise ValueError(f"{spec!r}: the only mode is 'belief' ({PREFIX}N[:belief])")
    agent = MCTSAgent(int(simulations), seed, rollout="heuristic", horizon_value=table,
                      belief=FlowersPlayBelief() if mode else None)
    agent.name = spec
    return agent


def main() -> None:
    """Parse the flags; play the tournament or time both agents."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("table", help="a table of python -m formosa_envs.training.round_value")
    p.add_argument("--simulations", type=int, default=200)
    p.add_argument("--opponent", default="mcts:200:heuristic")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=8_000_000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--timing", type=int, default=0, metavar="G")
    p.add_argument("--belief", action="store_true",
                   help="deals weighted by the opponent's plays (round-value:N:belief)")
    args = p.parse_args()
    factory = partial(agent_factory, args.table)
    specs = [f"{PREFIX}{args.simulations}" + (":belief" if args.belief else ""),
             args.opponent]
    if args.timing:
        print(think_times("flowers", specs[0], args.timing, args.seed, opponent=args.opponent,
                          agent_factory=factory))
        return
    start = time.perf_counter()
    result = run_tournament("flowers", specs, 2, args.games, seed=args.seed,
                            workers=args.workers, agent_factory=factory)
    print(format_table(result))
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
