"""Tianshou: a PPO agent that learns a formosa game against fixed opponents, and the
multi-agent collection with the final-reward fix.

**Learning (``train_agent``).** Train on the learner's single-agent view,
``learner_env(mask="dict")``, not on the multi-agent ``PettingZooEnv``: there a seat's
``obs_next`` is the *other* seat's observation, so value targets bootstrap from the
opponent's position. On the learner view the opponents move inside ``step``, ``obs_next``
is the learner's own next decision, the episode ends on its last move with its final
reward, and the observation is ``{"obs", "mask"}``: Tianshou hands that ``Batch`` to the
networks whole, so :class:`MaskedActor` reads ``obs.mask`` and gives illegal actions the
lowest logit (probability 0 in the categorical distribution: sampled never, and the PPO
ratio and entropy see only legal actions), and :class:`ValueCritic` reads ``obs.obs``.

The loop (:func:`run_training`) is ``OnPolicyTrainer``'s training step written out, so
that a CPU-time budget can stop it: ``collector.collect(n_step=...)`` inside
``policy_within_training_step`` (sampled actions), ``algorithm.update(buffer, batch_size,
repeat)`` (GAE, then ``repeat`` epochs of clipped-ratio minibatches), then
``collector.reset_buffer()``. Two global generators are involved, and both are seeded
inside the run and restored afterwards: torch's (weights and action sampling,
``torch.random.fork_rng``) and numpy's (Tianshou shuffles the minibatches with
``np.random.permutation``). Tianshou also JIT-compiles its return and buffer code with
numba on first use: about 10 CPU-seconds of every fresh process, counted in the budget.
:mod:`examples.ecosystem.tianshou_dqn_recipe` is the DQN alternative (slower to learn here).

**Collection with the fix (``collect_episodes``).** ``tianshou.env.PettingZooEnv`` returns
every seat's reward vector after each env step, and the multi-agent policy learns each
seat from its own transitions only (those whose ``obs.agent_id`` is that seat). The formosa
envs pay out on the last step, a transition of the last mover, so without help every
other seat's final reward is lost. ``FinalRewardHook`` (``formosa_envs.envs.final_reward``)
moves each seat's reward onto its own last transition when an episode finishes; Tianshou
runs such hooks when the collector gathers whole episodes (``collect(n_episode=...)``).

Measured: see ``docs/ecosystem.md`` ("Recipes that learn"), from
``benchmarks/ecosystem_learning.py --clients tianshou``.

Run: ``python -m examples.ecosystem.tianshou_recipe`` (trains for 3 CPU-minutes and
reports the win rate against random before and after).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from tianshou.algorithm.algorithm_base import Policy
from tianshou.algorithm.modelfree.ppo import PPO
from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy
from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode
from torch import nn
from tqdm import tqdm

from formosa_envs.envs import FinalRewardHook, env, evaluate_learner, learner_env

MAX_TRAINING_SEED = 1_000_000
"""Training games are seeded below this (evaluation uses 7,000,000 and up)."""


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



def make_learner_envs(game: str, num_players: int, seeds: list[int]) -> DummyVectorEnv:
    """One learner view (``mask="dict"``, random opponents) per seed in ``seeds`` (training
    seeds, below :data:`MAX_TRAINING_SEED`)."""
    if not all(0 <= seed < MAX_TRAINING_SEED for seed in seeds):
        raise ValueError(f"training seeds must stay below {MAX_TRAINING_SEED}, got {seeds}")
    envs = DummyVectorEnv([lambda: learner_env(game, "random", mask="dict",
                                               num_players=num_players)] * len(seeds))
    envs.seed(list(seeds))
    return envs



@dataclass(frozen=True)
class PPOConfig:
    """The recipe's PPO settings (the TorchRL recipe's, untuned: its first settings reached
    the aim on validation games). One batch is ``n_envs * steps_per_env`` steps."""

    hidden: tuple[int, ...] = (128, 128)
    lr: float = 3e-4
    gamma: float = 1.0
    gae_lambda: float = 0.95
    eps_clip: float = 0.2
    ent_coef: float = 0.01
    max_grad_norm: float = 0.5
    n_envs: int = 16
    steps_per_env: int = 128
    minibatch: int = 256
    epochs: int = 4


def mlp(sizes: list[int]) -> nn.Sequential:
    """Linear layers of the given sizes with tanh between them (none after the last)."""
    layers: list[nn.Module] = []
    for width_in, width_out in zip(sizes[:-2], sizes[1:-1], strict=True):
        layers += [nn.Linear(width_in, width_out), nn.Tanh()]
    return nn.Sequential(*layers, nn.Linear(sizes[-2], sizes[-1]))


class MaskedActor(nn.Module):
    """Logits over the actions from ``obs.obs``, illegal ones (``obs.mask == 0``) set to
    the lowest float: Tianshou's actor protocol, ``(obs, state, info) -> (logits, state)``."""

    def __init__(self, observation_size: int, action_count: int,
                 hidden: tuple[int, ...]) -> None:
        super().__init__()
        self.net = mlp([observation_size, *hidden, action_count])

    def forward(self, obs: Batch, state: Any = None, info: Any = None) -> tuple[torch.Tensor, Any]:
        """Masked logits for a batch of ``{"obs", "mask"}`` observations."""
        logits = self.net(torch.as_tensor(np.asarray(obs.obs), dtype=torch.float32))
        legal = torch.as_tensor(np.asarray(obs.mask)).bool()
        return logits.masked_fill(~legal, torch.finfo(logits.dtype).min), state


