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
"""

from __future__ import annotations

import importlib
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
