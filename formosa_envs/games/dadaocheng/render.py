"""Dadaocheng as text: the table for people, and action labels."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .content import BUILDINGS, COLOURS
from .grid import LINES, showing
from .state import DadaochengState

if TYPE_CHECKING:
    from .game import DadaochengGame

SIDE_NAMES = ("South", "West", "North", "East")
LETTERS = "RWGYK"


def _line(i: int) -> str:
    kind = "row" if i < 12 else "column"
    return f"{kind} {(i % 12) // 3 + 1} cells {'-'.join(str(c) for c in LINES[i])}"


_LABELS = {
    "DONE": lambda g, s, i: "done",
    "FLIP": lambda g, s, i: f"flip cell {i}",
    "SWAP": lambda g, s, i: f"swap cell {i} with...",
    "SWAP_TO": lambda g, s, i: f"...cell {i}",
    "LINE": lambda g, s, i: f"collect the line of {_line(i)}",
    "SPACE": lambda g, s, i: f"storehouse space {i + 1}",
    "COLOUR": lambda g, s, i: f"a {COLOURS[i]} cube",
    "SHIP": lambda g, s, i: f"buy the level-{i + 1} ship",
    "BUILDING": lambda g, s, i: f"a {BUILDINGS[i].replace('_', ' ')}",
    "TEMPLE": lambda g, s, i: ("Temple: 1 white for 2 dice", "Temple: 2 cubes for 3 dice")[i],
    "EXCHANGE": lambda g, s, i: "exchange 2 cubes for 1",
    "MARKET": lambda g, s, i: "use a Market",
    "DEN": lambda g, s, i: "use an Opium Den",
    "EVENT": lambda g, s, i: "execute the historical event",
}


def label_action(game: DadaochengGame, s: DadaochengState, action: int) -> str:
    """A readable label of ``action`` in state ``s`` (chance outcomes included)."""
    return game.segment_label(s, action, _LABELS)


def render_text(game: DadaochengGame, s: DadaochengState) -> str:
    """The grid (showing colour, lower case = back side up), storehouses and players."""
    lines = [f"Dadaocheng, round {s.round}, start player {s.start_player}"]
    if min(s.cell_disc) >= 0:
        shown = showing(tuple(game.discs[d].faces for d in s.cell_disc), s.bits())
        for r in range(4):
            row = [LETTERS[shown[4 * r + c]] if not s.flipped[4 * r + c]
                   else LETTERS[shown[4 * r + c]].lower() for c in range(4)]
            lines.append("  " + " ".join(row))
    for side in range(4):
        if s.covered[side]:
            continue
        spaces = [("S" if s.remodelled[4 * side + k] else "")
                  + "".join(LETTERS[c] * n for c, n in enumerate(s.storehouse[4 * side + k]))
                  for k in range(4)]
        lines.append(f"  {SIDE_NAMES[side]:5s} storehouse: " + " | ".join(x or "." for x in spaces))
    ups = [game.ships[i].code if i >= 0 else "-" for i in s.ship_up]
    lines.append(f"  ships up: {' '.join(ups)}; buildings left {s.piles}")
    prestige = game.prestige(s)
    for p in range(s.num_players):
        hand = "".join(LETTERS[c] * n for c, n in enumerate(s.hand[p])) or "-"
        lines.append(f"  P{p}{'*' if p == s.turn else ' '} {prestige[p]:3d} PP hand {hand} "
                     f"credit {s.credit[p]} opium {s.opium[p]} ships {len(s.ships[p])} "
                     f"buildings {s.buildings[p]} loops {s.sign[p]}")
    if s.last_event:
        lines.append(f"last: {s.last_event}")
    if not s.over and s.stack:
        lines.append(f"now: {game.decision_description(s)}")
    return "\n".join(lines)
