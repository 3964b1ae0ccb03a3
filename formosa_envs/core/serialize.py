"""JSON-friendly (de)serialisation of state dataclasses, with validation.

States are plain dataclasses whose fields are ints, bools, strings, (nested)
lists of those, and lists of :class:`~formosa_envs.core.decisions.Decision`.
:func:`state_from_dict` rebuilds the dataclass and (unless a state schema does it,
see ``core/schema.py``) checks every field against its annotation, raising
:class:`StateFormatError` naming the first field that is wrong, so a corrupt save
file never crashes deep inside the rules.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any

from .decisions import Decision
from .errors import StateFormatError


def copy_state(state: Any) -> Any:
    """An independent copy of a slots dataclass whose fields are ints, strings,
    immutable records and (nested) lists of those: lists are copied at every level."""
    copy = object.__new__(type(state))
    for name in type(state).__slots__:
        setattr(copy, name, _copy(getattr(state, name)))
    return copy


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value] if value and isinstance(value[0], list) else value[:]
    return value


def state_to_dict(state: Any) -> dict[str, Any]:
    """Every field of ``state`` as plain JSON types."""
    return {f.name: _encode(getattr(state, f.name)) for f in dataclasses.fields(state)}


def _encode(value: Any) -> Any:
    if isinstance(value, Decision):
        return value.to_list()
    if isinstance(value, list):
        return [_encode(v) for v in value]
    return value


def state_from_dict(cls: type, data: Any, check_types: bool = True) -> Any:
    """Build ``cls`` from :func:`state_to_dict` output.

    Decision frames are rebuilt from their lists (shape-checked). With ``check_types``
    every other value is checked against its annotation too; a game with a state schema
    passes False, since :func:`~formosa_envs.core.schema.check_schema` then checks every
    field's type along with its length and range (one pass instead of two).
    """
    if not isinstance(data, dict):
        raise StateFormatError(f"saved state must be an object, got {type(data).__name__}")
    hints = _hints(cls)
    missing = [n for n in hints if n not in data]
    extra = [k for k in data if k not in hints]
    if missing or extra:
        raise StateFormatError(f"saved state fields do not match: missing {missing}, "
                               f"unexpected {extra}")
    if check_types:
        values = {n: _decode(h, data[n], n) for n, h in hints.items()}
    else:
        values = {n: _decode(h, data[n], n) if h in _DECISION_HINTS else data[n]
                  for n, h in hints.items()}
    return cls(**values)


_DECISION_HINTS = (list[Decision], Decision)


@functools.lru_cache(maxsize=64)
def _hints(cls: type) -> dict[str, Any]:
    """The annotation of each dataclass field of ``cls``, in field order (cached)."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _decode(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if hint is Decision:
        return _decode_decision(value, where)
    if origin is list:
        (inner,) = typing.get_args(hint)
        if not isinstance(value, list):
            raise StateFormatError(f"field {where!r} must be a list, got {value!r:.60}")
        return [_decode(inner, v, f"{where}[{i}]") for i, v in enumerate(value)]
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        if value is None and type(None) in typing.get_args(hint):
            return None
        inner = [a for a in typing.get_args(hint) if a is not type(None)][0]
        return _decode(inner, value, where)
    return _decode_scalar(hint, value, where)


def _decode_scalar(hint: Any, value: Any, where: str) -> Any:
    if hint is bool:
        if not isinstance(value, bool):
            raise StateFormatError(f"field {where!r} must be true/false, got {value!r:.60}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise StateFormatError(f"field {where!r} must be an integer, got {value!r:.60}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise StateFormatError(f"field {where!r} must be a string, got {value!r:.60}")
        return value
    raise StateFormatError(f"field {where!r} has an unsupported type {hint!r}")


def _decode_decision(value: Any, where: str) -> Decision:
    ok = (isinstance(value, list) and len(value) == 5 and isinstance(value[0], str)
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value[1:3])
          and isinstance(value[3], bool) and isinstance(value[4], list)
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value[4]))
    if not ok:
        raise StateFormatError(f"field {where!r} is not a valid decision frame: {value!r:.80}")
    return Decision.from_list(value)
