"""The numpy PolicyAgent: masked argmax/sampling, loading and clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from formosa_envs.agents import AgentSpecError, make_agent
from formosa_envs.agents.policy import PolicyAgent


def write_policy(path: Path, n_obs: int = 4, n_actions: int = 5, favourite: int = 2) -> Path:
    """A one-hidden-layer policy whose logits strongly prefer ``favourite``."""
    w0 = np.eye(3, n_obs, dtype=np.float32)
    w_out = np.zeros((n_actions, 3), np.float32)
    b_out = np.zeros(n_actions, np.float32)
    b_out[favourite] = 10.0
    np.savez(path, activation=np.array("relu"), w0=w0, b0=np.zeros(3, np.float32),
             w_out=w_out, b_out=b_out)
    return path


def test_argmax_respects_the_mask(tmp_path: Path) -> None:
    agent = PolicyAgent.load(write_policy(tmp_path / "p.npz"))
    obs = np.ones(4, np.float32)
    assert agent.act({"observation": obs, "action_mask": np.ones(5, np.int8)}) == 2
    mask = np.array([0, 1, 0, 1, 0], np.int8)
    assert agent.act({"observation": obs, "action_mask": mask}) in (1, 3)


def test_sampling_only_draws_legal_actions(tmp_path: Path) -> None:
    agent = PolicyAgent.load(write_policy(tmp_path / "p.npz"), deterministic=False, seed=0)
    mask = np.array([1, 0, 0, 0, 1], np.int8)
    picks = {agent.act({"observation": np.zeros(4, np.float32), "action_mask": mask})
             for _ in range(50)}
    assert picks == {0, 4}


def test_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        PolicyAgent.load(tmp_path / "missing.npz")
    bad = tmp_path / "bad.npz"
    np.savez(bad, something=np.zeros(2))
    with pytest.raises(ValueError, match="not an exported formosa policy"):
        PolicyAgent.load(bad)
    agent = PolicyAgent.load(write_policy(tmp_path / "p.npz"))
    with pytest.raises(ValueError, match="all-zero"):
        agent.act({"observation": np.zeros(4, np.float32), "action_mask": np.zeros(5, np.int8)})
    with pytest.raises(AgentSpecError, match="needs a path"):
        make_agent("policy:")
    with pytest.raises(AgentSpecError, match="unknown agent"):
        make_agent("genius")
    with pytest.raises(AgentSpecError, match="positive integer"):
        make_agent("mcts:zero")


def test_reloading_a_rewritten_file_sees_the_new_weights(tmp_path: Path) -> None:
    """The loader cache must not serve stale weights when training rewrites a file."""
    import os
    path = write_policy(tmp_path / "p.npz", favourite=2)
    obs = {"observation": np.ones(4, np.float32), "action_mask": np.ones(5, np.int8)}
    assert PolicyAgent.load(path).act(obs) == 2
    write_policy(path, favourite=4)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert PolicyAgent.load(path).act(obs) == 4
