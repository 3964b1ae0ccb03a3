"""Settings of the jitted JAX self-play PPO (``training/configs/flowers_jax.toml``), validated.

A TOML file may put its keys in a ``[jax]`` table or at the top level. Every key has a type
and a range; anything else is a :class:`~formosa_envs.core.errors.ConfigError` naming the
key, what is allowed and the file, before JAX compiles anything.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from formosa_envs.training.common.toml_config import bounds_problem, check_fields, load_toml_config

from formosa_envs.core.errors import ConfigError

CONFIG_PATH = Path(__file__).parent.parent / "configs" / "flowers_jax.toml"
GAMES = ("flowers", "dadaocheng")
"""The games with a JAX engine: the default config of ``game`` is ``configs/<game>_jax.toml``."""
REWARDS = ("rank", "margin", "win")
LEARNER_KINDS = ("play", "capture_played", "capture_revealed", "keep_or_cash")
"""The Flowers decision kinds (``formosa_envs.games.flowers.rules``; the JAX engine's
``kind`` codes 0-3 in this order) a learner may be restricted to (``learner_kinds``)."""

INT_BOUNDS: dict[str, tuple[int, int]] = {
    "num_players": (1, 4), "num_envs": (1, 1 << 20), "rollout_steps": (1, 10_000),
    "epochs": (1, 100), "minibatches": (1, 1024), "hidden_size": (1, 4096),
    "hidden_layers": (1, 8), "pool_size": (1, 256), "opponent_moves": (1, 1000),
    "snapshot_every": (1, 1_000_000),
    "updates": (1, 10_000_000), "updates_per_call": (1, 100_000), "seed": (0, 2**31 - 1),
    "eval_games": (0, 1_000_000), "eval_seed": (0, 2**31 - 1),
    "export_every": (0, 10_000_000)}
FLOAT_BOUNDS: dict[str, tuple[float, float]] = {
    "learning_rate": (1e-8, 1.0), "gae_lambda": (0.0, 1.0), "clip": (1e-6, 10.0),
    "value_coef": (0.0, 100.0), "entropy_coef": (0.0, 10.0), "max_grad_norm": (1e-6, 1e6),
    "random_fraction": (0.0, 1.0), "heuristic_fraction": (0.0, 1.0),
    "heuristic_epsilon": (0.0, 1.0), "kickstart": (0.0, 100.0),
    "kickstart_share": (0.0, 1.0), "minutes": (0.0, 10_000.0)}
ACTIVATIONS = ("relu", "tanh")


@dataclass
class JaxTrainConfig:
    """Every knob of :func:`formosa_envs.training.jax.train.run` (see ``flowers_jax.toml``)."""

    game: str = "flowers"
    """``flowers`` or ``dadaocheng`` (no JAX heuristic: no heuristic blocks, no kickstart)."""
    reward: str = "rank"
    """``rank``: the game's returns; ``margin`` (Dadaocheng solo): the final prestige minus
    the objective's target, over 20 (:mod:`formosa_envs.jax.dadaocheng.vec_env`); ``win``:
    the learner's share of the victory (1 alone on top, 1/k among k tied leaders, else
    0; a game stopped by the length guard 0), the quantity a win-share evaluation counts
    (at 3-4 players ``rank`` also rewards second place over third)."""
    learner_kinds: list[str] = dataclasses.field(default_factory=list)
    """Flowers only: the decision kinds the learner makes (of :data:`LEARNER_KINDS`;
    empty: every kind). The JAX heuristic makes its seat's other decisions, so the run
    learns where to overrule the heuristic at those kinds only (every opponent block
    must then be random or heuristic: ``random_fraction + heuristic_fraction`` covers
    the pool); the exported network names the kinds and plays as ``residual:PATH:0``."""
    num_players: int = 2
    num_envs: int = 1024
    rollout_steps: int = 8
    epochs: int = 2
    minibatches: int = 4
    learning_rate: float = 3e-4
    anneal_lr: bool = True
    """Decay the learning rate linearly to 0 over the budget (time, else updates)."""
    gae_lambda: float = 0.95
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 0.5
    hidden_size: int = 128
    hidden_layers: int = 2
    activation: str = "relu"
    pool_size: int = 8
    """Opponent blocks: snapshots of the learner, ``random_fraction`` of them random."""
    snapshot_every: int = 10
    opponent_moves: int = 2
    """Rounds of opponent moves after each learner step; a lane whose opponents still have
    a decision skips its next learner step (recorded as invalid, left out of the loss)."""
    random_fraction: float = 0.25
    heuristic_fraction: float = 0.0
    """Share of the blocks that play the JAX heuristic (after the random ones)."""
    heuristic_epsilon: float = 0.0
    """The heuristic blocks' chance of a random move, spread from 0 (one block plays the
    heuristic itself) to this value."""
    kickstart: float = 0.0
    """Kickstarting: the initial weight of a cross-entropy loss to the JAX heuristic's
    action at each learner decision (0: none)."""
    kickstart_share: float = 0.5
    """The share of the budget (time, else updates) over which that weight falls to 0."""
    updates: int = 1_000_000
    """Stop after this many updates (or ``minutes``, whichever comes first)."""
    minutes: float = 9.0
    """Training time budget, compile time excluded (0: no limit)."""
    updates_per_call: int = 10
    """Updates in one compiled call (progress and metrics between calls)."""
    seed: int = 0
    eval_games: int = 400
    """Evaluation games of the exported policy against each of random and the heuristic."""
    eval_seed: int = 7_000_000
    """Evaluation games run in this process: a worker pool would fork a process whose JAX
    threads are running (JAX warns that this can deadlock)."""
    export_every: int = 100
    """Updates between exported snapshots ``networks/update-NNNNNN.npz`` (taken at the end of
    the compiled call that crosses each multiple; 0: none), for
    learning curves against the Python heuristic."""

    def validate(self, where: str = "") -> None:
        """Raise :class:`ConfigError` naming the first bad field (``where``: its origin)."""
        check_fields(self, _problem, "jax training option", where)
        self._check_game(where)
        if self.num_envs % self.pool_size:
            raise ConfigError(f"jax training option num_envs ({self.num_envs}) must be a "
                              f"multiple of pool_size ({self.pool_size}){where}")
        fixed = (round(self.random_fraction * self.pool_size)
                 + round(self.heuristic_fraction * self.pool_size))
        if fixed > self.pool_size:
            raise ConfigError(f"jax training options random_fraction and heuristic_fraction "
                              f"ask for {fixed} of {self.pool_size} blocks (pool_size){where}")
        if self.learner_kinds and fixed < self.pool_size:
            raise ConfigError(f"jax training option learner_kinds needs every opponent block "
                              f"random or heuristic (random_fraction + heuristic_fraction "
                              f"cover {fixed} of {self.pool_size} blocks): a snapshot of a "
                              f"learner of some decision kinds cannot play a seat{where}")
        if self.num_envs * self.rollout_steps < self.minibatches:
            raise ConfigError(f"jax training option minibatches ({self.minibatches}) is more "
                              f"than the samples of an update "
                              f"({self.num_envs * self.rollout_steps}){where}")

    def _check_game(self, where: str) -> None:
        """The options this game's JAX engine supports."""
        if self.num_players == 1 and self.game != "dadaocheng":
            raise ConfigError(f"jax training option num_players 1: only dadaocheng has a solo "
                              f"game, got game {self.game!r}{where}")
        if self.game == "dadaocheng" and (self.heuristic_fraction or self.kickstart):
            raise ConfigError(f"jax training options heuristic_fraction and kickstart need a "
                              f"JAX heuristic, which dadaocheng lacks: set both to 0{where}")
        if self.learner_kinds and self.game != "flowers":
            raise ConfigError(f"jax training option learner_kinds needs the JAX heuristic "
                              f"of flowers, got game {self.game!r}{where}")
        if self.reward == "win" and self.num_players == 1:
            raise ConfigError(f"jax training option reward 'win' needs opponents "
                              f"(num_players >= 2){where}")
        if self.reward == "margin" and (self.game, self.num_players) != ("dadaocheng", 1):
            raise ConfigError(f"jax training option reward 'margin' is for the dadaocheng solo "
                              f"game (num_players 1){where}")

    @property
    def kind_codes(self) -> tuple[int, ...]:
        """The JAX engine's codes of ``learner_kinds`` (empty: every kind)."""
        return tuple(sorted(LEARNER_KINDS.index(k) for k in set(self.learner_kinds)))

    @property
    def hidden(self) -> tuple[int, ...]:
        """The hidden layer sizes of both networks."""
        return (self.hidden_size,) * self.hidden_layers


