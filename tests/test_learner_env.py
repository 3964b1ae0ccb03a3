"""The learner's single-agent view for client libraries (formosa_envs.envs.learner)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from formosa_envs.core.errors import ConfigError
from formosa_envs.envs import evaluate_learner, learner_env
from formosa_envs.envs.learner import SpecOpponents


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("game", ["flowers", "taiwan", "tea", "dadaocheng"])
def test_dict_view_pairs_the_vector_with_the_current_mask(game: str) -> None:
    env = learner_env(game, mask="dict")
    observation, info = env.reset(seed=3)
    assert set(observation) == {"obs", "mask"}
    assert observation["mask"].dtype == np.int8
    assert np.array_equal(observation["mask"].astype(bool), info["action_mask"])
    assert env.observation_space.contains(observation)
    action = first_legal(observation["obs"], observation["mask"])
    observation, _, _, _, info = env.step(action)
    assert np.array_equal(observation["mask"].astype(bool), env.action_masks())


@pytest.mark.parametrize("mask", ["info", "dict"])
def test_views_pass_gymnasium_check(mask: str) -> None:
    # a fixed seat: with the default rotation the seat follows the episode count, not the seed
    check_env(learner_env("flowers", mask=mask, learner_seat=0, illegal_action="lose"),
              skip_render_check=True)


def test_learner_steps_are_its_own_until_its_last_move() -> None:
    env = learner_env("flowers", opponents="heuristic", num_players=3)
    observation, info = env.reset(seed=11)
    rewards, steps, done = [], 0, False
    while not done:
        seat = env.unwrapped.seat
        assert env.unwrapped.game.current_player(env.unwrapped.state) == seat
        observation, reward, terminated, truncated, info = env.step(first_legal(observation,
                                                                               info["action_mask"]))
        rewards.append(reward)
        steps += 1
        done = terminated or truncated
    assert terminated and not truncated
    assert all(r == 0 for r in rewards[:-1])
    assert rewards[-1] == env.unwrapped.learner_reward()


def test_evaluate_rotates_seats_and_counts_win_shares() -> None:
    score = evaluate_learner(first_legal, "flowers", "random", games=6, seed=5)
    assert score.games == 6 and 0 <= score.wins <= 6
    assert score.low <= score.win_rate <= score.high
    again = evaluate_learner(first_legal, "flowers", "random", games=6, seed=5)
    assert again == score
    assert "of 6 games" in str(score)


def test_a_uniform_policy_wins_about_half_against_random() -> None:
    rng = np.random.default_rng(0)
    score = evaluate_learner(lambda o, m: int(rng.choice(np.flatnonzero(m))), "flowers",
                             games=60, seed=100)
    assert 0.25 < score.win_rate < 0.75


def test_bad_arguments_are_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="mask"):
        learner_env("flowers", mask="obs")
    with pytest.raises(ValueError, match="nosuch"):
        learner_env("flowers", opponents="nosuch")
    with pytest.raises(ConfigError, match="opponent specs"):
        SpecOpponents("flowers", ())
    with pytest.raises(ConfigError, match="games"):
        evaluate_learner(first_legal, games=0)
