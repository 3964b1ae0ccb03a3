"""Small text helpers shared by the games' tables and prompts (counts, lists, seats).

Each game's ``wording.py`` says, in its own terms, what a pending decision asks and how
a run of chance events is summarised; ``formosa_envs.tools.narrate`` is the one caller.
These helpers keep the four games' phrasing consistent without copying it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 card``, ``3 cards`` (``many`` for an irregular plural)."""
    if count == 1:
        return f"1 {noun}"
    return f"{count} {many or noun + 's'}"


def listing(items: Iterable[str], empty: str = "none") -> str:
    """``a, b, c`` (``empty`` when there is nothing)."""
    text = ", ".join(items)
    return text or empty


def tally(names: Iterable[str]) -> str:
    """Count repeated names, in order of first appearance: ``2 brick, 1 steel``."""
    counts = Counter(names)
    return ", ".join(f"{k} {name}" for name, k in counts.items())


def amounts(counts: Sequence[int], names: Sequence[str], empty: str = "none") -> str:
    """Non-zero ``counts`` with their ``names``: ``2 wood, 1 stone``."""
    return listing((f"{k} {name}" for k, name in zip(counts, names, strict=False) if k), empty)


def seat_tags(seat: int, viewer: int | None, turn: int | None, extra: Sequence[str] = ()
              ) -> str:
    """``Player 1 (you, to play)``: a seat's heading with the tags that apply."""
    tags = ["you"] if seat == viewer else []
    if seat == turn:
        tags.append("to play")
    tags += list(extra)
    return f"Player {seat}" + (f" ({', '.join(tags)})" if tags else "")


def same_for_all(counts: dict[str, int], seats: Sequence[str]) -> int | None:
    """The common count when every one of ``seats`` got the same number, else None."""
    values = {counts.get(s, 0) for s in seats}
    return values.pop() if len(values) == 1 else None


def wrap_segments(segments: Sequence[str], indent: str = "    ", width: int = 96) -> list[str]:
    """Join the non-empty ``segments`` with `` | `` into indented lines of at most about
    ``width`` characters (a segment is never split)."""
    lines: list[str] = []
    line = ""
    for part in (x for x in segments if x):
        if line and len(indent) + len(line) + 3 + len(part) > width:
            lines.append(indent + line)
            line = ""
        line = f"{line} | {part}" if line else part
    if line:
        lines.append(indent + line)
    return lines


def prompt_from(prompts: Mapping[str, Callable[[Any, Any, Any], str]], game: Any,
                state: Any) -> str:
    """The pending decision of ``state`` worded by ``prompts[kind](game, state, decision)``,
    else the game's own ``decision_description`` (a kind with no wording yet)."""
    decision = state.stack[-1]
    say = prompts.get(decision.kind)
    return say(game, state, decision) if say else game.decision_description(state)
