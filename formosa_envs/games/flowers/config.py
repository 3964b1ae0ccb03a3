"""Formosa Flowers configuration: player count, variants and data overrides."""

from __future__ import annotations

from dataclasses import dataclass

from formosa_envs.core.config import check_player_count
from formosa_envs.core.errors import ConfigError

MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True)
class FlowersConfig:
    """Options of a Formosa Flowers game (see ``seeds/flowers.md``, section Config).

    Attributes:
        num_players: 2, 3 or 4.
        current_month: ``None`` (variant off) or 1-12: the optional Current Month set.
        card_file: path to an alternative ``cards.toml`` (e.g. printed values), or None.
        target_vp: VP that ends the game at the end of a round (rulebook: 60).
    """

    num_players: int = 2
    current_month: int | None = None
    card_file: str | None = None
    target_vp: int = 60

    def __post_init__(self) -> None:
        check_player_count("flowers", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        month = self.current_month
        if month is not None and (isinstance(month, bool) or not isinstance(month, int)
                                  or not 1 <= month <= 12):
            raise ConfigError(f"current_month must be None or a month 1-12, got {month!r}")
        if self.card_file is not None and not isinstance(self.card_file, str):
            raise ConfigError(f"card_file must be a path string, got {self.card_file!r}")
        if isinstance(self.target_vp, bool) or not isinstance(self.target_vp, int) \
                or self.target_vp < 1:
            raise ConfigError(f"target_vp must be a positive integer, got {self.target_vp!r}")

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player per round: 8 / 7 / 6 for 2 / 3 / 4 players."""
        return {2: 8, 3: 7, 4: 6}[self.num_players]

    @property
    def field_size(self) -> int:
        """Field cards revealed per round: 8 / 7 / 6 for 2 / 3 / 4 players."""
        return self.hand_size

    @property
    def vp_threshold(self) -> int:
        """Set VP needed before Keep Playing / Cash Out is offered: 7 (2p) or 4 (3-4p)."""
        return 7 if self.num_players == 2 else 4
