"""PettingZoo's parallel API on a formosa env: ``turn_based_aec_to_parallel``.

The formosa games are turn-based: one seat decides at a time (possibly several times in
a row). ``turn_based_aec_to_parallel`` turns such an AEC env into a ParallelEnv: every
step takes an action for each live agent and applies only the deciding agent's (the
one whose mask is non-zero; ``infos[agent]["active_agent"]`` names it after a step).
Every seat's final reward comes in the last step's rewards.

``aec_to_parallel`` does not apply: it is meant for AEC envs that update once per cycle
of all agents, and refuses envs whose ``metadata["is_parallelizable"]`` is not True (the
formosa envs declare False).

Run: ``python -m examples.ecosystem.parallel_recipe``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from formosa_envs.envs import env, flat_env


def make_parallel_env(game: str = "tea", num_players: int = 3,
                      flat: bool = False) -> ParallelEnv:
    """The game as a PettingZoo ParallelEnv (observations of the Dict env, or the flat
    view's vectors with the masks in ``infos`` when ``flat=True``)."""
    aec = flat_env(game, num_players=num_players) if flat else env(game,
                                                                   num_players=num_players)
    return turn_based_aec_to_parallel(aec)


def agent_mask(observations: dict[str, Any], infos: dict[str, Any], agent: str) -> np.ndarray:
    """The agent's action mask, from its Dict observation or, in the flat view, its info."""
    observation = observations.get(agent)
    if isinstance(observation, dict):
        return observation["action_mask"]
    return infos[agent]["action_mask"]


def random_actions(observations: dict[str, Any], infos: dict[str, Any], agents: list[str],
                   rng: np.random.Generator) -> dict[str, int]:
    """A legal random action for the deciding agent, 0 (ignored) for the others."""
    actions = {}
    for agent in agents:
        legal = np.flatnonzero(agent_mask(observations, infos, agent))
        actions[agent] = int(rng.choice(legal)) if legal.size else 0
    return actions


def play_parallel_game(game: str = "tea", num_players: int = 3, seed: int = 0,
                       flat: bool = False) -> tuple[int, dict[str, float]]:
    """Play one random game through the parallel API; returns the number of steps and
    every agent's reward summed over the game."""
    par_env = make_parallel_env(game, num_players, flat)
    observations, infos = par_env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(par_env.possible_agents, 0.0)
    steps = 0
    while par_env.agents:
        actions = random_actions(observations, infos, par_env.agents, rng)
        observations, rewards, _, _, infos = par_env.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
        steps += 1
    return steps, totals


if __name__ == "__main__":
    count, returns = play_parallel_game()
    print(f"{count} parallel steps; rewards {returns}")
