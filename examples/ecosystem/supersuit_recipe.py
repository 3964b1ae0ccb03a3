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

Run: ``python -m examples.ecosystem.supersuit_recipe``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import supersuit
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from formosa_envs.envs import flat_env


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


if __name__ == "__main__":
    observations_seen, final_rewards = play_wrapped_game()
    print(f"{len(observations_seen)} observations in [-1, 1]; clipped rewards {final_rewards}")
    result = run_vector_env()
    print(f"vector env: observations {result['shape']}, {len(result['endings'])} games ended")
