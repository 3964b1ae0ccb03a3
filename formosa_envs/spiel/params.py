"""Game options as OpenSpiel game parameters, and back (used by :mod:`formosa_envs.spiel`).

OpenSpiel parameters are ints, floats, bools or strings with a default, never None, so
each option of a game's config dataclass (``core/config.py``) maps to one parameter:

==================  ===============================  ==========================
option kind          OpenSpiel parameter               None (the option's "off")
==================  ===============================  ==========================
int                  int                               ``lo - 1`` (e.g. ``current_month=0``)
bool                 bool                              -
choice               int or str (the choices' type)    ``""``
path (data file)     str                               ``""`` (the packaged file)
==================  ===============================  ==========================

plus ``players`` (``num_players``; default 2 where the game allows it) and
``reward_mode`` (``"rank"`` or ``"win"``: :mod:`formosa_envs.core.rewards`).
This module needs no OpenSpiel: it only converts plain values.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from formosa_envs.core.config import Option, option_specs
from formosa_envs.core.errors import ConfigError
from formosa_envs.games import GAMES

SPIEL_PREFIX = "formosa_"
"""OpenSpiel short names are ``formosa_<game>`` (``formosa_tea``)."""
SPIEL_REWARD_MODES = ("rank", "win")
"""Reward modes with declared utility bounds (``score`` has none, so no ``GameInfo``)."""


def config_class(game: str) -> type:
    """The config dataclass of ``game`` (the one whose fields are its options)."""
    module = importlib.import_module(GAMES[game].module + ".config")
    classes = [c for c in vars(module).values()
               if dataclasses.is_dataclass(c) and isinstance(c, type) and option_specs(c)]
    if len(classes) != 1:
        raise ConfigError(f"{game}: expected one config dataclass, found {len(classes)}")
    return classes[0]


def _none_value(spec: Option) -> Any:
    """The parameter value that stands for None."""
    if spec.kind == "int":
        return int(spec.lo) - 1
    return ""


def _to_param(spec: Option, value: Any) -> Any:
    return _none_value(spec) if value is None else value


def parameter_defaults(game: str) -> dict[str, Any]:
    """Every OpenSpiel parameter of ``game`` with its default value."""
    info = GAMES[game]
    players = 2 if info.min_players <= 2 <= info.max_players else info.min_players
    params: dict[str, Any] = {"players": players, "reward_mode": "rank"}
    fields = {f.name: f for f in dataclasses.fields(config_class(game))}
    for name, spec in option_specs(config_class(game)).items():
        if name != "num_players":
            params[name] = _to_param(spec, fields[name].default)
    return params


def options_from_params(game: str, params: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """``(engine options, reward_mode)`` from OpenSpiel ``params`` (defaults filled in);
    ``ConfigError`` naming an unknown parameter or a reward mode without bounds."""
    defaults = parameter_defaults(game)
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise ConfigError(f"unknown parameter(s) {unknown} for {SPIEL_PREFIX}{game}; "
                          f"parameters: {sorted(defaults)}")
    merged = {**defaults, **params}
    reward_mode = merged.pop("reward_mode")
    if reward_mode not in SPIEL_REWARD_MODES:
        raise ConfigError(f"{SPIEL_PREFIX}{game}: reward_mode must be one of "
                          f"{SPIEL_REWARD_MODES} (OpenSpiel needs utility bounds, and "
                          f"'score' declares none), got {reward_mode!r}")
    specs = option_specs(config_class(game))
    options: dict[str, Any] = {"num_players": merged.pop("players")}
    for name, value in merged.items():
        options[name] = None if value == _none_value(specs[name]) and (
            specs[name].none_ok) else value
    return options, reward_mode
