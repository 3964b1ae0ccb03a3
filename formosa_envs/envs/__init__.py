"""The RL-library side of formosa_envs: the generic PettingZoo AEC adapter, its
registration, and the single-agent gymnasium view used for self-play training.

This package is the only place in formosa_envs that imports pettingzoo or gymnasium.
"""

from __future__ import annotations

from typing import Any

from formosa_envs.games import GAMES

from .aec import REWARD_MODES, FormosaAECEnv
from .final_reward import FinalRewardHook, credit_rewards
from .flat import FlatObservation, flat_env
from .learner import LearnerScore, SpecOpponents, evaluate_learner, learner_env
from .single_agent import SingleAgentEnv
from .wrappers import standard_wrappers


def raw_env(game: str = "flowers", **kwargs: Any) -> FormosaAECEnv:
    """The unwrapped AEC env of ``game``; illegal actions raise ``IllegalActionError``."""
    return FormosaAECEnv(game, **kwargs)


def env(game: str = "flowers", **kwargs: Any) -> Any:
    """The AEC env of ``game`` in PettingZoo's standard wrappers (as PettingZoo's ``env()``).

    The wrappers end the game with -1 for an agent that takes an illegal action
    (TerminateIllegalWrapper), assert actions are inside the space and enforce
    call order. They are PettingZoo's own classes with direct reads of the base env's
    bookkeeping (:mod:`formosa_envs.envs.wrappers`): the same behaviour, a faster loop.
    """
    return standard_wrappers(raw_env(game, **kwargs), illegal_reward=-1)


def _factory(game: str) -> Any:
    def make(**kwargs: Any) -> Any:
        """The wrapped env of this game."""
        return env(game, **kwargs)
    make.__name__ = f"{game}_env"
    make.__doc__ = f"PettingZoo registry entry point of {GAMES[game].env_id}."
    return make


def register_all() -> bool:
    """Register every game's env id in PettingZoo's AEC registry, where there is one.

    The registry (``pettingzoo.register`` / ``pettingzoo.make``) appeared in PettingZoo
    1.27; on 1.25 and 1.26 there is nothing to register in, the envs come from
    :func:`env` and :func:`raw_env` alone, and this returns False. Registering twice
    is harmless (ids already there are kept).
    """
    import pettingzoo
    registry = getattr(pettingzoo, "aec_registry", None)
    register = getattr(pettingzoo, "register", None)
    if registry is None or register is None:
        return False
    for name, info in GAMES.items():
        if info.env_id not in registry:
            register("aec", info.env_id, entry_point=_factory(name))
    return True


__all__ = ["REWARD_MODES", "FinalRewardHook", "FlatObservation", "FormosaAECEnv", "LearnerScore",
           "SingleAgentEnv", "SpecOpponents", "credit_rewards", "env", "evaluate_learner",
           "flat_env", "learner_env", "raw_env", "register_all"]
