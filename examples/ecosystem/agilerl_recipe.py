"""AgileRL: masked action selection on the flat view of a formosa game.

AgileRL's single-agent algorithms take a Box observation and an ``action_mask``
argument. Use the flat view (:func:`formosa_envs.envs.flat_env`): the network sees only
the observation vector, and the mask comes from ``infos[agent]["action_mask"]`` (the
Dict env's observation would feed the mask into the network as input features). Here
one DQN plays every seat (self-play) for a game, choosing among legal actions only.

AgileRL draws its exploration from torch's global generator: the recipe seeds it inside
``torch.random.fork_rng()``, which puts the caller's random state back afterwards.

Run: ``python -m examples.ecosystem.agilerl_recipe``.
"""

from __future__ import annotations

import numpy as np
import torch
from agilerl.algorithms import DQN

from formosa_envs.envs import flat_env


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


if __name__ == "__main__":
    played = play_with_dqn()
    print(f"{len(played)} decisions, every one legal: "
          f"{all(mask[action] for _, action, mask in played)}")
