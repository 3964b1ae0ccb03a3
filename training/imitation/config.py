"""Settings of behaviour cloning (``training/configs/<game>_bc.toml``), validated.

A TOML file may put its keys in a ``[bc]`` table or at the top level. Every key has a
type and a range (:data:`INT_BOUNDS`, :data:`FLOAT_BOUNDS`, :data:`CHOICES`,
``hidden``/``value_hidden`` lists of layer widths); anything else is a
:class:`~formosa_envs.core.errors.ConfigError` naming the key, what is allowed and the
file, raised before any data is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from formosa_envs.training.common.toml_config import bounds_problem, check_fields, load_toml_config

from formosa_envs.core.errors import ConfigError

CONFIG_DIR = Path(__file__).parent.parent / "configs"
MAX_LAYERS, MAX_WIDTH = 8, 4096

INT_BOUNDS: dict[str, tuple[int, int]] = {
    "epochs": (1, 10_000), "batch_size": (1, 1_000_000), "patience": (1, 10_000),
    "seed": (0, 2**31 - 1), "threads": (1, 256)}
FLOAT_BOUNDS: dict[str, tuple[float, float]] = {
    "learning_rate": (1e-8, 1.0), "weight_decay": (0.0, 1.0), "value_weight": (0.0, 100.0),
    "holdout": (0.01, 0.9)}
CHOICES: dict[str, tuple[str, ...]] = {"activation": ("relu", "tanh")}
LAYER_KEYS = ("hidden", "value_hidden")


@dataclass
class BCConfig:
    """Every knob of :func:`formosa_envs.training.imitation.bc.train_bc`."""

    hidden: list[int] = field(default_factory=lambda: [256, 256])
    """Widths of the policy network's hidden layers."""
    value_hidden: list[int] = field(default_factory=lambda: [256, 256])
    """Widths of the value network's hidden layers (a separate tower)."""
    activation: str = "relu"
    epochs: int = 10
    batch_size: int = 512
    learning_rate: float = 1e-3
    weight_decay: float = 0.0
    value_weight: float = 0.5
    """Weight of the value MSE in the loss (0: the value head is not trained)."""
    holdout: float = 0.1
    """Share of the games (not decisions) held out for early stopping and reports."""
    patience: int = 2
    """Epochs without a better held-out cross-entropy before training stops."""
    seed: int = 0
    threads: int = 2

    def validate(self, where: str = "") -> None:
        """Raise :class:`ConfigError` naming the first bad field (``where``: its origin)."""
        check_fields(self, _problem, "cloning option", where)


def _problem(name: str, value: Any) -> str:
    """What is wrong with ``value`` for ``name`` ('' when it is allowed)."""
    problem = bounds_problem(name, value, INT_BOUNDS, FLOAT_BOUNDS)
    if problem is not None:
        return problem
    if name in CHOICES:
        ok = value in CHOICES[name]
        return "" if ok else f"must be one of {', '.join(CHOICES[name])}, got {value!r}"
    ok = isinstance(value, list) and 1 <= len(value) <= MAX_LAYERS and all(
        not isinstance(w, bool) and isinstance(w, int) and 1 <= w <= MAX_WIDTH for w in value)
    return "" if ok else (f"must be a list of 1 to {MAX_LAYERS} layer widths from 1 to "
                          f"{MAX_WIDTH}, got {value!r}")


def default_config_path(game: str) -> Path:
    """``training/configs/<game>_bc.toml``."""
    return CONFIG_DIR / f"{game}_bc.toml"


def load_bc_config(path: str | Path | None = None, **overrides: Any) -> BCConfig:
    """The settings in TOML file ``path`` (defaults when None), then ``overrides`` that
    are not None; validated."""
    return load_toml_config(BCConfig, path, "bc", overrides, _check_unknown)


def _check_unknown(values: Mapping[str, Any], overrides: Mapping[str, Any], known: set[str],
                   where: str) -> None:
    """Refuse the first unknown file key (sorted), then the first unknown override."""
    unknown = sorted(set(values) - known)
    if unknown:
        raise ConfigError(f"unknown cloning option {unknown[0]!r}{where}; known: "
                          f"{', '.join(sorted(known))}")
    for key in overrides:
        if key not in known:
            raise ConfigError(f"unknown cloning option {key!r}; known: {', '.join(sorted(known))}")
