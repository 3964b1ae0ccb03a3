"""Taiwan Formosa configuration."""

from __future__ import annotations

from dataclasses import dataclass

from formosa_envs.core.config import check_player_count
from formosa_envs.core.errors import ConfigError

MIN_PLAYERS, MAX_PLAYERS = 2, 5


@dataclass(frozen=True)
class TaiwanConfig:
    """Options of a Taiwan Formosa game (see ``seeds/taiwan.md``).

    Attributes:
        num_players: 2-5 (2 players add the neutral colour).
        building_file / landmark_file: alternative data files (e.g. printed values).
    """

    num_players: int = 2
    building_file: str | None = None
    landmark_file: str | None = None

    def __post_init__(self) -> None:
        check_player_count("taiwan", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        for name in ("building_file", "landmark_file"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ConfigError(f"{name} must be a path string, got {value!r}")
