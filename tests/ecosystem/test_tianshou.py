"""Tianshou recipe: a real multi-agent collection, without and with the final-reward fix."""

from __future__ import annotations

import numpy as np
import pytest

from examples.ecosystem.tianshou_recipe import collect_episodes, own_returns


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
