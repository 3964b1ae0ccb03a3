"""The decision-stack half of the state schema (``core/schema.py``).

Every frame's kind must be in the game's handler table, its player a seat, ``CHANCE``
or ``AUTO`` as that kind allows (derived from the handler: ``outcomes`` means chance,
``legal`` a seat, neither the engine), and the stack is non-empty exactly while the
game is not over. A game may declare per-kind :class:`FrameSpec` rules with
:func:`frame`: the ``ctx`` length, per-position bounds (constants or callables of the
game), the ``count`` range, and a ``check`` callable ``(game, state, frame, path)`` for
what depends on the state or on other positions (ids that must name a live component,
a pending payment that must be payable). A check runs after the frame's own rules and
after every state field has passed its spec, so it may index the state freely; it
raises through :func:`fail` naming the frame's field, e.g. ``stack[3].ctx[1]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .decisions import Decision, FunctionHandler, Handler
from .errors import StateFormatError

CHANCE, AUTO = -1, -2  # the engine's player codes (engine.py imports the schema)
MAX_STACK = 1000
"""Frames a decision stack may hold (real games stay far below)."""
MAX_INT = (1 << 63) - 1
"""The largest magnitude of a ``ctx`` entry (``schema.MAX_INT``: a signed 64-bit integer)."""
Bound = Any
Length = Any

SEAT, CHANCE_ONLY, AUTO_ONLY = "seat", "chance", "auto"


@dataclass(frozen=True)
class FrameSpec:
    """What a decision frame of one kind may hold."""

    player: str = SEAT
    ctx: Length = None
    ctx_lo: Bound = None
    ctx_hi: Bound = None
    count: tuple[int, int] = (0, 1 << 30)
    check: FrameCheck | None = None


FrameCheck = Callable[[Any, Any, Decision, str], None]
"""A frame's cross-field check: ``(game, state, frame, path)``, raising via :func:`fail`."""


def frame(player: str = SEAT, *, ctx: Length = 0, lo: Bound = None, hi: Bound = None,
          count: tuple[int, int] = (1, 1), check: FrameCheck | None = None) -> FrameSpec:
    """A frame kind decided by ``player`` (``SEAT``, ``CHANCE_ONLY`` or ``AUTO_ONLY``), with
    ``ctx`` entries (a length spec) bounded by ``lo``/``hi`` (one bound for every position,
    or a tuple with one per position, each a constant, a callable of the game or None),
    ``count`` in a range, and an optional cross-field ``check``."""
    if player not in (SEAT, CHANCE_ONLY, AUTO_ONLY):
        raise ValueError(f"frame player must be {SEAT!r}, {CHANCE_ONLY!r} or {AUTO_ONLY!r}")
    return FrameSpec(player, ctx, lo, hi, count, check)


def fail(path: str, message: str) -> None:
    """Raise ``StateFormatError`` for field ``path``."""
    raise StateFormatError(f"field {path!r} {message}")


def _value(spec: Any, game: Any) -> Any:
    return spec(game) if callable(spec) else spec


def _show(value: Any) -> str:
    return f"{value!r:.60}"


def _length(spec: Any, game: Any) -> range:
    value = _value(spec, game)
    if value is None:
        return range(0, 1 << 62)
    return value if isinstance(value, range) else range(value, value + 1)


def _length_text(allowed: range) -> str:
    if len(allowed) == 1:
        return str(allowed.start)
    if allowed.start == 0:
        return f"at most {allowed.stop - 1}"
    return f"{allowed.start}..{allowed.stop - 1}"


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


def frame_rule(game: Any, kind: str, handler: Any, spec: FrameSpec | None) -> tuple[Any, ...]:
    """The compiled rule for frames of ``kind``: players, ctx length, ctx bounds, counts,
    cross-field check."""
    role = spec.player if spec is not None else _roles(handler)
    players = {SEAT: None, CHANCE_ONLY: frozenset({CHANCE}), AUTO_ONLY: frozenset({AUTO})}[role]
    if spec is None:
        return players, None, None, None, range(0, 1 << 30), None
    ctx_len = _length(spec.ctx, game)
    lo, hi = _value(spec.ctx_lo, game), _value(spec.ctx_hi, game)
    if isinstance(lo, (tuple, list)):
        lo = tuple(_value(b, game) for b in lo)
    if isinstance(hi, (tuple, list)):
        hi = tuple(_value(b, game) for b in hi)
    return players, ctx_len, lo, hi, range(spec.count[0], spec.count[1] + 1), spec.check


def check_stack(game: Any, state: Any, frames: dict[str, tuple[Any, ...]]) -> None:
    """The stack holds frames of known kinds for allowed players; empty iff ``over``."""
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
    for i, d in enumerate(stack):
        check = frames[d.kind][5]
        if check is not None:
            check(game, state, d, f"stack[{i}]")


def _check_frame(game: Any, d: Any, path: str, frames: dict[str, tuple[Any, ...]]) -> None:
    if type(d) is not Decision:
        fail(path, f"must be a decision frame, got {_show(d)}")
    kind, player, count, optional, ctx = d
    rule = frames.get(kind) if type(kind) is str else None
    if rule is None:
        fail(path + ".kind", f"must be a decision kind of {game.name} "
                             f"({', '.join(sorted(frames))}), got {_show(kind)}")
    players, ctx_len, lo, hi, counts, _check = rule
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
    if ctx and (max(ctx) > MAX_INT or min(ctx) < -MAX_INT):
        fail(path + ".ctx", f"must hold integers of at most 64 bits, got {_show(ctx)}")
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
