"""Taiwan Formosa joins the shared agents, tournaments and training view."""

from __future__ import annotations

import numpy as np

from agents import make_agent
from formosa_envs.envs.single_agent import SingleAgentEnv
from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game
from training.evaluate import run_tournament


def test_mcts_plays_taiwan_legally() -> None:
    game = make_game("taiwan", num_players=2)
    agents = [make_agent("mcts:3", "taiwan", seed=0), make_agent("random", "taiwan", seed=1)]
    record = play_game(game, agents, seed=0)
    assert not record.truncated and record.decisions > 0


def test_taiwan_in_a_tournament_and_the_training_view() -> None:
    result = run_tournament("taiwan", ["heuristic", "random"], 2, games=4, seed=0,
                            show_progress=False)
    assert result.agents["heuristic"].games == 4
    env = SingleAgentEnv("taiwan", num_players=3)
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()
    rng = np.random.default_rng(0)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
    assert reward == env.game.returns(env.state)[env.seat]
