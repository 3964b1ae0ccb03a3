"""Taiwan Formosa configuration."""

from __future__ import annotations

from dataclasses import dataclass

from formosa_envs.core.config import check_options, check_player_count, int_option, path_option

MIN_PLAYERS, MAX_PLAYERS = 2, 5


@dataclass(frozen=True)
class TaiwanConfig:
    """Options of a Taiwan Formosa game (see ``seeds/taiwan.md``).

    Attributes:
        num_players: 2-5 (2 players add the neutral colour).
        building_file / landmark_file: alternative data files (e.g. printed values).
    """

    num_players: int = int_option(2, MIN_PLAYERS, MAX_PLAYERS)
    building_file: str | None = path_option()
    landmark_file: str | None = path_option()

    def __post_init__(self) -> None:
        check_player_count("taiwan", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        check_options(self, "taiwan")
