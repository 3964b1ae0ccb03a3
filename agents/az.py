"""AlphaZero-style information-set MCTS guided by a network's prior and value.

Spec: ``az:PATH`` (100 simulations per move) or ``az:PATH:N``; ``PATH`` is an exported
``.npz`` network (:mod:`formosa_envs.agents.network`). Each simulation of a search from seat ``me``:

1. *Determinize*: ``game.determinize(state, me, rng)`` resamples everything ``me``
   cannot see, so the search never reads hidden information (single-observer
   IS-MCTS, as :mod:`formosa_envs.agents.mcts`: the tree is keyed by the player actions since the
   root, shared by all determinizations).
2. *Select* with PUCT: ``Q + c_puct * P * sqrt(N_parent) / (1 + N_child)`` over the
   actions legal in this determinization; ``Q`` is the mean return of the seat that
   chooses (0 for an unvisited action), ``P`` the masked softmax of the network's
   logits for that seat's observation, renormalised over the legal actions (legal
   sets may differ between determinizations). Forced moves pass without a network call.
3. *Chance* events are not tree edges: they are sampled from the engine
   (``resolve_chance`` / ``sample_chance``) each time they are passed.
4. *Expand and evaluate* the first unexpanded node: its prior comes from the deciding
   seat's observation, its value is a **vector with one entry per seat**: the value
   head run on every seat's own observation (one batched forward pass). Keeping a
   value per seat is exact for any number of players (no sign flipping, which is only
   right in two-player zero-sum games). Terminal nodes are valued by ``game.returns``.
   A network without a value head values leaves by a random rollout to the end of
   the round (:class:`~formosa_envs.agents.mcts.MCTSAgent`'s score-gain value; ``leaf="rollout"``),
   or by 0 (``leaf="zero"``). ``leaf="policy"`` rolls out to the end of the round with
   every seat playing the network's most likely legal move (valued like ``rollout``).
5. *Back up*: every edge on the path adds its chooser's entry of the value vector.

At play time (the defaults) there is no root noise and the temperature is 0: the move
is the most visited root action (ties: higher mean value, then higher prior). For
self-play, ``dirichlet_fraction`` > 0 mixes ``Dirichlet(dirichlet_alpha)`` noise into the
root prior and ``temperature`` > 0 samples the move from ``visits ** (1 / T)``.
:meth:`AZAgent.search` returns the visit counts over the whole action space and the
root value, the training targets of expert iteration. All randomness comes from the
agent's own seeded generator.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from formosa_envs.core.errors import ArgumentError

from .base import StateAgent
from .mcts import MCTSAgent, _resolve_chance, _round, stop_check
from .network import Network
from .specs import AgentSpecError, int_arg
from .threads import large, one_blas_thread

LEAVES = ("auto", "value", "rollout", "policy", "zero")
ROLLOUT_LEAVES = ("rollout", "policy")
DEFAULT_SIMULATIONS = 100


class _Node:
    """A tree node: children by action, the edge statistics into it, and its prior."""

    __slots__ = ("children", "legal", "logits", "mover", "prior", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.children: dict[int, _Node] = {}
        self.mover = mover          # the seat that chose the action leading here
        self.visits = 0
        self.total = 0.0            # summed return of ``mover``
        self.logits: np.ndarray | None = None   # set on expansion (deciding seat's logits)
        self.legal: tuple[int, ...] = ()        # the legal set ``prior`` was computed for
        self.prior: np.ndarray | None = None


class AZAgent(StateAgent):
    """IS-MCTS with PUCT selection, a network prior and network (or rollout) leaf values."""

    name = "az"

    def __init__(self, network: Network, simulations: int = DEFAULT_SIMULATIONS,
                 seed: int | None = None, *, c_puct: float = 1.5, leaf: str = "auto",
                 dirichlet_alpha: float = 0.3, dirichlet_fraction: float = 0.0,
                 temperature: float = 0.0) -> None:
        """Configure the search (see the module docstring); ``leaf="auto"`` is ``value``
        when the network has a value head, else ``rollout``."""
        if not isinstance(network, Network):
            raise ArgumentError("network must be a formosa_envs.agents.network.Network "
                                f"(Network.load(PATH)), got {type(network).__name__}")
        _check_options(simulations, c_puct, leaf, dirichlet_alpha, dirichlet_fraction,
                       temperature)
        if leaf == "value" and not network.has_value:
            name = network.path or "the network"
            raise ArgumentError(f"leaf='value' needs a value head, but {name} has none "
                                "(use leaf='rollout' or 'zero')")
        self.network = network
        self.single_blas_thread = large(network.layers)  # agents/threads.py
        self.simulations = int(simulations)
        self.c_puct = float(c_puct)
        self.leaf = ("value" if network.has_value else "rollout") if leaf == "auto" else leaf
        self.dirichlet_alpha = float(dirichlet_alpha)
        self.dirichlet_fraction = float(dirichlet_fraction)
        self.temperature = float(temperature)
        self.rng = np.random.default_rng(seed)
        self._rollouts = MCTSAgent(simulations=1, rollout="random", horizon="round")
        self._rollouts.rng = self.rng   # rollouts draw from this agent's generator
        if self.leaf == "policy":
            self._rollouts.rollout_chooser = self._network_move
        self.simulations_run = 0
        self.search_seconds = 0.0
        self.max_seconds: float | None = None
        """A wall-clock cap per search (None: none); the web app sets it."""
        self.should_stop: Any = None
        """A function telling the search to stop early (None: never); the web app sets it."""
        self.last_root: dict[int, tuple[int, float, float]] = {}
        """Root statistics of the last search: action -> (visits, mean value, prior)."""

    @property
    def simulations_per_second(self) -> float:
        """Simulations per second over every search so far (0 before the first)."""
        return self.simulations_run / self.search_seconds if self.search_seconds else 0.0

    def reset(self) -> None:
        """Nothing per game: the tree is rebuilt at every decision."""
        return None

    # ----- decisions ---------------------------------------------------------------
    def act_on_state(self, game: Any, state: Any) -> int:
        """Search and return the most visited legal action (sampled if temperature > 0)."""
        self.network.bind(game)
        legal = game.legal_actions(state)
        if len(legal) == 1:
            self.last_root = {}
            return legal[0]
        counts, _ = self.search(game, state)
        if self.temperature > 0 and counts[legal].any():
            visits = counts[legal].astype(np.float64)
            weights = (visits / visits.max()) ** (1.0 / self.temperature)
            return legal[int(self.rng.choice(len(legal), p=weights / weights.sum()))]
        return max(legal, key=lambda a: self.last_root[a])

    @one_blas_thread
    def search(self, game: Any, state: Any) -> tuple[np.ndarray, float]:
        """Run the simulations from the deciding seat's information set.

        Returns ``(visits, value)``: int64 visit counts of the root actions over the whole
        action space (zero off the legal set) and the root's mean backed-up return for the
        deciding seat, in [-1, 1]. The first simulation expands the root, so the visits
        sum to ``simulations - 1`` (all ``simulations`` pass a forced move), fewer when
        ``should_stop()`` or ``max_seconds`` end the search early (after one at least). Raises
        ``ArgumentError`` on a terminal or chance state.
        """
        me = game.current_player(state)
        if game.is_terminal(state) or me < 0:
            raise ArgumentError("search needs a player decision, but "
                             + game.decision_description(state))
        self.network.bind(game)
        start = time.perf_counter()
        root = _Node(me)
        base = (game.scores(state), _round(state)) if self.leaf in ROLLOUT_LEAVES else None
        stopped, done = stop_check(self), 0
        while done < self.simulations and not (done and stopped()):
            self._simulate(game, game.determinize(state, me, self.rng), root, base)
            done += 1
        self.simulations_run += done
        self.search_seconds += time.perf_counter() - start
        return self._root_stats(game, root)

    def _root_stats(self, game: Any, root: _Node) -> tuple[np.ndarray, float]:
        """Visit counts over the action space, the root value, and ``last_root``."""
        counts = np.zeros(game.num_actions, dtype=np.int64)
        prior = dict(zip(root.legal, root.prior.tolist(), strict=True)) \
            if root.prior is not None else {}
        self.last_root = {}
        for a, child in root.children.items():
            counts[a] = child.visits
            mean = child.total / child.visits if child.visits else -math.inf
            self.last_root[a] = (child.visits, mean, prior.get(a, 0.0))
        for a in root.legal:
            self.last_root.setdefault(a, (0, -math.inf, prior.get(a, 0.0)))
        return counts, root.total / max(root.visits, 1)

    # ----- one simulation --------------------------------------------------------------
    def _simulate(self, game: Any, s: Any, root: _Node, base: Any) -> None:
        """Select down to a leaf of determinization ``s``, evaluate it, back up."""
        node, path = root, [root]
        for _ in range(game.max_game_length):
            if game.is_terminal(s):
                values = game.returns(s)
                break
            legal = game.legal_actions(s)
            if len(legal) > 1 and node.logits is None:
                values = self._expand(game, s, node, legal, base, is_root=node is root)
                break
            action = legal[0] if len(legal) == 1 else self._select(node, legal)
            mover = game.current_player(s)
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = _Node(mover)
            node = child
            path.append(node)
            game.apply_action(s, action)
            if not game.is_terminal(s):
                _resolve_chance(game, s, self.rng)
        else:
            values = self._leaf_values(game, s, base, None)
        for visited in path:
            visited.visits += 1
            visited.total += values[visited.mover]

    def _expand(self, game: Any, s: Any, node: _Node, legal: list[int], base: Any,
                is_root: bool) -> list[float]:
        """Store the deciding seat's logits at ``node``; return the leaf's value vector."""
        mover = game.current_player(s)
        if self.leaf == "value":
            obs = np.stack([game.observe(s, seat) for seat in range(game.num_players)])
            node.logits = np.asarray(self.network.logits(obs[mover]), dtype=np.float64)
        else:
            obs = None
            node.logits = np.asarray(self.network.logits(game.observe(s, mover)),
                                     dtype=np.float64)
        self._prior(node, legal)
        if is_root and self.dirichlet_fraction > 0:
            noise = self.rng.dirichlet(np.full(len(legal), self.dirichlet_alpha))
            node.prior = (1 - self.dirichlet_fraction) * node.prior \
                + self.dirichlet_fraction * noise
        return self._leaf_values(game, s, base, obs)

    def _leaf_values(self, game: Any, s: Any, base: Any, obs: np.ndarray | None
                     ) -> list[float]:
        """Per-seat values of a non-terminal leaf (value head, rollout or zeros); a
        rollout is valued by the score gains since the root (``base``: the root's scores
        and round, given for rollout leaves only)."""
        if self.leaf == "value":
            if obs is None:
                obs = np.stack([game.observe(s, seat) for seat in range(game.num_players)])
            return self.network.values(obs).tolist()
        if self.leaf in ROLLOUT_LEAVES:
            return self._rollouts._rollout(game, s, base)
        return [0.0] * game.num_players

    def _network_move(self, game: Any, s: Any, rng: np.random.Generator) -> int:
        """The network's most likely legal move for the seat to act (policy rollouts)."""
        legal = game.legal_actions(s)
        if len(legal) == 1:
            return legal[0]
        logits = self.network.logits(game.observe(s, game.current_player(s)))
        return legal[int(np.argmax(logits[legal]))]

    def _prior(self, node: _Node, legal: list[int]) -> np.ndarray:
        """The masked softmax of ``node``'s logits over ``legal`` (cached per legal set)."""
        key = tuple(legal)
        if node.prior is None or node.legal != key:
            z = node.logits[legal]
            z = np.exp(z - z.max())
            node.prior, node.legal = z / z.sum(), key
        return node.prior

    def _select(self, node: _Node, legal: list[int]) -> int:
        """The legal action with the highest PUCT score at ``node``."""
        prior = self._prior(node, legal)
        scale = self.c_puct * math.sqrt(max(node.visits, 1))
        children = node.children
        best, best_score = legal[0], -math.inf
        for a, p in zip(legal, prior.tolist(), strict=True):
            child = children.get(a)
            if child is None or child.visits == 0:
                score = scale * p
            else:
                score = child.total / child.visits + scale * p / (1 + child.visits)
            if score > best_score:
                best, best_score = a, score
        return best


