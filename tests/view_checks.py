"""Checks shared by the per-game agent tests (one copy, used by every game)."""

from __future__ import annotations

import numpy as np

from formosa_envs.envs.single_agent import SingleAgentEnv


def play_training_view(game: str, num_players: int, seed: int = 0) -> tuple[SingleAgentEnv,
                                                                             float]:
    """Play one random game through the single-agent training view; return the env and
    the learner's final reward, after checking the first observation and mask."""
    env = SingleAgentEnv(game, num_players=num_players)
    obs, info = env.reset(seed=seed)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()
    rng = np.random.default_rng(seed)
    done, reward = False, 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
    return env, float(reward)
