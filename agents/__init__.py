"""Baseline agents for formosa_envs (engine API and numpy only: no pettingzoo, no torch),
installed as ``formosa_envs.agents`` (the repository keeps this folder at its top).

Build any agent from a short spec with :func:`make_agent`:

===================  ====================================================
``random``           masked uniform random
``heuristic``        the game's greedy heuristic (``agents/heuristics/``)
``mcts[:N[:R]]``     information-set MCTS, N simulations per move (default 100),
                     R = ``random`` (default) or ``heuristic`` rollouts
``policy:PATH``      a trained policy exported as ``.npz`` (numpy forward pass)
``rllib:PATH[@M]``   module ``M`` of an RLlib checkpoint (default ``learner`` or
                     ``shared``), played as a numpy policy; needs ``[rllib]``
``az:PATH[:N]``      PUCT search (AlphaZero-style IS-MCTS), N simulations per move
                     (default 100), guided by an exported network's prior and value
``pretrained[:G]``   the network shipped for the game (``agents/pretrained/``);
                     ``pretrained[:G]:az[:N]`` plays it with ``az`` search
===================  ====================================================

The kinds live in a small registry (:mod:`formosa_envs.agents.specs`) that other packages extend
with :func:`register_agent_kind`; ``rllib`` is registered by the RLlib bridge
(``formosa_envs.envs.rllib``), imported by name the first time a spec needs it.
"""

from __future__ import annotations

if __name__ == "agents":  # the old top-level name, from a checkout: see formosa_envs._legacy
    import formosa_envs._legacy as _legacy

    _legacy.alias_in_place(__name__)

import importlib
from typing import Any

from .base import Agent, StateAgent
from .random_agent import RandomAgent
from .specs import (
    AgentKind,
    AgentSpecError,
    agent_kinds,
    agent_label,
    agent_usage,
    declare_agent_kind,
    make_agent,
    register_agent_kind,
    split_module,
)

__all__ = ["AGENT_KINDS", "Agent", "AgentKind", "AgentSpecError", "RandomAgent", "StateAgent",
           "agent_kinds", "agent_label", "agent_usage", "declare_agent_kind", "make_agent",
           "register_agent_kind", "split_module"]

_LAZY = {"MCTSAgent": f"{__package__}.mcts", "HeuristicAgent": f"{__package__}.heuristics",
         "PolicyAgent": f"{__package__}.policy", "AZAgent": f"{__package__}.az",
         "Network": f"{__package__}.network"}


def __getattr__(name: str) -> Any:  # lazy access to heavier agents
    if name == "AGENT_KINDS":
        return agent_kinds()
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(name)
