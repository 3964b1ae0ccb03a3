"""A masked uniform-random agent, usable on every formosa env."""

from __future__ import annotations

from typing import Any

import numpy as np

from .base import Agent


class RandomAgent(Agent):
    """Picks uniformly among the legal actions, with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self.rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """A uniformly random action among those the mask allows."""
        legal = np.flatnonzero(observation["action_mask"])
        if legal.size == 0:
            raise ValueError("RandomAgent was asked to act with an all-zero action mask")
        return int(legal[int(self.rng.integers(legal.size))])

    def act_on_state(self, game: Any, state: Any) -> int:
        """A uniformly random legal action, straight from the engine (fast path)."""
        legal = game.legal_actions(state)
        return legal[int(self.rng.integers(len(legal)))]

    def reset(self) -> None:
        """Nothing per game: the generator keeps running so games differ."""
