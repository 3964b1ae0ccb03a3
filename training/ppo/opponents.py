"""Opponent pools for self-play: random, heuristic and frozen snapshots of the learner.

:class:`OpponentPool` is a picklable factory (it works inside subprocess
vector envs): at every episode it draws each opponent seat from the mix, a
snapshot being one of the ``pool_size`` most recent ``.npz`` files in the
pool directory (written by the trainer).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from formosa_envs.agents import make_agent
from formosa_envs.agents.policy import PolicyAgent


@dataclass
class OpponentPool:
    """Draws opponents per episode: ``random`` / ``heuristic`` / ``snapshots`` weights."""

    game: str
    pool_dir: str
    random: float = 0.35
    heuristic: float = 0.35
    snapshots: float = 0.30
    pool_size: int = 5

    def __call__(self, rng: np.random.Generator, count: int) -> list[Any]:
        """``count`` opponents for one episode."""
        return [self._one(rng) for _ in range(count)]

    def _one(self, rng: np.random.Generator) -> Any:
        seed = int(rng.integers(2**31))
        kinds, weights = self._available()
        kind = kinds[int(rng.choice(len(kinds), p=weights))]
        if kind == "snapshots":
            files = self.snapshot_files()
            return PolicyAgent.load(files[int(rng.integers(len(files)))],
                                    deterministic=False, seed=seed)
        return make_agent(kind, self.game, seed=seed)

    def _available(self) -> tuple[list[str], np.ndarray]:
        mix = {"random": self.random, "heuristic": self.heuristic, "snapshots": self.snapshots}
        if not self.snapshot_files():
            mix["snapshots"] = 0.0
        if sum(mix.values()) <= 0:
            mix["random"] = 1.0
        kinds = [k for k, w in mix.items() if w > 0]
        weights = np.array([mix[k] for k in kinds], dtype=np.float64)
        return kinds, weights / weights.sum()

    def snapshot_files(self) -> list[str]:
        """The newest ``pool_size`` snapshots, oldest first."""
        folder = Path(self.pool_dir)
        if not folder.exists():
            return []
        files = sorted(folder.glob("snapshot_*.npz"))
        return [str(f) for f in files[-self.pool_size:]]
