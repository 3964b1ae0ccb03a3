"""SuperSuit on a formosa env: observation and reward wrappers, and vector envs.

SuperSuit's observation wrappers (``normalize_obs_v0``, ``dtype_v0``, ``frame_stack_v1``,
...) work on Box observations: wrap the flat view (:func:`formosa_envs.envs.flat_env`),
whose mask lies in ``infos[agent]["action_mask"]`` and passes through them untouched. On
the Dict env they fail (a Dict space has no ``low``/``high``). Reward wrappers
(``clip_reward_v0``) work on either.

The vector constructors take a ParallelEnv: ``pettingzoo_env_to_vec_env_v1`` makes one
vector slot per seat of ``turn_based_aec_to_parallel(flat_env(...))``, and
``concat_vec_envs_v1`` stacks copies of it into one gymnasium ``VectorEnv`` (slot
``k * seats + s`` is seat ``s`` of copy ``k``; a finished copy resets itself). Every slot
steps on every env step; only the slot whose mask is non-zero decides, the others'
actions are ignored, so a learner must drop their transitions.

**Learning with SuperSuit.** SuperSuit has no learner of its own; its wrappers also take a
gymnasium env, so the recipe that learns (:func:`train_agent`) wraps the learner's
single-agent view (:func:`formosa_envs.envs.learner_env`: the opponents move inside
``step``, the mask in ``info`` and ``action_masks()``) in ``dtype_v0`` and
``normalize_obs_v0`` and trains it with sb3-contrib's ``MaskablePPO``, the pairing
PettingZoo's own tutorials use. Wrappers that replay or delay a move (``sticky_actions_v0``,
``frame_skip_v0``, ``delay_observations_v0``) make no sense in a turn-based game: a move
repeated on a later turn is usually illegal there, and a delayed observation no longer
matches the mask (docs/ecosystem.md lists every wrapper).

Run: ``python -m examples.ecosystem.supersuit_recipe``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import gymnasium as gym
import numpy as np
import supersuit
import torch
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv
from tqdm import tqdm

from formosa_envs.envs import flat_env, learner_env

PPO_SETTINGS = {"n_steps": 256, "batch_size": 256, "n_epochs": 4, "learning_rate": 3e-4,
                "gamma": 0.99, "ent_coef": 0.01,
                "policy_kwargs": {"net_arch": [128, 128]}}
"""MaskablePPO's settings in :func:`train_agent` (4 envs x 256 steps per update)."""


def wrapped_flat_env(game: str = "tea", num_players: int = 3) -> AECEnv:
    """The flat view with observations rescaled from [0, 1] to [-1, 1] (float32) and
    rewards clipped to [-0.5, 0.5]."""
    aec = flat_env(game, num_players=num_players)
    aec = supersuit.dtype_v0(aec, np.float32)
    aec = supersuit.normalize_obs_v0(aec, env_min=-1.0, env_max=1.0)
    return supersuit.clip_reward_v0(aec, lower_bound=-0.5, upper_bound=0.5)


def play_wrapped_game(game: str = "tea", num_players: int = 3,
                      seed: int = 0) -> tuple[list[np.ndarray], dict[str, float]]:
    """One random game of :func:`wrapped_flat_env`: every observation seen, and each
    agent's final (clipped) reward."""
    aec = wrapped_flat_env(game, num_players)
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen, final = [], {}
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, info = aec.last()
        seen.append(observation)
        if termination or truncation:
            final[agent] = float(reward)
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    return seen, final


def make_vector_env(game: str = "tea", num_players: int = 3, copies: int = 2) -> Any:
    """``copies`` games side by side as one gymnasium VectorEnv of ``copies * seats``
    slots (in this process: ``num_cpus=0``)."""
    par_env = turn_based_aec_to_parallel(flat_env(game, num_players=num_players))
    vec_env = supersuit.pettingzoo_env_to_vec_env_v1(par_env)
    return supersuit.concat_vec_envs_v1(vec_env, copies, num_cpus=0, base_class="gymnasium")


