"""Shared loading and validation of the small TOML settings files (cloning, expert iteration).

A file may put its keys in one named table (``[bc]``, ``[xit]``) or at the top level, each
key once. Each settings dataclass keeps its own bounds and messages; this module holds the
mechanics: reading the file (:func:`read_table_toml`), the whole-number/number range checks
(:func:`bounds_problem`), the per-field check (:func:`check_fields`) and the load order
(:func:`load_toml_config`: file values, then overrides that are not None, then validation).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

from formosa_envs.core.errors import ConfigError

T = TypeVar("T")
UnknownCheck = Callable[[Mapping[str, Any], Mapping[str, Any], set[str], str], None]
"""``(file values, overrides, known keys, where)``: raises ``ConfigError`` for an unknown key."""


def read_table_toml(path: Path, table: str) -> dict[str, Any]:
    """The keys of TOML file ``path``: its top level merged with its ``[table]`` table.

    Raises :class:`ConfigError` naming ``--config`` and the file when it is missing, not
    readable TOML, ``[table]`` is not a table, or a key is set in both places.
    """
    if not path.is_file():
        raise ConfigError(f"--config {path}: file not found")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"--config {path}: not a readable TOML file ({exc})") from None
    section = data.pop(table, {})
    if not isinstance(section, dict):
        raise ConfigError(f"--config {path}: [{table}] must be a table")
    clash = sorted(set(section) & set(data))
    if clash:
        raise ConfigError(f"--config {path}: {clash[0]!r} is set twice (top level and [{table}])")
    return {**data, **section}


def bounds_problem(name: str, value: Any, int_bounds: Mapping[str, tuple[int, int]],
                   float_bounds: Mapping[str, tuple[float, float]]) -> str | None:
    """What is wrong with ``value`` for a bounded field ``name`` ('' when it is allowed;
    None when ``name`` is in neither bounds table)."""
    if name in int_bounds:
        low, high = int_bounds[name]
        ok = not isinstance(value, bool) and isinstance(value, int) and low <= value <= high
        return "" if ok else f"must be a whole number from {low:,} to {high:,}, got {value!r}"
    if name in float_bounds:
        low, high = float_bounds[name]
        ok = not isinstance(value, bool) and isinstance(value, (int, float)) \
            and math.isfinite(value) and low <= value <= high
        return "" if ok else f"must be a number from {low:g} to {high:g}, got {value!r}"
    return None


def check_fields(config: Any, problem: Callable[[str, Any], str], label: str,
                 where: str = "") -> None:
    """Raise :class:`ConfigError` ``"<label> <field> <problem><where>"`` for the first field
    of dataclass ``config`` that ``problem`` finds fault with."""
    for f in dataclasses.fields(config):
        message = problem(f.name, getattr(config, f.name))
        if message:
            raise ConfigError(f"{label} {f.name} {message}{where}")


def load_toml_config(cls: Callable[..., T], path: str | Path | None, table: str,
                     overrides: Mapping[str, Any], check_unknown: UnknownCheck) -> T:
    """``cls`` built from the ``[table]`` settings of TOML file ``path`` (defaults when
    None), then ``overrides`` that are not None; ``check_unknown`` refuses unknown keys
    first and ``validate(where)`` runs last."""
    values: dict[str, Any] = {}
    where = ""
    if path is not None:
        values, where = read_table_toml(Path(path), table), f" (in {path})"
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    check_unknown(values, overrides, known, where)
    config = cls(**values)
    for key, value in overrides.items():
        if value is not None:
            setattr(config, key, value)
    config.validate(where)  # type: ignore[attr-defined]
    return config
