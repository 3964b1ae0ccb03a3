"""The one Agent interface used by the CLI, simulations, tournaments and training.

An agent answers either an observation dict (``{"observation", "action_mask"}``,
as the PettingZoo env returns) or, for agents that search, an engine state.
Agents import only ``formosa_envs.core`` / ``formosa_envs.games``, never
pettingzoo or torch.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np


class Agent(ABC):
    """Base class of every formosa agent."""

    name: str = "agent"

    @abstractmethod
    def act(self, observation: dict[str, np.ndarray]) -> int:
        """Choose an action id from an observation dict (must respect the mask)."""

    def act_on_state(self, game: Any, state: Any) -> int:
        """Choose an action from the engine state (default: from the seat's observation)."""
        seat = game.current_player(state)
        obs = {"observation": game.observe(state, seat), "action_mask": game.legal_mask(state)}
        return self.act(obs)

    def reset(self) -> None:
        """Forget any per-game memory (called at the start of each game)."""
        return None
