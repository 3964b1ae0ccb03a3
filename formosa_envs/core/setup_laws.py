"""The setup stack-prefix law shared by the games whose setup queues chance draws.

A game's ``flow.setup_step`` runs setup step ``k`` by queueing its frames (draws resolve
top first) and leaving ``setup_step = k + 1``. While step ``k``'s draws are pending, the
stack must be the bottom part of exactly what step ``k`` queued: :func:`pending_frames`
checks that and returns the frames already resolved (popped), so each game can check its
zones against them. Faults raise ``StateFormatError`` naming the stack entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .invariants import require


def queued_frames(setup: Callable[[Any, Any], None], game: Any, state: Any,
                  step: int) -> list[Any]:
    """The frames that ``setup(game, scratch)`` queues for setup step ``step`` in a copy
    of ``state`` with an empty stack, bottom first (``state`` is left as it is)."""
    scratch = state.clone()
    scratch.stack, scratch.setup_step = [], step
    setup(game, scratch)
    return scratch.stack


def frame_key(d: Any) -> tuple:
    """A frame as a countable key: ``(kind, player, *ctx)``."""
    return (d.kind, d.player, *d.ctx)


def pending_frames(stack: Sequence[Any], queued: Sequence[Any], step: int, setup_step: int,
                   tolerate_extra: bool = False) -> Sequence[Any]:
    """The frames of ``queued`` (step ``step``'s, bottom first) no longer on ``stack``.

    ``stack`` must be a bottom part of ``queued``; a frame beyond the common part raises
    ``StateFormatError`` naming ``stack[i]``, unless ``tolerate_extra`` and part of
    ``queued`` is still unmatched (a step whose frames queue follow-ups).
    """
    matched = 0
    while matched < min(len(queued), len(stack)) and stack[matched] == queued[matched]:
        matched += 1
    extra = stack[matched:]
    if extra and not (tolerate_extra and matched < len(queued)):
        odd = extra[0]
        want = (f"expected {queued[matched].kind!r} ctx {list(queued[matched].ctx)}"
                if matched < len(queued) else "expected nothing more")
        require(False, f"stack[{matched}]", f"is {odd.kind!r} (player {odd.player}, ctx "
                f"{list(odd.ctx)}), {want}: setup step {step} (setup_step {setup_step}) "
                f"queues {sorted({d.kind for d in queued})} in a fixed order, and nothing else")
    return queued[matched:]
