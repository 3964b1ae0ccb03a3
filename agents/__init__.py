"""Baseline agents for formosa_envs (engine API and numpy only: no pettingzoo, no torch).

Build any agent from a short spec with :func:`make_agent`:

===================  ====================================================
``random``           masked uniform random
``heuristic``        the game's greedy heuristic (``agents/heuristics/``)
``mcts[:N[:R]]``     information-set MCTS, N simulations per move (default 100),
                     R = ``random`` (default) or ``heuristic`` rollouts
``policy:PATH``      a trained policy exported as ``.npz`` (numpy forward pass)
``rllib:PATH[@M]``   module ``M`` of an RLlib checkpoint (default ``learner`` or
                     ``shared``), played as a numpy policy; needs ``[rllib]``
===================  ====================================================
"""

from __future__ import annotations

import importlib
from typing import Any

from .base import Agent, StateAgent
from .random_agent import RandomAgent

AGENT_KINDS = ("random", "heuristic", "mcts", "policy", "rllib")


class AgentSpecError(ValueError):
    """An agent spec that cannot be built."""


def make_agent(spec: str, game: str = "flowers", seed: int | None = None) -> Agent:
    """Build an agent from ``spec`` (see the module docstring) for ``game``."""
    kind, _, arg = spec.partition(":")
    if kind == "random":
        return RandomAgent(seed=seed)
    if kind == "heuristic":
        heuristics = importlib.import_module("agents.heuristics")
        return heuristics.HeuristicAgent(game, seed=seed)
    if kind == "mcts":
        from .mcts import ROLLOUTS, MCTSAgent
        budget_text, _, rollout = arg.partition(":")
        if rollout and rollout not in ROLLOUTS:
            raise AgentSpecError(f"agent spec {spec!r}: rollout must be one of {ROLLOUTS}")
        budget = _int_arg(spec, budget_text, default=100)
        return MCTSAgent(simulations=budget, seed=seed, rollout=rollout or "random")
    if kind == "policy":
        if not arg:
            raise AgentSpecError(f"agent spec {spec!r} needs a path: policy:PATH.npz")
        if arg.endswith(".zip"):
            raise AgentSpecError(f"{arg} is a training checkpoint; agents play the exported "
                                 "actor: use the .npz beside it, or export one with "
                                 "python -m training.export MODEL.zip OUT.npz")
        from .policy import PolicyAgent
        return PolicyAgent.load(arg, seed=seed)
    if kind == "rllib":
        return _rllib_agent(spec, arg, seed)
    raise AgentSpecError(f"unknown agent {spec!r}; kinds: {', '.join(AGENT_KINDS)} "
                         "(e.g. random, heuristic, mcts:200, policy:model.npz)")


def _rllib_agent(spec: str, arg: str, seed: int | None) -> Agent:
    """``rllib:PATH[@MODULE]``: an RLlib checkpoint's module as a numpy policy."""
    path, module = split_module(arg)
    if not path:
        raise AgentSpecError(f"agent spec {spec!r} needs a checkpoint: rllib:PATH[@MODULE]")
    try:
        from formosa_envs.envs.rllib import load_rllib_agent
    except ImportError as exc:
        raise AgentSpecError(f"agent spec {spec!r} needs the [rllib] extra ({exc.name} is "
                             "missing): pip install -e '.[rllib]'") from None
    try:
        return load_rllib_agent(path, module or None, seed=seed)
    except ValueError as exc:
        raise AgentSpecError(f"agent spec {spec!r}: {exc}") from None


def split_module(arg: str) -> tuple[str, str]:
    """``PATH@MODULE`` -> ``(PATH, MODULE)``; an ``@`` inside the path is kept there."""
    path, sep, module = arg.rpartition("@")
    if not sep or not module or "/" in module:
        return arg, ""
    return path, module


def _int_arg(spec: str, arg: str, default: int) -> int:
    if not arg:
        return default
    if not arg.isdigit() or int(arg) < 1:
        raise AgentSpecError(f"agent spec {spec!r}: expected a positive integer after ':'")
    return int(arg)


def agent_label(spec: str) -> str:
    """A short display name for a spec (the file name for policies)."""
    kind, _, arg = spec.partition(":")
    if kind == "policy" and arg:
        from pathlib import Path
        return f"policy:{Path(arg).stem}"
    if kind == "rllib" and arg:
        from pathlib import Path
        path, module = split_module(arg)
        return f"rllib:{Path(path).name}" + (f"@{module}" if module else "")
    return spec


__all__ = ["AGENT_KINDS", "Agent", "AgentSpecError", "RandomAgent", "StateAgent",
           "agent_label", "make_agent"]


def __getattr__(name: str) -> Any:  # lazy access to heavier agents
    if name == "MCTSAgent":
        return importlib.import_module("agents.mcts").MCTSAgent
    if name == "HeuristicAgent":
        return importlib.import_module("agents.heuristics").HeuristicAgent
    if name == "PolicyAgent":
        return importlib.import_module("agents.policy").PolicyAgent
    raise AttributeError(name)
