"""Information-set Monte Carlo tree search (single-observer ISMCTS) for any formosa game.

Each simulation of a search from seat ``me``'s decision:

1. *Determinize*: ``game.determinize(state, me, rng)`` samples every item ``me``
   cannot see (other hands, the deck) consistently with what it has seen.
2. *Select*: descend the tree, keyed by the player actions taken since the
   root, with UCB1 over the actions legal in this determinization. Each edge
   holds its mover's statistics; an availability count (how often the action
   was legal when its node was visited) replaces the parent's visit count.
   With ``prior_weight`` > 0 the game heuristic's move at a node gets a
   progressive bias ``prior_weight / (visits + 1)`` and is expanded first.
3. *Chance*: chance events are not tree edges; they are sampled from the
   engine (``resolve_chance`` / ``sample_chance``, i.e. ``chance_outcomes``).
4. *Expand* one untried action, then *roll out* (random or heuristic moves).
5. *Back up* a per-player reward vector: ``game.returns`` when the game ends;
   at a horizon cut, the mean over opponents of
   ``clip((own score gain - their score gain since the root) / score_scale, -1, 1)``,
   or, with a ``value_network`` (a :class:`~formosa_envs.agents.network.Network` with a
   value head) and ``value_mix`` = m > 0, ``(1 - m)`` times that plus ``m`` times the
   value head run on every seat's own observation of the cut state (one batched call
   per simulation): the score gain of the round played out, and the network's estimate
   of what the position is worth for the rest of the game (``pretrained:mcts``). A
   ``horizon_value`` (a function ``(game, state) -> each seat's value in [-1, 1]``, e.g.
   :class:`~formosa_envs.agents.round_value.RoundValue`) replaces that value at a cut.

With a ``belief`` (an object with ``determinize(game, state, me, rng)``, ``inform`` and
``reset``, e.g. :class:`~formosa_envs.agents.belief.FlowersPlayBelief`) step 1 draws the
deal from it instead; :meth:`MCTSAgent.inform` hands it every move made at the table (a
driver that does not call ``inform`` leaves it with nothing to weigh: uniform deals).

Defaults (measured on 2-player Flowers): rollouts stop at the end of the
current round (``horizon="round"``; states without a ``round`` counter play to
the end of the game), score_scale 40 (a linear value: a round's VP are worth
about the same whenever they are won), exploration 0.7. ``rollout="random"``
needs nothing but the engine contract; ``rollout="heuristic"`` uses the game's
module in ``formosa_envs.agents.heuristics`` for rollouts and, unless ``prior_weight`` is
given, as a tree prior of weight 6. That is much stronger at the same budget
(at 50 simulations it wins ~56% of 2-player games against the greedy heuristic,
random rollouts ~10%) and about three times slower. The agent reads the state only
through the engine contract and determinizes before every simulation, so it
never uses hidden information. The final move is the most visited root action.

A search may be cut short: ``max_seconds`` (wall-clock seconds per decision) and
``should_stop`` (a callable, e.g. a server's "this thought is no longer wanted") are
read between simulations (:func:`stop_check`); the move is then the best one so far
(at least one simulation is always run).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from formosa_envs.core.engine import CHANCE

from .base import StateAgent

ROLLOUTS = ("random", "heuristic")
HORIZONS = ("round", "game")
HEURISTIC_PRIOR = 6.0
"""Default progressive-bias weight of the heuristic's move when rollouts are heuristic."""


class _Node:
    """One tree node: its children by action, and the statistics of the edge into it."""

    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.children: dict[int, _Node] = {}
        self.mover = mover      # the seat that chose the action leading here
        self.visits = 0
        self.total = 0.0        # summed reward of ``mover``
        self.avail = 1          # visits of the parent at which this action was legal


