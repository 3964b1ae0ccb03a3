"""The observation's "ships left per level" counts the ships still to come (DDC solo:
only 6 of each level's 12 ships are ever revealed)."""

from __future__ import annotations

import numpy as np
import pytest

from formosa_envs.games import make_game
from formosa_envs.games.dadaocheng.shop import ships_left


@pytest.mark.parametrize(("players", "per_level"), [(1, 6), (2, 12)])
def test_ships_left_feature(players: int, per_level: int) -> None:
    game = make_game("dadaocheng", num_players=players)
    state = game.new_initial_state()
    game.resolve_chance(state, np.random.default_rng(0))
    offset = next(off for name, off, _, _ in game.observation_pieces() if name == "piles")
    seen = game.observe(state, 0)[offset:offset + 3] * 12
    expected = [per_level - state.revealed[level] for level in range(3)]
    assert [ships_left(game, state, level) for level in range(3)] == expected
    assert np.allclose(seen, expected)
