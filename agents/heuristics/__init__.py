"""Greedy per-game heuristic players.

:class:`HeuristicAgent` dispatches to a module ``formosa_envs.agents.heuristics.<game>``
that exposes ``choose(game, state, rng) -> int``. A new game joins by adding
one module here and its name to :data:`HEURISTIC_GAMES`. Heuristics read only
what the acting seat may see.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np
from formosa_envs.agents.base import StateAgent

HEURISTIC_GAMES = ("dadaocheng", "flowers", "taiwan", "tea")
"""Games that have a heuristic module in this package."""


def heuristic_module(game: str) -> ModuleType:
    """The heuristic module of ``game`` (imported lazily); ValueError if there is none."""
    if game not in HEURISTIC_GAMES:
        raise ValueError(f"no heuristic for game {game!r}; games with a heuristic: "
                         f"{', '.join(HEURISTIC_GAMES)}")
    return importlib.import_module(f"{__name__}.{game}")


class HeuristicAgent(StateAgent):
    """The greedy heuristic of one game, with its own seeded generator for tie-breaks."""

    name = "heuristic"

    def __init__(self, game: str, seed: int | None = None) -> None:
        self.game_name = game
        self._module = heuristic_module(game)
        self._seed = seed
        self.rng = np.random.default_rng(seed)

    def act_on_state(self, game: Any, state: Any) -> int:
        """The heuristic's choice for the deciding seat."""
        return int(self._module.choose(game, state, self.rng))

    def reset(self) -> None:
        """Nothing per game: the generator keeps running so games differ."""
        return None


__all__ = ["HEURISTIC_GAMES", "HeuristicAgent", "heuristic_module"]
