"""formosa_envs: PettingZoo environments for four Taiwanese tabletop games.

The envs come from :func:`env` (wrapped), :func:`raw_env` (unwrapped) and
:func:`make` (an alias of :func:`env`) on every supported PettingZoo (1.25 and
later). Where PettingZoo has an env registry (1.27 and later), importing the
package also registers every game there, so
``pettingzoo.make("aec", GAMES["flowers"].env_id, num_players=3)`` works;
:data:`REGISTERED` says whether it did.
"""

from __future__ import annotations

from typing import Any

from formosa_envs import _legacy
from formosa_envs.core.errors import (
    ArgumentError,
    CallOrderError,
    ConfigError,
    DataError,
    FormosaError,
    IllegalActionError,
    StateFormatError,
)
from formosa_envs.envs import FormosaAECEnv, env, raw_env, register_all
from formosa_envs.games import GAMES, make_game

_legacy.install()  # the old names `agents`, `training` in a checkout, deprecated

__version__ = "0.2.0"
"""The package version (the distribution's too: pyproject reads it from here). What each
release changed, env id versions included, is in CHANGELOG.md."""


def make(game: str = "flowers", **kwargs: Any) -> Any:
    """Same as :func:`env`: the wrapped AEC env of ``game``."""
    return env(game, **kwargs)


REGISTERED: bool = register_all()
"""Whether the env ids are in PettingZoo's registry (False on PettingZoo 1.25/1.26)."""

__all__ = ["ArgumentError", "CallOrderError", "ConfigError", "DataError", "FormosaAECEnv",
           "FormosaError", "GAMES", "IllegalActionError", "REGISTERED", "StateFormatError",
           "__version__", "env", "make", "make_game", "raw_env"]
