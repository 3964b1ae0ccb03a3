"""A declarative schema of a game's state fields, checked on load and by ``check_invariants``.

Each game declares, once, what every field of its state dataclass may hold::

    SCHEMA = StateSchema(
        deck=ints(0, 53, shape=(upto(54),), unique=True),
        hands=ints(0, 53, shape=(PLAYERS, upto(hand_size)), unique=True),
        turn=seat(),
        phase=one_of(Phase),
        frames={"play": frame(SEAT), "deal": frame(CHANCE_ONLY)},
    )

A :class:`Spec` gives the type of the innermost values (``int``, ``bool`` or
``str``), one length per list level (``shape``, outer first) and the allowed
values (``lo``/``hi`` bounds, ``choices``, ``unique`` within each innermost list).
Lengths and bounds are constants or callables of the game (``PLAYERS`` is the
player count), resolved once per game and cached, so :func:`check_schema` stays
cheap enough to run after every step of a random game.

Every state is also checked generically: ``num_players`` equals the game's; the
decision stack holds :class:`~formosa_envs.core.decisions.Decision` frames whose
kind is in the game's handler table and whose player is a seat (or ``CHANCE`` /
``AUTO`` where that kind allows it), and it is non-empty exactly while the game is
not over; ``decisions`` is a non-negative count; ``last_event`` is a short string.
A broken rule raises :class:`~formosa_envs.core.errors.StateFormatError` naming the
field path, e.g. ``field 'res[0]' must have 4 entries, got 3``.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import le
from typing import Any

from .errors import StateFormatError
from .schema_frames import (  # noqa: F401 - part of this module's API
    AUTO,
    AUTO_ONLY,
    CHANCE,
    CHANCE_ONLY,
    MAX_INT,
    MAX_STACK,
    SEAT,
    FrameSpec,
    _show,
    _value,
    check_stack,
    fail,
    frame,
    frame_rule,
)

MAX_TEXT = 1000
"""Characters a ``last_event`` string may hold. ``MAX_INT`` (``schema_frames``) bounds
the magnitude of every saved integer (a signed 64-bit integer), also where a spec sets
no bound, so that every value converts to a float and back to text."""

Bound = int | Callable[[Any], Any] | tuple[Any, ...] | None
Length = int | Callable[[Any], Any] | None


def PLAYERS(game: Any) -> int:  # noqa: N802 - reads as a constant in declarations
    """Length spec: the game's player count."""
    return int(game.num_players)


def upto(limit: int | Callable[[Any], int]) -> Callable[[Any], range]:
    """Length spec: from 0 to ``limit`` entries (a constant or a callable of the game)."""
    return lambda game: range(0, _value(limit, game) + 1)


def between(low: int | Callable[[Any], int], high: int | Callable[[Any], int]
            ) -> Callable[[Any], range]:
    """Length spec: from ``low`` to ``high`` entries (constants or callables of the game)."""
    return lambda game: range(_value(low, game), _value(high, game) + 1)


def last_seat(game: Any) -> int:
    """Bound: the highest seat number."""
    return int(game.num_players) - 1


@dataclass(frozen=True)
class Spec:
    """What one state field holds: innermost type, list shape and allowed values."""

    kind: type
    shape: tuple[Length, ...] = ()
    lo: Bound = None
    hi: Bound = None
    choices: Iterable[Any] | Callable[[Any], Iterable[Any]] | None = None
    unique: bool = False


def ints(lo: Bound = None, hi: Bound = None, *, shape: tuple[Length, ...] = (),
         unique: bool = False) -> Spec:
    """Integers in ``lo..hi`` (inclusive; a tuple bounds each position of the innermost list)."""
    return Spec(int, tuple(shape), lo, hi, None, unique)


def one_of(values: Iterable[Any] | type | Callable[[Any], Iterable[Any]], *,
           shape: tuple[Length, ...] = (), unique: bool = False) -> Spec:
    """Integers from a set of values, an enum-like class of int constants, or a callable."""
    if isinstance(values, type):
        values = frozenset(v for k, v in vars(values).items()
                           if not k.startswith("_") and type(v) is int)
    return Spec(int, tuple(shape), choices=values, unique=unique)


def seat(*, shape: tuple[Length, ...] = (), none: int | None = None, extra: int = 0) -> Spec:
    """A seat number 0..n-1 (``none``: also this 'nobody' value, e.g. -1; ``extra``: that
    many values above the last seat, e.g. 1 for a neutral colour)."""
    low = 0 if none is None else min(0, none)
    return Spec(int, tuple(shape), low, lambda game: int(game.num_players) - 1 + extra)


def flags(*, shape: tuple[Length, ...] = ()) -> Spec:
    """Booleans (``true``/``false``)."""
    return Spec(bool, tuple(shape))


def text(max_len: int = MAX_TEXT) -> Spec:
    """A string of at most ``max_len`` characters."""
    return Spec(str, (), 0, max_len)


