"""Flat Monte Carlo: every legal move valued by the same number of heuristic play-outs.

One step of rollout policy improvement over the game's heuristic (Tesauro & Galperin,
1996): at a decision with a choice, each legal action is played ``playouts`` times in
determinized worlds and the game is played on by the heuristic in every seat up to the
horizon (the end of the round, as :class:`~formosa_envs.agents.mcts.MCTSAgent`'s default);
the value is the one ``mcts`` backs up (the game's returns at the end, otherwise the
bounded score-gain lead over the opponents since the decision). The move is the best mean;
with a ``margin`` (spec ``flat:M:MARGIN``), the heuristic's own move unless the best mean
leads the heuristic move's mean by more than ``margin`` (the rule the residual agent,
:mod:`formosa_envs.agents.residual`, applies to a network's estimates).

Unlike UCT, every action gets the same play-outs, and siblings share them (common random
numbers: play-out ``k`` of every action starts from the same determinization and draws
from the same generator seed), so the root's mean values are comparable estimates of each
action's value: ``last_search`` holds them (action -> (play-outs, mean value)). That is
what a value-target teacher needs (:mod:`formosa_envs.training.imitation.targets`).
The agent determinizes before every play-out, so it never uses hidden information.

With ``value="win"`` (spec ``flat:M[:MARGIN]:win``) every play-out runs to the end of the
game and is valued by the seat's share of the victory (1 for a sole winner, ``1/k`` for
each of ``k`` tied leaders, else 0): the quantity a win-share evaluation counts. The
default value (round horizon, a bounded mean score lead over the opponents, and rank
returns at the end of the game) rewards second place over third, and a large lead no more
than a lead of ``score_scale``; the two can rank a choice differently.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from formosa_envs.core.ranking import shares_of, top_positions

from .mcts import MCTSAgent, _round, stop_check

VALUES = ("lead", "win")
"""What a play-out is worth: the ``mcts`` value up to the round's end, or the win share."""


class FlatMonteCarloAgent(MCTSAgent):
    """Every legal action valued by ``playouts`` common-random-number heuristic play-outs."""

    name = "flat"

    def __init__(self, playouts: int = 16, seed: int | None = None, *,
                 horizon: str = "round", score_scale: float = 40.0,
                 margin: float | None = None, value: str = "lead") -> None:
        """Configure the play-outs (``horizon`` and ``score_scale`` as in ``mcts``), the
        ``margin`` the best move must lead the heuristic's by (None: no heuristic) and
        the ``value`` of a play-out (one of :data:`VALUES`; ``win`` plays to the end)."""
        if value not in VALUES:
            raise ValueError(f"value must be one of {VALUES}, got {value!r}")
        self.value = value
        if value == "win":
            horizon = "game"
        if playouts < 1:
            raise ValueError(f"playouts must be a positive integer, got {playouts}")
        if margin is not None and not 0 <= margin < float("inf"):
            raise ValueError(f"margin must be a finite number >= 0, got {margin}")
        self.margin = margin
        super().__init__(simulations=playouts, seed=seed, rollout="heuristic",
                         horizon=horizon, score_scale=score_scale, prior_weight=0.0)

    def act_on_state(self, game: Any, state: Any) -> int:
        """Value every legal action by its mean play-out value; play the best (the first
        legal action among equals)."""
        legal = game.legal_actions(state)
        self.last_search = {}
        if len(legal) == 1:
            return legal[0]
        me = game.current_player(state)
        base = (game.scores(state), _round(state))
        totals = dict.fromkeys(legal, 0.0)
        stopped, done = stop_check(self), 0
        for k in range(self.simulations):
            if k and stopped():
                break
            world = game.determinize(state, me, self.rng)
            seed = int(self.rng.integers(2**63))
            for action in legal:
                after = world.clone()
                game.apply_action(after, action)
                totals[action] += self._shared_rollout(game, after, base, seed)[me]
            done += 1
        self.last_search = {a: (done, totals[a] / done) for a in legal}
        best = max(legal, key=totals.__getitem__)
        if self.margin is None:
            return best
        move = int(self._heuristic(game)(game, state, self.rng))
        lead = (totals[best] - totals[move]) / done
        return best if lead > self.margin else move

    def _shared_rollout(self, game: Any, s: Any, base: tuple[list[float], Any],
                        seed: int) -> list[float]:
        """A heuristic play-out of ``s`` whose draws and tie-breaks come from ``seed``."""
        saved, self.rng = self.rng, np.random.default_rng(seed)
        try:
            values = self._rollout(game, s, base)
            if self.value == "win":  # a game cut at max_game_length: shares by score
                return game.win_shares(s) if game.is_terminal(s) else \
                    shares_of(top_positions(game.scores(s)), game.num_players)
            return values
        finally:
            self.rng = saved
