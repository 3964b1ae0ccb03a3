"""Contract checks for the advanced rules and the 24-card deck (the catalogue-wide
contract tests in tests/test_contract.py cover the basic game at 2-4 players)."""

from __future__ import annotations

import pytest

import formosa_envs
from formosa_envs.core import contract
from formosa_envs.core.errors import ConfigError
from formosa_envs.games import make_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_advanced_rules_keep_every_contract(players: int) -> None:
    game = make_game("tea", num_players=players, advanced=True)
    finals = contract.check_random_games(game, range(40))
    assert all(game.is_terminal(s) for s in finals)
    assert all(max(s.character) >= 0 for s in finals), "every game drafts characters"
    for seed in range(2):
        contract.check_clone_and_json(game, seed)
        contract.check_determinism(game, seed)
        contract.check_replay(game, seed)


def test_twenty_four_card_deck_keeps_every_contract() -> None:
    game = make_game("tea", num_players=3, merchant_cards=24)
    assert sum(len(pool) for pool in game.stage_pools) == 24
    finals = contract.check_random_games(game, range(20))
    assert len(finals) == 20


def test_advanced_env_passes_the_pettingzoo_api() -> None:
    from pettingzoo.test import api_test
    api_test(formosa_envs.env("tea", num_players=3, advanced=True), num_cycles=300)


@pytest.mark.parametrize("options", [{"merchant_cards": 20}, {"advanced": "yes"},
                                     {"num_players": 5}, {"board_file": 3}])
def test_bad_options_are_rejected_with_a_clear_error(options: dict) -> None:
    with pytest.raises(ConfigError):
        make_game("tea", **options)
