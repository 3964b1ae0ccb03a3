"""Dadaocheng as text: the table for people, and action labels."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from formosa_envs.core.text import pending_decision, table_footer, table_header, to_move
from formosa_envs.core.wording import amounts, seat_tags, wrap_segments

from .content import BUILDINGS, COLOURS
from .grid import LINES
from .state import ROUNDS, DadaochengState, Phase

if TYPE_CHECKING:
    from .game import DadaochengGame

SIDE_NAMES = ("South", "West", "North", "East")
LETTERS = "RWGYK"
CELL_W = 6


def building_name(kind: int) -> str:
    """``Opium Den`` for building type ``kind``."""
    return BUILDINGS[kind].replace("_", " ").title()


def _line(i: int) -> str:
    kind = "row" if i < 12 else "column"
    return f"{kind} {(i % 12) // 3 + 1} cells {'-'.join(str(c) for c in LINES[i])}"


def _swap_to(s: DadaochengState, i: int) -> str:
    """The second half of a swap; the first cell comes from the pending swap (none is
    pending when an illegal action is named in an error message)."""
    top = s.stack[-1] if s.stack else None
    if top is None or top.kind != "swap_to" or not top.ctx:
        return f"swap with cell {i}"
    return f"swap cell {top.ctx[0]} with cell {i}"


_LABELS = {
    "DONE": lambda g, s, i: "done",
    "FLIP": lambda g, s, i: f"flip cell {i}",
    "SWAP": lambda g, s, i: f"swap cell {i} with another cell",
    "SWAP_TO": lambda g, s, i: _swap_to(s, i),
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


def render_text(game: DadaochengGame, s: DadaochengState, viewer: int | None = None) -> str:
    """The table for people: the event, the disc grid (both faces of every disc) with
    the storehouses around it, ships and buildings for sale, and every player's holdings
    (all of it is open information; ``viewer`` only marks that seat as "you")."""
    turn = s.turn if s.phase == Phase.TURNS and not s.over else None
    lines = [table_header(game.title, [f"round {s.round} of {ROUNDS[s.num_players]}",
                                       to_move(turn), f"start player {s.start_player}"])]
    lines += _event_lines(game, s)
    lines += _grid_lines(game, s)
    lines += _shop_lines(game, s)
    prestige = game.prestige(s)
    for p in range(s.num_players):
        lines += _player_lines(game, s, p, prestige[p], viewer, turn)
    last = re.sub(r"collects line (\d+)", lambda m: f"collects the {_line(int(m.group(1)))}",
                  s.last_event)
    return "\n".join(lines + table_footer(last, pending_decision(game, s)))


def _event_lines(game: DadaochengGame, s: DadaochengState) -> list[str]:
    if len(s.events) < s.round:
        return []
    event = game.events[s.events[s.round - 1]]
    how = "acts by itself" if event.automatic else "any player may execute it once a turn"
    return [f"Event this round: {event.year} {event.name} ({how})"]


def _store(s: DadaochengState, side: int, k: int) -> str:
    if s.covered[side]:
        return ""
    space = 4 * side + k
    cubes = "".join(LETTERS[c] * n for c, n in enumerate(s.storehouse[space]))
    return ("S" if s.remodelled[space] else "") + (cubes or ("" if s.remodelled[space] else "."))


def _side_name(s: DadaochengState, side: int) -> str:
    if s.covered[side]:
        return ""
    owners = [p for p in range(s.num_players) if s.sides_of[p] == side]
    return SIDE_NAMES[side] + (f" (P{owners[0]})" if owners else "")


def _disc(game: DadaochengGame, s: DadaochengState, cell: int) -> str:
    """``K*/w``: the face up, then the face down (what a flip shows); ``*`` marks the sun
    side, as the picture's star does."""
    sun, back = (LETTERS[c] for c in game.discs[s.cell_disc[cell]].faces)
    if s.flipped[cell]:
        return f"{back}/{sun.lower()}*"
    return f"{sun}*/{back.lower()}"


def _grid_lines(game: DadaochengGame, s: DadaochengState) -> list[str]:
    if min(s.cell_disc) < 0:
        return ["Disc grid: being laid out"]
    lines = ["Disc grid: each disc as face up/face down (a flip shows the face down); "
             "* = sun side",
             "  R red, W white, G green, Y yellow, K black (opium)",
             "Storehouses around it: space k faces row/column k; S = a Store; . = empty. "
             "Cell numbers on the right."]
    north = "".join(f"{_store(s, 2, c):^{CELL_W}}" for c in range(4))
    south = "".join(f"{_store(s, 0, c):^{CELL_W}}" for c in range(4))
    lines.append(f"  {_side_name(s, 2):>16} {north}")
    for r in range(4):
        cells = "".join(f"{_disc(game, s, 4 * r + c):^{CELL_W}}" for c in range(4))
        west = _side_name(s, 1) if r == 0 else ""
        east = _side_name(s, 3) if r == 0 else ""
        numbers = " ".join(f"{4 * r + c:2d}" for c in range(4))
        lines.append(f"  {west:>11} {_store(s, 1, r):>4} {cells} {_store(s, 3, r):<4} "
                     f"{east:11}   {numbers}")
    lines.append(f"  {_side_name(s, 0):>16} {south}")
    return lines


def cost_text(cost: tuple[int, ...] | list[int]) -> str:
    """``2 red + 1 green`` for a four-colour cube cost."""
    return " + ".join(f"{k} {COLOURS[c]}" for c, k in enumerate(cost) if k) or "free"


def _shop_lines(game: DadaochengGame, s: DadaochengState) -> list[str]:
    from .shop import building_cost, ships_left
    lines = ["Ships for sale (cost; credit needed to buy; credit gained; prestige):"]
    for level, ship_id in enumerate(s.ship_up):
        below = f"{ships_left(game, s, level)} more face down"
        if ship_id < 0:
            lines.append(f"  level {level + 1}: none ({below})")
            continue
        ship = game.ships[ship_id]
        lines.append(f"  level {level + 1}: {ship.code} {cost_text(ship.cost)}; "
                     f"needs {ship.required} credit; +{ship.credit} credit; {ship.prestige} PP "
                     f"({below})")
    piles = [f"{building_name(k)} {s.piles[k]} left, {cost_text(building_cost(game, s, k))}"
             for k in range(len(BUILDINGS))]
    return lines + ["Buildings:"] + wrap_segments(piles, indent="  ")


def _player_lines(game: DadaochengGame, s: DadaochengState, p: int, prestige: int,
                  viewer: int | None, turn: int | None) -> list[str]:
    hand = amounts(s.hand[p], COLOURS)
    head = (f"{seat_tags(p, viewer, turn)}: {prestige} PP; hand: {hand} ({sum(s.hand[p])}/"
            f"{game.hand_limit}); credit {s.credit[p]}; opium used {s.opium[p]}")
    ships = ", ".join(game.ships[i].code for i in s.ships[p])
    built = amounts(s.buildings[p], [building_name(k) for k in range(len(BUILDINGS))])
    return [head] + wrap_segments([f"ships: {ships or 'none'}", f"buildings: {built}",
                                   f"loops: {s.sign[p]}" if s.sign[p] else ""])