class ValueCritic(nn.Module):
    """The state value from ``obs.obs`` (the mask is not an input)."""

    def __init__(self, observation_size: int, hidden: tuple[int, ...]) -> None:
        super().__init__()
        self.net = mlp([observation_size, *hidden, 1])

    def forward(self, obs: Batch, state: Any = None, info: Any = None) -> torch.Tensor:
        """Values, shape ``(batch, 1)``."""
        return self.net(torch.as_tensor(np.asarray(obs.obs), dtype=torch.float32))


def make_ppo(game: str, num_players: int, config: PPOConfig) -> PPO:
    """The PPO algorithm with fresh networks; call it under seeded global generators."""
    probe = learner_env(game, mask="dict", num_players=num_players)
    size, count = probe.observation_space["obs"].shape[0], int(probe.action_space.n)
    policy = DiscreteActorPolicy(actor=MaskedActor(size, count, config.hidden),
                                 action_space=probe.action_space,
                                 observation_space=probe.observation_space,
                                 deterministic_eval=True)
    return PPO(policy=policy, critic=ValueCritic(size, config.hidden),
               optim=AdamOptimizerFactory(lr=config.lr), eps_clip=config.eps_clip,
               ent_coef=config.ent_coef, gamma=config.gamma, gae_lambda=config.gae_lambda,
               max_grad_norm=config.max_grad_norm)


def greedy_act(policy: DiscreteActorPolicy) -> Callable[[np.ndarray, np.ndarray], int]:
    """``act(observation, mask)``: the policy's most probable legal action (no sampling)."""
    policy.eval()

    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        batch = Batch(obs=Batch(obs=observation[None], mask=np.asarray(mask, np.int8)[None]),
                      info=Batch())
        with torch.no_grad():
            return int(policy(batch).act[0])
    return act


@contextmanager
def seeded_global_generators(seed: int) -> Iterator[None]:
    """Seed torch's and numpy's global generators for the block, and restore both after."""
    numpy_state = np.random.get_state()
    try:
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            np.random.seed(seed)
            yield
    finally:
        np.random.set_state(numpy_state)


def run_training(algorithm: PPO, collector: Collector, config: PPOConfig, deadline: float,
                 bar: tqdm, max_batches: int | None = None) -> int:
    """Tianshou's on-policy loop until ``time.process_time()`` reaches ``deadline`` (or
    ``max_batches`` batches): collect a batch of sampled actions, update, empty the buffer.
    ``bar`` counts CPU seconds up to ``deadline``. Returns the batches trained on."""
    policy, batches = algorithm.policy, 0
    collector.reset()
    while time.process_time() < deadline and batches < (max_batches or np.inf):
        with policy_within_training_step(policy):
            collector.collect(n_step=config.n_envs * config.steps_per_env)
            with torch_train_mode(algorithm):
                algorithm.update(buffer=collector.buffer, batch_size=config.minibatch,
                                 repeat=config.epochs)
        collector.reset_buffer(keep_statistics=True)
        batches += 1
        spent = bar.total - max(deadline - time.process_time(), 0.0)
        bar.update(round(spent) - bar.n)
        bar.set_postfix(batches=batches, refresh=False)
    return batches


def train_agent(game: str = "flowers", num_players: int = 2, seed: int = 0,
                cpu_seconds: float = 180.0, progress: bool = True,
                config: PPOConfig | None = None,
                max_batches: int | None = None) -> Callable[[np.ndarray, np.ndarray], int]:
    """Train a PPO agent against random opponents with Tianshou's collector and PPO update
    for at most ``cpu_seconds`` of this process's CPU time (the set-up counts) or
    ``max_batches`` batches; ``cpu_seconds=0`` returns the untrained policy. Returns the
    greedy policy ``act(observation, mask) -> legal action``."""
    config = config or PPOConfig()
    torch.set_num_threads(1)
    deadline = time.process_time() + cpu_seconds
    with seeded_global_generators(seed):
        algorithm = make_ppo(game, num_players, config)
        if cpu_seconds > 0:
            envs = make_learner_envs(game, num_players, [config.n_envs * seed + i
                                                         for i in range(config.n_envs)])
            buffer = VectorReplayBuffer(config.n_envs * config.steps_per_env, len(envs))
            collector = Collector(algorithm, envs, buffer)
            with tqdm(total=cpu_seconds, unit="cpu-s", disable=not progress) as bar:
                run_training(algorithm, collector, config, deadline, bar, max_batches)
            envs.close()
    return greedy_act(algorithm.policy)


if __name__ == "__main__":
    for fix in (False, True):
        batch, seats = collect_episodes(fix_final_reward=fix)
        learnt, totals = own_returns(batch, seats)
        print(f"fix_final_reward={fix}: rewards paid {totals.tolist()}, "
              f"rewards each seat learns from {learnt.tolist()}")
    for budget in (0.0, 180.0):
        score = evaluate_learner(train_agent(cpu_seconds=budget), games=400)
        print(f"PPO after {budget:.0f} CPU-s against random: {score}")
