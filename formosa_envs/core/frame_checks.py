"""Reusable cross-field checks of decision frames (``frame(..., check=...)``).

A game's schema declares, per decision kind, the ``ctx`` length and the bounds of
each position (``core/schema_frames.py``); what a bound alone cannot say is checked
here against the state: an id that must name a live component (a deck that still has
cards, a display slot that holds a merchant), a count of repetitions that the
holdings must cover, and a pending payment (``core/payment.py``) that must be
exactly the one the rules would have pushed: its purpose valid, its units a suffix
of that purpose's cost, its offered sources those that keep it payable now.

Every check raises ``StateFormatError`` through :func:`fail`, naming the frame's
field (``stack[3].ctx[1]``) and what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .decisions import Decision
from .payment import legal_sources, pay_options, pay_units
from .schema_frames import SEAT, FrameCheck, FrameSpec, fail, frame

Expected = Callable[[Any, Any, int, int], "Sequence[tuple[int, ...]] | str"]
"""``(game, state, payer, purpose)`` -> the unit tuples this purpose may cost (several
when the cost depends on a discount already used), or a sentence saying why the
purpose is not valid now."""


def ctx_fail(path: str, j: int, kind: str, message: str) -> None:
    """Raise ``StateFormatError`` for position ``j`` of the ``ctx`` of frame ``path``."""
    fail(f"{path}.ctx[{j}]", f"{message} for kind {kind!r}")


def ctx_requires(j: int, test: Callable[[Any, Any, Decision], bool], what: str) -> FrameCheck:
    """A check that ``test(game, state, frame)`` holds, else position ``j`` is named with
    ``what`` (the rule, e.g. "must name a landmark deck that still has cards")."""
    def check(game: Any, state: Any, d: Decision, path: str) -> None:
        if not test(game, state, d):
            ctx_fail(path, j, d.kind, f"{what}, got {d.ctx[j]}")
    return check


def count_within(held: Callable[[Any, Any, Decision], int], what: str) -> FrameCheck:
    """A check that the frame's ``count`` is at most ``held(game, state, frame)`` (e.g. the
    cubes a player must discard cannot exceed the cubes in their hand)."""
    def check(game: Any, state: Any, d: Decision, path: str) -> None:
        have = held(game, state, d)
        if d.count > have:
            fail(f"{path}.count", f"must be at most {have} ({what}) for kind {d.kind!r}, "
                                  f"got {d.count}")
    return check


def payment_frame(expected: Expected) -> FrameSpec:
    """The ``pay`` frame of :func:`~formosa_envs.core.payment.pay_decision`, decided by a
    seat: ``ctx = (purpose, n, *n sources, *units)``. Its purpose must be valid
    (``expected``), its units a non-empty suffix of that purpose's cost, and its sources
    exactly those that keep the rest payable by the payer now (so a loaded payment can
    always be completed, as a reached one can)."""
    def check(game: Any, state: Any, d: Decision, path: str) -> None:
        _check_payment(game, state, d, path, expected)
    return frame(SEAT, ctx=None, check=check)


def _check_payment(game: Any, state: Any, d: Decision, path: str, expected: Expected) -> None:
    ctx, kind = d.ctx, d.kind
    if len(ctx) < 5:
        fail(f"{path}.ctx", f"must hold a purpose, a source count, at least 2 sources and "
                            f"at least one unit for kind {kind!r}, got {len(ctx)} entries")
    if not 2 <= ctx[1] <= len(ctx) - 3:
        ctx_fail(path, 1, kind, f"(the number of sources offered) must be in 2.."
                                f"{len(ctx) - 3}, got {ctx[1]}")
    costs = expected(game, state, d.player, ctx[0])
    if isinstance(costs, str):
        ctx_fail(path, 0, kind, f"(the purpose) {costs}, got {ctx[0]}")
    units, first = pay_units(d), 2 + ctx[1]
    known = {u for c in costs for u in c}
    for j, unit in enumerate(units, first):
        if unit not in known:
            ctx_fail(path, j, kind, f"(a unit to pay) must be one of the units of purpose "
                                    f"{ctx[0]}, {sorted(known)}, got {unit}")
    if not any(len(units) <= len(c) and tuple(c[len(c) - len(units):]) == units
               for c in costs):
        ctx_fail(path, first, kind,
                 f"(the units left to pay, {list(units)}) must be the end of the cost of "
                 f"purpose {ctx[0]} ({' or '.join(str(list(c)) for c in costs)})")
    model = game.handlers[kind].model
    options = legal_sources(model, state, d.player, units)
    if not options:
        fail(path, f"is a payment (purpose {ctx[0]}, units {list(units)}) that player "
                   f"{d.player} cannot complete with their holdings")
    offered = pay_options(d)
    if tuple(options) != offered:
        j = next((k for k, (a, b) in enumerate(zip(offered, options, strict=False))
                  if a != b), None)
        where = 1 if j is None else 2 + j
        ctx_fail(path, where, kind, f"(the sources offered, {list(offered)}) must be the "
                                    f"sources that can pay the next unit now, {options}")


def check_turn_frames(state: Any, own_turn: frozenset[str], single: frozenset[str]) -> None:
    """The turn order of a stack: a frame of a kind in ``own_turn`` is decided by the seat
    whose turn it is (``state.turn``), and a kind in ``single`` is pending at most once
    (the flow pushes one such decision at a time: a second copy is a duplicated frame).
    Raises ``StateFormatError`` naming the frame."""
    seen: set[str] = set()
    for i, d in enumerate(state.stack):
        if d.kind in own_turn and d.player != state.turn:
            fail(f"stack[{i}].player", f"must be the seat whose turn it is (field 'turn' "
                                       f"is {state.turn}) for kind {d.kind!r}, got {d.player}")
        if d.kind in single:
            if d.kind in seen:
                fail(f"stack[{i}]", f"is a second {d.kind!r} frame; the turn has one "
                                    f"{d.kind!r} decision pending at a time")
            seen.add(d.kind)
