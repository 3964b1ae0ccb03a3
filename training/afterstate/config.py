"""Settings of an afterstate-evaluator run (``training/configs/<game>_afterstate.toml``).

Keys go in an ``[afterstate]`` table or at the top level. Every key has a type and a range
(:data:`INT_BOUNDS`, :data:`FLOAT_BOUNDS`); anything else is a
:class:`~formosa_envs.core.errors.ConfigError` naming the key and the file, raised before any
game is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from formosa_envs.training.common.toml_config import bounds_problem, check_fields, load_toml_config

from formosa_envs.core.errors import ConfigError

CONFIG_DIR = Path(__file__).parent.parent / "configs"

INT_BOUNDS: dict[str, tuple[int, int]] = {
    "num_players": (1, 6), "games": (1, 1_000_000), "top_k": (2, 64),
    "playouts": (1, 64), "horizon": (0, 1_000), "chunk": (1, 10_000), "epochs": (1, 10_000),
    "batch_size": (1, 1_000_000), "patience": (1, 1_000), "threads": (1, 256),
    "seed": (0, 2**31 - 1), "eval_games": (0, 1_000_000), "eval_seed": (0, 2**31 - 1),
    "workers": (1, 256), "reply": (0, 1),
    "observation_inputs": (0, 1)}
FLOAT_BOUNDS: dict[str, tuple[float, float]] = {
    "label_rate": (1e-6, 1.0), "margin_scale": (1e-3, 1e4), "win_weight": (0.0, 1e4),
    "win_loss_weight": (0.0, 100.0), "absolute_weight": (0.0, 100.0),
    "learning_rate": (1e-8, 1.0), "weight_decay": (0.0, 1.0), "dropout": (0.0, 0.9),
    "holdout": (0.01, 0.5)}


@dataclass
class AfterstateConfig:
    """Every knob of :func:`formosa_envs.training.afterstate.run.run_afterstate`."""

    num_players: int = 2
    games: int = 200
    """Heuristic self-play games whose decisions are sampled for labels."""
    label_rate: float = 0.25
    """Share of the candidate decisions (turns with a choice) that are labelled."""
    top_k: int = 6
    """Candidates labelled per decision (the heuristic's best by its own value), and the
    agent's default search width."""
    playouts: int = 1
    """Heuristic play-outs per candidate (siblings share their chance and tie-break seeds)."""
    horizon: int = 6
    """Own turns a play-out runs before the heuristic's value is read (0: to the game's end)."""
    chunk: int = 4
    """Games per worker task."""
    reply: int = 0
    """1: the input also holds the next seat's best reply to each afterstate
    (:data:`formosa_envs.agents.candidates.REPLY_VALUES`; Dadaocheng only)."""
    observation_inputs: int = 1
    """0: the network reads only the value, reply and candidate features (the observation
    and the action one-hot are zeroed in training, their weights exported as zeros)."""
    workers: int = 2
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    margin_scale: float = 20.0
    """VP per unit of the margin output."""
    win_weight: float = 0.0
    """Play: the score is the predicted margin (VP) plus this times the win probability."""
    win_loss_weight: float = 0.5
    absolute_weight: float = 0.2
    """Loss = sibling-centred margin error + this times the raw margin error + the win BCE
    times ``win_loss_weight``."""
    epochs: int = 60
    batch_size: int = 256
    """Decisions per batch (each with its siblings)."""
    patience: int = 6
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    dropout: float = 0.1
    holdout: float = 0.1
    """Share of the games held out (their decisions judge early stopping)."""
    threads: int = 2
    seed: int = 0
    """Data and training seed (evaluation uses ``eval_seed``, a different seed scheme)."""
    eval_games: int = 400
    """Games against the heuristic after training (0: none)."""
    eval_seed: int = 8_000_000
    """Tournament seed of that evaluation (32-bit; data seeds are 64-bit with bit 63 set)."""

    def validate(self, where: str = "") -> None:
        """Raise :class:`ConfigError` naming the first bad field (``where``: its origin)."""
        check_fields(self, _problem, "afterstate option", where)


def _problem(name: str, value: Any) -> str:
    """What is wrong with ``value`` for ``name`` ('' when it is allowed)."""
    problem = bounds_problem(name, value, INT_BOUNDS, FLOAT_BOUNDS)
    if problem is not None:
        return problem
    ok = isinstance(value, list) and 1 <= len(value) <= 8 and all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 4096 for v in value)
    return "" if ok else f"must be a list of 1 to 8 layer widths (1 to 4,096), got {value!r}"


def default_config_path(game: str) -> Path:
    """``training/configs/<game>_afterstate.toml``."""
    return CONFIG_DIR / f"{game}_afterstate.toml"


def load_afterstate_config(path: str | Path | None = None, **overrides: Any
                           ) -> AfterstateConfig:
    """The settings in TOML file ``path`` (defaults when None), then ``overrides`` that are
    not None; validated."""
    return load_toml_config(AfterstateConfig, path, "afterstate", overrides, _check_unknown)


def _check_unknown(values: Mapping[str, Any], overrides: Mapping[str, Any], known: set[str],
                   where: str) -> None:
    for key in sorted(set(values) | set(overrides)):
        if key not in known:
            origin = where if key in values else ""
            raise ConfigError(f"unknown afterstate option {key!r}{origin}; known: "
                              f"{', '.join(sorted(known))}")
