"""Formosa Flowers configuration: player count, variants and data overrides."""

from __future__ import annotations

from dataclasses import dataclass

from formosa_envs.core.config import check_options, check_player_count, int_option, path_option

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_TARGET_VP = 120
"""Highest ``target_vp``: twice the rulebook's 60. Random 4-player games reach 120 VP within
16 rounds and 480 decisions, far inside ``max_game_length`` (4000); a target that no game can
reach in that budget would only ever end by truncation."""


@dataclass(frozen=True)
class FlowersConfig:
    """Options of a Formosa Flowers game (see ``seeds/flowers.md``, section Config).

    Attributes:
        num_players: 2, 3 or 4.
        current_month: ``None`` (variant off) or 1-12: the optional Current Month set.
        card_file: path to an alternative ``cards.toml`` (e.g. printed values), or None.
        target_vp: VP that ends the game at the end of a round (rulebook: 60; 1 to
            :data:`MAX_TARGET_VP`).
    """

    num_players: int = int_option(2, MIN_PLAYERS, MAX_PLAYERS)
    current_month: int | None = int_option(None, 1, 12, none_ok=True)
    card_file: str | None = path_option()
    target_vp: int = int_option(60, 1, MAX_TARGET_VP)

    def __post_init__(self) -> None:
        check_player_count("flowers", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        check_options(self, "flowers")

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
