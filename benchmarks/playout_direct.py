"""Direct (unlearned) choices among the heuristic's candidates: what the labels hold.

``python benchmarks/playout_direct.py GAME [--top-k 3] [--playouts 1] [--horizon 1]
[--reply LAMBDA] [--deals 100] [--seed 8000000] [--workers 2]``

At every decision with candidates (:mod:`formosa_envs.agents.candidates`) the agent plays
the candidate of the best

* mean play-out margin (the label of :mod:`formosa_envs.training.afterstate.data`:
  :func:`~formosa_envs.training.afterstate.data.play_out`: ``--horizon`` own turns, 0 to
  the end, ``-1`` only the other seats' replies), measured at play time, with fresh seeds
  per decision; or, with
  ``--reply LAMBDA``,
* heuristic value less ``LAMBDA`` times the next seat's best reply
  (:data:`~formosa_envs.agents.candidates.REPLY_VALUES`), no play-outs;

and the heuristic everywhere else. Two-player games against the heuristic, each deal from
both seats (deal ``d``'s chance seed is ``seed + d``). It prints the win share with its
95% Wilson interval, the mean final score margin and the agent's CPU time per decision:
whether a label or a feature carries the signal a learned evaluator should find, before
any network is fitted (docs/learned-agents.md quotes these runs). These agents think far
longer than the heuristic; they are diagnostics, not entrants.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from formosa_envs.agents.afterstate import CandidateAgent, top_candidates  # noqa: E402
from formosa_envs.agents.candidates import Candidate, reply_value  # noqa: E402
from formosa_envs.agents.heuristics import HeuristicAgent  # noqa: E402
from formosa_envs.training.afterstate.data import play_out  # noqa: E402

from formosa_envs.evaluation.ratings import wilson_interval  # noqa: E402
from formosa_envs.games import make_game  # noqa: E402
from formosa_envs.tools.simulate import play_game  # noqa: E402


class DirectAgent(CandidateAgent):
    """The module docstring's agent (``reply`` None: play-outs), timing its decisions."""

    def __init__(self, name: str, args: argparse.Namespace, seed: int) -> None:
        super().__init__(name, args.top_k, seed)
        self.args, self.rng = args, np.random.default_rng(seed)
        self.seconds, self.decisions = 0.0, 0

    def act_on_state(self, game: Any, state: Any) -> int:
        """A timed decision."""
        start = time.process_time()
        try:
            return super().act_on_state(game, state)
        finally:
            self.seconds += time.process_time() - start
            self.decisions += 1

    def choose(self, game: Any, candidates: list[Candidate], me: int) -> Candidate:
        """The best of the top candidates by play-outs (one seed a decision: siblings
        share it) or by value less the reply."""
        top = top_candidates(candidates, self.args.top_k)
        seed = int(self.rng.integers(2**63))
        return top[int(np.argmax([self._score(game, c, me, seed) for c in top]))]

    def _score(self, game: Any, candidate: Candidate, me: int, seed: int) -> float:
        a = self.args
        if a.reply is not None:
            return candidate.value - a.reply * reply_value(self.game_name, game,
                                                           candidate.after, me)
        return play_out(game, self.game_name, candidate.after, me, seed, a.playouts,
                        a.horizon)[0]


def play(task: tuple[str, argparse.Namespace, int]) -> tuple[float, float, float]:
    """Game ``i`` (deal ``i // 2``, the agent in seat ``i % 2``): win share, score margin,
    the agent's seconds per decision."""
    name, args, i = task
    deal, seat = divmod(i, 2)
    agents: list[Any] = [HeuristicAgent(name, seed=args.seed + 5000 + i)] * 2
    agent = agents[seat] = DirectAgent(name, args, args.seed + 1000 + i)
    record = play_game(make_game(name, num_players=2), agents, seed=args.seed + deal)
    margin = record.scores[seat] - record.scores[1 - seat]
    return record.wins[seat], margin, agent.seconds / max(agent.decisions, 1)


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print the figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("game", choices=["tea", "dadaocheng", "flowers"])
    p.add_argument("--top-k", type=int, default=3)
    p.add_argument("--playouts", type=int, default=1)
    p.add_argument("--horizon", type=int, default=1)
    p.add_argument("--reply", type=float, default=None)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=8_000_000)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    start = time.time()
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play, [(args.game, args, i) for i in range(2 * args.deals)]))
    wins = np.array([r[0] for r in results])
    low, high = wilson_interval(float(wins.sum()), len(wins))
    rule = (f"reply {args.reply}" if args.reply is not None else
            f"play-outs {args.playouts} x horizon {args.horizon}")
    print(f"{args.game} top {args.top_k}, {rule}: {wins.mean():.1%} [{low:.1%}, {high:.1%}] "
          f"of {len(wins)} games; margin {np.mean([r[1] for r in results]):+.2f}; "
          f"{1000 * np.mean([r[2] for r in results]):.1f} ms per decision; "
          f"{time.time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
