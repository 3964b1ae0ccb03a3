"""Building validated game configurations from keyword arguments.

Each game declares its options as a frozen dataclass whose fields are made by
the option helpers below (:func:`int_option`, :func:`bool_option`,
:func:`choice_option`, :func:`path_option`). Each helper records an
:class:`Option` spec (type, range or allowed values, and the player counts for
which a non-default value is allowed); :func:`check_options`, called by the
dataclass's ``__post_init__``, checks every field against it, so the config is
refused before anything is built. :func:`build_config` turns keyword
arguments into the dataclass and rejects unknown options with a message
listing the valid ones. ``docs/data-files.md`` lists every game's options.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np

from .errors import ConfigError

C = TypeVar("C")


@dataclasses.dataclass(frozen=True)
class Option:
    """What one option accepts.

    ``kind`` is ``int``, ``bool``, ``choice`` or ``path``; ``lo``/``hi`` bound an
    int; ``choices`` lists a choice's values; ``none_ok`` also accepts None;
    ``players`` (when set) are the player counts with which a value other than
    the default is allowed.
    """

    kind: str
    lo: int | None = None
    hi: int | None = None
    choices: tuple[Any, ...] = ()
    none_ok: bool = False
    players: tuple[int, ...] | None = None

    def allowed(self) -> str:
        """The accepted values in words (used in error messages and the docs)."""
        text = {"int": f"an integer from {self.lo} to {self.hi}",
                "bool": "True or False",
                "choice": "one of " + ", ".join(repr(c) for c in self.choices),
                "path": "a path to a TOML file (a non-empty string)"}[self.kind]
        return text + (" or None" if self.none_ok else "")

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` has the right type and lies in range (player count aside)."""
        if value is None:
            return self.none_ok
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "int":
            return (isinstance(value, int) and not isinstance(value, bool)
                    and self.lo is not None and self.hi is not None
                    and self.lo <= value <= self.hi)
        if self.kind == "path":
            return isinstance(value, str) and bool(value.strip()) and "\0" not in value
        return any(type(value) is type(c) and value == c for c in self.choices)


def _field(default: Any, spec: Option) -> Any:
    return dataclasses.field(default=default, metadata={"option": spec})


def int_option(default: int | None, lo: int, hi: int, *, none_ok: bool = False,
               players: Sequence[int] | None = None) -> Any:
    """An integer option in ``lo..hi`` (bools refused); see :class:`Option`."""
    return _field(default, Option("int", lo, hi, none_ok=none_ok,
                                  players=None if players is None else tuple(players)))


def bool_option(default: bool, *, players: Sequence[int] | None = None) -> Any:
    """A True/False option (0/1 and strings refused)."""
    return _field(default, Option("bool", players=None if players is None else tuple(players)))


def choice_option(default: Any, choices: Sequence[Any], *,
                  players: Sequence[int] | None = None) -> Any:
    """An option taking one of ``choices`` (matched by type and value; None if listed)."""
    spec = Option("choice", choices=tuple(c for c in choices if c is not None),
                  none_ok=None in choices, players=None if players is None else tuple(players))
    return _field(default, spec)


def path_option() -> Any:
    """A data-file override: None (the packaged file) or a path string."""
    return _field(None, Option("path", none_ok=True))


def option_specs(cls: type) -> dict[str, Option]:
    """The :class:`Option` of every field of config class ``cls`` that declares one."""
    return {f.name: f.metadata["option"] for f in dataclasses.fields(cls)
            if "option" in f.metadata}


def check_options(config: Any, game: str) -> None:
    """Check every declared option of ``config`` (a config dataclass instance).

    ``num_players`` is checked first, as the other options may depend on it.
    Raises :class:`ConfigError` naming the option, the value and what is allowed.
    """
    specs = option_specs(type(config))
    defaults = {f.name: f.default for f in dataclasses.fields(config)}
    players = getattr(config, "num_players", None)
    for name in sorted(specs, key=lambda n: n != "num_players"):
        spec, value = specs[name], getattr(config, name)
        if not spec.accepts(value):
            raise ConfigError(f"option {name}={_show(value)} for {game!r}: must be "
                              f"{spec.allowed()}")
        if spec.players is not None and value != defaults[name] and players not in spec.players:
            counts = " or ".join(str(n) for n in spec.players)
            raise ConfigError(f"option {name}={_show(value)} for {game!r} is only allowed "
                              f"with {counts} player(s), got num_players={players} "
                              f"(leave it at its default {defaults[name]!r})")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def build_config(cls: type[C], game: str, **kwargs: Any) -> C:
    """Instantiate config dataclass ``cls`` from keyword arguments, checking names."""
    valid = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    unknown = sorted(k for k in kwargs if k not in valid)
    if unknown:
        raise ConfigError(f"unknown option(s) {unknown} for game {game!r}; "
                          f"valid options are {valid}")
    try:
        return cls(**{k: _plain(v) for k, v in kwargs.items()})
    except TypeError as exc:
        raise ConfigError(f"bad options for game {game!r}: {exc}") from None


def _plain(value: Any) -> Any:
    """numpy integers and booleans as Python ``int``/``bool`` (a sweep driven by numpy
    values passes ``np.int64(3)``); anything else unchanged, to be checked as given."""
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    return value


def check_player_count(game: str, num_players: Any, lo: int, hi: int) -> None:
    """Raise ``ConfigError`` unless ``lo <= num_players <= hi``."""
    if isinstance(num_players, bool) or not isinstance(num_players, int):
        raise ConfigError(f"num_players for {game!r} must be an integer, got {num_players!r}")
    if not lo <= num_players <= hi:
        raise ConfigError(f"{game!r} is played by {lo}-{hi} players, got num_players="
                          f"{num_players}")
