"""Reward modes, their declared bounds (``Game.utility_bounds``) and ``max_chance_outcomes``:
what OpenSpiel's ``GameInfo`` is built from, so the contract kit must catch a wrong one."""

from __future__ import annotations

import numpy as np
import pytest

from formosa_envs.core import contract
from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import ConfigError
from formosa_envs.core.rewards import UtilityBounds, draw_rewards, utility_bounds
from formosa_envs.games import GAMES, make_game


def test_bounds_of_each_mode() -> None:
    assert utility_bounds("rank", 3) == UtilityBounds(-1.0, 1.0, 0.0)
    assert utility_bounds("rank", 1) == UtilityBounds(-1.0, 1.0, None)
    assert utility_bounds("win", 4) == UtilityBounds(0.0, 1.0, 1.0)
    assert utility_bounds("win", 1) == UtilityBounds(0.0, 1.0, None)
    assert utility_bounds("score", 2) == UtilityBounds(None, None, None)
    with pytest.raises(ConfigError, match="reward_mode must be one of"):
        utility_bounds("points", 2)


def test_a_draw_stays_inside_each_mode_sum() -> None:
    assert draw_rewards("rank", 3) == [0.0, 0.0, 0.0]
    assert draw_rewards("win", 4) == [0.25] * 4
    assert draw_rewards("win", 1) == [0.0]
    with pytest.raises(ConfigError):
        draw_rewards("best", 2)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_max_chance_outcomes_bounds_the_first_chance_node(name: str) -> None:
    game = make_game(name)
    state = game.new_initial_state()
    assert game.current_player(state) == CHANCE
    top = max(o for o, _ in game.chance_outcomes(state))
    assert 0 < top < game.max_chance_outcomes


def test_the_kit_catches_a_chance_bound_that_is_too_small(monkeypatch) -> None:
    game = make_game("flowers")
    monkeypatch.setattr(type(game), "max_chance_outcomes", property(lambda self: 10))
    with pytest.raises(AssertionError, match="max_chance_outcomes"):
        contract.check_random_games(game, [0])


def test_the_kit_catches_rewards_outside_the_declared_bounds(monkeypatch) -> None:
    game = make_game("tea")
    state, _ = contract.random_playout(game, 0)
    contract.check_reward_bounds(game, state)
    monkeypatch.setattr(type(game), "utility_bounds",
                        lambda self, mode="rank": UtilityBounds(0.0, 0.5, None))
    with pytest.raises(AssertionError, match="outside the declared"):
        contract.check_reward_bounds(game, state)


def test_the_flowers_bound_is_its_deck() -> None:
    """The bound is derived from the content (the card file), not a constant."""
    game = make_game("flowers")
    assert game.max_chance_outcomes == len(game.cards)
    assert np.max(game.new_initial_state().deck) == game.max_chance_outcomes - 1
