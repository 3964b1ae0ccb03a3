"""Building validated game configurations from keyword arguments.

Each game declares its options as a frozen dataclass. :func:`build_config`
turns keyword arguments into that dataclass and rejects unknown options with a
message listing the valid ones; the dataclass's ``__post_init__`` checks values.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from .errors import ConfigError

C = TypeVar("C")


def build_config(cls: type[C], game: str, **kwargs: Any) -> C:
    """Instantiate config dataclass ``cls`` from keyword arguments, checking names."""
    valid = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(k for k in kwargs if k not in valid)
    if unknown:
        raise ConfigError(f"unknown option(s) {unknown} for game {game!r}; "
                          f"valid options are {valid}")
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ConfigError(f"bad options for game {game!r}: {exc}") from None


def check_player_count(game: str, num_players: Any, lo: int, hi: int) -> None:
    """Raise ``ConfigError`` unless ``lo <= num_players <= hi``."""
    if isinstance(num_players, bool) or not isinstance(num_players, int):
        raise ConfigError(f"num_players for {game!r} must be an integer, got {num_players!r}")
    if not lo <= num_players <= hi:
        raise ConfigError(f"{game!r} is played by {lo}-{hi} players, got num_players="
                          f"{num_players}")
