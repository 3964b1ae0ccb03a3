"""Tianshou: a DQN that learns a formosa game against fixed opponents, and the multi-agent
collection with the final-reward fix.

**Learning (``train_agent``).** Do not train Tianshou's DQN on the multi-agent
``PettingZooEnv``: there a seat's ``obs_next`` is the *other* seat's observation, so its
targets bootstrap from the opponent's position (the issue measured 2% -> 65% that way).
Train it on the learner's single-agent view, ``learner_env(mask="dict")``: the opponents
move inside ``step``, ``obs_next`` is the learner's own next decision, and the
observation is ``{"obs", "mask"}``, the shape Tianshou's ``DiscreteQLearningPolicy`` reads
(``obs.obs`` goes to the network, ``obs.mask`` masks the Q-values). Its masking, read
in Tianshou 2.0.1's source:

* action selection (``forward``) pushes illegal Q-values below every legal one: honoured;
* the target: with ``is_double=True`` (the default) the next action is the online
  network's *masked* argmax, evaluated by the target network: honoured. With
  ``is_double=False`` the target is ``max`` over the raw (unmasked) target Q-values,
  which bootstraps from illegal actions: keep ``is_double=True``;
* exploration (``add_exploration_noise``) draws legal actions, but from numpy's *global*
  generator. :class:`SeededMaskedQPolicy` draws them from its own seeded generator, so a
  training run neither depends on nor changes the caller's random state. Torch's global
  generator (the network's initial weights) is seeded inside ``torch.random.fork_rng()``.

The loop (:func:`run_training`) is ``OffPolicyTrainer``'s training step written out:
``collector.collect(n_step=...)`` with epsilon-greedy exploration, then
``algorithm.update(sample_size=..., buffer=...)`` inside ``policy_within_training_step``.
Two reasons not to call the trainer itself: in Tianshou 2.0.1 it scans the whole replay
buffer for NaNs (``buffer.hasnull()``, a full copy) after *every* collection step, whatever
``tianshou.config.ENABLE_VALIDATION`` says, at about 20 CPU-ms per thousand stored transitions
(here it outweighs the gradient steps once the buffer holds a thousand transitions, and
costs 2 s a step at 100,000);
and it stops only on epochs or a test score, not on a CPU-time budget. The epsilon
schedule follows environment steps, so a run is reproducible for a seed up to where the
budget stops it (``max_env_steps`` stops it at a fixed point). Tianshou also JIT-compiles
its n-step return and buffer code with numba on first use: about 10 CPU-seconds of every
fresh process, counted in the budget.

**Collection with the fix (``collect_episodes``).** ``tianshou.env.PettingZooEnv`` returns
every seat's reward vector after each env step, and the multi-agent policy learns each
seat from its own transitions only (those whose ``obs.agent_id`` is that seat). The formosa
envs pay out on the last step, a transition of the last mover, so without help every
other seat's final reward is lost. ``FinalRewardHook`` (``formosa_envs.envs.final_reward``)
moves each seat's reward onto its own last transition when an episode finishes; Tianshou
runs such hooks when the collector gathers whole episodes (``collect(n_episode=...)``).

Run: ``python -m examples.ecosystem.tianshou_recipe`` (trains for 3 CPU-minutes and
reports the win rate against random before and after).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from tianshou.algorithm.algorithm_base import Policy
from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy
from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.utils.net.common import Net
from tianshou.utils.torch_utils import policy_within_training_step
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


@dataclass(frozen=True)
class DQNConfig:
    """The recipe's DQN settings (network, optimiser, exploration, replay, loop sizes)."""

    hidden: tuple[int, ...] = (256, 256)
    dueling: int = 0  # hidden size of the dueling value and advantage heads (0: plain DQN)
    lr: float = 5e-4
    gamma: float = 0.99
    n_step: int = 3
    target_update_freq: int = 500
    eps_start: float = 1.0
    eps_end: float = 0.05
    eps_decay_steps: int = 40_000
    buffer_size: int = 100_000
    batch_size: int = 64
    n_envs: int = 8
    collect_steps: int = 16
    updates_per_step: float = 0.25
    warmup_steps: int = 1_000
    shaping: float = 0.0  # weight of the score-lead shaping (ScoreLeadShaping); 0: none