@dataclass(frozen=True)
class StateSchema:
    """The fields of a game's state (name -> :class:`Spec`), the frames of its decision
    stack (kind -> :class:`FrameSpec`, optional) and extra cross-field checks
    (callables ``(game, state)`` raising ``StateFormatError``)."""

    fields: dict[str, Spec]
    frames: dict[str, FrameSpec] = field(default_factory=dict)
    checks: tuple[Callable[[Any, Any], None], ...] = ()


def schema(frames: dict[str, FrameSpec] | None = None,
           checks: tuple[Callable[[Any, Any], None], ...] = (), **fields: Spec) -> StateSchema:
    """A :class:`StateSchema` from keyword field specs."""
    return StateSchema(dict(fields), dict(frames or {}), tuple(checks))




# ----- checking -------------------------------------------------------------------------

Check = Callable[[Any, str], None]
_ANY_LENGTH = range(0, 1 << 62)
_GENERIC: dict[str, Spec] = {"over": flags(), "decisions": ints(0), "last_event": text()}
_COMPILED: weakref.WeakKeyDictionary[Any, _Compiled] = weakref.WeakKeyDictionary()


@dataclass
class _Compiled:
    fields: list[tuple[str, Check]]
    frames: dict[str, tuple[Any, ...]]
    checks: tuple[Callable[[Any, Any], None], ...]
    stack: bool


def check_schema(game: Any, state: Any) -> None:
    """Check every field of ``state`` against ``game.state_schema`` plus the generic rules
    (player count, decision stack, counters); raise ``StateFormatError`` naming the field."""
    compiled = _COMPILED.get(game)
    if compiled is None:
        compiled = _COMPILED[game] = _compile(game)
    cls = getattr(game, "state_class", None)
    if cls is not None and type(state) is not cls:
        raise StateFormatError(f"state must be a {cls.__name__}, got {type(state).__name__}")
    players = getattr(state, "num_players", game.num_players)
    if players != game.num_players or type(players) is not int:
        fail("num_players", f"must be {game.num_players} (this game's player count), "
                            f"got {_show(players)}")
    for name, check in compiled.fields:
        check(getattr(state, name), name)
    if compiled.stack:
        check_stack(game, state, compiled.frames)
    for extra in compiled.checks:
        extra(game, state)


@dataclass(frozen=True)
class Resolved:
    """A field's spec at one game's configuration: allowed lengths per list level, the
    bounds (an int, a per-position tuple, or None) and the allowed values (or None)."""

    kind: type
    lengths: tuple[range, ...]
    lo: Any
    hi: Any
    choices: frozenset[Any] | None
    unique: bool


def resolve(game: Any, name: str) -> Resolved:
    """The spec of state field ``name`` (declared or generic) resolved for ``game``."""
    sch: StateSchema = getattr(game, "state_schema", None) or StateSchema({})
    spec = {**_GENERIC, **sch.fields}[name]
    choices = None if spec.choices is None else frozenset(_value(spec.choices, game))
    lo, hi = (_value(spec.lo, game), _value(spec.hi, game))
    lo = tuple(_value(b, game) for b in lo) if isinstance(lo, (tuple, list)) else lo
    hi = tuple(_value(b, game) for b in hi) if isinstance(hi, (tuple, list)) else hi
    return Resolved(spec.kind, tuple(_length(s, game) for s in spec.shape), lo, hi, choices,
                    spec.unique)


def describe_schema(game: Any) -> dict[str, str]:
    """One line per declared field: its type, shape and bounds at this game's configuration
    (for documentation and error reports)."""
    sch: StateSchema = getattr(game, "state_schema", None) or StateSchema({})
    out = {}
    for name in {**_GENERIC, **sch.fields}:
        r = resolve(game, name)
        shape = " x ".join(_length_text(length) for length in r.lengths) or "scalar"
        bounds = f"one of {sorted(r.choices)}" if r.choices is not None else f"{r.lo}..{r.hi}"
        out[name] = f"{r.kind.__name__} {shape} {bounds}" + (" unique" if r.unique else "")
    return out


def _compile(game: Any) -> _Compiled:
    sch: StateSchema | None = getattr(game, "state_schema", None)
    cls = getattr(game, "state_class", None)
    names = [f.name for f in dataclasses.fields(cls)] if cls is not None else []
    specs = {**_GENERIC, **(sch.fields if sch else {})}
    unknown = [k for k in specs if k not in names and k not in _GENERIC]
    if unknown:
        raise TypeError(f"{type(game).__name__}.state_schema names unknown fields {unknown}")
    missing = [n for n in names if n not in specs and n not in ("stack", "num_players")]
    if sch is not None and missing:
        raise TypeError(f"{type(game).__name__}.state_schema does not describe {missing}")
    fields = [(n, _field_check(specs[n], game)) for n in names if n in specs]
    handlers = getattr(game, "handlers", None)
    frames = {kind: frame_rule(game, kind, handler, (sch.frames if sch else {}).get(kind))
              for kind, handler in (handlers or {}).items()}
    return _Compiled(fields, frames, sch.checks if sch else (), "stack" in names and
                     handlers is not None)


