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

from .decisions import Decision, FunctionHandler, Handler
from .errors import StateFormatError

CHANCE, AUTO = -1, -2  # the engine's player codes (engine.py imports this module)
MAX_STACK = 1000
"""Frames a decision stack may hold (real games stay far below)."""
MAX_TEXT = 1000
"""Characters a ``last_event`` string may hold."""

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


SEAT, CHANCE_ONLY, AUTO_ONLY = "seat", "chance", "auto"


@dataclass(frozen=True)
class FrameSpec:
    """What a decision frame of one kind may hold."""

    player: str = SEAT
    ctx: Length = None
    ctx_lo: Bound = None
    ctx_hi: Bound = None
    count: tuple[int, int] = (0, 1 << 30)


def frame(player: str = SEAT, *, ctx: Length = 0, lo: Bound = None, hi: Bound = None,
          count: tuple[int, int] = (1, 1)) -> FrameSpec:
    """A frame kind decided by ``player`` (``SEAT``, ``CHANCE_ONLY`` or ``AUTO_ONLY``), with
    ``ctx`` entries (a length spec) bounded by ``lo``/``hi`` and ``count`` in a range."""
    if player not in (SEAT, CHANCE_ONLY, AUTO_ONLY):
        raise ValueError(f"frame player must be {SEAT!r}, {CHANCE_ONLY!r} or {AUTO_ONLY!r}")
    return FrameSpec(player, ctx, lo, hi, count)


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


def fail(path: str, message: str) -> None:
    """Raise ``StateFormatError`` for field ``path``."""
    raise StateFormatError(f"field {path!r} {message}")


def _value(spec: Any, game: Any) -> Any:
    return spec(game) if callable(spec) else spec


def _show(value: Any) -> str:
    return f"{value!r:.60}"


# ----- checking -------------------------------------------------------------------------

Check = Callable[[Any, str], None]
_ANY_LENGTH = range(0, 1 << 62)
_HUGE = 1 << 62
_GENERIC: dict[str, Spec] = {"over": flags(), "decisions": ints(0), "last_event": text()}
_COMPILED: weakref.WeakKeyDictionary[Any, _Compiled] = weakref.WeakKeyDictionary()


