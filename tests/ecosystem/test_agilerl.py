"""AgileRL recipe: a DQN's masked action selection on the flat view, and the learning
recipe (a DQN whose bootstrap target is masked to the next state's legal actions)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import torch

from formosa_envs.envs import evaluate_learner, learner_env


@pytest.fixture(scope="module")
def recipe() -> ModuleType:
    """The recipe, imported in the test (not at collection, where AgileRL's import-time
    deprecation notice would escape this folder's warning filters)."""
    return importlib.import_module("examples.ecosystem.agilerl_recipe")


@pytest.fixture(scope="module")
def play_with_dqn(recipe: ModuleType) -> Callable[..., Any]:
    """The recipe's self-play demonstration."""
    return recipe.play_with_dqn


def test_dqn_plays_a_whole_game_with_legal_actions_only(play_with_dqn: Callable) -> None:
    decisions = play_with_dqn("flowers", 2, seed=0, epsilon=0.3)
    assert len(decisions) > 20
    assert {agent for agent, _, _ in decisions} == {"player_0", "player_1"}
    assert all(mask[action] == 1 for _, action, mask in decisions)
    assert all(mask.sum() >= 1 for _, _, mask in decisions)


def test_greedy_choices_follow_the_mask_and_the_seed_and_leave_torch_rng_alone(
        play_with_dqn: Callable) -> None:
    before = torch.random.get_rng_state()
    first = play_with_dqn("tea", 3, seed=1, epsilon=0.0, max_decisions=15)
    again = play_with_dqn("tea", 3, seed=1, epsilon=0.0, max_decisions=15)
    assert torch.equal(torch.random.get_rng_state(), before)
    assert len(first) == 15
    assert [(a, x) for a, x, _ in first] == [(a, x) for a, x, _ in again]
    assert all(mask[action] == 1 for _, action, mask in first)


def _learner(recipe: ModuleType, double: bool = True) -> Any:
    env = learner_env("flowers", mask="info")
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(3)
        agent = recipe.make_learner(env, recipe.RecipeConfig())
    agent.double = double
    return env, agent


def _games(env: Any, games: int = 2) -> list[list[Any]]:
    """Random-play steps ``(obs, action, reward, next_obs, terminated, next_mask)``."""
    rng = np.random.default_rng(0)
    played = []
    for game in range(games):
        obs, info = env.reset(seed=game)
        steps, done = [], False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            next_obs, reward, terminated, truncated, info = env.step(action)
            steps.append((obs, action, reward, next_obs, terminated, info["action_mask"]))
            obs, done = next_obs, terminated or truncated
        played.append(steps)
    return played


def _batch(recipe: ModuleType, env: Any, games: int = 2) -> Any:
    return torch.cat([recipe.episode_batch(steps) for steps in _games(env, games)])


def test_episode_batch_pairs_each_step_with_the_mask_after_it(recipe: ModuleType) -> None:
    steps = _games(learner_env("flowers", mask="info"), games=1)[0]
    batch = recipe.episode_batch(steps)
    assert batch.batch_size == (len(steps),)
    assert batch["done"][:, 0].tolist() == [0.0] * (len(steps) - 1) + [1.0]
    assert batch["reward"][-1, 0].item() == steps[-1][2] != 0
    for row, (obs, action, _, next_obs, _, next_mask) in enumerate(steps):
        assert batch["action"][row, 0].item() == action
        assert np.array_equal(batch["obs"][row].numpy(), obs)
        assert np.array_equal(batch["next_obs"][row].numpy(), next_obs)
        assert np.array_equal(batch["next_mask"][row].numpy(), next_mask)
    assert batch["next_mask"].dtype == torch.bool and batch["obs"].dtype == torch.float32


@pytest.mark.parametrize("double", [True, False])
def test_the_target_bootstraps_from_legal_next_actions_only(recipe: ModuleType,
                                                            double: bool) -> None:
    env, agent = _learner(recipe, double)
    batch = _batch(recipe, env, games=1)
    next_obs, reward, done = batch["next_obs"], batch["reward"], batch["done"]
    with torch.no_grad():
        q_next = agent.actor_target(next_obs)
    worst = q_next.argmin(1, keepdim=True)  # only the lowest-valued action legal
    only_worst = torch.zeros_like(batch["next_mask"]).scatter_(1, worst, True)
    target = agent.masked_target(reward, next_obs, done, only_worst)
    expected = reward + agent.gamma * q_next.gather(1, worst) * (1 - done)
    assert torch.allclose(target, expected)
    unmasked = reward + agent.gamma * q_next.max(1, keepdim=True).values * (1 - done)
    assert (target < unmasked)[done == 0].all()  # the stock target would have been higher
    assert done[-1].item() == 1 and target[-1].item() == reward[-1].item() != 0


def test_learn_steps_on_a_buffer_sample_and_the_stock_learn_refuses_the_mask(
        recipe: ModuleType) -> None:
    env, agent = _learner(recipe)
    memory = recipe.ReplayBuffer(1000)
    memory.add(_batch(recipe, env))
    assert memory.storage["next_mask"].dtype == torch.bool
    before = [p.clone() for p in agent.actor.parameters()]
    with torch.random.fork_rng(devices=[]):
        sample = memory.sample(agent.batch_size)
        loss = agent.learn(sample)
        assert np.isfinite(loss)
        with pytest.raises(ValueError, match="next_mask"):
            recipe.DQN.learn(agent, sample)
    assert any(not torch.equal(a, b) for a, b in zip(before, agent.actor.parameters(), strict=True))


def test_epsilon_decays_linearly_then_stays(recipe: ModuleType) -> None:
    config = recipe.RecipeConfig(eps_start=1.0, eps_end=0.1, eps_steps=100)
    assert [config.epsilon(s) for s in (0, 50, 100, 10_000)] == pytest.approx(
        [1.0, 0.55, 0.1, 0.1])


def test_train_agent_is_seeded_legal_and_leaves_torch_alone(recipe: ModuleType) -> None:
    rng_state, threads = torch.random.get_rng_state(), torch.get_num_threads()
    untrained = recipe.train_agent(seed=5, cpu_seconds=0, progress=False)
    again = recipe.train_agent(seed=5, cpu_seconds=0, progress=False)
    trained = recipe.train_agent(seed=5, cpu_seconds=3.0, progress=False,
                                 config=recipe.RecipeConfig(learning_starts=200))
    assert torch.equal(torch.random.get_rng_state(), rng_state)
    assert torch.get_num_threads() == threads
    env = learner_env("flowers", mask="info")
    obs, info = env.reset(seed=11)
    for _ in range(30):
        mask = info["action_mask"]
        action = trained(obs, mask)
        assert mask[action] and untrained(obs, mask) == again(obs, mask)
        obs, _, terminated, _, info = env.step(action)
        if terminated:
            obs, info = env.reset()


@pytest.mark.slow
def test_three_cpu_minutes_beat_random(recipe: ModuleType) -> None:
    act = recipe.train_agent(seed=0, cpu_seconds=180.0, progress=False)
    score = evaluate_learner(act, opponents="random", games=100, seed=7_000_000)
    assert score.win_rate >= 0.65, str(score)
