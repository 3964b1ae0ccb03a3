"""The frame every game's text table shares: a header line and the closing lines.

A game's ``render_text`` writes its own body (boards, markets, seats); it opens with
:func:`table_header` (``Formosa Tea - round 2 of 5 - ... - start player 1``: the game's
title, then the parts that apply, joined by `` - ``) and ends with :func:`table_footer`
(``Last: ...`` for the engine's last-event note, ``Now: ...`` for the pending decision).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SEPARATOR = " - "


def table_header(title: str, parts: Iterable[str | None]) -> str:
    """``title - part - part``: the parts that are None or empty are left out."""
    return SEPARATOR.join([title, *(part for part in parts if part)])


def to_move(turn: int | None, verb: str = "play") -> str | None:
    """``player 2 to play`` for the seat whose turn it is; None when no seat is to move."""
    return None if turn is None else f"player {turn} to {verb}"


def table_footer(last_event: str, now: str | None) -> list[str]:
    """``Last: ...`` when there is a last-event note, ``Now: ...`` unless ``now`` is None
    (a game that names no decision once it is over passes None)."""
    lines = [f"Last: {last_event}"] if last_event else []
    return lines + ([f"Now: {now}"] if now is not None else [])


def pending_decision(game: Any, state: Any) -> str | None:
    """The pending decision as ``game`` words it, or None once the game is over (for the
    tables that name no decision then)."""
    return game.decision_description(state) if not state.over and state.stack else None
