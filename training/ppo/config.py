"""Training configuration: a TOML file per game, overridden by command-line flags.

Every field of :class:`TrainConfig` has a documented type and range (:data:`INT_BOUNDS`,
:data:`FLOAT_BOUNDS`, :data:`CHOICES`, :func:`TrainConfig.validate`); a value outside
them is a :class:`~formosa_envs.core.errors.ConfigError` naming the key, the allowed
values and where the value came from (the TOML file or a flag), raised before anything
is built. A TOML file may put its keys in any table (``[train]``, ``[selfplay]``,
``[eval]`` are used for readability) or at the top level, each key once.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from formosa_envs.core.errors import ConfigError
from formosa_envs.envs.aec import REWARD_MODES
from formosa_envs.games import GAMES
from formosa_envs.tools.usage import MAX_GAMES, MAX_WORKERS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CONFIG_DIR = Path(__file__).parent.parent / "configs"

MAX_TIMESTEPS = 10**10  # learner decisions: ~30 years at 10,000 decisions/s
MAX_SEED = 2**31 - 1  # numpy's legacy seeding, torch and Ray all take it (env i gets seed + i)
MAX_ENVS = 256  # vectorised envs (a process each with --vec-env subproc)
MAX_ROLLOUT = 10_000_000  # n_steps * n_envs: the rollout buffer held in memory per update
MAX_LAYERS, MAX_WIDTH = 8, 4096  # net_arch: hidden layers and units per layer

INT_BOUNDS: dict[str, tuple[int, int]] = {
    "num_players": (1, 6), "total_timesteps": (1, MAX_TIMESTEPS), "n_envs": (1, MAX_ENVS),
    "n_steps": (1, MAX_ROLLOUT), "batch_size": (2, MAX_ROLLOUT), "n_epochs": (1, 1000),
    "snapshot_every": (1, MAX_TIMESTEPS), "pool_size": (1, 1000),
    "eval_every": (1, MAX_TIMESTEPS), "eval_games": (1, MAX_GAMES),
    "final_games": (1, MAX_GAMES), "checkpoint_every": (1, MAX_TIMESTEPS),
    "seed": (0, MAX_SEED), "workers": (1, MAX_WORKERS),
    "clone_games": (0, MAX_GAMES), "value_warmup": (0, MAX_TIMESTEPS),
}
"""Whole-number fields: inclusive ``(low, high)``."""

FLOAT_BOUNDS: dict[str, tuple[float, float, bool]] = {
    "learning_rate": (0.0, 1.0, False), "gamma": (0.0, 1.0, False),
    "gae_lambda": (0.0, 1.0, True), "ent_coef": (0.0, 1.0, True),
    "clip_range": (0.0, 1.0, False), "shaping": (0.0, 100.0, True),
    "random": (0.0, 100.0, True), "heuristic": (0.0, 100.0, True),
    "snapshots": (0.0, 100.0, True),
}
"""Number fields: ``(low, high, low_included)``; ``high`` is always included."""

CHOICES: dict[str, tuple[str, ...]] = {
    "game": tuple(sorted(GAMES)), "vec_env": ("dummy", "subproc"),
    "activation": ("tanh", "relu"), "reward_mode": tuple(REWARD_MODES),
}
"""Text fields with a fixed set of values."""


@dataclass
class TrainConfig:
    """Every knob of a training run (see ``training/configs/<game>.toml``)."""

    game: str = "flowers"
    num_players: int = 2
    """Seats of the evaluations (and of training, unless ``player_counts`` is given)."""
    player_counts: list[int] = field(default_factory=list)
    """Seat counts of the training envs, cycled over them (env ``i`` plays
    ``player_counts[i % len]``): one network trained at several counts ([]: ``num_players``)."""
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
    init: str = ""
    """An exported network (``.npz``) the policy starts from ('' : a fresh policy)."""
    clone_games: int = 0
    """Heuristic games cloned into the starting network when ``init`` is '' (0: none)."""
    value_warmup: int = 0
    """Timesteps at the start with the actor frozen (only the critic learns)."""

    def validate(self, where: Mapping[str, str] | None = None) -> None:
        """Raise :class:`ConfigError` naming the first bad field and what is allowed.

        ``where`` maps a field to the origin of its value (``"in FILE"``,
        ``"from --seed"``), added to the message.
        """
        for f in dataclasses.fields(self):
            message = _field_problem(f.name, getattr(self, f.name))
            if message:
                raise ConfigError(_located(message, f.name, where))
        message, name = self._cross_problem()
        if message:
            raise ConfigError(_located(message, name, where))

    def _cross_problem(self) -> tuple[str, str]:
        """The first inconsistency between fields, with the field to blame ('' if none)."""
        info = GAMES[self.game]
        rollout = self.n_steps * self.n_envs
        mix = (self.random, self.heuristic, self.snapshots)
        if not info.min_players <= self.num_players <= info.max_players:
            return (f"training option num_players must be from {info.min_players} to "
                    f"{info.max_players} for {self.game}, got {self.num_players}",
                    "num_players")
        outside = [n for n in self.player_counts
                   if not info.min_players <= n <= info.max_players]
        if outside:
            return (f"training option player_counts must hold seat counts from "
                    f"{max(info.min_players, 2)} to {info.max_players} for {self.game}, "
                    f"got {outside[0]}", "player_counts")
        if len(self.player_counts) > self.n_envs:
            return (f"training option player_counts lists {len(self.player_counts)} counts "
                    f"but there are only n_envs = {self.n_envs} envs to play them",
                    "player_counts")
        if rollout > MAX_ROLLOUT:
            return (f"training option n_steps * n_envs must be <= {MAX_ROLLOUT:,} (the "
                    f"rollout held in memory), got {self.n_steps} * {self.n_envs}", "n_steps")
        if self.batch_size > rollout:
            return (f"training option batch_size must be >= 2 and <= n_steps * n_envs "
                    f"= {rollout}, got {self.batch_size}", "batch_size")
        if self.init and self.clone_games:
            return ("training options init and clone_games exclude each other: start from "
                    f"{self.init!r} or clone {self.clone_games} games, not both",
                    "clone_games")
        if sum(mix) <= 0:
            return (f"opponent mix random/heuristic/snapshots must be >= 0 with a positive "
                    f"sum, got {mix}", "random")
        return "", ""


def _field_problem(name: str, value: Any) -> str:
    """What is wrong with ``value`` for field ``name`` ('' when it is allowed)."""
    prefix = f"training option {name}"
    if name in INT_BOUNDS:
        low, high = INT_BOUNDS[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return f"{prefix} must be >= {low} and <= {high:,} (a whole number), got {value!r}"
    elif name in FLOAT_BOUNDS:
        low, high, closed = FLOAT_BOUNDS[name]
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        above = is_number and (value >= low if closed else value > low)
        if not (is_number and math.isfinite(value) and above and value <= high):
            sign = ">=" if closed else ">"
            return f"{prefix} must be a number {sign} {low:g} and <= {high:g}, got {value!r}"
    elif name in CHOICES:
        if value not in CHOICES[name]:
            return f"{prefix} must be one of {', '.join(CHOICES[name])}, got {value!r}"
    elif name == "net_arch":
        return _net_arch_problem(value)
    elif name == "player_counts":
        return _player_counts_problem(value)
    elif name == "out" and (not isinstance(value, str) or not value.strip()):
        return f"{prefix} must be a folder name (text), got {value!r}"
    elif name == "init" and not isinstance(value, str):
        return f"{prefix} must be the path of an exported network (text), got {value!r}"
    return ""


def _net_arch_problem(value: Any) -> str:
    ok = (isinstance(value, list) and 1 <= len(value) <= MAX_LAYERS
          and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_WIDTH
                  for v in value))
    return "" if ok else (f"training option net_arch must be a list of 1 to {MAX_LAYERS} "
                          f"layer widths, each a whole number from 1 to {MAX_WIDTH}, "
                          f"e.g. [128, 128], got {value!r}")


def _player_counts_problem(value: Any) -> str:
    ok = (isinstance(value, list) and len(value) <= MAX_ENVS
          and all(isinstance(v, int) and not isinstance(v, bool) and 2 <= v <= 6
                  for v in value))
    return "" if ok else ("training option player_counts must be a list of seat counts, "
                          f"each a whole number from 2 to 6 (solo trains alone), e.g. "
                          f"[2, 4, 5], got {value!r}")


def _located(message: str, name: str, where: Mapping[str, str] | None) -> str:
    origin = (where or {}).get(name)
    return f"{message} ({origin})" if origin else message


def read_config_file(path: str | Path) -> dict[str, Any]:
    """The options of a training TOML file, flattened over its tables.

    Raises :class:`ConfigError` naming the file when it is missing, a folder,
    unreadable, not UTF-8, not TOML, sets a key twice or holds a table that is not
    a table of options.
    """
    file = Path(path)
    if file.is_dir():
        raise ConfigError(f"training config {file}: is a folder, not a TOML file")
    try:
        text = file.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"training config not found: {file}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"training config {file}: not UTF-8 text (byte {exc.start})") \
            from None
    except OSError as exc:
        raise ConfigError(f"training config {file}: cannot be read ({exc.strerror or exc})") \
            from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"training config {file}: not valid TOML ({exc})") from None
    return _flatten(doc, file)


def _flatten(doc: dict[str, Any], file: Path) -> dict[str, Any]:
    """Top-level keys and the keys of every top-level table, each at most once."""
    values: dict[str, Any] = {}
    items = [(k, v, "") for k, v in doc.items() if not isinstance(v, dict)]
    for table, section in doc.items():
        if isinstance(section, dict):
            items += [(k, v, f"[{table}]") for k, v in section.items()]
    for key, value, table in items:
        if key in values:
            raise ConfigError(f"training config {file}: option {key} is set twice "
                              f"(again in {table or 'the top level'})")
        values[key] = value
    return values


def load_config(game: str, path: str | Path | None = None, *,
                flags: Mapping[str, str] | None = None, **overrides: Any) -> TrainConfig:
    """The game's TOML defaults (or ``path``), then ``overrides`` that are not None.

    ``flags`` maps an override to the command-line flag it came from (named in
    errors). Raises :class:`ConfigError` for an unknown game, a bad file, an unknown
    option or any field out of its documented range.
    """
    if game not in GAMES:
        raise ConfigError(f"unknown game {game!r}; choose one of {', '.join(sorted(GAMES))}")
    file = Path(path) if path else CONFIG_DIR / f"{game}.toml"
    values: dict[str, Any] = {"game": game, "out": f"runs/{game}"}
    where: dict[str, str] = {}
    if path or file.exists():
        from_file = read_config_file(file)
        if from_file.get("game", game) != game:
            raise ConfigError(f"training config {file}: game = {from_file['game']!r}, but "
                              f"the run is for {game!r}")
        values.update(from_file)
        where.update({k: f"in {file}" for k in from_file})
    given = {k: v for k, v in overrides.items() if v is not None}
    values.update(given)
    flags = flags or {}
    where.update({k: f"from {flags[k]}" if k in flags else "as an override" for k in given})
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(values) - known)
    if unknown:
        origin = "in the overrides" if set(unknown) & set(given) else f"in {file}"
        raise ConfigError(f"unknown training option(s) {unknown} {origin}; known: "
                          f"{', '.join(sorted(known))}")
    config = TrainConfig(**values)
    config.validate(where)
    return config
