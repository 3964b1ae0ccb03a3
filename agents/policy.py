"""A trained policy as a pure-numpy agent (no torch needed to play).

Training exports a MaskablePPO actor to ``.npz`` (see ``training/export.py``):
``w0, b0, w1, b1, ...`` for the hidden layers (applied as ``act(x @ w.T + b)``),
``w_out, b_out`` for the action logits, and ``activation`` (``tanh`` or
``relu``). :class:`PolicyAgent` runs that forward pass and always respects
the action mask: illegal actions get ``-inf`` logits.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from .base import Agent

ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}


class PolicyAgent(Agent):
    """Acts with an exported policy network: masked argmax, or masked sampling."""

    name = "policy"

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str = "tanh",
                 deterministic: bool = True, seed: int | None = None) -> None:
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; known: {sorted(ACTIVATIONS)}")
        self.layers = layers
        self.activation = activation
        self._act = ACTIVATIONS[activation]
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True,
             seed: int | None = None) -> PolicyAgent:
        """Load an exported ``.npz`` policy (cached per path and file version)."""
        file = Path(path)
        if not file.exists():
            raise FileNotFoundError(f"policy file not found: {file}")
        stat = file.stat()
        layers, activation = _load_npz(str(file), stat.st_mtime_ns, stat.st_size)
        agent = cls(layers, activation, deterministic, seed)
        agent.name = f"policy:{Path(path).stem}"
        return agent

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Raw action logits for one observation vector."""
        x = np.asarray(observation, dtype=np.float32)
        for w, b in self.layers[:-1]:
            x = self._act(x @ w.T + b)
        w, b = self.layers[-1]
        return x @ w.T + b

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """The best (or a sampled) legal action."""
        mask = np.asarray(observation["action_mask"]).astype(bool)
        if not mask.any():
            raise ValueError("PolicyAgent was asked to act with an all-zero action mask")
        logits = np.where(mask, self.logits(observation["observation"]), -np.inf)
        if self.deterministic:
            return int(np.argmax(logits))
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        return int(self.rng.choice(len(probs), p=probs))


@lru_cache(maxsize=32)
def _load_npz(path: str, mtime_ns: int, size: int
              ) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    """Arrays of one version of a policy file (the file's mtime and size key the cache)."""
    file = Path(path)
    try:
        data = np.load(file, allow_pickle=False)
        hidden = sorted(int(k[1:]) for k in data.files if k.startswith("w") and k[1:].isdigit())
        layers = [(data[f"w{i}"], data[f"b{i}"]) for i in hidden]
        layers.append((data["w_out"], data["b_out"]))
        activation = str(data["activation"])
    except (KeyError, ValueError, OSError) as exc:
        raise ValueError(f"{file} is not an exported formosa policy: {exc}") from None
    return layers, activation
