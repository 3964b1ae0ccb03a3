"""Tianshou recipe: a real multi-agent collection, without and with the final-reward fix;
the PPO recipe's glue (masked actor, seeded and reproducible training) and, marked ``slow``,
its learning."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch
from tianshou.data import Batch
from tianshou.utils.torch_utils import policy_within_training_step

from examples.ecosystem.tianshou_recipe import (
    MaskedActor,
    PPOConfig,
    collect_episodes,
    make_learner_envs,
    make_ppo,
    own_returns,
    train_agent,
)
from formosa_envs.envs import evaluate_learner, learner_env
from tests.ecosystem.reproducible import check_reproducible_training


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


# --- the learning recipe (train_agent): PPO on the learner's single-agent view ---

def test_the_actor_never_gives_an_illegal_action_probability() -> None:
    torch.manual_seed(0)
    actor = MaskedActor(4, 5, (8,))
    masks = np.array([[0, 1, 0, 1, 0], [1, 0, 0, 0, 0]], dtype=np.int8)
    logits, _ = actor(Batch(obs=np.random.default_rng(0).normal(size=(2, 4)), mask=masks))
    probabilities = torch.softmax(logits, dim=-1).detach().numpy()
    np.testing.assert_array_equal(probabilities[masks == 0], 0.0)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-6)


def test_sampled_and_greedy_actions_are_legal() -> None:
    algorithm = make_ppo("flowers", 2, PPOConfig(hidden=(16,)))
    view = learner_env("flowers", mask="dict")
    observation, _ = view.reset(seed=5)
    batch = Batch(obs=Batch(obs=np.repeat(observation["obs"][None], 300, axis=0),
                            mask=np.repeat(observation["mask"][None], 300, axis=0)), info=Batch())
    with policy_within_training_step(algorithm.policy):
        sampled = algorithm.policy(batch).act.numpy()
    assert observation["mask"][sampled].all() and len(set(sampled.tolist())) > 1
    assert isinstance(view.action_space, gym.spaces.Discrete)


def test_training_seeds_stay_below_the_evaluation_seeds() -> None:
    with pytest.raises(ValueError, match="below 1000000"):
        make_learner_envs("flowers", 2, [999_999, 1_000_000])


def test_train_agent_is_reproducible_plays_legal_actions_and_leaves_global_rngs() -> None:
    small = PPOConfig(hidden=(32,), n_envs=4, steps_per_env=64, minibatch=64, epochs=2)
    check_reproducible_training(
        train_agent, {"seed": 3, "cpu_seconds": 0, "progress": False, "config": small},
        {"seed": 3, "cpu_seconds": 120, "progress": False, "config": small,
         "max_batches": 3})


@pytest.mark.slow
def test_three_cpu_minutes_of_ppo_beat_random() -> None:
    score = evaluate_learner(train_agent(seed=0, cpu_seconds=180, progress=False),
                             games=100, seed=7_000_000)
    assert score.win_rate >= 0.7, str(score)  # measured 85.0% of 400 games (untrained: 12.0%)
