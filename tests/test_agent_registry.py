"""The agent-spec registry (``formosa_envs.agents.specs``): kinds -> builders, extended from
outside.

Agents never import the RL side; the RLlib bridge registers the
``rllib`` kind when imported, and the kind is declared by name so that a spec loads
the bridge on first use (or names the missing extra).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from formosa_envs.agents import (
    AgentSpecError,
    RandomAgent,
    agent_kinds,
    agent_label,
    declare_agent_kind,
    make_agent,
    register_agent_kind,
    specs,
)

from formosa_envs.core.errors import FormosaError


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict:
    """A private copy of the registry, restored after the test."""
    copy = dict(specs._KINDS)
    monkeypatch.setattr(specs, "_KINDS", copy)
    return copy


def test_builtin_and_declared_kinds() -> None:
    assert agent_kinds()[:5] == ("random", "heuristic", "mcts", "policy", "rllib")
    assert issubclass(AgentSpecError, FormosaError) and issubclass(AgentSpecError, ValueError)
    with pytest.raises(AgentSpecError, match="unknown agent 'smart'; kinds: random, heuristic"):
        make_agent("smart")
    with pytest.raises(AgentSpecError, match="must be a string"):
        make_agent(3)  # type: ignore[arg-type]
    with pytest.raises(AgentSpecError, match="'random' takes no argument"):
        make_agent("random:5")
    assert agent_label("policy:runs/best.npz") == "policy:best"
    assert agent_label("rllib:runs/x/latest") == "rllib:latest"
    assert agent_label("mcts:50") == "mcts:50"


def test_another_package_registers_a_kind(registry: dict) -> None:
    seen = []

    def build(spec: str, arg: str, game: str, seed: int | None) -> RandomAgent:
        seen.append((spec, arg, game, seed))
        return RandomAgent(seed=seed)

    register_agent_kind("lucky", build, "lucky[:NAME]", label=lambda arg: arg.upper())
    assert isinstance(make_agent("lucky:x", "tea", seed=4), RandomAgent)
    assert seen == [("lucky:x", "x", "tea", 4)]
    assert "lucky" in agent_kinds() and agent_label("lucky:x") == "lucky:X"
    with pytest.raises(AgentSpecError, match="already registered"):
        register_agent_kind("random", build, "random")
    with pytest.raises(AgentSpecError, match="must be a word"):
        register_agent_kind("a:b", build, "a:b")


def test_a_declared_kind_names_its_missing_extra(registry: dict) -> None:
    declare_agent_kind("remote", "remote:URL", module="no_such_module_13", extra="remote")
    with pytest.raises(AgentSpecError, match=r"needs the \[remote\] extra "
                                             r"\(no_such_module_13 is missing\)"):
        make_agent("remote:x")
    declare_agent_kind("hollow", "hollow", module="json", extra="none")
    with pytest.raises(AgentSpecError, match="json did not register the 'hollow' agent kind"):
        make_agent("hollow")
    with pytest.raises(AgentSpecError, match="already registered"):
        declare_agent_kind("rllib", "rllib:PATH", module="json", extra="rllib")


@pytest.mark.rllib
def test_the_rllib_spec_loads_the_bridge(tmp_path: Path) -> None:
    """With the [rllib] extra: the spec imports the bridge, whose builder names the problem."""
    with pytest.raises(AgentSpecError, match="needs a checkpoint"):
        make_agent("rllib:")
    with pytest.raises(AgentSpecError, match="not an RLlib algorithm checkpoint"):
        make_agent(f"rllib:{tmp_path}")
    with pytest.raises(FileNotFoundError, match="not found"):
        make_agent(f"rllib:{tmp_path / 'missing'}")
    assert specs._KINDS["rllib"].builder.__module__ == "formosa_envs.envs.rllib"
