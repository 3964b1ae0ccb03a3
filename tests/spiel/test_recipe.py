"""The docs' OpenSpiel recipe (``examples/openspiel_recipe.py``, docs/openspiel.md) runs."""

from __future__ import annotations

import numpy as np

from examples import openspiel_recipe as recipe
from formosa_envs.envs import raw_env


def test_check_game_loads_with_parameters() -> None:
    game = recipe.check_game()
    assert game.num_players() == 3 and game.engine.config.advanced is True


def test_mcts_against_heuristic_returns_zero_sum_results() -> None:
    results = recipe.mcts_against_heuristic(games=2, simulations=4)
    assert len(results) == 2
    assert all(len(r) == 2 and sum(r) == 0.0 for r in results)


def test_the_pyspiel_game_is_the_env_game() -> None:
    env = raw_env("flowers")
    env.reset(seed=7)
    pick = np.random.default_rng(8)
    while env.agents and not any(env.terminations.values()):
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[int(pick.integers(len(legal)))]))
    assert recipe.env_game_through_pyspiel(7) == env.game.to_json(env.engine_state)


def test_the_docs_blocks_run() -> None:
    """The docs' OpenSpiel blocks (``# needs: spiel``, docs/openspiel.md), executed as written."""
    from tests.docs_blocks import run_block, tagged
    blocks = tagged("spiel")
    assert blocks, "no '# needs: spiel' block in the docs"
    scopes = [run_block(block) for block in blocks]
    assert any(scope["game"].num_players() == 2 for scope in scopes if "game" in scope)