def _check_options(simulations: Any, c_puct: Any, leaf: Any, alpha: Any, fraction: Any,
                   temperature: Any) -> None:
    """Raise ``ArgumentError`` (a ``ValueError``) naming the first option out of its range."""
    def number(x: Any) -> bool:
        return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) \
            and math.isfinite(x)
    if not number(simulations) or int(simulations) != simulations or simulations < 1:
        raise ArgumentError(f"simulations must be a positive integer, got {simulations!r}")
    checks = [("c_puct", c_puct, number(c_puct) and c_puct > 0, "> 0"),
              ("dirichlet_alpha", alpha, number(alpha) and alpha > 0, "> 0"),
              ("dirichlet_fraction", fraction, number(fraction) and 0 <= fraction <= 1,
               "in [0, 1]"),
              ("temperature", temperature, number(temperature) and temperature >= 0, ">= 0")]
    for name, value, ok, allowed in checks:
        if not ok:
            raise ArgumentError(f"{name} must be a number {allowed}, got {value!r}")
    if leaf not in LEAVES:
        raise ArgumentError(f"leaf must be one of {', '.join(LEAVES)}, got {leaf!r}")


# ----- spec ------------------------------------------------------------------------------

def split_spec(spec: str, arg: str) -> tuple[str, int]:
    """``PATH[:N]`` -> ``(PATH, N)``; raises :class:`AgentSpecError` naming ``spec``."""
    if not arg:
        raise AgentSpecError(f"agent spec {spec!r} needs a network: az:PATH.npz[:N] "
                             f"(N simulations per move, default {DEFAULT_SIMULATIONS})")
    path, sep, budget = arg.rpartition(":")
    if not sep or not path or any(c in budget for c in "/\\."):
        path, budget = arg, ""        # no budget (a ':' inside the path is kept)
    elif not budget:
        raise AgentSpecError(f"agent spec {spec!r}: expected a positive integer after the "
                             "last ':' (az:PATH.npz:N)")
    simulations = int_arg(spec, budget, DEFAULT_SIMULATIONS)
    if path.endswith(".zip"):
        raise AgentSpecError(f"agent spec {spec!r}: {path} is a training checkpoint; the "
                             "search plays an exported network (.npz)")
    return path, simulations


def build_az(spec: str, arg: str, seed: int | None) -> AZAgent:
    """The agent of spec ``az:PATH[:N]`` (a play-time search: no noise, temperature 0)."""
    path, simulations = split_spec(spec, arg)
    agent = AZAgent(Network.load(path), simulations=simulations, seed=seed)
    agent.name = spec
    return agent


def spec_label(arg: str) -> str:
    """A short display name of ``PATH[:N]``: the file's stem and the budget."""
    from pathlib import Path
    try:
        path, simulations = split_spec("az:" + arg, arg)
    except AgentSpecError:
        return arg
    return f"{Path(path).stem}:{simulations}"