class MCTSAgent(StateAgent):
    """Single-observer information-set MCTS with UCB1 and availability counts."""

    name = "mcts"

    def __init__(self, simulations: int = 100, seed: int | None = None, *,
                 exploration: float = 0.7, rollout: str = "random",
                 horizon: str = "round", score_scale: float = 40.0,
                 prior_weight: float | None = None, value_network: Any = None,
                 value_mix: float = 0.0,
                 horizon_value: Callable[[Any, Any], list[float]] | None = None,
                 belief: Any = None) -> None:
        """Configure the search (see the module docstring for the options' meaning)."""
        if simulations < 1:
            raise ValueError(f"simulations must be a positive integer, got {simulations}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {ROLLOUTS}, got {rollout!r}")
        if horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {HORIZONS}, got {horizon!r}")
        if score_scale <= 0:
            raise ValueError(f"score_scale must be positive, got {score_scale}")
        _check_value_mix(value_network, value_mix)
        if horizon_value is not None and (not callable(horizon_value) or value_mix > 0):
            raise ValueError("horizon_value must be a function (game, state) -> values, "
                             "and replaces the value_mix (give one of the two)")
        self.horizon_value = horizon_value
        if belief is not None and not callable(getattr(belief, "determinize", None)):
            raise ValueError("belief must have determinize(game, state, me, rng), inform "
                             f"and reset (e.g. agents.belief.FlowersPlayBelief), got {belief!r}")
        self.belief = belief
        self.simulations = simulations
        self.exploration = exploration
        self.rollout = rollout
        self.horizon = horizon
        self.score_scale = score_scale
        if prior_weight is None:
            prior_weight = HEURISTIC_PRIOR if rollout == "heuristic" else 0.0
        self.prior_weight = prior_weight
        self.value_network = value_network if value_mix > 0 else None
        self.value_mix = float(value_mix)
        self.rng = np.random.default_rng(seed)
        self._policy: dict[str, Callable[[Any, Any, np.random.Generator], int]] = {}
        self.rollout_chooser: Callable[[Any, Any, np.random.Generator], int] | None = None
        """A move chooser ``(game, state, rng) -> action`` that replaces ``rollout``."""
        self.last_search: dict[int, tuple[int, float]] = {}
        """Root statistics of the last search: action -> (visits, mean value)."""
        self.max_seconds: float | None = None
        """Wall-clock cap of one decision's search (None: the simulations only)."""
        self.should_stop: Callable[[], bool] | None = None
        """Asked between simulations: True ends the search at once (best move so far)."""

    def reset(self) -> None:
        """The tree is rebuilt at every decision; a belief forgets the last game."""
        if self.belief is not None:
            self.belief.reset()

    def inform(self, game: Any, state: Any, player: int, action: int) -> None:
        """A move made at the table, handed to the belief (if any) before it is applied."""
        if self.belief is not None:
            self.belief.inform(game, state, player, action)

    # ----- search ---------------------------------------------------------------
    def act_on_state(self, game: Any, state: Any) -> int:
        """Search ``simulations`` determinized playouts and return the most visited action."""
        legal = game.legal_actions(state)
        self.last_search = {}
        if len(legal) == 1:
            return legal[0]
        me = game.current_player(state)
        if self.value_network is not None:
            self.value_network.bind(game)
        root = _Node(me)
        base = (game.scores(state), _round(state))
        stopped = stop_check(self)
        deal = partial(self.belief.determinize, game) if self.belief else game.determinize
        for done in range(self.simulations):
            if done and stopped():
                break
            self._simulate(game, deal(state, me, self.rng), root, base)
        self.last_search = {a: _visit_key(root.children.get(a)) for a in legal}
        return max(legal, key=self.last_search.__getitem__)

    def _simulate(self, game: Any, s: Any, root: _Node, base: tuple[list[float], Any]) -> None:
        """One simulation on determinization ``s``: select, expand, roll out, back up."""
        path = self._descend(game, s, root, base[1])
        reward = self._rollout(game, s, base)
        for node in path:
            node.visits += 1
            node.total += reward[node.mover]

    def _descend(self, game: Any, s: Any, root: _Node, start_round: Any) -> list[_Node]:
        """Walk the tree (expanding one node) and return the nodes whose edges were used."""
        node, path = root, []
        while not self._stopped(game, s, start_round):
            legal = game.legal_actions(s)
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                if a in children:
                    children[a].avail += 1
            mover = game.current_player(s)
            hint = self._heuristic(game)(game, s, self.rng) if self.prior_weight else None
            if untried:
                action = hint if hint in untried else \
                    untried[int(self.rng.integers(len(untried)))]
                node = children[action] = _Node(mover)
            else:
                action = self._select(children, legal, hint)
                node = children[action]
            path.append(node)
            game.apply_action(s, action)
            if not self._stopped(game, s, start_round):
                _resolve_chance(game, s, self.rng)
            if untried:
                break
        return path

    def _select(self, children: dict[int, _Node], legal: list[int], hint: int | None) -> int:
        """The legal action with the best UCB1 score (availability-count form)."""
        c, w = self.exploration, self.prior_weight
        best, best_score = legal[0], -math.inf
        for a in legal:
            child = children[a]
            n = child.visits
            score = child.total / n + c * math.sqrt(math.log(child.avail) / n)
            if a == hint:
                score += w / (n + 1)
            if score > best_score:
                best, best_score = a, score
        return best

    # ----- rollouts -----------------------------------------------------------------
    def _rollout(self, game: Any, s: Any, base: tuple[list[float], Any]) -> list[float]:
        """Play on from ``s`` to the horizon and return each seat's reward."""
        policy = self._rollout_policy(game)
        steps = 0
        while not self._stopped(game, s, base[1]) and steps < game.max_game_length:
            _resolve_chance(game, s, self.rng)
            if self._stopped(game, s, base[1]):
                break
            game.apply_action(s, policy(game, s, self.rng))
            steps += 1
        if game.is_terminal(s):
            return list(game.returns(s))
        if self.horizon_value is not None:
            return list(self.horizon_value(game, s))
        value = self._score_value(game.scores(s), base[0])
        if self.value_network is None:
            return value
        seats = range(game.num_players)
        predicted = self.value_network.values(np.stack([game.observe(s, p) for p in seats]))
        m = self.value_mix
        return [(1.0 - m) * v + m * float(w) for v, w in zip(value, predicted, strict=True)]

    def _rollout_policy(self, game: Any) -> Callable[[Any, Any, np.random.Generator], int]:
        """The move chooser of rollouts (the game's heuristic is imported on first use;
        ``rollout_chooser``, when set, replaces both)."""
        if self.rollout_chooser is not None:
            return self.rollout_chooser
        if self.rollout == "random":
            return _random_move
        return self._heuristic(game)

    def _heuristic(self, game: Any) -> Callable[[Any, Any, np.random.Generator], int]:
        """The game's heuristic move chooser (imported on first use)."""
        if game.name not in self._policy:
            from .heuristics import heuristic_module
            self._policy[game.name] = heuristic_module(game.name).choose
        return self._policy[game.name]

    def _stopped(self, game: Any, s: Any, start_round: Any) -> bool:
        """Whether a simulation has reached the end of the game or its horizon."""
        if game.is_terminal(s):
            return True
        return self.horizon == "round" and start_round is not None and \
            _round(s) != start_round

    def _score_value(self, scores: list[float], root: list[float]) -> list[float]:
        """Bounded, zero-sum value of the score gains since the root (a horizon cut)."""
        n = len(scores)
        if n == 1:
            return [_clip((scores[0] - root[0]) / self.score_scale)]
        gain = [a - b for a, b in zip(scores, root, strict=True)]
        k = self.score_scale
        return [sum(_clip((gain[p] - gain[o]) / k) for o in range(n) if o != p) / (n - 1)
                for p in range(n)]


