"""Tianshou: a multi-agent collection of a formosa game, with the final-reward fix.

``tianshou.env.PettingZooEnv`` returns every seat's reward vector after each env step,
and the multi-agent policy learns each seat from its own transitions only (those whose
``obs.agent_id`` is that seat). The formosa envs pay out on the last step, a transition
of the last mover, so without help every other seat's final reward is lost.
``FinalRewardHook`` (``formosa_envs.envs.final_reward``) moves each seat's reward onto
its own last transition when an episode finishes; Tianshou runs such hooks when the
collector gathers whole episodes (``collect(n_episode=...)``).

Run: ``python -m examples.ecosystem.tianshou_recipe``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from tianshou.algorithm.algorithm_base import Policy
from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

from formosa_envs.envs import FinalRewardHook, env


class MaskedRandomPolicy(Policy):
    """Uniform over the legal actions (Tianshou's ``obs.mask``), from its own seeded
    generator. Tianshou's ``RandomActionPolicy`` ignores the mask: use this instead."""

    def __init__(self, action_space: Any, seed: int) -> None:
        super().__init__(action_space=action_space)
        self.rng = np.random.default_rng(seed)

    def forward(self, batch: Any, state: Any = None, **kwargs: Any) -> Batch:
        """One legal action for each row of ``batch``."""
        masks = np.asarray(batch.obs.mask, dtype=bool)
        actions = [int(self.rng.choice(np.flatnonzero(mask))) for mask in masks]
        return Batch(act=np.array(actions), state=state)


def make_tianshou_env(game: str = "flowers", num_players: int = 3) -> PettingZooEnv:
    """The game in Tianshou's ``PettingZooEnv`` (the Dict env: Tianshou reads the mask
    from the observation)."""
    return PettingZooEnv(env(game, num_players=num_players))


def collect_episodes(game: str = "flowers", num_players: int = 3, n_episode: int = 2,
                     seed: int = 0, fix_final_reward: bool = True) -> tuple[Batch, list[str]]:
    """Collect ``n_episode`` games with one masked random policy per seat; returns the
    buffer's transitions in order and the seats' names (the reward vector's order)."""
    agents = list(make_tianshou_env(game, num_players).agents)
    envs = DummyVectorEnv([lambda: make_tianshou_env(game, num_players)])
    envs.seed(seed)
    probe = make_tianshou_env(game, num_players)
    policy = MultiAgentPolicy({agent: MaskedRandomPolicy(probe.action_space, seed + i)
                               for i, agent in enumerate(agents)})
    buffer = VectorReplayBuffer(100_000, buffer_num=1)
    hook = FinalRewardHook(agents) if fix_final_reward else None
    collector = Collector(policy, envs, buffer, on_episode_done_hook=hook)
    collector.reset()
    collector.collect(n_episode=n_episode)
    return buffer[: len(buffer)], agents


def own_returns(transitions: Batch, agents: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per episode (rows) and seat (columns): what each seat learns from, the sum of its
    reward column over its own transitions; and the rewards paid to it, its column summed
    over all the episode's steps."""
    ends = np.flatnonzero(np.logical_or(transitions.terminated, transitions.truncated))
    starts = np.concatenate([[0], ends[:-1] + 1])
    ids, rewards = np.asarray(transitions.obs.agent_id), np.asarray(transitions.rew)
    own, paid = [], []
    for start, end in zip(starts, ends + 1, strict=True):
        episode_ids, episode_rewards = ids[start:end], rewards[start:end]
        own.append([episode_rewards[episode_ids == a, s].sum() for s, a in enumerate(agents)])
        paid.append(episode_rewards.sum(axis=0))
    return np.array(own), np.array(paid)


if __name__ == "__main__":
    for fix in (False, True):
        batch, seats = collect_episodes(fix_final_reward=fix)
        learnt, totals = own_returns(batch, seats)
        print(f"fix_final_reward={fix}: rewards paid {totals.tolist()}, "
              f"rewards each seat learns from {learnt.tolist()}")
