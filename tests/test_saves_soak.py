"""A save taken at any decision of a legal game loads back into a
state that plays on identically, at every player count, truncated games included.

Each game is played by random, first-legal-action and heuristic seats up to its
``max_game_length``; at every decision the state is saved, loaded, and the loaded copy
is stepped with the same action as the original and compared. The default run is small;
``pytest -m slow`` runs the bigger soak.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from formosa_envs import make_game
from formosa_envs.core.engine import CHANCE
from formosa_envs.games import GAMES

COUNTS = [(name, n) for name in ("flowers", "taiwan", "tea", "dadaocheng")
          for n in range(GAMES[name].min_players, GAMES[name].max_players + 1)]
IDS = [f"{g}-{n}p" for g, n in COUNTS]


def _policy(kind: str, game: Any, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    if kind == "heuristic":
        from formosa_envs.agents import make_agent
        agent = make_agent("heuristic", game.name, seed=seed)
        return lambda state: agent.act_on_state(game, state)
    if kind == "first":
        return lambda state: game.legal_actions(state)[0]
    return lambda state: int(rng.choice(game.legal_actions(state)))


def soak(name: str, n: int, kind: str, seed: int, every: int, decisions: int | None) -> int:
    """Play one game, saving and reloading every ``every``-th step; return steps checked."""
    game = make_game(name, num_players=n)
    act, dice = _policy(kind, game, seed), np.random.default_rng(seed)
    limit = decisions or game.max_game_length
    state, checked, step = game.new_initial_state(), 0, 0
    while not game.is_terminal(state) and state.decisions < limit:
        chance = game.current_player(state) == CHANCE
        action = game.sample_chance(state, dice) if chance else act(state)
        if step % every == 0:
            text = game.to_json(state)
            loaded = game.from_json(text)
            assert game.to_json(loaded) == text
            game.apply_action(loaded, action)
            game.apply_action(state, action)
            assert game.to_json(loaded) == game.to_json(state), f"{name} step {step}"
            checked += 1
        else:
            game.apply_action(state, action)
        step += 1
    text = game.to_json(state)   # the last state, truncated or over, loads too
    assert game.to_json(game.from_json(text)) == text
    return checked


@pytest.mark.parametrize(("name", "n"), COUNTS, ids=IDS)
def test_saves_load_and_play_on_random_and_first_action(name: str, n: int) -> None:
    assert soak(name, n, "random", n, every=7, decisions=600) > 5
    assert soak(name, n, "first", n, every=97, decisions=None) >= 1


@pytest.mark.parametrize("name", ["flowers", "taiwan", "tea", "dadaocheng"])
def test_saves_load_and_play_on_heuristic(name: str) -> None:
    assert soak(name, 2, "heuristic", 3, every=3, decisions=60) > 5


@pytest.mark.slow
@pytest.mark.parametrize(("name", "n"), COUNTS, ids=IDS)
def test_saves_soak_every_decision(name: str, n: int) -> None:
    for seed in range(3):
        soak(name, n, "random", seed, every=1, decisions=None)
    soak(name, n, "first", 0, every=1, decisions=None)
    soak(name, n, "heuristic", 0, every=1, decisions=200)
