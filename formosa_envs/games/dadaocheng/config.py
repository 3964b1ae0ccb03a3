"""Dadaocheng configuration."""

from __future__ import annotations

from dataclasses import dataclass

from formosa_envs.core.config import (
    bool_option,
    check_options,
    check_player_count,
    choice_option,
    int_option,
    path_option,
)

MIN_PLAYERS, MAX_PLAYERS = 1, 4
CHALLENGES = (None, "ships", "buildings", "hand2")
MAX_SOLO_TARGET = 150
"""Highest ``solo_target``: above the best solo score seen (95 PP, an exhaustive planner on
the first, more generous placeholder values; seeds/dadaocheng.md section 4); the printed
tiers are 50, 60 and 70."""


@dataclass(frozen=True)
class DadaochengConfig:
    """Options of a Dadaocheng game (see ``seeds/dadaocheng.md`` section 5).

    Attributes:
        num_players: 1-4 (1 = the single-player game with its own setup and scoring).
        chronological_events: events after 1851 in year order instead of shuffled.
        two_player_sides: ``"opposite"`` (South and North) or ``"adjacent"`` (South, West).
        solo_target: with 1 player, the prestige that counts as a win (50/60/70 tiers).
        solo_challenge: with 1 player: None, ``"ships"``, ``"buildings"`` or ``"hand2"``.
        disc_file / ship_file / building_file / board_file: alternative data files.
    """

    num_players: int = int_option(2, MIN_PLAYERS, MAX_PLAYERS)
    chronological_events: bool = bool_option(False)
    two_player_sides: str = choice_option("opposite", ("opposite", "adjacent"), players=(2,))
    solo_target: int = int_option(50, 1, MAX_SOLO_TARGET, players=(1,))
    solo_challenge: str | None = choice_option(None, CHALLENGES, players=(1,))
    disc_file: str | None = path_option()
    ship_file: str | None = path_option()
    building_file: str | None = path_option()
    board_file: str | None = path_option()

    def __post_init__(self) -> None:
        check_player_count("dadaocheng", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        check_options(self, "dadaocheng")
