"""Formosa Tea configuration."""

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

MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True)
class TeaConfig:
    """Options of a Formosa Tea game (see ``seeds/tea.md`` section 5).

    Attributes:
        num_players: 2-4 (columns, buds, events, rounds and Tea Masters follow).
        advanced: the advanced rules: the starting harvest and the character draft.
        merchant_cards: 28 (the rulebook's count) or 24 (the retailer's count; drops
            the four cards marked ``in_24 = false`` in the merchant file).
        board_file / merchant_file: alternative data files (e.g. printed values).
    """

    num_players: int = int_option(2, MIN_PLAYERS, MAX_PLAYERS)
    advanced: bool = bool_option(False)
    merchant_cards: int = choice_option(28, (28, 24))
    board_file: str | None = path_option()
    merchant_file: str | None = path_option()

    def __post_init__(self) -> None:
        check_player_count("tea", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        check_options(self, "tea")
