"""Dadaocheng configuration."""

from __future__ import annotations

from dataclasses import dataclass

from formosa_envs.core.config import check_player_count
from formosa_envs.core.errors import ConfigError

MIN_PLAYERS, MAX_PLAYERS = 1, 4
CHALLENGES = (None, "ships", "buildings", "hand2")


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

    num_players: int = 2
    chronological_events: bool = False
    two_player_sides: str = "opposite"
    solo_target: int = 50
    solo_challenge: str | None = None
    disc_file: str | None = None
    ship_file: str | None = None
    building_file: str | None = None
    board_file: str | None = None

    def __post_init__(self) -> None:
        check_player_count("dadaocheng", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        if not isinstance(self.chronological_events, bool):
            raise ConfigError("chronological_events must be True or False, got "
                              f"{self.chronological_events!r}")
        if self.two_player_sides not in ("opposite", "adjacent"):
            raise ConfigError("two_player_sides must be 'opposite' or 'adjacent', got "
                              f"{self.two_player_sides!r}")
        if isinstance(self.solo_target, bool) or not isinstance(self.solo_target, int):
            raise ConfigError(f"solo_target must be an integer, got {self.solo_target!r}")
        if self.solo_challenge not in CHALLENGES:
            raise ConfigError(f"solo_challenge must be one of {CHALLENGES}, got "
                              f"{self.solo_challenge!r}")
        for name in ("disc_file", "ship_file", "building_file", "board_file"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ConfigError(f"{name} must be a path string, got {value!r}")
