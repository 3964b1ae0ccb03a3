"""Level-1 contract tests over every registered game and player count (DESIGN.md section 7)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import formosa_envs
from formosa_envs.core import contract
from formosa_envs.core.errors import StateFormatError
from formosa_envs.games import make_game

# random games per player count (long soaks: test_soak.py)
RANDOM_GAMES = {"flowers": 300, "taiwan": 25, "tea": 60, "dadaocheng": 60}


def test_pettingzoo_api(game_name: str, num_players: int) -> None:
    api_test(formosa_envs.env(game_name, num_players=num_players), num_cycles=400)
    api_test(formosa_envs.raw_env(game_name, num_players=num_players), num_cycles=400)


def test_pettingzoo_seed(game_name: str, num_players: int) -> None:
    seed_test(lambda: formosa_envs.env(game_name, num_players=num_players), num_cycles=400)


def test_random_games_keep_every_contract(game_name: str, num_players: int) -> None:
    """Random games: mask == legal set, non-empty masks, conservation, termination."""
    game = make_game(game_name, num_players=num_players)
    count = RANDOM_GAMES[game_name]
    finals = contract.check_random_games(game, range(count))
    assert len(finals) == count
    assert all(game.is_terminal(s) for s in finals)
    # the games must differ, or the seeds are not reaching the chance nodes
    assert len({game.to_json(s) for s in finals}) == count


def test_clone_independence_and_json_round_trip(game_name: str, num_players: int) -> None:
    game = make_game(game_name, num_players=num_players)
    for seed in range(3):
        contract.check_clone_and_json(game, seed)


def test_same_seed_same_game_and_replay(game_name: str, num_players: int) -> None:
    game = make_game(game_name, num_players=num_players)
    for seed in range(3):
        contract.check_determinism(game, seed)
        contract.check_replay(game, seed)
        contract.check_chance_paths(game, seed)


def test_hidden_information_invariance(game_name: str, num_players: int) -> None:
    game = make_game(game_name, num_players=num_players)
    changed = sum(contract.check_hidden_information(game, seed) for seed in range(3))
    if game.hidden_information:
        assert changed > 0, "determinize never changed any hidden information"
    else:
        assert changed == 0, "a game without hidden information changed under determinize"
    contract.check_determinize_canonical(game, seed=4)


def test_observation_sees_own_private_information(game_name: str, num_players: int) -> None:
    """Negative control: the observer's own hidden items do show in its observation."""
    game = make_game(game_name, num_players=num_players)
    if not game.hidden_information:  # nothing private: every seat's view is the same state
        state, _ = contract.random_playout(game, 0)
        views = [game.observe(state, seat) for seat in range(num_players)]
        assert all(v.shape == views[0].shape for v in views)
        return
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    while game.current_player(state) < 0:
        contract.step_random(game, state, rng)
    seat = game.current_player(state)
    other = game.determinize(state, (seat + 1) % num_players, rng)
    assert not np.array_equal(game.observe(state, seat), game.observe(other, seat))


def test_illegal_actions_raise(game_name: str, num_players: int) -> None:
    game = make_game(game_name, num_players=num_players)
    contract.check_illegal_actions(game, seed=1)


def test_corrupt_saved_states_are_rejected(game_name: str, num_players: int) -> None:
    game = make_game(game_name, num_players=num_players)
    state, _ = contract.random_playout(game, 0, max_steps=None)
    text = game.to_json(state)
    payload = json.loads(text)
    bad_inputs = ["not json", json.dumps([1, 2]), text.replace(game.name, "othergame", 1)]
    first_field = next(iter(payload["state"]))
    broken = json.loads(text)
    broken["state"][first_field] = "garbage"
    bad_inputs.append(json.dumps(broken))
    missing = json.loads(text)
    del missing["state"][first_field]
    bad_inputs.append(json.dumps(missing))
    for bad in bad_inputs:
        with pytest.raises(StateFormatError):
            game.from_json(bad)