class SeededMaskedQPolicy(DiscreteQLearningPolicy):
    """Tianshou's Q-learning policy with its epsilon-greedy exploration drawn from its own
    seeded generator (a uniformly random *legal* action with probability epsilon), where
    Tianshou's own draws from numpy's global generator."""

    def __init__(self, *, seed: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rng = np.random.default_rng(seed)

    def add_exploration_noise(self, act: Any, batch: Any) -> Any:
        """Replace each action, with probability epsilon, by a random legal one."""
        eps = self.eps_training if self.is_within_training_step else self.eps_inference
        if eps <= 0.0:
            return act
        masks = np.asarray(batch.obs.mask, dtype=bool)
        for row in np.flatnonzero(self.rng.random(len(act)) < eps):
            act[row] = self.rng.choice(np.flatnonzero(masks[row]))
        return act


class ScoreLeadShaping(gym.Wrapper):
    """Potential-based shaping from the learner's lead in banked points: adds
    ``weight * (gamma * lead' - lead)`` to each step's reward, where ``lead`` is the
    learner's score minus the best other score over 60 (``info["scores"]``), 0 once the
    game is over. The shaping sums to a constant over a game, so the best policy is
    unchanged; it pays a good Cash Out when it happens instead of at the game's end."""

    def __init__(self, env: gym.Env, weight: float, gamma: float) -> None:
        super().__init__(env)
        self.weight, self.gamma, self.lead = weight, gamma, 0.0

    @staticmethod
    def score_lead(info: dict[str, Any]) -> float:
        """The learner's banked lead over the best other seat, in units of 60 points."""
        scores = list(info["scores"])
        own = scores.pop(info["learner_seat"])
        return (own - max(scores)) / 60.0

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """Reset, remembering the starting lead."""
        observation, info = self.env.reset(**kwargs)
        self.lead = self.score_lead(info)
        return observation, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Step, adding the shaping term to the reward."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        lead = 0.0 if terminated else self.score_lead(info)
        reward += self.weight * (self.gamma * lead - self.lead)
        self.lead = lead
        return observation, reward, terminated, truncated, info


def make_learner_envs(game: str, num_players: int, count: int, seed: int,
                      shaping: float = 0.0, gamma: float = 0.99) -> DummyVectorEnv:
    """``count`` learner views (``mask="dict"``, random opponents), seeded ``seed * count + i``
    (the training seeds, kept below :data:`MAX_TRAINING_SEED`)."""
    if not 0 <= seed * count + count - 1 < MAX_TRAINING_SEED:
        raise ValueError(f"training seeds must stay below {MAX_TRAINING_SEED}, got seed {seed}")
    def make() -> gym.Env:
        view = learner_env(game, "random", mask="dict", num_players=num_players)
        return ScoreLeadShaping(view, shaping, gamma) if shaping else view

    envs = DummyVectorEnv([make] * count)
    envs.seed([seed * count + i for i in range(count)])
    return envs


def make_dqn(game: str, num_players: int, seed: int, config: DQNConfig) -> DQN:
    """The DQN algorithm (double Q with a target network: the masked target) with a fresh
    network; call it under a seeded ``torch.random.fork_rng()``."""
    probe = learner_env(game, mask="dict", num_players=num_players)
    heads = {"hidden_sizes": [config.dueling]}
    net = Net(state_shape=probe.observation_space["obs"].shape,
              action_shape=int(probe.action_space.n), hidden_sizes=config.hidden,
              dueling_param=(heads, heads) if config.dueling else None)
    policy = SeededMaskedQPolicy(seed=seed, model=net, action_space=probe.action_space,
                                 observation_space=probe.observation_space,
                                 eps_training=config.eps_start)
    return DQN(policy=policy, optim=AdamOptimizerFactory(lr=config.lr), gamma=config.gamma,
               n_step_return_horizon=config.n_step,
               target_update_freq=config.target_update_freq, is_double=True)


def greedy_act(policy: DiscreteQLearningPolicy) -> Callable[[np.ndarray, np.ndarray], int]:
    """``act(observation, mask)``: the policy's masked argmax (no exploration)."""
    policy.eval()

    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        batch = Batch(obs=Batch(obs=observation[None].astype(np.float32),
                                mask=np.asarray(mask, dtype=np.int8)[None]), info=Batch())
        with torch.no_grad():
            return int(policy(batch).act[0])
    return act


def epsilon(config: DQNConfig, env_step: int) -> float:
    """The exploration rate after ``env_step`` steps: linear from ``eps_start`` to
    ``eps_end`` over ``eps_decay_steps``, then flat."""
    done = min(env_step / config.eps_decay_steps, 1.0)
    return config.eps_start + done * (config.eps_end - config.eps_start)


def run_training(algorithm: DQN, collector: Collector, config: DQNConfig, deadline: float,
                 bar: tqdm, max_env_steps: int | None = None) -> int:
    """Tianshou's off-policy loop until ``time.process_time()`` reaches ``deadline`` (or
    ``max_env_steps``): collect ``collect_steps`` epsilon-greedy steps, then
    ``updates_per_step`` gradient steps per collected step (after ``warmup_steps``).
    ``bar`` counts CPU seconds up to ``deadline``. Returns the environment steps taken.

    This is ``OffPolicyTrainer``'s training step, less its ``buffer.hasnull()`` scan after
    every collection, which copies the whole buffer each time (Tianshou 2.0.1)."""
    policy, env_step = algorithm.policy, 0
    collector.reset()
    with policy_within_training_step(policy):
        while time.process_time() < deadline and env_step < (max_env_steps or np.inf):
            policy.set_eps_training(epsilon(config, env_step))
            collected = collector.collect(n_step=config.collect_steps).n_collected_steps
            env_step += collected
            if env_step >= config.warmup_steps:
                for _ in range(round(config.updates_per_step * collected)):
                    algorithm.update(sample_size=config.batch_size, buffer=collector.buffer)
            spent = bar.total - max(deadline - time.process_time(), 0.0)
            bar.update(round(spent) - bar.n)
            bar.set_postfix(env_steps=env_step, eps=f"{policy.eps_training:.2f}", refresh=False)
    return env_step


def train_agent(game: str = "flowers", num_players: int = 2, seed: int = 0,
                cpu_seconds: float = 180.0, progress: bool = True,
                config: DQNConfig | None = None,
                max_env_steps: int | None = None) -> Callable[[np.ndarray, np.ndarray], int]:
    """Train a DQN against random opponents with Tianshou's collector, replay buffer and
    DQN update for at most ``cpu_seconds`` of this process's CPU time (the set-up counts)
    or ``max_env_steps`` steps; ``cpu_seconds=0`` returns the untrained policy. Returns the
    greedy policy ``act(observation, mask) -> legal action``."""
    config = config or DQNConfig()
    torch.set_num_threads(1)
    deadline = time.process_time() + cpu_seconds
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        algorithm = make_dqn(game, num_players, seed, config)
    if cpu_seconds > 0:
        envs = make_learner_envs(game, num_players, config.n_envs, seed, config.shaping,
                                 config.gamma)
        buffer = VectorReplayBuffer(config.buffer_size, len(envs), random_seed=seed)
        collector = Collector(algorithm, envs, buffer, exploration_noise=True)
        with tqdm(total=cpu_seconds, unit="cpu-s", disable=not progress) as bar:
            run_training(algorithm, collector, config, deadline, bar, max_env_steps)
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
        print(f"DQN after {budget:.0f} CPU-s against random: {score}")
