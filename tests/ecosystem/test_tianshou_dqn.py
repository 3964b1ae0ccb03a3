"""Tianshou DQN recipe (``examples/ecosystem/tianshou_dqn_recipe.py``): the masked target,
seeded exploration, reproducible training and, marked ``slow``, its learning."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
import torch
from tianshou.algorithm.modelfree.dqn import DQN
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Batch, VectorReplayBuffer
from tianshou.utils.torch_utils import policy_within_training_step

from examples.ecosystem.tianshou_dqn_recipe import DQNConfig, SeededMaskedQPolicy, train_agent
from formosa_envs.envs import evaluate_learner
from tests.ecosystem.reproducible import check_reproducible_training


class FixedQ(torch.nn.Module):
    """A Q-network whose values are a fixed row per observation (its first entry indexes
    ``table``), with one weight so that the optimiser has something to hold."""

    def __init__(self, table: np.ndarray) -> None:
        super().__init__()
        self.table = torch.as_tensor(table, dtype=torch.float32)
        self.weight = torch.nn.Parameter(torch.zeros(1))

    def forward(self, obs: Any, state: Any = None, info: Any = None) -> tuple[torch.Tensor, Any]:
        rows = torch.as_tensor(np.asarray(obs)[:, 0], dtype=torch.long)
        return self.table[rows] + self.weight, state


def fixed_q_dqn(is_double: bool) -> DQN:
    """A DQN over 3 actions whose Q-values prefer action 0, which the masks below forbid."""
    space = gym.spaces.Discrete(3)
    policy = SeededMaskedQPolicy(seed=0, model=FixedQ(np.array([[9.0, 1.0, 2.0]])),
                                 action_space=space)
    return DQN(policy=policy, optim=AdamOptimizerFactory(), gamma=1.0,
               target_update_freq=1, is_double=is_double)


def masked_buffer() -> VectorReplayBuffer:
    """Two non-terminal transitions whose next state forbids action 0."""
    buffer = VectorReplayBuffer(10, 1)
    view = Batch(obs=np.zeros((1, 2)), mask=np.array([[0, 1, 1]], dtype=np.int8))
    for _ in range(2):
        buffer.add(Batch(obs=view, act=[1], rew=[0.0], terminated=[False], truncated=[False],
                         obs_next=view, info=Batch()))
    return buffer


def test_tianshou_masks_both_the_action_and_the_double_q_target() -> None:
    algorithm = fixed_q_dqn(is_double=True)
    mask = np.array([[0, 1, 1]], dtype=np.int8)
    chosen = algorithm.policy(Batch(obs=Batch(obs=np.zeros((1, 2)), mask=mask), info=Batch()))
    assert chosen.act.tolist() == [2]  # the best legal action, not the forbidden 0
    target = algorithm._target_q(masked_buffer(), np.array([0, 1]))
    np.testing.assert_allclose(target.detach().numpy(), [2.0, 2.0])  # the best legal value
    # without double Q, Tianshou's target is the max over all actions, the forbidden one too
    unmasked = fixed_q_dqn(is_double=False)._target_q(masked_buffer(), np.array([0, 1]))
    np.testing.assert_allclose(unmasked.detach().numpy(), [9.0, 9.0])


def test_exploration_draws_legal_actions_from_its_own_generator() -> None:
    def explore(seed: int) -> np.ndarray:
        algorithm = fixed_q_dqn(is_double=True)
        policy = algorithm.policy
        policy.rng = np.random.default_rng(seed)
        policy.set_eps_training(1.0)
        masks = np.tile(np.array([0, 1, 1], dtype=np.int8), (200, 1))
        with policy_within_training_step(policy):
            return policy.add_exploration_noise(np.zeros(200, dtype=int),
                                                Batch(obs=Batch(obs=np.zeros((200, 2)),
                                                                mask=masks)))

    state = np.random.get_state()
    first = explore(5)
    assert set(first.tolist()) == {1, 2}
    np.testing.assert_array_equal(explore(5), first)
    assert np.array_equal(np.random.get_state()[1], state[1])  # the global generator untouched


def test_train_agent_is_reproducible_plays_legal_actions_and_leaves_global_rngs() -> None:
    small = DQNConfig(hidden=(32,), warmup_steps=200, buffer_size=2_000)
    check_reproducible_training(
        train_agent, {"seed": 3, "cpu_seconds": 0, "progress": False, "config": small},
        {"seed": 3, "cpu_seconds": 120, "progress": False, "config": small,
         "max_env_steps": 600})


@pytest.mark.slow
def test_three_cpu_minutes_of_dqn_beat_random() -> None:
    score = evaluate_learner(train_agent(seed=0, cpu_seconds=180, progress=False),
                             games=100, seed=7_000_000)
    assert score.win_rate >= 0.6, str(score)  # measured 73.5% of 400 games (untrained: 1.2%)
