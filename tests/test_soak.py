"""Long random soaks (marked slow: run with ``pytest -m slow``)."""

from __future__ import annotations

import pytest

from formosa_envs.core import contract
from formosa_envs.games import make_game


@pytest.mark.slow
def test_soak_random_games(game_name: str, num_players: int) -> None:
    """3,000 more random games per player count under every per-step contract."""
    game = make_game(game_name, num_players=num_players)
    finals = contract.check_random_games(game, range(10_000, 13_000))
    assert len(finals) == 3_000


@pytest.mark.slow
def test_soak_hidden_information(game_name: str, num_players: int) -> None:
    game = make_game(game_name, num_players=num_players)
    changed = sum(contract.check_hidden_information(game, s, every=2) for s in range(50))
    assert (changed > 0) == game.hidden_information
