"""What ``formosa play`` tells a person: decision prompts and chance summaries.

One mechanism for every game. The words live with each game's rules, in an optional
module ``formosa_envs/games/<game>/wording.py`` that defines:

``prompt(game, state) -> str``
    what the pending decision asks, as an instruction to the deciding seat
    ("choose a card from your hand to play"); :func:`decision_prompt` adds the seat.
``whose_turn(game, state) -> int | None``
    the seat whose turn it is (None outside turns, e.g. a Preparation phase), so a
    decision asked of another seat is announced as out of turn.
``chance_note(game, state, outcome) -> (group, who, what)``
    one chance outcome about to be applied: the group it is summarised in, the public
    context (``who``: the hand it goes to, the die's owner, ...) and the outcome itself
    (``what``: a card name, a die face).
``chance_line(game, group, items) -> str``
    one line for a group; ``items`` are ``(who, what)`` pairs where ``what`` is None
    when the outcome is hidden from the viewer.

Whether an outcome is hidden is decided by the game's ``public_label(state, outcome,
viewer)`` (None: hidden); hidden outcomes reach ``chance_line`` without their ``what``,
so a summary cannot reveal them. A game without a wording module falls back on its
``decision_description`` and on its ``public_label`` texts.

For the compact terminal, :func:`table_changes` says what of a rendered table changed
since the one a reader last saw (zone by zone, a zone being an unindented heading line
and the indented lines under it), and :func:`move_lines` numbers the moves from 1.
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache
from types import ModuleType
from typing import Any

Item = tuple[str, "str | None"]


@lru_cache(maxsize=32)
def _wording_module(package: str) -> ModuleType | None:
    if not package:
        return None
    try:
        return importlib.import_module(package + ".wording")
    except ModuleNotFoundError as exc:
        if exc.name != package + ".wording":
            raise
        return None


def wording_of(game: Any) -> ModuleType | None:
    """The game's wording module (``<game package>.wording``), None when it has none."""
    return _wording_module(type(game).__module__.rpartition(".")[0])


def decision_prompt(game: Any, state: Any) -> str:
    """The pending decision in words, naming the seat asked: ``Player 0, choose a card
    from your hand to play`` (``Player 1 (out of turn: it is player 0's turn), ...``)."""
    if game.is_terminal(state):
        return "The game is over."
    seat = game.current_player(state)
    words = wording_of(game)
    if words is None:
        return f"Player {seat}, it is your decision: {game.decision_description(state)}"
    turn = words.whose_turn(game, state)
    who = f"Player {seat}"
    if turn is not None and turn != seat:
        who += f" (out of turn: it is player {turn}'s turn)"
    return f"{who}, {words.prompt(game, state)}"


class ChanceNarrator:
    """Collects the chance events between two player decisions and tells them as one
    line per group (first-seen order), each outcome shown only if ``viewer`` may see it."""

    def __init__(self, game: Any, viewer: int | None) -> None:
        self.game = game
        self.viewer = viewer
        self.words = wording_of(game)
        self.groups: dict[str, list[Item]] = {}

    def note(self, state: Any, outcome: int) -> None:
        """Remember ``outcome`` of the pending chance event (call before applying it)."""
        told = self.game.public_label(state, outcome, self.viewer)
        if self.words is None:
            group, who, what = state.stack[-1].kind if hasattr(state, "stack") else "chance", \
                "", told
        else:
            group, who, what = self.words.chance_note(self.game, state, outcome)
        self.groups.setdefault(group, []).append((who, what if told is not None else None))

    def flush(self) -> list[str]:
        """The summary lines of everything noted since the last flush (then forget it)."""
        lines = []
        for group, items in self.groups.items():
            if self.words is None:
                lines.append(f"chance: {_fallback_line(group, items)}")
            else:
                lines.append(f"chance: {self.words.chance_line(self.game, group, items)}")
        self.groups = {}
        return lines


def _fallback_line(group: str, items: list[Item]) -> str:
    """``group: a, b`` for a game without wording; hidden outcomes only counted."""
    shown = [what for _, what in items if what is not None]
    hidden = len(items) - len(shown)
    parts = shown + ([f"{hidden} hidden outcome{'s' if hidden > 1 else ''}"] if hidden else [])
    return f"{group}: {', '.join(parts)}"


# --- the table as it changes: compact mode ---------------------------------------------

CHANGES_HEAD = "(changes since your last decision; t shows the full table)"
WHOLE_ZONE = 7
"""A changed zone of at most this many lines is reprinted whole (a grid stays readable);
a longer one prints its heading and the lines that changed."""


def table_zones(lines: list[str]) -> dict[str, list[str]]:
    """The zones of a rendered table: a heading (a line that is not indented) with the
    indented lines under it, keyed by the heading's words before ``:``, `` (`` or
    `` - `` (``Player 1``, ``Plantation``); a repeated key gets `` #2``, ``#3``..."""
    zones: dict[str, list[str]] = {}
    key = ""
    for line in lines:
        if not line.startswith(" "):
            base = re.split(r":| \(| - ", line, maxsplit=1)[0]
            key, k = base, 1
            while key in zones:
                k += 1
                key = f"{base} #{k}"
            zones[key] = []
        zones.setdefault(key, []).append(line)
    return zones


def table_changes(old: list[str], new: list[str]) -> list[str]:
    """What to print of table ``new`` to a reader who saw ``old``: a first line saying
    so, every zone that changed (whole when short or when its length changed, else its
    heading and changed lines), new zones whole, and the zones that went away named."""
    before = table_zones(old)
    after = table_zones(new)
    out = [CHANGES_HEAD]
    for key, lines in after.items():
        seen = before.get(key)
        if seen == lines:
            continue
        if seen is None or len(seen) != len(lines) or len(lines) <= WHOLE_ZONE:
            out += lines
        else:
            out += [lines[0]] + [x for x, y in zip(lines[1:], seen[1:], strict=True) if x != y]
    gone = [key for key in before if key not in after]
    if gone:
        out.append(f"(gone from the table: {', '.join(gone)})")
    if len(out) == 1:
        out.append("(nothing on the table changed)")
    return out


def move_lines(labels: list[str], columns: bool = False, width: int = 96) -> list[str]:
    """The numbered moves (from 1), one a line, or with ``columns`` in as many columns
    as fit in ``width`` (numbers running down each column)."""
    items = [f"  {i:>2}: {label}" for i, label in enumerate(labels, 1)]
    cell = max((len(x) for x in items), default=0) + 2
    across = max(1, width // cell) if columns else 1
    if across == 1 or len(items) <= 4:
        return items
    rows = -(-len(items) // across)
    return ["".join(items[c * rows + r].ljust(cell) for c in range(across)
                    if c * rows + r < len(items)).rstrip() for r in range(rows)]