def _problem(name: str, value: Any) -> str:
    problem = bounds_problem(name, value, INT_BOUNDS, FLOAT_BOUNDS)
    if problem is not None:
        return problem
    if name in ("game", "reward"):
        allowed = GAMES if name == "game" else REWARDS
        return "" if value in allowed else f"must be one of {allowed}, got {value!r}"
    if name == "learner_kinds":
        ok = isinstance(value, list) and all(k in LEARNER_KINDS for k in value)
        return "" if ok else f"must be a list of {LEARNER_KINDS}, got {value!r}"
    if name == "anneal_lr":
        return "" if isinstance(value, bool) else f"must be true or false, got {value!r}"
    return "" if value in ACTIVATIONS else f"must be one of {ACTIVATIONS}, got {value!r}"


def load_jax_config(path: str | Path | None = None, game: str | None = None,
                    **overrides: Any) -> JaxTrainConfig:
    """The settings in TOML file ``path`` (the packaged ``<game>_jax.toml`` when None; the
    Flowers one without a ``game``), then ``overrides`` that are not None; validated. With
    ``game``, the file must be for that game."""
    if game is not None and game not in GAMES:
        raise ConfigError(f"jax training: game must be one of {GAMES}, got {game!r}")
    path = path or CONFIG_PATH.with_name(f"{game or 'flowers'}_jax.toml")
    config = load_toml_config(JaxTrainConfig, path, "jax", overrides, _check_unknown)
    if game is not None and config.game != game:
        raise ConfigError(f"jax training config {path} is for {config.game}, not {game}")
    return config


def _check_unknown(values: Mapping[str, Any], overrides: Mapping[str, Any], known: set[str],
                   where: str) -> None:
    for key in sorted(set(values) | set(overrides)):
        if key not in known:
            origin = where if key in values else ""
            raise ConfigError(f"unknown jax training option {key!r}{origin}; known: "
                              f"{', '.join(sorted(known))}")