def _length(spec: Length, game: Any) -> range:
    value = _value(spec, game)
    if value is None:
        return _ANY_LENGTH
    return value if isinstance(value, range) else range(value, value + 1)


def _length_text(allowed: range) -> str:
    if allowed is _ANY_LENGTH:
        return "any"
    if len(allowed) == 1:
        return str(allowed.start)
    if allowed.start == 0:
        return f"at most {allowed.stop - 1}"
    return f"{allowed.start}..{allowed.stop - 1}"


def _check_length(v: Any, path: str, allowed: range) -> None:
    if type(v) is not list:
        fail(path, f"must be a list, got {_show(v)}")
    if len(v) not in allowed:
        fail(path, f"must have {_length_text(allowed)} entries, got {len(v)}")


def _field_check(spec: Spec, game: Any) -> Check:
    lengths = [_length(s, game) for s in spec.shape]
    lo, hi = _value(spec.lo, game), _value(spec.hi, game)
    choices = None if spec.choices is None else frozenset(_value(spec.choices, game))
    positional = isinstance(lo, (tuple, list)) or isinstance(hi, (tuple, list))
    if not lengths:
        return _scalar_check(spec.kind, lo, hi, choices)
    if positional:
        if len(lengths[-1]) != 1:
            raise TypeError("per-position bounds need an exact innermost length")
        width = lengths[-1].start
        los = [_value(b, game) for b in lo] if isinstance(lo, (tuple, list)) else [lo] * width
        his = [_value(b, game) for b in hi] if isinstance(hi, (tuple, list)) else [hi] * width
        check = _positional_list(spec.kind, lengths[-1], los, his, choices)
    else:
        check = _leaf_list(spec.kind, lengths[-1], lo, hi, choices, spec.unique)
    for allowed in reversed(lengths[:-1]):
        check = _outer_list(allowed, check)
    return check


def _scalar_check(kind: type, lo: Any, hi: Any, choices: frozenset[Any] | None) -> Check:
    noun = {int: "an integer", bool: "true or false", str: "a string"}[kind]
    measure = len if kind is str else (lambda x: x)
    if kind is int:
        lo = -MAX_INT if lo is None else lo
        hi = MAX_INT if hi is None else hi

    def check(x: Any, path: str) -> None:
        if type(x) is not kind:
            fail(path, f"must be {noun}, got {_show(x)}")
        if kind is str and not _encodable(x):
            fail(path, f"must be text that can be written as UTF-8 (it holds a lone "
                       f"surrogate), got {_show(x)}")
        size = measure(x)
        if lo is not None and size < lo:
            fail(path, f"must be >= {lo}, got {x}")
        if hi is not None and size > hi:
            limit = f"at most {hi} characters long" if kind is str else f"<= {hi}"
            fail(path, f"must be {limit}, got {_show(x)}")
        if choices is not None and x not in choices:
            fail(path, f"must be one of {sorted(choices)}, got {_show(x)}")
    return check


def _encodable(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (no lone surrogate)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _leaf_list(kind: type, allowed: range, lo: Any, hi: Any, choices: frozenset[Any] | None,
               unique: bool) -> Check:
    scalar = _scalar_check(kind, lo, hi, choices)
    types = {kind}
    if kind is int:
        lo = -MAX_INT if lo is None else lo
        hi = MAX_INT if hi is None else hi
    slow_text = kind is str

    def check(v: Any, path: str) -> None:
        _check_length(v, path, allowed)
        if not v:
            return
        if (slow_text or set(map(type, v)) != types or (lo is not None and min(v) < lo)
                or (hi is not None and max(v) > hi)
                or (choices is not None and not choices.issuperset(v))):
            for i, x in enumerate(v):
                scalar(x, f"{path}[{i}]")
        if unique and len(set(v)) != len(v):
            seen: set[Any] = set()
            for x in v:
                if x in seen:
                    fail(path, f"must not hold {x!r} twice")
                seen.add(x)
    return check


def _positional_list(kind: type, allowed: range, los: list[Any], his: list[Any],
                     choices: frozenset[Any] | None) -> Check:
    cells = [_scalar_check(kind, a, b, choices) for a, b in zip(los, his, strict=True)]
    low = [-MAX_INT if a is None else a for a in los]
    high = [MAX_INT if b is None else b for b in his]
    types, slow = {kind}, choices is not None or kind is not int

    def check(v: Any, path: str) -> None:
        _check_length(v, path, allowed)
        if (slow or set(map(type, v)) != types or not all(map(le, low, v))
                or not all(map(le, v, high))):
            for i, (x, cell) in enumerate(zip(v, cells, strict=True)):
                cell(x, f"{path}[{i}]")
    return check


def _outer_list(allowed: range, inner: Check) -> Check:
    def check(v: Any, path: str) -> None:
        _check_length(v, path, allowed)
        for i, x in enumerate(v):
            inner(x, f"{path}[{i}]")
    return check
