"""One learner against fixed opponents, in the shapes RL clients ask for.

The formosa games are turn-based: between two decisions of a seat the other seats move,
and the game pays every seat on its last step. A client that learns from a PettingZoo env
as if it were simultaneous (or single-agent) gets a seat's transitions wrong: its next
observation is another seat's, its last move is not marked done, its final reward lands on
someone else's transition. :func:`learner_env` does that bookkeeping once, for every
client: it is :class:`~formosa_envs.envs.single_agent.SingleAgentEnv` (one gymnasium step
per decision of the learner, the opponents playing inside ``step``; the next observation is
the learner's own at its next decision; the episode terminates on its last move, with its
own final reward there), seated in turn at every seat, with its legal-action mask where the
client reads it:

* ``mask="info"``: the observation vector, the mask in ``info["action_mask"]`` and
  ``env.action_masks()`` (sb3-contrib, AgileRL);
* ``mask="dict"``: ``{"obs": float32 vector, "mask": int8 vector}`` (Tianshou reads
  ``obs.mask``; TorchRL's ``GymWrapper`` makes the two entries keys of the tensordict).

:func:`evaluate_learner` plays a trained policy (a function of observation and mask) against
the same opponents on seeds of its own, seats rotated, and reports the win share with its
95% Wilson interval: the measure of the ecosystem recipes (``benchmarks/ecosystem_learning.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from formosa_envs.core.errors import ConfigError
from formosa_envs.core.ranking import wilson_interval
from formosa_envs.core.rewards import final_rewards

from .single_agent import SingleAgentEnv

MASK_PLACES = ("info", "dict")
"""Where :func:`learner_env` puts the legal-action mask (see the module docstring)."""

Policy = Callable[[np.ndarray, np.ndarray], int]
"""``act(observation, mask) -> action``: a trained policy, as :func:`evaluate_learner` calls it."""


@dataclass(frozen=True)
class SpecOpponents:
    """A picklable opponent factory from agent specs (``"random"``, ``"heuristic"``,
    ``"policy:PATH"``...): seat ``i`` of the ``count`` opponents plays ``specs[i % len]``,
    each agent seeded from the env's generator."""

    game: str
    specs: tuple[str, ...] = ("random",)

    def __post_init__(self) -> None:
        from formosa_envs.agents import make_agent
        if not self.specs or not all(isinstance(s, str) for s in self.specs):
            raise ConfigError(f"opponent specs must be a non-empty list of agent specs, "
                              f"got {self.specs!r}")
        for spec in self.specs:  # an unknown spec or a missing file fails here, not mid-game
            make_agent(spec, self.game, seed=0)

    def __call__(self, rng: np.random.Generator, count: int) -> list[Any]:
        """``count`` opponents for one episode."""
        from formosa_envs.agents import make_agent
        return [make_agent(self.specs[i % len(self.specs)], self.game,
                           seed=int(rng.integers(2**31))) for i in range(count)]


class DictMaskObservation(gym.ObservationWrapper):
    """The observation as ``{"obs": vector, "mask": int8 legal-action mask}``."""

    def __init__(self, env: SingleAgentEnv) -> None:
        super().__init__(env)
        size, actions = env.observation_space.shape[0], env.action_space.n
        self.observation_space = spaces.Dict({
            "obs": spaces.Box(0.0, 1.0, (size,), np.float32),
            "mask": spaces.Box(0, 1, (actions,), np.int8)})

    def observation(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """Pair the vector with the learner's current mask."""
        return {"obs": observation, "mask": self.env.action_masks().astype(np.int8)}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (as the wrapped env's)."""
        return self.env.action_masks()


def learner_env(game: str = "flowers", opponents: str | Sequence[str] = "random",
                mask: str = "info", num_players: int = 2, reward_mode: str = "rank",
                **options: Any) -> gym.Env:
    """The learner's single-agent view of ``game`` against ``opponents`` (agent specs, one
    per opponent seat in turn; a single string for all), the mask where ``mask`` says.

    The learner's seat rotates every episode; rewards follow ``reward_mode``; ``options``
    are the game's (``formosa info GAME``)."""
    if mask not in MASK_PLACES:
        raise ConfigError(f"mask must be one of {MASK_PLACES}, got {mask!r}")
    specs = (opponents,) if isinstance(opponents, str) else tuple(opponents)
    env = SingleAgentEnv(game, opponents=SpecOpponents(game, specs), reward_mode=reward_mode,
                         num_players=num_players, **options)
    return DictMaskObservation(env) if mask == "dict" else env


@dataclass(frozen=True)
class LearnerScore:
    """A policy's result against the opponents: its win share (ties shared) over ``games``
    with the 95% Wilson interval."""

    games: int
    wins: float
    low: float
    high: float

    @property
    def win_rate(self) -> float:
        """Wins (ties shared) per game."""
        return self.wins / self.games

    def __str__(self) -> str:
        return (f"{100 * self.win_rate:.1f}% ({100 * self.low:.1f}%-{100 * self.high:.1f}%) "
                f"of {self.games} games")


def evaluate_learner(act: Policy, game: str = "flowers", opponents: str | Sequence[str] = "random",
                     games: int = 100, seed: int = 7_000_000, num_players: int = 2,
                     **options: Any) -> LearnerScore:
    """Play ``games`` games of ``act`` against ``opponents`` (seats rotated, game ``i`` seeded
    ``seed + i``) and return its win share. ``act(observation, mask)`` returns an action."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ConfigError(f"games must be an integer >= 1, got {games!r}")
    env = learner_env(game, opponents, "info", num_players, **options)
    wins = 0.0
    for index in range(games):
        observation, info = env.reset(seed=seed + index)
        done = env.game.is_terminal(env.state)
        while not done:
            action = int(act(observation, info["action_mask"]))
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        wins += final_rewards(env.game, env.state, "win")[env.seat]
    low, high = wilson_interval(wins, games)
    return LearnerScore(games, wins, low, high)
