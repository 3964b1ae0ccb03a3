"""The game catalogue: which games exist, their env ids and player counts.

Game modules are imported lazily by :func:`make_game`, so importing the
catalogue stays cheap and games depend only on ``formosa_envs.core``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from formosa_envs.core.errors import ConfigError


@dataclass(frozen=True)
class GameInfo:
    """Catalogue entry of one game."""

    name: str
    title: str
    env_id: str
    module: str
    min_players: int
    max_players: int


GAMES: dict[str, GameInfo] = {
    "flowers": GameInfo("flowers", "Formosa Flowers", "formosa/flowers-v1",
                        "formosa_envs.games.flowers", 2, 4),
    "taiwan": GameInfo("taiwan", "Taiwan Formosa", "formosa/taiwan-v1",
                       "formosa_envs.games.taiwan", 2, 5),
    "tea": GameInfo("tea", "Formosa Tea", "formosa/tea-v1", "formosa_envs.games.tea", 2, 4),
    "dadaocheng": GameInfo("dadaocheng", "Dadaocheng", "formosa/dadaocheng-v2",
                           "formosa_envs.games.dadaocheng", 1, 4),
}


def make_game(name: str, **options: Any) -> Any:
    """Build the engine of game ``name`` from keyword options (validated)."""
    if not isinstance(name, str) or name not in GAMES:
        raise ConfigError(f"unknown game {name!r}; available: {sorted(GAMES)}")
    module = importlib.import_module(GAMES[name].module)
    return module.make_game(**options)
