"""OpenSpiel's own RL agents on ``formosa_flowers`` through ``rl_environment``: the PyTorch
DQN, NFSP and policy-gradient agents import (they need ``dm-tree`` and CPU torch, both in
the ``[spiel]`` extra), act legally, and make a learning update. OpenSpiel 2.0 ships no
TensorFlow ``open_spiel.python.algorithms.dqn``; the JAX agents need flax/haiku (not in
``[spiel]``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import torch
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent
from open_spiel.python.pytorch import dqn, nfsp, policy_gradient

import formosa_envs.spiel  # noqa: F401  (registers formosa_flowers)


@pytest.fixture(autouse=True)
def _global_rngs_restored() -> Iterator[None]:
    """OpenSpiel's agents draw from numpy's global generator and torch's default one, and
    the DQN/NFSP constructors re-seed both: give them back as they were."""
    state = np.random.get_state()
    with torch.random.fork_rng(devices=[]):
        yield
    np.random.set_state(state)


def _env() -> tuple[Any, int, int]:
    env = rl_environment.Environment("formosa_flowers", players=2)
    env.seed(123)
    return env, env.observation_spec()["info_state"][0], env.action_spec()["num_actions"]


def _play(env: Any, learner: Any, episodes: int = 1) -> list[float]:
    """``episodes`` games, the learner in seat 0 and OpenSpiel's random agent in seat 1;
    the learner's first action is checked legal. Returns the last game's rewards."""
    agents = [learner, random_agent.RandomAgent(1, env.action_spec()["num_actions"])]
    for _ in range(episodes):
        time_step = env.reset()
        first = learner.step(time_step)
        assert first.action in time_step.observations["legal_actions"][0]
        time_step = env.step([first.action])
        while not time_step.last():
            mover = time_step.observations["current_player"]
            time_step = env.step([agents[mover].step(time_step).action])
        for agent in agents:
            agent.step(time_step)
    return list(time_step.rewards)


def test_the_pytorch_agents_use_dm_tree() -> None:
    import tree
    assert dqn.np_tree is tree and nfsp.np_tree is tree


def test_dqn_acts_and_learns() -> None:
    env, size, actions = _env()
    agent = dqn.DQN(0, size, actions, hidden_layers_sizes=(32,), batch_size=8,
                    replay_buffer_capacity=1_000, min_buffer_size_to_learn=8, learn_every=4,
                    optimizer_str="adam", seed=1)
    rewards = _play(env, agent)
    assert sorted(rewards) == [-1.0, 1.0] or rewards == [0.0, 0.0]
    assert len(agent.replay_buffer) > 8 and agent.loss is not None and np.isfinite(agent.loss)


def test_nfsp_acts_and_learns_both_networks() -> None:
    env, size, actions = _env()
    agent = nfsp.NFSP(0, size, actions, hidden_layers_sizes=(32,),
                      reservoir_buffer_capacity=1_000, anticipatory_param=1.0,  # best response
                      batch_size=8, min_buffer_size_to_learn=8, learn_every=4, seed=1)
    _play(env, agent)
    supervised, reinforcement = agent.loss
    assert supervised is not None and reinforcement is not None
    assert np.isfinite(supervised) and np.isfinite(reinforcement)


def test_policy_gradient_acts_and_learns() -> None:
    env, size, actions = _env()
    agent = policy_gradient.PolicyGradient(0, size, actions, loss_str="a2c",
                                           hidden_layers_sizes=(32,), batch_size=1,
                                           optimizer_str="adam", num_critic_before_pi=1)
    _play(env, agent)
    critic, pi = agent.loss                 # tensors (with their graphs)
    assert np.isfinite(critic.item()) and np.isfinite(pi.item())
