"""Tianshou recipe: a real multi-agent collection, without and with the final-reward fix;
the DQN recipe's glue (masked target, seeded exploration, reproducible training) and, marked
``slow``, its learning."""

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

from examples.ecosystem.tianshou_recipe import (
    DQNConfig,
    SeededMaskedQPolicy,
    collect_episodes,
    make_learner_envs,
    own_returns,
    train_agent,
)
from formosa_envs.envs import evaluate_learner, learner_env


@pytest.mark.parametrize(("game", "players"), [("flowers", 3), ("tea", 2)])
def test_without_the_fix_seats_lose_their_final_reward_and_with_it_none_does(
        game: str, players: int) -> None:
    plain, agents = collect_episodes(game, players, n_episode=3, seed=0, fix_final_reward=False)
    fixed, _ = collect_episodes(game, players, n_episode=3, seed=0, fix_final_reward=True)
    learnt, paid = own_returns(plain, agents)
    learnt_fixed, paid_fixed = own_returns(fixed, agents)
    assert paid.shape == (3, players) and np.abs(paid).sum() > 0
    np.testing.assert_array_equal(paid_fixed, paid)  # the same games, the same payouts
    assert (learnt != paid).any()  # Tianshou alone: seats that did not move last get 0
    np.testing.assert_array_equal(learnt_fixed, paid)
    np.testing.assert_array_equal(plain.obs.agent_id, fixed.obs.agent_id)


def test_each_seat_finds_its_final_reward_on_its_own_last_transition() -> None:
    fixed, agents = collect_episodes("flowers", 3, n_episode=2, seed=4)
    ends = np.flatnonzero(fixed.terminated | fixed.truncated)
    start = 0
    for end in ends:
        ids, rewards = fixed.obs.agent_id[start:end + 1], fixed.rew[start:end + 1]
        for seat, agent in enumerate(agents):
            own = np.flatnonzero(ids == agent)
            assert own.size > 0
            assert np.count_nonzero(rewards[:, seat]) <= 1
            assert rewards[:, seat].sum() == rewards[own[-1], seat]
        start = end + 1


def test_the_hook_needs_whole_episode_collection() -> None:
    """Tianshou refuses episode hooks that rewrite the buffer under ``collect(n_step=...)``."""
    from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv

    from examples.ecosystem.tianshou_recipe import MaskedRandomPolicy, make_tianshou_env
    from formosa_envs.envs import FinalRewardHook

    probe = make_tianshou_env("flowers", 2)
    policy = MultiAgentPolicy({a: MaskedRandomPolicy(probe.action_space, i)
                               for i, a in enumerate(probe.agents)})
    envs = DummyVectorEnv([lambda: make_tianshou_env("flowers", 2)])
    envs.seed(0)
    collector = Collector(policy, envs, VectorReplayBuffer(10_000, buffer_num=1),
                          on_episode_done_hook=FinalRewardHook(probe.agents))
    collector.reset()
    with pytest.raises(ValueError, match="n_step collection"):
        collector.collect(n_step=2_000)


# --- the learning recipe (train_agent): a DQN on the learner's single-agent view ---

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


def test_training_seeds_stay_below_the_evaluation_seeds() -> None:
    with pytest.raises(ValueError, match="below 1000000"):
        make_learner_envs("flowers", 2, 8, seed=200_000)


def test_train_agent_is_reproducible_plays_legal_actions_and_leaves_global_rngs() -> None:
    torch_state, numpy_state = torch.random.get_rng_state(), np.random.get_state()
    small = DQNConfig(hidden=(32,), warmup_steps=200, buffer_size=2_000)
    untrained = train_agent(seed=3, cpu_seconds=0, progress=False, config=small)
    acts = [train_agent(seed=3, cpu_seconds=120, progress=False, config=small,
                        max_env_steps=600) for _ in range(2)]
    assert torch.equal(torch.random.get_rng_state(), torch_state)
    assert np.array_equal(np.random.get_state()[1], numpy_state[1])
    env = learner_env("flowers", mask="info")
    observation, info = env.reset(seed=123)
    changed = 0
    for _ in range(100):
        mask = info["action_mask"]
        action = acts[0](observation, mask)
        assert mask[action] and acts[1](observation, mask) == action
        changed += action != untrained(observation, mask)
        observation, _, terminated, _, info = env.step(action)
        if terminated:
            observation, info = env.reset()
    assert changed > 0  # the updates moved the greedy policy


@pytest.mark.slow
def test_three_cpu_minutes_of_dqn_beat_random() -> None:
    score = evaluate_learner(train_agent(seed=0, cpu_seconds=180, progress=False),
                             games=100, seed=7_000_000)
    assert score.win_rate >= 0.55, str(score)  # measured 66.2% of 400 (docs/ecosystem.md)
