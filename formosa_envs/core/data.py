"""Loading content tables from TOML into validated frozen dataclasses.

Every row of every data file must carry a ``source``: ``rulebook``, ``found``
(a public source, cited in ``note``), ``inferred`` or ``placeholder``. The
loader rejects unknown keys, missing keys and wrong types with a message that
names the file, the table, the row and the key.
"""

from __future__ import annotations

import dataclasses
import sys
import typing
from pathlib import Path
from typing import Any, TypeVar

from .errors import DataError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

SOURCES = ("rulebook", "found", "inferred", "placeholder")
R = TypeVar("R")


def require(ok: bool, where: str | Path, message: str) -> None:
    """Raise :class:`DataError` ``"{where}: {message}"`` unless ``ok`` (content checks)."""
    if not ok:
        raise DataError(f"{where}: {message}")


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file, turning every failure into a :class:`DataError`."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise DataError(f"data file not found: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"data file {path} is not valid TOML: {exc}") from None


def load_rows(path: str | Path, table: str, row_class: type[R]) -> list[R]:
    """Load the array of tables ``[[table]]`` in ``path`` as ``row_class`` rows.

    ``row_class`` must be a dataclass with a ``source: str`` field.
    """
    doc = read_toml(path)
    rows = doc.get(table)
    if not isinstance(rows, list) or not rows:
        raise DataError(f"{path}: expected a non-empty [[{table}]] array of tables")
    return [parse_row(row, row_class, f"{path} [[{table}]] row {i}")
            for i, row in enumerate(rows)]


def parse_row(row: Any, row_class: type[R], where: str) -> R:
    """Validate one TOML row against ``row_class`` and build it."""
    if not isinstance(row, dict):
        raise DataError(f"{where}: expected a table, got {type(row).__name__}")
    hints = typing.get_type_hints(row_class)
    fields = {f.name: f for f in dataclasses.fields(row_class)}
    unknown = sorted(set(row) - set(fields))
    if unknown:
        raise DataError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(fields)}")
    values: dict[str, Any] = {}
    for name, field in fields.items():
        if name not in row:
            if field.default is dataclasses.MISSING:
                raise DataError(f"{where}: missing required key {name!r}")
            continue
        values[name] = _coerce(hints[name], row[name], f"{where} key {name!r}")
    if values.get("source") not in SOURCES:
        raise DataError(f"{where}: 'source' must be one of {SOURCES}, "
                        f"got {values.get('source')!r}")
    try:
        return row_class(**values)
    except (TypeError, ValueError) as exc:
        raise DataError(f"{where}: {exc}") from None


def _coerce(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin is tuple:
        inner = typing.get_args(hint)[0]
        if not isinstance(value, list):
            raise DataError(f"{where}: expected a list, got {value!r}")
        return tuple(_coerce(inner, v, where) for v in value)
    ok = {int: lambda v: isinstance(v, int) and not isinstance(v, bool),
          bool: lambda v: isinstance(v, bool),
          str: lambda v: isinstance(v, str),
          float: lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)}
    if hint in ok and not ok[hint](value):
        raise DataError(f"{where}: expected {hint.__name__}, got {value!r}")
    return float(value) if hint is float else value
