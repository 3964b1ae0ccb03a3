"""Loading content tables from TOML into validated frozen dataclasses.

Every row of every data file must carry a ``source``: ``rulebook``, ``found``
(a public source, cited in ``note``), ``inferred`` or ``placeholder``. The
loader rejects unknown keys, missing keys, wrong types and values outside each
field's documented bounds with a message that names the file, the table, the
row (its index and identifying keys) and the key.

A row class declares the bounds of its fields with :func:`bounded` (an int, or
every element of a tuple, in ``lo..hi``; a tuple's length) and :func:`row_id`
(a stable id checked by the loader's id rule); text fields are limited to
:data:`MAX_TEXT` characters (``note``: :data:`MAX_NOTE`). The bounds are the
values the rules and the engine can carry (payment tables, observation scales,
pictures); ``docs/data-files.md`` lists them and why.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .errors import DataError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

SOURCES = ("rulebook", "found", "inferred", "placeholder")
MAX_FILE_BYTES = 1 << 20
"""A data file larger than 1 MiB is refused before it is read (the biggest shipped is 15 kB)."""
MAX_TEXT, MAX_NOTE = 200, 4000
"""Longest text value (names, keys, codes) and longest ``note``, in characters."""
IDENTITY_KEYS = ("id", "key", "code", "name", "track", "tile", "space", "face")
"""Keys quoted in error messages to name a row (as present in the raw row)."""
R = TypeVar("R")
T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class Bounds:
    """Documented bounds of one data field.

    ``lo``/``hi`` bound an int (or every int of a tuple); ``length`` bounds a
    tuple's length; ``unique`` forbids repeated tuple elements; ``is_id`` marks a
    stable row id, checked by the loader's id rule instead of a range.
    """

    lo: int | None = None
    hi: int | None = None
    length: tuple[int, int] | None = None
    unique: bool = False
    is_id: bool = False

    def describe(self) -> str:
        """A short human-readable form, e.g. ``0..8`` or ``length 4, each 0..3``."""
        if self.is_id:
            return "row id 0..N-1 in file order"
        parts = []
        if self.length is not None:
            lo, hi = self.length
            parts.append(f"length {lo}" if lo == hi else f"length {lo}..{hi}")
        if self.lo is not None:
            parts.append(("each " if self.length else "") + f"{self.lo}..{self.hi}")
        if self.unique:
            parts.append("no repeats")
        return ", ".join(parts)


def bounded(lo: int | None = None, hi: int | None = None, *,
            length: tuple[int, int] | None = None, unique: bool = False,
            default: Any = dataclasses.MISSING, kw_only: bool = False) -> Any:
    """A dataclass field with :class:`Bounds` (use as ``wood: int = bounded(0, 8)``).

    ``kw_only`` lets a field with a default sit in a base class before fields without.
    """
    if (lo is None) != (hi is None):
        raise TypeError("bounded() needs both lo and hi, or neither")
    meta = {"bounds": Bounds(lo, hi, length, unique)}
    return dataclasses.field(default=default, metadata=meta,
                             kw_only=True if kw_only else dataclasses.MISSING)


def row_id() -> Any:
    """A dataclass field for a stable row id (0..N-1 in file order, checked by the loader)."""
    return dataclasses.field(metadata={"bounds": Bounds(is_id=True)})


def field_bounds(row_class: type) -> dict[str, Bounds | None]:
    """The declared :class:`Bounds` of every field of ``row_class`` (None: none declared)."""
    return {f.name: f.metadata.get("bounds") for f in dataclasses.fields(row_class)}


def unbounded_fields(row_class: type) -> list[str]:
    """Int and tuple fields of ``row_class`` without declared bounds (should be none)."""
    hints = typing.get_type_hints(row_class)
    return [name for name, b in field_bounds(row_class).items()
            if b is None and (hints[name] is int or typing.get_origin(hints[name]) is tuple)]


def require(ok: bool, where: str | Path, message: str) -> None:
    """Raise :class:`DataError` ``"{where}: {message}"`` unless ``ok`` (content checks)."""
    if not ok:
        raise DataError(f"{where}: {message}")


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file, turning every failure into a :class:`DataError` naming the file.

    Refused: a missing path, a folder, an unreadable file, a file over
    :data:`MAX_FILE_BYTES`, bytes that are not UTF-8 text and invalid TOML.
    """
    if not isinstance(path, (str, Path)) or not str(path).strip():
        raise DataError(f"a data file must be given as a path, got {path!r}")
    path = Path(path)
    shown = _shown_path(path)
    try:
        if path.is_dir():
            raise DataError(f"data file {shown} is a folder, not a TOML file")
        if path.exists() and not path.is_file():  # a device, a FIFO, a socket
            raise DataError(f"data file {shown} is not a regular file")
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)  # never more, whatever stat says
    except FileNotFoundError:
        raise DataError(f"data file not found: {shown}") from None
    except OSError as exc:
        raise DataError(f"data file {shown} cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise DataError(f"data file {shown} is over {MAX_FILE_BYTES} bytes; a data file "
                        f"holds at most {MAX_FILE_BYTES} bytes")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise DataError(f"data file {shown} is not UTF-8 text (a binary file?): byte "
                        f"{exc.start} cannot be decoded") from None
    except ValueError as exc:  # TOMLDecodeError, or an integer too long to convert
        raise DataError(f"data file {shown} is not valid TOML: {exc}") from None


