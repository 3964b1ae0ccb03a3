"""The README's OpenSpiel recipe (``examples/openspiel_recipe.py``) runs as written."""

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


def test_the_readme_block_runs() -> None:
    """The README's OpenSpiel code block, executed as written."""
    from pathlib import Path
    text = (Path(__file__).parents[2] / "README.md").read_text()
    section = text[text.index("### OpenSpiel"):]
    block = section[section.index("```python") + len("```python"):section.index("```\n", 10)]
    scope: dict = {}
    exec(compile(block, "README.md (OpenSpiel)", "exec"), scope)
    assert scope["game"].num_players() == 2
