"""AgileRL: a DQN that learns a formosa game against fixed opponents, masks respected.

Two parts:

* :func:`play_with_dqn`: one AgileRL ``DQN`` choosing for every seat of the flat
  PettingZoo view (:func:`formosa_envs.envs.flat_env`), legal actions only
  (``get_action(obs, epsilon, action_mask)``).
* :func:`train_agent`: the learning recipe. The learner's single-agent view,
  :func:`formosa_envs.envs.learner_env` with ``mask="info"`` (a flat observation vector for
  the network; the legal mask in ``info["action_mask"]``; the random opponent moves inside
  ``step``, so every transition is the learner's own and its final reward lands on its last
  move). AgileRL's ``DQN`` picks epsilon-greedy legal actions, its ``ReplayBuffer`` stores
  the transitions, and :class:`MaskedTargetDQN` learns from them, for a budget of CPU
  seconds. It beats a random player about 3 games in 4 after 3 CPU-minutes.

Pitfalls, and what the recipe does about them:

* **The target must be masked too.** AgileRL's ``DQN.learn`` bootstraps from the max (or
  double-DQN argmax) over *all* actions of the next state, illegal ones included. Most of
  the 111 actions are illegal at any decision, their Q-values are never trained, and the
  max over them inflates the targets (values near 3 on a game paid +-1): the stock DQN
  learns nothing (here: always "keep playing", 2% wins against random). The recipe stores
  the *next* state's legal mask with every transition (key ``"next_mask"``) and
  :class:`MaskedTargetDQN` (15 lines) takes the argmax over those legal actions only.
  The stock ``learn`` refuses a batch with that extra key; the subclass reads it.
* ``get_action`` wants an integer mask: ``learner_env``'s boolean mask fails on
  ``1 - mask``; pass ``mask.astype(np.int8)``.
* AgileRL draws its exploration (and the replay buffer its samples) from torch's *global*
  generator: the recipe seeds it inside ``torch.random.fork_rng()``, which puts the
  caller's random state back afterwards. The returned policy is greedy and draws nothing
  (``get_action(epsilon=0)`` would still consume the global generator).
* AgileRL's own loop (``agilerl.training.train_off_policy``) runs an evolving population
  on a vector env, counts env steps rather than CPU time, and builds its transitions
  without the next mask, so the recipe runs the few lines of the loop itself.

Run: ``python -m examples.ecosystem.agilerl_recipe [CPU_SECONDS]`` (trains, then plays 400
games against random and against the heuristic).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from agilerl.algorithms import DQN
from agilerl.components.replay_buffer import ReplayBuffer
from tensordict import TensorDict
from tqdm import tqdm

from formosa_envs.envs import evaluate_learner, flat_env, learner_env

Policy = Callable[[np.ndarray, np.ndarray], int]
TRAIN_SEEDS = 1_000_000
"""Training games are seeded below this (evaluation uses 7,000,000 and up)."""


def make_dqn(game: str = "flowers", num_players: int = 2, hidden: int = 32) -> DQN:
    """A small AgileRL DQN for the game's flat observation and action spaces (call under
    a seeded ``torch.random.fork_rng()`` for reproducible weights)."""
    spaces_from = flat_env(game, num_players=num_players)
    return DQN(spaces_from.observation_space("player_0"), spaces_from.action_space("player_0"),
               net_config={"encoder_config": {"hidden_size": [hidden]}})


def play_with_dqn(game: str = "flowers", num_players: int = 2, seed: int = 0,
                  epsilon: float = 0.3,
                  max_decisions: int | None = None) -> list[tuple[str, int, np.ndarray]]:
    """Play a game (or its first ``max_decisions`` decisions) with one DQN choosing for
    every seat: ``get_action(obs, epsilon, action_mask)``. Returns each decision as
    (agent, action, the mask it was chosen under)."""
    decisions: list[tuple[str, int, np.ndarray]] = []
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        agent_net = make_dqn(game, num_players)
        aec = flat_env(game, num_players=num_players)
        aec.reset(seed=seed)
        for agent in aec.agent_iter():
            observation, _, termination, truncation, info = aec.last()
            if termination or truncation:
                aec.step(None)
                continue
            if max_decisions is not None and len(decisions) >= max_decisions:
                break
            mask = info["action_mask"]
            action = int(agent_net.get_action(observation[None], epsilon=epsilon,
                                              action_mask=mask[None])[0])
            decisions.append((agent, action, mask))
            aec.step(action)
    return decisions


@dataclass(frozen=True)
class RecipeConfig:
    """The recipe's hyperparameters (DQN's own, the replay buffer's, the exploration's)."""

    hidden: tuple[int, ...] = (128,)
    latent: int = 64
    head: tuple[int, ...] = (64,)
    lr: float = 5e-4
    batch_size: int = 128
    learn_step: int = 2
    gamma: float = 0.99
    tau: float = 0.01
    buffer_size: int = 50_000
    learning_starts: int = 1_000
    eps_start: float = 1.0
    eps_end: float = 0.05
    eps_steps: int = 20_000

    def epsilon(self, step: int) -> float:
        """Linear decay from ``eps_start`` to ``eps_end`` over ``eps_steps`` env steps."""
        fraction = min(step / self.eps_steps, 1.0)
        return self.eps_start + fraction * (self.eps_end - self.eps_start)


class MaskedTargetDQN(DQN):
    """AgileRL's DQN, its bootstrap target taken over the next state's legal actions only.

    ``learn`` reads the batch's ``"next_mask"`` (the legal actions at ``next_obs``) and uses
    it for the (double-DQN) argmax; everything else (networks, optimizer, soft target update,
    ``get_action``) is the stock DQN's."""

    def masked_target(self, reward: torch.Tensor, next_obs: Any, done: torch.Tensor,
                      next_mask: torch.Tensor) -> torch.Tensor:
        """``reward + gamma * Q_target(next_obs, a*)`` (just ``reward`` when done), ``a*``
        the best *legal* next action of the online net (of the target net if not double)."""
        with torch.no_grad():
            chooser = self.actor if self.double else self.actor_target
            legal = next_mask.bool()
            best = chooser(next_obs).masked_fill(~legal, float("-inf")).argmax(1, keepdim=True)
            value = self.actor_target(next_obs).gather(1, best)
            return reward + self.gamma * value * (1 - done)

    def learn(self, experiences: TensorDict) -> float:
        """One gradient step on a sampled batch (with ``"next_mask"``); returns the loss."""
        obs = self.preprocess_observation(experiences["obs"])
        next_obs = self.preprocess_observation(experiences["next_obs"])
        target = self.masked_target(experiences["reward"], next_obs, experiences["done"],
                                    experiences["next_mask"])
        q_taken = self.actor(obs).gather(1, experiences["action"].long())
        loss = self.criterion(q_taken, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.soft_update()
        self.metrics.log("loss", loss.item())
        return loss.item()


def make_learner(env: gym.Env, config: RecipeConfig) -> MaskedTargetDQN:
    """The DQN for ``env``'s spaces (call under a seeded ``torch.random.fork_rng()``)."""
    net_config = {"encoder_config": {"hidden_size": list(config.hidden)},
                  "latent_dim": config.latent, "head_config": {"hidden_size": list(config.head)}}
    return MaskedTargetDQN(env.observation_space, env.action_space, net_config=net_config,
                           batch_size=config.batch_size, lr=config.lr,
                           learn_step=config.learn_step, gamma=config.gamma, tau=config.tau)


Step = tuple[np.ndarray, int, float, np.ndarray, bool, np.ndarray]
"""``(obs, action, reward, next_obs, terminated, next_mask)``: one step of the learner."""


def episode_batch(steps: list[Step]) -> TensorDict:
    """A game's steps as transitions for AgileRL's ``ReplayBuffer``, each with the legal
    mask of its next state (``"next_mask"``). Added a game at a time: one ``add`` per game
    costs far less CPU than one per step."""
    columns = (np.array(column) for column in zip(*steps, strict=True))
    obs, actions, rewards, next_obs, dones, next_masks = columns
    return TensorDict({
        "obs": torch.from_numpy(obs), "action": torch.from_numpy(actions)[:, None],
        "reward": _column(rewards), "next_obs": torch.from_numpy(next_obs),
        "done": _column(dones), "next_mask": torch.from_numpy(next_masks)},
        batch_size=[len(actions)])


def _column(values: Any) -> torch.Tensor:
    """``values`` as a float32 column ``(n, 1)``."""
    return torch.tensor(np.asarray(values, dtype=np.float32))[:, None]


def greedy_policy(agent: DQN) -> Policy:
    """``act(observation, mask)``: the legal action of highest Q-value (no randomness)."""
    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            q_values = agent.actor(agent.preprocess_observation(observation[None]))[0]
        legal = np.flatnonzero(mask)
        return int(legal[int(np.argmax(q_values.numpy()[legal]))])
    return act


def train_for(agent: DQN, env: gym.Env, config: RecipeConfig, seed: int,
              cpu_seconds: float, progress: bool = True) -> int:
    """Play epsilon-greedy games in ``env`` and learn every ``learn_step`` env steps
    until ``cpu_seconds`` of process CPU time are used; returns the env steps taken."""
    memory = ReplayBuffer(config.buffer_size)
    seeds, game = np.random.default_rng(seed), []
    start, steps = time.process_time(), 0
    obs, info = env.reset(seed=int(seeds.integers(TRAIN_SEEDS)))
    with tqdm(total=round(cpu_seconds), unit="cpu-s", disable=not progress,
              desc="AgileRL DQN") as bar:
        while (used := time.process_time() - start) < cpu_seconds:
            mask = info["action_mask"].astype(np.int8)[None]
            action = int(agent.get_action(obs[None], config.epsilon(steps), mask)[0])
            next_obs, reward, terminated, truncated, info = env.step(action)
            game.append((obs, action, reward, next_obs, terminated, info["action_mask"]))
            steps += 1
            if steps % agent.learn_step == 0 and len(memory) >= config.learning_starts:
                agent.learn(memory.sample(agent.batch_size))
            obs = next_obs
            if terminated or truncated:
                memory.add(episode_batch(game))
                game.clear()
                obs, info = env.reset(seed=int(seeds.integers(TRAIN_SEEDS)))
            if int(used) > bar.n:
                bar.update(int(used) - bar.n)
        bar.update(bar.total - bar.n)
    return steps


def train_agent(game: str = "flowers", num_players: int = 2, seed: int = 0,
                cpu_seconds: float = 180.0, progress: bool = True,
                config: RecipeConfig | None = None) -> Policy:
    """Train a :class:`MaskedTargetDQN` against random opponents for ``cpu_seconds`` of this
    process's CPU time (0: untrained) and return its greedy policy ``act(obs, mask)``.

    Seeded by ``seed`` (torch inside ``fork_rng``, the games from ``numpy``); torch runs
    on one thread meanwhile. The caller's torch random state and thread count come back."""
    config = config or RecipeConfig()
    env = learner_env(game, "random", mask="info", num_players=num_players)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            agent = make_learner(env, config)
            if cpu_seconds > 0:
                train_for(agent, env, config, seed, cpu_seconds, progress)
    finally:
        torch.set_num_threads(threads)
    return greedy_policy(agent)


def main(cpu_seconds: float = 180.0) -> None:
    """Train, then print the win shares against random and the heuristic."""
    start, wall = time.process_time(), time.perf_counter()
    act = train_agent(cpu_seconds=cpu_seconds)
    print(f"trained {time.process_time() - start:.0f} CPU-s, "
          f"{time.perf_counter() - wall:.0f} s wall")
    for opponent in ("random", "heuristic"):
        print(f"vs {opponent}: {evaluate_learner(act, opponents=opponent, games=400)}")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 180.0)