def _shown_path(path: Path, limit: int = 200) -> str:
    """``path`` for an error message, shortened in the middle past ``limit`` characters."""
    text = str(path)
    return text if len(text) <= limit else f"{text[:limit // 2]}...{text[-limit // 2:]}"


def load_rows(path: str | Path, table: str, row_class: type[R], *,
              ids: int | None = None) -> list[R]:
    """Load the array of tables ``[[table]]`` in ``path`` as ``row_class`` rows.

    ``row_class`` must be a dataclass with a ``source: str`` field. With ``ids=N``
    the table must hold exactly N rows whose ``id`` runs 0..N-1 in file order.
    """
    doc = read_toml(path)
    rows = doc.get(table)
    if not isinstance(rows, list) or not rows:
        raise DataError(f"{path}: expected a non-empty [[{table}]] array of tables")
    out = [parse_row(row, row_class, _where(path, table, i, row))
           for i, row in enumerate(rows)]
    if ids is not None:
        check_ids([r.id for r in out], ids,  # type: ignore[attr-defined]
                  f"{path} [[{table}]]")
    return out


def check_ids(found: list[int], expected: int, where: str | Path) -> None:
    """Raise :class:`DataError` unless ``found`` is exactly ``0..expected-1`` in order."""
    if found == list(range(expected)):
        return
    if len(found) != expected:
        detail = f"found {len(found)} rows"
    else:
        i = next(i for i, v in enumerate(found) if v != i)
        detail = f"row {i} has id {found[i]}"
    raise DataError(f"{where}: ids must be 0..{expected - 1} in file order ({expected} rows); "
                    f"{detail}")


def _where(path: str | Path, table: str, i: int, row: Any) -> str:
    name = ""
    if isinstance(row, dict):
        keys = [f"{k}={row[k]!r}" for k in IDENTITY_KEYS
                if isinstance(row.get(k), (int, str)) and len(repr(row[k])) <= 40]
        name = f" ({' '.join(keys)})" if keys else ""
    return f"{path} [[{table}]] row {i}{name}"


def parse_row(row: Any, row_class: type[R], where: str) -> R:
    """Validate one TOML row against ``row_class`` (types, then bounds) and build it."""
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
        _check_bounds(name, values[name], field.metadata.get("bounds"), where)
    if values.get("source") not in SOURCES:
        raise DataError(f"{where}: 'source' must be one of {SOURCES}, "
                        f"got {values.get('source')!r}")
    try:
        return row_class(**values)
    except (TypeError, ValueError) as exc:
        raise DataError(f"{where}: {exc}") from None


def _check_bounds(name: str, value: Any, bounds: Bounds | None, where: str) -> None:
    if isinstance(value, str):
        limit = MAX_NOTE if name == "note" else MAX_TEXT
        require(len(value) <= limit, where,
                f"{name!r} is {len(value)} characters long; at most {limit} are allowed")
        return
    if bounds is None or bounds.is_id:
        return
    if isinstance(value, tuple):
        if bounds.length is not None:
            lo, hi = bounds.length
            span = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
            require(lo <= len(value) <= hi, where,
                    f"{name!r} must hold {span} values, got {len(value)}: {list(value)}")
        if bounds.unique:
            require(len(set(value)) == len(value), where,
                    f"{name!r} must not repeat a value, got {list(value)}")
        items = [v for v in value if isinstance(v, int)]
    else:
        items = [value] if isinstance(value, int) and not isinstance(value, bool) else []
    if bounds.lo is None:
        return
    for v in items:
        _check_range(name, v, bounds.lo, bounds.hi, where)


def _check_range(name: str, v: int, lo: int, hi: Any, where: str) -> None:
    if lo <= v <= hi:
        return
    hint = ""
    if v < lo:
        hint = f" ({name!r} must not be negative)" if lo == 0 else (
            f" ({name!r} must be at least {lo})")
    raise DataError(f"{where}: {name!r} must be between {lo} and {hi}, got {v}{hint}")


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
        raise DataError(f"{where}: expected {hint.__name__}, got {_short(value)}")
    return float(value) if hint is float else value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def cached_by_file(load: Callable[[Any], T]) -> Callable[..., T]:
    """Memoise a loader ``load(path=None)`` by the file's path, size and modification time,
    so loading the same file twice is free but an edited file is read again (a plain
    cache by path kept serving the old rows in a notebook session)."""
    cache: dict[Any, T] = {}

    @functools.wraps(load)
    def cached(path: Any = None) -> T:
        key = _file_key(path)
        if key not in cache:
            if len(cache) >= 32:
                cache.clear()
            cache[key] = load(path)
        return cache[key]

    cached.cache_clear = cache.clear  # type: ignore[attr-defined]
    return cached


def _file_key(path: Any) -> Any:
    if path is None or not isinstance(path, (str, os.PathLike)):
        return ("arg", repr(path))
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return ("arg", repr(path))
    return (os.fspath(path), st.st_mtime_ns, st.st_size, st.st_ino)
