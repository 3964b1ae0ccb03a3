"""Formosa Tea configuration."""

from __future__ import annotations

from dataclasses import dataclass

from formosa_envs.core.config import check_player_count
from formosa_envs.core.errors import ConfigError

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

    num_players: int = 2
    advanced: bool = False
    merchant_cards: int = 28
    board_file: str | None = None
    merchant_file: str | None = None

    def __post_init__(self) -> None:
        check_player_count("tea", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        if not isinstance(self.advanced, bool):
            raise ConfigError(f"advanced must be True or False, got {self.advanced!r}")
        if self.merchant_cards not in (24, 28):
            raise ConfigError(f"merchant_cards must be 28 (rulebook) or 24 (retailer), "
                              f"got {self.merchant_cards!r}")
        for name in ("board_file", "merchant_file"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ConfigError(f"{name} must be a path string, got {value!r}")
