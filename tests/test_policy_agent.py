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


@pytest.mark.parametrize("density", [0.02, 0.6])
def test_logits_skip_zero_inputs_and_match_the_dense_pass(density: float) -> None:
    """legal_logits sums one observation's first layer over its non-zero entries only;
    it gives the dense pass's logits, for a sparse and a dense observation."""
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(32, 300)), rng.normal(size=32)),
              (rng.normal(size=(7, 32)), rng.normal(size=7))]
    layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
    agent = PolicyAgent(layers, "relu")
    x = np.where(rng.random(300) < density, rng.random(300), 0.0).astype(np.float32)
    dense = np.maximum(x @ layers[0][0].T + layers[0][1], 0) @ layers[1][0].T + layers[1][1]
    np.testing.assert_allclose(agent.logits(x), dense, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(agent.logits(np.stack([x, x]))[1], dense, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(agent.legal_logits(x, list(range(7))), dense, rtol=1e-4,
                               atol=1e-4)
    legal = [5, 0, 3]
    np.testing.assert_allclose(agent.legal_logits(x, legal), dense[legal], rtol=1e-4, atol=1e-4)
    agent.layers = [(layers[0][0] * 2, layers[0][1]), layers[1]]  # new weights are used
    assert not np.allclose(agent.legal_logits(x, list(range(7))), dense)


def test_float16_files_are_played_in_float32(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    path = tmp_path / "half.npz"
    np.savez(path, w0=rng.normal(size=(4, 6)).astype(np.float16), b0=np.zeros(4, np.float16),
             w_out=rng.normal(size=(3, 4)).astype(np.float16), b_out=np.zeros(3, np.float16),
             activation=np.array("tanh"))
    agent = PolicyAgent.load(path)
    assert {w.dtype for w, b in agent.layers} == {np.dtype(np.float32)}
    assert agent.logits(np.ones(6, np.float32)).dtype == np.float32
