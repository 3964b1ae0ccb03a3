"""Direct (unlearned) choices among the heuristic's candidates: what the labels hold.

``python benchmarks/playout_direct.py GAME [--top-k 3] [--playouts 1] [--horizon 1]
[--reply LAMBDA] [--deals 100] [--seed 8000000] [--workers 2]``

At every decision with candidates (:mod:`formosa_envs.agents.candidates`) the agent plays
the candidate of the best

* mean play-out margin (the label of :mod:`formosa_envs.training.afterstate.data`:
  ``--horizon`` own turns, 0 to the end, ``-1`` only until the seat's next turn, i.e. the
  other seats' replies), measured at play time, with fresh seeds per decision; or, with
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

from formosa_envs.agents.afterstate import top_candidates  # noqa: E402
from formosa_envs.agents.candidates import (  # noqa: E402
    TURN_STARTS,
    candidate_generator,
    reply_value,
)
from formosa_envs.agents.heuristics import HeuristicAgent  # noqa: E402
from formosa_envs.training.afterstate.data import _outcome, play_out  # noqa: E402

from formosa_envs.core.engine import CHANCE  # noqa: E402
from formosa_envs.evaluation.ratings import wilson_interval  # noqa: E402
from formosa_envs.games import make_game  # noqa: E402


def replies_margin(game: Any, name: str, after: Any, me: int, seed: int, playouts: int
                   ) -> float:
    """Mean margin after the other seats' heuristic replies, read at ``me``'s next turn."""
    margins = []
    for p in range(playouts):
        seeds = np.random.SeedSequence(seed, spawn_key=(p,)).generate_state(
            game.num_players + 1, np.uint64)
        rng = np.random.default_rng(int(seeds[0]))
        agents = [HeuristicAgent(name, seed=int(x)) for x in seeds[1:]]
        s = after.clone()
        while not game.is_terminal(s):
            seat = game.current_player(s)
            if seat == CHANCE:
                game.resolve_chance(s, rng)
                continue
            if seat == me and TURN_STARTS[name](s):
                break
            game.apply_legal_action(s, agents[seat].act_on_state(game, s))
        margins.append(_outcome(game, name, s, me)[0])
    return float(np.mean(margins))


class DirectAgent:
    """The module docstring's agent (``reply`` None: play-outs)."""

    def __init__(self, name: str, args: argparse.Namespace, seed: int) -> None:
        self.name, self.args = name, args
        self.heuristic = HeuristicAgent(name, seed=seed)
        self.rng, self.generate = np.random.default_rng(seed), candidate_generator(name)
        self.pending: list[int] = []
        self.pending_at, self.seconds, self.decisions = -1, 0.0, 0

    def act(self, game: Any, state: Any) -> int:
        """A timed decision."""
        start = time.process_time()
        try:
            return self._act(game, state)
        finally:
            self.seconds += time.process_time() - start
            self.decisions += 1

    def _act(self, game: Any, state: Any) -> int:
        if self.pending:
            action = self.pending.pop(0)
            if state.decisions == self.pending_at and action in game.legal_actions(state):
                self.pending_at += 1
                return action
            self.pending = []
        me = game.current_player(state)
        found = self.generate(game, state, me, self.args.top_k)
        if not found:
            return self.heuristic.act_on_state(game, state)
        top = top_candidates(found, self.args.top_k)
        seed = int(self.rng.integers(2**63))   # one per decision: siblings share it
        chosen = top[int(np.argmax([self._score(game, c, me, seed) for c in top]))]
        self.pending, self.pending_at = list(chosen.then), state.decisions + 1
        return chosen.action

    def _score(self, game: Any, candidate: Any, me: int, seed: int) -> float:
        a = self.args
        if a.reply is not None:
            return candidate.value - a.reply * reply_value(self.name, game, candidate.after, me)
        if a.horizon < 0:
            return replies_margin(game, self.name, candidate.after, me, seed, a.playouts)
        return play_out(game, self.name, candidate.after, me, seed, a.playouts, a.horizon)[0]


def play(task: tuple[str, argparse.Namespace, int]) -> tuple[float, float, float]:
    """Game ``i`` (deal ``i // 2``, the agent in seat ``i % 2``): win share, score margin,
    the agent's seconds per decision."""
    name, args, i = task
    deal, seat = divmod(i, 2)
    game = make_game(name, num_players=2)
    rng = np.random.default_rng(args.seed + deal)
    agent = DirectAgent(name, args, args.seed + 1000 + i)
    other = HeuristicAgent(name, seed=args.seed + 5000 + i)
    s = game.new_initial_state()
    while not game.is_terminal(s):
        p = game.current_player(s)
        if p == CHANCE:
            game.resolve_chance(s, rng)
            continue
        game.apply_legal_action(s, agent.act(game, s) if p == seat
                                else other.act_on_state(game, s))
    scores = game.scores(s)
    return (game.win_shares(s)[seat], scores[seat] - scores[1 - seat],
            agent.seconds / max(agent.decisions, 1))


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
