"""The move log of a web game, told as ``formosa play`` tells it.

The steps are replayed from the start: a person's or an agent's move is one row (its
label as the seat hears it, ``public_label``); the chance events between two moves are
summarised by the terminal's :class:`~formosa_envs.tools.narrate.ChanceNarrator`, one
row per kind of event, hidden outcomes only counted for the viewing seat. The two
halves of a Dadaocheng swap (the first cell, then the second) make one row.

A row's ``step`` is the index of the last step it tells (a log row reveals nothing
drawn after it).
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.engine import CHANCE
from formosa_envs.tools.narrate import ChanceNarrator

CHANCE_PREFIX = "chance: "
JOINED = {("SWAP", "SWAP_TO")}
"""(first segment, second segment) pairs told as one move: the second's label says both."""


def narrated_log(game: Any, steps: list[list[Any]], viewer: int | None,
                 seats: tuple[str, ...]) -> list[dict[str, Any]]:
    """The rows of the log of ``steps`` as ``viewer`` (None: a spectator) hears them."""
    state = game.new_initial_state()
    narrator = ChanceNarrator(game, viewer)
    rows: list[dict[str, Any]] = []
    last_chance = -1
    previous: str | None = None
    for index, step in enumerate(steps):
        player, action = int(step[0]), int(step[1])
        if player == CHANCE:
            narrator.note(state, action)
            last_chance = index
        else:
            _flush(narrator, rows, last_chance)
            segment = game.action_space.decode(action)[0]
            text = game.public_label(state, action, viewer)
            if text:
                row = {"step": index, "player": player, "who": seat_name(seats, player),
                       "text": text}
                if (previous, segment) in JOINED and rows and rows[-1]["player"] == player:
                    rows[-1] = row
                else:
                    rows.append(row)
            previous = segment
        game.apply_action(state, action)
    _flush(narrator, rows, last_chance)
    return rows


def _flush(narrator: ChanceNarrator, rows: list[dict[str, Any]], step: int) -> None:
    for line in narrator.flush():
        text = line[len(CHANCE_PREFIX):] if line.startswith(CHANCE_PREFIX) else line
        rows.append({"step": step, "player": CHANCE, "who": "chance", "text": text})


def seat_name(seats: tuple[str, ...], seat: int) -> str:
    """``Player 0 (human)``."""
    return f"Player {seat} ({seats[seat]})"