def run_vector_env(game: str = "tea", num_players: int = 3, copies: int = 2,
                   steps: int = 400, seed: int = 0) -> dict[str, Any]:
    """Step the vector env with random legal actions (each slot's mask from its info);
    returns the observation shape, the slots that decided at each step and the rewards of
    the steps that ended a game."""
    vec_env = make_vector_env(game, num_players, copies)
    observations, infos = vec_env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    deciding, endings = [], []
    for _ in range(steps):
        masks = [info["action_mask"] for info in infos]
        deciding.append([slot for slot, mask in enumerate(masks) if mask.any()])
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        observations, rewards, terminations, truncations, infos = vec_env.step(actions)
        if (terminations | truncations).any():
            endings.append(rewards.copy())
    vec_env.close()
    return {"shape": observations.shape, "deciding": deciding, "endings": endings}


def wrapped_learner_env(game: str = "flowers", num_players: int = 2,
                        opponents: str = "random") -> gym.Env:
    """The learner's view against ``opponents`` with observations rescaled to [-1, 1]."""
    env = supersuit.dtype_v0(learner_env(game, opponents, num_players=num_players), np.float32)
    return supersuit.normalize_obs_v0(env, env_min=-1.0, env_max=1.0)


def rescale(observation: np.ndarray) -> np.ndarray:
    """What ``normalize_obs_v0`` does to a [0, 1] observation (for playing outside the env)."""
    return (2.0 * np.asarray(observation, dtype=np.float32) - 1.0).astype(np.float32)


class CpuBudget(BaseCallback):
    """Stops ``learn()`` once this process has used ``seconds`` of CPU time (a tqdm bar
    over CPU seconds when ``progress``)."""

    def __init__(self, seconds: float, progress: bool = True) -> None:
        super().__init__()
        self.seconds, self.start = seconds, time.process_time()
        self.bar = tqdm(total=round(seconds), unit="cpu-s", desc="supersuit+sb3",
                        disable=not progress)

    def _on_step(self) -> bool:
        used = time.process_time() - self.start
        self.bar.update(min(round(used), self.bar.total) - self.bar.n)
        return used < self.seconds

    def _on_training_end(self) -> None:
        self.bar.close()


@contextmanager
def own_random_state() -> Iterator[None]:
    """Run with torch's, numpy's and Python's global generators put back afterwards (SB3's
    ``seed=`` seeds all three)."""
    numpy_state, python_state = np.random.get_state(), random.getstate()
    with torch.random.fork_rng():
        try:
            yield
        finally:
            np.random.set_state(numpy_state)
            random.setstate(python_state)


def train_agent(game: str = "flowers", num_players: int = 2, seed: int = 0,
                cpu_seconds: float = 180.0,
                progress: bool = True) -> Callable[[np.ndarray, np.ndarray], int]:
    """MaskablePPO on :func:`wrapped_learner_env` against random players for ``cpu_seconds``
    of CPU time (0: the untrained network); returns the greedy policy
    ``act(observation, mask)`` on raw observations. Env ``i`` starts from seed ``seed + i``."""
    torch.set_num_threads(1)
    with own_random_state():
        vec = DummyVecEnv([lambda: wrapped_learner_env(game, num_players) for _ in range(4)])
        model = MaskablePPO("MlpPolicy", vec, seed=seed, verbose=0, device="cpu",
                            **PPO_SETTINGS)
        if cpu_seconds > 0:
            model.learn(total_timesteps=10**9, callback=CpuBudget(cpu_seconds, progress))
    policy = model.policy

    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            action, _ = policy.predict(rescale(observation), action_masks=mask,
                                       deterministic=True)
        return int(action)
    return act


if __name__ == "__main__":
    observations_seen, final_rewards = play_wrapped_game()
    print(f"{len(observations_seen)} observations in [-1, 1]; clipped rewards {final_rewards}")
    result = run_vector_env()
    print(f"vector env: observations {result['shape']}, {len(result['endings'])} games ended")
    from formosa_envs.envs import evaluate_learner
    trained = train_agent(cpu_seconds=180.0)
    print("after 180 CPU-seconds vs random:", evaluate_learner(trained, games=400))
