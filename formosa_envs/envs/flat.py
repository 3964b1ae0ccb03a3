"""An opt-in flat view of a formosa AEC env, for clients that take Box observations only.

The formosa envs observe ``{"observation": float32 Box, "action_mask": int8 Box}``.
Libraries that want a plain Box (SuperSuit's observation wrappers, AgileRL, many
hand-written loops) wrap the env in :class:`FlatObservation` (or build it with
:func:`flat_env`):

* ``observation_space(agent)`` is the Box of the observation alone (the same object as
  the Dict space's ``"observation"`` entry);
* ``observe(agent)`` returns the float32 vector, equal to the Dict env's
  ``observe(agent)["observation"]``;
* the action mask moves to ``infos[agent]["action_mask"]``, refreshed for every agent
  after ``reset()`` and every ``step()``: the int8 mask of legal actions for the agent
  deciding now, all zeros for every other agent (the Dict observation's mask, exactly).

Everything else (``agents``, ``rewards``, ``last()``, ``state()``, the action spaces) is
the wrapped env's, passed through.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import BaseWrapper

from formosa_envs.core.args import ArgumentError

from .aec import FormosaAECEnv

MASK_KEY = "action_mask"


class FlatObservation(BaseWrapper):
    """Box observations, with the action mask in ``infos[agent]["action_mask"]``.

    Wraps a formosa AEC env (``formosa_envs.env(...)`` or ``raw_env(...)``, in any
    PettingZoo wrappers); see the module docstring for what changes.
    """

    def __init__(self, env: AECEnv) -> None:
        _check_wrappable(env)
        super().__init__(env)
        self._masks: dict[str, np.ndarray] = {}
        self._obs_cache: tuple[str, np.ndarray] | None = None

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """The wrapped env's infos, each with this agent's ``"action_mask"`` added."""
        zeros = self._zero_mask()
        return {agent: {**info, MASK_KEY: self._masks.get(agent, zeros)}
                for agent, info in self.env.infos.items()}

    def observation_space(self, agent: str) -> spaces.Box:
        """The Box of the observation vector (the Dict space's ``"observation"``)."""
        return self.env.observation_space(agent)["observation"]

    def observe(self, agent: str) -> np.ndarray:
        """The agent's float32 observation vector (its mask is in ``infos``)."""
        cache = self._obs_cache
        if cache is not None and cache[0] == agent:
            return cache[1].copy()
        return self.env.observe(agent)["observation"]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Reset the wrapped env and compute every agent's mask."""
        self.env.reset(seed=seed, options=options)
        self._refresh_masks()

    def step(self, action: Any) -> None:
        """Step the wrapped env and recompute every agent's mask."""
        self.env.step(action)
        self._refresh_masks()

    def _zero_mask(self) -> np.ndarray:
        return np.zeros(self.env.action_space(self.env.possible_agents[0]).n, dtype=np.int8)

    def _refresh_masks(self) -> None:
        """One observation of the agent to act (the only one whose mask can be non-zero);
        zeros for the others. Its observation is kept for the next ``observe``."""
        self._obs_cache = None
        agents = list(self.env.agents)
        masks = {agent: self._zero_mask() for agent in agents}
        selected = getattr(self.env, "agent_selection", None)
        if selected in masks:
            full = self.env.observe(selected)
            masks[selected] = np.asarray(full[MASK_KEY], dtype=np.int8)
            self._obs_cache = (selected, full["observation"])
        self._masks = masks


def flat_env(game: str = "flowers", **kwargs: Any) -> FlatObservation:
    """``formosa_envs.env(game, **kwargs)`` in :class:`FlatObservation`: Box observations,
    the action mask in ``infos[agent]["action_mask"]``."""
    from . import env
    return FlatObservation(env(game, **kwargs))


def _check_wrappable(env: Any) -> None:
    """Raise ``ArgumentError`` unless ``env`` is a formosa AEC env with Dict observations."""
    if isinstance(env, FlatObservation):
        raise ArgumentError("FlatObservation: this env is already a flat view")
    if not isinstance(env, AECEnv):
        kind = "a ParallelEnv" if isinstance(env, ParallelEnv) else type(env).__name__
        raise ArgumentError("FlatObservation wraps a PettingZoo AEC env "
                            f"(formosa_envs.env(...) or raw_env(...)); got {kind}")
    if not isinstance(getattr(env, "unwrapped", None), FormosaAECEnv):
        raise ArgumentError("FlatObservation wraps a formosa env (formosa_envs.env(...) or "
                            f"raw_env(...)); got {env}, whose unwrapped env is "
                            f"{type(env.unwrapped).__name__}")
    space = env.observation_space(env.possible_agents[0])
    if not (isinstance(space, spaces.Dict) and {"observation", MASK_KEY} <= set(space.spaces)):
        raise ArgumentError("FlatObservation needs the Dict observation space "
                            "{'observation', 'action_mask'}; the wrapped env's is "
                            f"{space} (is another observation wrapper in between?)")