@dataclass
class _Compiled:
    fields: list[tuple[str, Check]]
    frames: dict[str, tuple[frozenset[int] | None, Any, Any, Any, range]]
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
        _check_stack(game, state, compiled.frames)
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
    frames = {kind: _frame_rule(game, kind, handler, (sch.frames if sch else {}).get(kind))
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

    def check(x: Any, path: str) -> None:
        if type(x) is not kind:
            fail(path, f"must be {noun}, got {_show(x)}")
        size = measure(x)
        if lo is not None and size < lo:
            fail(path, f"must be >= {lo}, got {x}")
        if hi is not None and size > hi:
            limit = f"at most {hi} characters long" if kind is str else f"<= {hi}"
            fail(path, f"must be {limit}, got {_show(x)}")
        if choices is not None and x not in choices:
            fail(path, f"must be one of {sorted(choices)}, got {_show(x)}")
    return check


def _leaf_list(kind: type, allowed: range, lo: Any, hi: Any, choices: frozenset[Any] | None,
               unique: bool) -> Check:
    scalar = _scalar_check(kind, lo, hi, choices)
    types = {kind}

    def check(v: Any, path: str) -> None:
        _check_length(v, path, allowed)
        if not v:
            return
        if (set(map(type, v)) != types or (lo is not None and min(v) < lo)
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
    low = [-_HUGE if a is None else a for a in los]
    high = [_HUGE if b is None else b for b in his]
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


# ----- the decision stack -----------------------------------------------------------------

def _roles(handler: Any) -> str:
    """Who may decide a frame of this handler: seats (``legal``), chance (``outcomes``),
    or only the engine (``AUTO``: neither)."""
    if isinstance(handler, FunctionHandler):
        chance, seat_ = handler._outcomes is not None, handler._legal is not None
    else:
        chance = type(handler).outcomes is not Handler.outcomes
        seat_ = type(handler).legal is not Handler.legal
    return CHANCE_ONLY if chance else SEAT if seat_ else AUTO_ONLY


def _frame_rule(game: Any, kind: str, handler: Any, spec: FrameSpec | None) -> tuple[Any, ...]:
    role = spec.player if spec is not None else _roles(handler)
    players = {SEAT: None, CHANCE_ONLY: frozenset({CHANCE}), AUTO_ONLY: frozenset({AUTO})}[role]
    if spec is None:
        return players, None, None, None, range(0, 1 << 30)
    ctx_len = _length(spec.ctx, game)
    lo, hi = _value(spec.ctx_lo, game), _value(spec.ctx_hi, game)
    if isinstance(lo, (tuple, list)):
        lo = tuple(_value(b, game) for b in lo)
    if isinstance(hi, (tuple, list)):
        hi = tuple(_value(b, game) for b in hi)
    return players, ctx_len, lo, hi, range(spec.count[0], spec.count[1] + 1)


def _check_stack(game: Any, state: Any, frames: dict[str, tuple[Any, ...]]) -> None:
    stack, over = state.stack, state.over
    if type(stack) is not list:
        fail("stack", f"must be a list of decision frames, got {_show(stack)}")
    if len(stack) > MAX_STACK:
        fail("stack", f"must hold at most {MAX_STACK} frames, got {len(stack)}")
    if not stack and not over:
        fail("stack", "is empty but field 'over' is false: a game in play has a pending "
                      "decision")
    if stack and over:
        fail("over", f"is true but field 'stack' holds {len(stack)} pending decision(s): "
                     "a finished game has none")
    for i, d in enumerate(stack):
        _check_frame(game, d, f"stack[{i}]", frames)


def _check_frame(game: Any, d: Any, path: str, frames: dict[str, tuple[Any, ...]]) -> None:
    if type(d) is not Decision:
        fail(path, f"must be a decision frame, got {_show(d)}")
    kind, player, count, optional, ctx = d
    rule = frames.get(kind) if type(kind) is str else None
    if rule is None:
        fail(path + ".kind", f"must be a decision kind of {game.name} "
                             f"({', '.join(sorted(frames))}), got {_show(kind)}")
    players, ctx_len, lo, hi, counts = rule
    n = game.num_players
    if type(player) is not int or not (0 <= player < n if players is None
                                       else player in players):
        who = (f"a seat 0..{n - 1}" if players is None else
               "CHANCE (-1)" if CHANCE in players else "AUTO (-2)")
        fail(path + ".player", f"must be {who} for kind {kind!r}, got {_show(player)}")
    if type(count) is not int or count not in counts:
        fail(path + ".count", f"must be an integer in {counts.start}..{counts.stop - 1}, "
                              f"got {_show(count)}")
    if type(optional) is not bool:
        fail(path + ".optional", f"must be true or false, got {_show(optional)}")
    if type(ctx) is not tuple or any(type(x) is not int for x in ctx):
        fail(path + ".ctx", f"must be a list of integers, got {_show(ctx)}")
    if ctx_len is not None and len(ctx) not in ctx_len:
        fail(path + ".ctx", f"must have {_length_text(ctx_len)} entries for kind {kind!r}, "
                            f"got {len(ctx)}")
    for j, x in enumerate(ctx):
        a = lo[j] if isinstance(lo, tuple) and j < len(lo) else None if isinstance(lo, tuple) \
            else lo
        b = hi[j] if isinstance(hi, tuple) and j < len(hi) else None if isinstance(hi, tuple) \
            else hi
        if (a is not None and x < a) or (b is not None and x > b):
            fail(f"{path}.ctx[{j}]", f"must be in {a}..{b} for kind {kind!r}, got {x}")