def _check_value_mix(network: Any, mix: Any) -> None:
    """A ``value_mix`` in [0, 1], and > 0 only with a network that has a value head."""
    if isinstance(mix, bool) or not isinstance(mix, (int, float)) or not 0.0 <= mix <= 1.0:
        raise ValueError(f"value_mix must be a number in [0, 1], got {mix!r}")
    if mix > 0 and not getattr(network, "has_value", False):
        raise ValueError("value_mix > 0 needs a value_network with a value head (an "
                         "agents.network.Network whose file has vw0, ..., vw_out), got "
                         f"{type(network).__name__}")


def stop_check(agent: Any) -> Callable[[], bool]:
    """A function telling whether ``agent``'s search, starting now, must stop: its
    ``should_stop()`` says so, or its ``max_seconds`` have passed (either attribute may
    be missing or None). Any search loop calls it between simulations."""
    should_stop = getattr(agent, "should_stop", None)
    limit = getattr(agent, "max_seconds", None)
    deadline = None if limit is None else time.monotonic() + float(limit)

    def stopped() -> bool:
        if should_stop is not None and should_stop():
            return True
        return deadline is not None and time.monotonic() >= deadline
    return stopped


def _visit_key(node: _Node | None) -> tuple[int, float]:
    """Rank root actions by visits, then by mean value."""
    if node is None or node.visits == 0:
        return (0, -math.inf)
    return (node.visits, node.total / node.visits)


def _clip(x: float) -> float:
    """``x`` clipped to [-1, 1]."""
    return -1.0 if x < -1.0 else (1.0 if x > 1.0 else x)


def _round(state: Any) -> Any:
    """The state's round counter, or None for games without rounds."""
    return getattr(state, "round", None)


def _random_move(game: Any, state: Any, rng: np.random.Generator) -> int:
    """A uniformly random legal action."""
    legal = game.legal_actions(state)
    return legal[int(rng.random() * len(legal))]


def _resolve_chance(game: Any, state: Any, rng: np.random.Generator) -> None:
    """Sample every pending chance event (the engine's fast path when it has one)."""
    resolve = getattr(game, "resolve_chance", None)
    if resolve is not None:
        resolve(state, rng)
        return
    while game.current_player(state) == CHANCE:
        game.apply_action(state, game.sample_chance(state, rng))
