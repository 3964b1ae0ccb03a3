"""Agent specs: a small registry from a spec's kind to the function that builds it.

A spec is ``KIND`` or ``KIND:ARG`` (``mcts:200``, ``policy:model.npz``). This module
registers the kinds that need nothing beyond numpy and the engines (``random``,
``heuristic``, ``mcts``, ``policy``, ``az``). Other packages add theirs with
:func:`register_agent_kind`: the RLlib bridge (``formosa_envs.envs.rllib``) adds
``rllib`` when it is imported. So that ``make_agent("rllib:...")`` works without the
caller importing the bridge, a kind may be *declared* here by name only
(:func:`declare_agent_kind`: its usage, display label and the module whose import
registers it); the module is imported by name on first use, and an ``ImportError``
there becomes an :class:`AgentSpecError` naming the missing pip extra. The agents
package itself never imports the RL side (DESIGN.md section 1).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from formosa_envs.core.errors import FormosaError

from .base import Agent
from .random_agent import RandomAgent

Builder = Callable[[str, str, str, "int | None"], Agent]
"""``builder(spec, arg, game, seed)``: the agent of ``spec`` (``arg``: the text after ':')."""


class AgentSpecError(FormosaError):
    """An agent spec that cannot be built (a ``ValueError``)."""


@dataclass(frozen=True)
class AgentKind:
    """One registry entry: how to build the agents of a spec kind."""

    name: str
    usage: str
    builder: Builder | None = None
    module: str = ""
    extra: str = ""
    label: Callable[[str], str] | None = None


_KINDS: dict[str, AgentKind] = {}


def register_agent_kind(name: str, builder: Builder, usage: str,
                        label: Callable[[str], str] | None = None) -> None:
    """Register the builder of spec kind ``name`` (completing a declared kind).

    ``usage`` is the spec's syntax for messages (``"mcts[:N[:R]]"``), ``label(arg)``
    an optional short display name. A kind registered by another module is refused.
    """
    _check_name(name)
    old = _KINDS.get(name)
    if old is not None and old.builder is not None and (
            getattr(old.builder, "__module__", None) != getattr(builder, "__module__", None)):
        raise AgentSpecError(f"agent kind {name!r} is already registered "
                             f"(by {old.builder.__module__})")
    if old is None:
        _KINDS[name] = AgentKind(name, usage, builder, label=label)
    else:
        _KINDS[name] = replace(old, usage=usage, builder=builder, label=label or old.label)


def declare_agent_kind(name: str, usage: str, module: str, extra: str,
                       label: Callable[[str], str] | None = None) -> None:
    """Declare kind ``name``, whose builder ``module`` registers when imported.

    ``extra`` is the pip extra that ``module`` needs (named when it cannot be imported).
    """
    _check_name(name)
    if name in _KINDS:
        raise AgentSpecError(f"agent kind {name!r} is already registered")
    _KINDS[name] = AgentKind(name, usage, module=module, extra=extra, label=label)


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not name.isidentifier():
        raise AgentSpecError(f"agent kind must be a word (letters, digits, _), got {name!r}")


def agent_kinds() -> tuple[str, ...]:
    """The spec kinds known now, declared ones included."""
    return tuple(_KINDS)


def agent_usage(kind: str) -> str:
    """The spec syntax of agent kind ``kind`` (``mcts[:N[:R]]``), for help texts."""
    entry = _KINDS.get(kind)
    if entry is None:
        raise AgentSpecError(f"unknown agent kind {kind!r}; kinds: {', '.join(_KINDS)}")
    return entry.usage


def make_agent(spec: str, game: str = "flowers", seed: int | None = None) -> Agent:
    """Build the agent of ``spec`` for ``game`` (``seed``: its own generator's seed)."""
    if not isinstance(spec, str):
        raise AgentSpecError(f"an agent spec must be a string such as 'random', got {spec!r}")
    kind, _, arg = spec.partition(":")
    entry = _KINDS.get(kind)
    if entry is None:
        raise AgentSpecError(f"unknown agent {spec!r}; kinds: {', '.join(_KINDS)} "
                             "(e.g. random, heuristic, mcts:200, policy:model.npz)")
    builder = entry.builder or _load_declared(spec, entry)
    return builder(spec, arg, game, seed)


def _load_declared(spec: str, entry: AgentKind) -> Builder:
    """Import the module of a declared kind, which registers its builder."""
    try:
        importlib.import_module(entry.module)
    except ImportError as exc:
        raise AgentSpecError(f"agent spec {spec!r} needs the [{entry.extra}] extra "
                             f"({exc.name} is missing): pip install -e '.[{entry.extra}]'"
                             ) from None
    builder = _KINDS[entry.name].builder
    if builder is None:
        raise AgentSpecError(f"agent spec {spec!r}: {entry.module} did not register "
                             f"the {entry.name!r} agent kind")
    return builder


def agent_label(spec: str) -> str:
    """A short display name for a spec (e.g. the file name for policies)."""
    kind, sep, arg = spec.partition(":")
    entry = _KINDS.get(kind)
    if entry is None or entry.label is None or not arg:
        return spec
    return f"{kind}:{entry.label(arg)}"


def split_module(arg: str) -> tuple[str, str]:
    """``PATH@MODULE`` -> ``(PATH, MODULE)``; an ``@`` inside the path is kept there."""
    path, sep, module = arg.rpartition("@")
    if not sep or not module or "/" in module:
        return arg, ""
    return path, module


MAX_BUDGET = 1_000_000
"""The largest search budget a spec may name (simulations per decision)."""


def int_arg(spec: str, arg: str, default: int) -> int:
    """The positive integer ``arg`` of ``spec`` (``default`` when empty), at most
    :data:`MAX_BUDGET` (a larger budget would think for hours per move)."""
    if not arg:
        return default
    if not (arg.isascii() and arg.isdigit()) or int(arg) < 1:
        raise AgentSpecError(f"agent spec {spec!r}: expected a positive integer after ':'")
    if len(arg) > 7 or int(arg) > MAX_BUDGET:
        raise AgentSpecError(f"agent spec {spec!r}: at most {MAX_BUDGET:,} simulations "
                             "per decision")
    return int(arg)


def _no_arg(spec: str, arg: str) -> None:
    if arg:
        kind = spec.partition(":")[0]
        raise AgentSpecError(f"agent spec {spec!r}: {kind!r} takes no argument (write {kind})")


def _random(spec: str, arg: str, game: str, seed: int | None) -> Agent:
    _no_arg(spec, arg)
    return RandomAgent(seed=seed)


def _heuristic(spec: str, arg: str, game: str, seed: int | None) -> Agent:
    _no_arg(spec, arg)
    heuristics = importlib.import_module("formosa_envs.agents.heuristics")
    return heuristics.HeuristicAgent(game, seed=seed)


def _mcts(spec: str, arg: str, game: str, seed: int | None) -> Agent:
    from .mcts import ROLLOUTS, MCTSAgent
    budget_text, _, rollout = arg.partition(":")
    if rollout and rollout not in ROLLOUTS:
        raise AgentSpecError(f"agent spec {spec!r}: rollout must be one of {ROLLOUTS}")
    budget = int_arg(spec, budget_text, default=100)
    return MCTSAgent(simulations=budget, seed=seed, rollout=rollout or "random")


def _flat(spec: str, arg: str, game: str, seed: int | None) -> Agent:
    from .flat_mc import FlatMonteCarloAgent
    value = "lead"
    if arg == "win" or arg.endswith(":win"):
        arg, value = arg.removesuffix("win").removesuffix(":"), "win"
    budget, _, margin_text = arg.partition(":")
    margin = None
    if margin_text:
        try:
            margin = float(margin_text)
        except ValueError:
            margin = -1.0
        if not 0 <= margin < float("inf") or len(margin_text) > 12:
            raise AgentSpecError(f"agent spec {spec!r}: the margin must be a number >= 0 "
                                 f"(a value lead), got {margin_text!r}")
    return FlatMonteCarloAgent(playouts=int_arg(spec, budget, default=16), seed=seed,
                               margin=margin, value=value)


def _policy(spec: str, arg: str, game: str, seed: int | None) -> Agent:
    if not arg:
        raise AgentSpecError(f"agent spec {spec!r} needs a path: policy:PATH.npz")
    if arg.endswith(".zip"):
        raise AgentSpecError(f"{arg} is a training checkpoint; agents play the exported "
                             "actor: use the .npz beside it, or export one with "
                             "python -m formosa_envs.training.ppo.export MODEL.zip OUT.npz")
    from .policy import PolicyAgent
    agent = PolicyAgent.load(arg, seed=seed)
    if agent.kinds:
        raise AgentSpecError(f"{arg} was trained only at {', '.join(agent.kinds)} decisions; "
                             f"play it as residual:{arg} (the heuristic everywhere else)")
    return agent


def _az(spec: str, arg: str, game: str, seed: int | None) -> Agent:
    from .az import build_az
    return build_az(spec, arg, seed)


def _az_label(arg: str) -> str:
    from .az import spec_label
    return spec_label(arg)


def _rllib_label(arg: str) -> str:
    path, module = split_module(arg)
    return Path(path).name + (f"@{module}" if module else "")


register_agent_kind("random", _random, "random")
register_agent_kind("heuristic", _heuristic, "heuristic")
register_agent_kind("mcts", _mcts, "mcts[:N[:R]]")
register_agent_kind("policy", _policy, "policy:PATH.npz", label=lambda arg: Path(arg).stem)
declare_agent_kind("rllib", "rllib:PATH[@MODULE]", module="formosa_envs.envs.rllib",
                   extra="rllib", label=_rllib_label)
register_agent_kind("az", _az, "az:PATH.npz[:N]", label=_az_label)
register_agent_kind("flat", _flat, "flat[:M[:MARGIN]][:win]")


def _pretrained(spec: str, arg: str, game: str, seed: int | None) -> Agent:
    from .pretrained import build_pretrained
    return build_pretrained(spec, arg, game, seed)


register_agent_kind("pretrained", _pretrained, "pretrained[:GAME][:net|:az[:N]]")


def _afterstate(spec: str, arg: str, game: str, seed: int | None) -> Agent:
    from .afterstate import build_afterstate
    return build_afterstate(spec, arg, game, seed)


def _residual(spec: str, arg: str, game: str, seed: int | None) -> Agent:
    from .residual import build_residual
    return build_residual(spec, arg, game, seed)


register_agent_kind("residual", _residual, "residual:PATH.npz[:MARGIN]",
                    label=lambda arg: "residual-" + Path(arg).name.replace(".npz", ""))
register_agent_kind("afterstate", _afterstate, "afterstate:PATH.npz[:K]",
                    label=lambda arg: Path(arg.split(":")[0]).stem)
