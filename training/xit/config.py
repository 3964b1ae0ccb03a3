"""Settings of expert iteration (``training/configs/<game>_xit.toml``), validated.

A TOML file may put its keys in an ``[xit]`` table or at the top level. Every key has a
type and a range (:data:`INT_BOUNDS`, :data:`FLOAT_BOUNDS`, ``league`` a list of agent
specs); anything else is a :class:`~formosa_envs.core.errors.ConfigError` naming the key,
what is allowed and the file, raised before any game is played. ``league`` specs are
checked by :func:`check_league` (``past`` or any agent spec ``formosa_envs.agents.make_agent``
builds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from formosa_envs.training.common.toml_config import bounds_problem, check_fields, load_toml_config

from formosa_envs.core.errors import ConfigError

CONFIG_DIR = Path(__file__).parent.parent / "configs"
PAST = "past"
"""League spec: a network of an earlier iteration (the init included), drawn per game."""
MAX_LEAGUE = 16

INT_BOUNDS: dict[str, tuple[int, int]] = {
    "num_players": (2, 6), "iterations": (1, 10_000), "games": (1, 1_000_000),
    "simulations": (2, 100_000), "temperature_moves": (0, 100_000),
    "replay_iterations": (1, 1_000), "epochs": (1, 1_000), "batch_size": (1, 1_000_000),
    "threads": (1, 256), "seed": (0, 2**31 - 1), "eval_games": (0, 1_000_000),
    "eval_seed": (0, 2**31 - 1), "chunk": (1, 10_000)}
FLOAT_BOUNDS: dict[str, tuple[float, float]] = {
    "dirichlet_alpha": (1e-6, 100.0), "dirichlet_fraction": (0.0, 1.0),
    "temperature": (0.0, 100.0), "league_fraction": (0.0, 1.0),
    "learning_rate": (1e-8, 1.0), "weight_decay": (0.0, 1.0), "value_weight": (0.0, 100.0),
    "gate_win_rate": (0.0, 1.0)}
RESUMABLE = ("iterations",)
"""The only settings a ``--resume`` may change."""


@dataclass
class XitConfig:
    """Every knob of :func:`formosa_envs.training.xit.expert_iteration.run_xit`."""

    num_players: int = 2
    iterations: int = 10
    games: int = 200
    """Self-play games per iteration."""
    simulations: int = 32
    """Search simulations per decision (self-play and the az:N evaluations)."""
    dirichlet_alpha: float = 0.3
    dirichlet_fraction: float = 0.25
    """Share of root Dirichlet noise in self-play (0: none)."""
    temperature: float = 1.0
    """Self-play moves are sampled from ``visits ** (1/T)`` for the first moves."""
    temperature_moves: int = 30
    """How many recorded decisions of each game are sampled; later ones take the best."""
    league: list[str] = field(default_factory=list)
    """Specs of league opponents (``past``: an earlier iteration's network, searched)."""
    league_fraction: float = 0.0
    """Share of each iteration's games with one league seat (its decisions not recorded)."""
    replay_iterations: int = 4
    """Training uses the self-play data of the last this-many iterations."""
    epochs: int = 2
    batch_size: int = 256
    learning_rate: float = 3e-4
    weight_decay: float = 0.0
    value_weight: float = 1.0
    threads: int = 2
    seed: int = 0
    """Self-play and training seed (the evaluation seeds are separate: ``eval_seed``)."""
    eval_games: int = 40
    """Games of each gating match (new az:N vs previous az:N, az:N and raw vs heuristic)."""
    eval_seed: int = 1_000_000
    """Tournament seed of iteration i's gating: ``eval_seed + i``."""
    gate_win_rate: float = 0.0
    """The new network plays self-play next iteration if its win share against the
    previous one is at least this (0: always)."""
    chunk: int = 5
    """Self-play games per worker task."""

    def validate(self, where: str = "") -> None:
        """Raise :class:`ConfigError` naming the first bad field (``where``: its origin)."""
        check_fields(self, _problem, "expert-iteration option", where)
        if self.league_fraction > 0 and not self.league:
            raise ConfigError(f"expert-iteration option league_fraction is "
                              f"{self.league_fraction:g} but league is empty; give league "
                              f"specs (e.g. [\"heuristic\", \"{PAST}\"]) or set it to 0{where}")


def _problem(name: str, value: Any) -> str:
    """What is wrong with ``value`` for ``name`` ('' when it is allowed)."""
    problem = bounds_problem(name, value, INT_BOUNDS, FLOAT_BOUNDS)
    if problem is not None:
        return problem
    ok = isinstance(value, list) and len(value) <= MAX_LEAGUE and all(
        isinstance(s, str) and s.strip() == s and s for s in value)
    return "" if ok else (f"must be a list of at most {MAX_LEAGUE} agent specs (non-empty "
                          f"strings, e.g. \"heuristic\" or \"{PAST}\"), got {value!r}")


def check_league(config: XitConfig, game: str) -> None:
    """Raise ``ConfigError``/``AgentSpecError`` for a league spec no agent can be built from."""
    from formosa_envs.agents import make_agent
    for spec in config.league:
        if spec != PAST:
            make_agent(spec, game, 0)


def default_config_path(game: str) -> Path:
    """``training/configs/<game>_xit.toml``."""
    return CONFIG_DIR / f"{game}_xit.toml"


def load_xit_config(path: str | Path | None = None, **overrides: Any) -> XitConfig:
    """The settings in TOML file ``path`` (defaults when None), then ``overrides`` that
    are not None; validated."""
    return load_toml_config(XitConfig, path, "xit", overrides, _check_unknown)


def _check_unknown(values: Mapping[str, Any], overrides: Mapping[str, Any], known: set[str],
                   where: str) -> None:
    """Refuse the first unknown key of the file and the overrides together (sorted)."""
    for key in sorted(set(values) | set(overrides)):
        if key not in known:
            origin = where if key in values else ""
            raise ConfigError(f"unknown expert-iteration option {key!r}{origin}; known: "
                              f"{', '.join(sorted(known))}")
