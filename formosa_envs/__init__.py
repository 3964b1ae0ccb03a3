"""formosa_envs: PettingZoo environments for four Taiwanese tabletop games.

Importing the package registers every implemented game in PettingZoo's AEC
registry, so ``pettingzoo.make("aec", "formosa/flowers-v0", num_players=3)``
works. The same envs come from :func:`env` (wrapped), :func:`raw_env`
(unwrapped) and :func:`make` (an alias of :func:`env`).
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.errors import ConfigError, IllegalActionError, StateFormatError
from formosa_envs.envs import FormosaAECEnv, env, raw_env, register_all
from formosa_envs.games import GAMES, make_game

__version__ = "0.1.0"


def make(game: str = "flowers", **kwargs: Any) -> Any:
    """Same as :func:`env`: the wrapped AEC env of ``game``."""
    return env(game, **kwargs)


register_all()

__all__ = ["GAMES", "ConfigError", "FormosaAECEnv", "IllegalActionError", "StateFormatError",
           "__version__", "env", "make", "make_game", "raw_env"]
