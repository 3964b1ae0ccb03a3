"""Training configuration: a TOML file per game, overridden by command-line flags."""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CONFIG_DIR = Path(__file__).parent / "configs"


@dataclass
class TrainConfig:
    """Every knob of a training run (see ``training/configs/<game>.toml``)."""

    game: str = "flowers"
    num_players: int = 2
    total_timesteps: int = 1_200_000
    n_envs: int = 8
    vec_env: str = "dummy"
    n_steps: int = 512
    batch_size: int = 512
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    clip_range: float = 0.2
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    activation: str = "tanh"
    reward_mode: str = "rank"
    shaping: float = 0.0
    random: float = 0.35
    heuristic: float = 0.35
    snapshots: float = 0.30
    snapshot_every: int = 100_000
    pool_size: int = 5
    eval_every: int = 100_000
    eval_games: int = 100
    final_games: int = 400
    checkpoint_every: int = 100_000
    seed: int = 0
    out: str = "runs/flowers"
    workers: int = 2

    def validate(self) -> None:
        """Raise ValueError naming the first bad value."""
        positive = ["total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs",
                    "snapshot_every", "pool_size", "eval_every", "eval_games", "final_games",
                    "checkpoint_every", "workers"]
        for name in positive:
            if getattr(self, name) < 1:
                raise ValueError(f"training option {name} must be >= 1, got {getattr(self, name)}")
        if self.vec_env not in ("dummy", "subproc"):
            raise ValueError(f"vec_env must be 'dummy' or 'subproc', got {self.vec_env!r}")
        if self.activation not in ("tanh", "relu"):
            raise ValueError(f"activation must be 'tanh' or 'relu', got {self.activation!r}")
        mix = (self.random, self.heuristic, self.snapshots)
        if min(mix) < 0 or sum(mix) <= 0:
            raise ValueError(f"opponent mix random/heuristic/snapshots must be >= 0 with a "
                             f"positive sum, got {mix}")


def load_config(game: str, path: str | None = None, **overrides: Any) -> TrainConfig:
    """The game's TOML defaults (or ``path``), then ``overrides`` that are not None."""
    file = Path(path) if path else CONFIG_DIR / f"{game}.toml"
    values: dict[str, Any] = {"game": game, "out": f"runs/{game}"}
    if file.exists():
        with file.open("rb") as handle:
            doc = tomllib.load(handle)
        for section in doc.values():
            values.update(section if isinstance(section, dict) else {})
    elif path:
        raise ValueError(f"training config not found: {file}")
    values.update({k: v for k, v in overrides.items() if v is not None})
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"unknown training option(s) {unknown} in {file}; known: {sorted(known)}")
    config = TrainConfig(**values)
    config.validate()
    return config
