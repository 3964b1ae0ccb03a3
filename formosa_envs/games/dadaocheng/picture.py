"""Dadaocheng as an SVG picture: the disc grid (both faces of every disc) framed by the
storehouses, the ship display, the building piles, the events (or the solo objective) and
one panel per seat with its cubes, ships, buildings, prestige, credit and opium.

Everything in Dadaocheng is open (DDC-1.9) except the order of the face-down ship piles
and of the event deck, which are drawn as card backs with their counts for every viewer;
``viewer`` only marks the seat drawn as "you". CSS classes: ``disc`` (one per disc on the
grid), ``disc-face`` (two per disc), ``cube`` + ``cube-<colour>`` (hands, storehouses and
storehouse signs), ``storehouse`` (one per space, 16), ``ship`` (one per face-up ship in
the display), ``card`` (one per ship or building card a player owns), ``card-back`` (one
per face-down pile), ``seat`` (one group per player).

Click targets (``data-action``, for the play page): the grid's cells, the candidate
lines, the ships and building piles (``picture_parts``), and here the colour swatches of
the legend (a cube colour chosen: pay, give, take, discard, lose), the Temple table (both
Temple uses), this round's event card, the acting player's storehouse spaces and hand
(the 2-for-1 exchange).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.svg import Svg, final_caption

from . import actions as A
from .picture_parts import (
    BOARD_SIZE,
    BUILDING_FILL,
    FILL,
    GOODS,
    INK,
    LEVEL_FILL,
    MUTED,
    PAPER,
    RIGHT_W,
    SEAT_FILL,
    SIDE_NAMES,
    cube,
    cubes_in_box,
    draw_board,
    draw_buildings,
    draw_events,
    draw_objective,
    draw_ships,
    star,
)
from .state import ROUNDS, DadaochengState

if TYPE_CHECKING:
    from .game import DadaochengGame

WIDTH = 10 + BOARD_SIZE + 20 + RIGHT_W + 10
TOP = 40
SEAT_H, SEAT_GAP = 90, 8
SEATS_Y = TOP + 3 * 92
SHORT_NAMES = ("Mansion", "Store", "Market", "Workshop", "Den")


def render_svg(game: DadaochengGame, state: DadaochengState,
               viewer: int | None = None) -> str:
    """The table as SVG; ``viewer`` marks the seat drawn as "you" (``None``: spectator).

    Nothing in Dadaocheng is hidden from a seat except the order of the face-down piles,
    which no viewer sees; the caption names the pending decision or the final scores.
    """
    s = state
    n = s.num_players
    height = max(SEATS_Y + n * (SEAT_H + SEAT_GAP), TOP + BOARD_SIZE + 112) + 4
    svg = Svg(WIDTH, height, title="Dadaocheng")
    _header(svg, game, s, viewer)
    draw_board(svg, game, s, 10, TOP, viewer)
    _legend(svg, game, 10, TOP + BOARD_SIZE + 8)
    rx = 10 + BOARD_SIZE + 20
    draw_ships(svg, game, s, rx, TOP)
    draw_buildings(svg, game, s, rx, TOP + 96, _mansion_discount(game, s))
    if game.solo:
        draw_objective(svg, game, s, rx, TOP + 184)
    else:
        draw_events(svg, game, s, rx, TOP + 184)
    prestige = game.prestige(s)
    acting = _acting(s)
    for p in range(n):
        y = SEATS_Y + p * (SEAT_H + SEAT_GAP)
        _seat(svg, game, s, p, rx, y, prestige[p], viewer, acting)
    svg.caption(caption_text(game, s))
    return svg.to_string()


def caption_text(game: DadaochengGame, s: DadaochengState) -> str:
    """The caption: the round and pending decision, or the final scores."""
    if s.over:
        winners = () if game.solo else game.winners(s)  # credit breaks ties
        text = final_caption(game.prestige(s), "PP", winners)
        if game.solo:
            result = game.solo_result(s)
            text += f" - tier {result['tier']}, {'won' if result['won'] else 'lost'}"
        return text
    return f"Round {s.round} - {game.decision_description(s)}"


def _acting(s: DadaochengState) -> int:
    """The seat that decides now (-1 for chance or after the game)."""
    if s.over or not s.stack:
        return -1
    return s.stack[-1].player


def _mansion_discount(game: DadaochengGame, s: DadaochengState) -> bool:
    """Whether 1884 (Mansions one yellow cheaper) is this round's event."""
    if not s.events or s.round > len(s.events):
        return False
    return game.events[s.events[s.round - 1]].key == "e1884"


def _header(svg: Svg, game: DadaochengGame, s: DadaochengState, viewer: int | None) -> None:
    """The title line: round, players, start player, viewer."""
    rounds = ROUNDS[s.num_players]
    mode = "solo game" if game.solo else f"{s.num_players} players"
    who = "spectator view" if viewer is None else f"seen by P{viewer}"
    svg.text(10, 26, "Dadaocheng", size=20, weight="bold", fill="#5b3a1e")
    svg.text(158, 26, f"round {min(s.round, rounds)} of {rounds} \u00b7 {mode} \u00b7 "
             f"start player P{s.start_player} \u00b7 {who}", size=13, fill=INK)


def _legend(svg: Svg, game: DadaochengGame, x: float, y: float) -> None:
    """Cube colours and how a disc reads; the Temple table."""
    with svg.group(cls="legend"):
        for colour, goods in enumerate(GOODS):
            cx = x + colour * 79
            with svg.group(data_action=A.COLOUR0 + colour):
                svg.rect(cx, y, 12, 12, fill=FILL[colour], stroke="#444", rx=2,
                         cls="legend-swatch")
                svg.text(cx + 16, y + 10, goods, size=10, fill=INK)
        svg.circle(x + 12, y + 36, 11, fill=FILL[0], stroke="#3a3a3a")
        svg.circle(x + 20, y + 44, 5, fill=FILL[1], stroke="#3a3a3a")
        star(svg, x + 7, y + 31, 4)
        svg.text(x + 34, y + 34, "disc: large = face up, small = face down, star = sun "
                 "side;", size=10, fill=INK)
        svg.text(x + 34, y + 47, "dashed frame = a line of 3 or 4; storehouse spaces 1-4",
                 size=10, fill=INK)
        names = ("red", "white", "green", "yellow", "black", "any")
        table = "  ".join(f"{face + 1}:{names[g]}" for face, g in enumerate(game.temple))
        with svg.group(data_action=f"{A.TEMPLE0} {A.TEMPLE0 + 1}"):
            svg.text(x, y + 68, f"Temple die  {table}", size=10, fill=MUTED)


def _seat(svg: Svg, game: DadaochengGame, s: DadaochengState, p: int, x: float, y: float,
          prestige: int, viewer: int | None, acting: int) -> None:
    """One player's panel (class ``seat``): name, tags, scores, cubes, sign, cards."""
    colour = SEAT_FILL[p]
    to_act = p == acting
    with svg.group(cls="seat"):
        svg.rect(x, y, RIGHT_W - 2, SEAT_H, fill=PAPER, stroke=colour,
                 stroke_width=3 if to_act else 1.2, rx=6)
        svg.rect(x, y, 8, SEAT_H, fill=colour, stroke=None, rx=3)
        _seat_title(svg, s, p, x + 16, y + 17, viewer, to_act)
        svg.text(x + RIGHT_W - 10, y + 17, f"{prestige} PP \u00b7 credit {s.credit[p]} "
                 f"\u00b7 opium used {s.opium[p]}", size=12, anchor="end", weight="bold",
                 fill=INK)
        with svg.group(cls="hand", data_action=A.EXCHANGE if to_act else None):
            svg.text(x + 16, y + 37, "hand", size=10, fill=MUTED)
            cubes_in_box(svg, s.hand[p], x + 46, y + 26, 530, size=14)
        svg.text(x + 604, y + 37, "sign", size=10, fill=MUTED)
        for k in range(s.sign[p]):
            cube(svg, x + 630 + k * 17, y + 26, 3, 14)
        svg.text(x + 16, y + 66, "cards", size=10, fill=MUTED)
        room = RIGHT_W - 60 - sum(_stack_width(c) + 8 for c in s.buildings[p] if c)
        end = _ship_cards(svg, game, s.ships[p], x + 46, y + 50, room)
        _building_cards(svg, s.buildings[p], end + 12 if s.ships[p] else x + 46, y + 50)


def _seat_title(svg: Svg, s: DadaochengState, p: int, x: float, y: float,
                viewer: int | None, to_act: bool) -> None:
    """Seat name and side, with tags: you, to act, active turn, start player."""
    name = f"P{p} \u00b7 {SIDE_NAMES[s.sides_of[p]]}"
    svg.text(x, y, name, size=13, weight="bold", fill=SEAT_FILL[p])
    tx = x + 12 + len(name) * 8
    tags = []
    if p == viewer:
        tags.append(("you", SEAT_FILL[p]))
    if to_act:
        tags.append(("\u25b6 to act", "#d0021b"))
    elif p == s.turn and not s.over:
        tags.append(("turn", "#555"))
    if p == s.start_player:
        tags.append(("start", "#8c7a5b"))
    for label, fill in tags:
        w = 10 + len(label) * 6.5
        svg.rect(tx, y - 12, w, 16, fill=fill, stroke=None, rx=8, cls=f"tag tag-{label[-3:]}")
        svg.text(tx + w / 2, y, label, size=10, anchor="middle", fill="#fff", weight="bold")
        tx += w + 6


def _ship_cards(svg: Svg, game: DadaochengGame, ships: list[int], x: float,
                y: float, room: float) -> float:
    """A player's ships as small cards (class ``card``), overlapping beyond ``room``."""
    if not ships:
        return x
    step = max(min(36.0, (room - 46) / max(len(ships) - 1, 1)), 8.0)
    for k, ship_id in enumerate(sorted(ships, key=lambda i: (game.ships[i].level, i))):
        ship = game.ships[ship_id]
        cx = x + k * step
        svg.rect(cx, y, 34, 30, fill=LEVEL_FILL[ship.level - 1], stroke="#5b4a33", rx=3,
                 cls="card ship-owned")
        svg.text(cx + 17, y + 13, ship.code, size=10, anchor="middle", fill=INK)
        svg.text(cx + 17, y + 25, f"{ship.prestige}PP", size=10, anchor="middle",
                 fill="#2d4f1e")
    return x + (len(ships) - 1) * step + 34


def _building_cards(svg: Svg, owned: list[int], x: float, y: float) -> None:
    """A player's buildings: one stacked pile per type, one card shape per card."""
    for t, count in enumerate(owned):
        if not count:
            continue
        off = _stack_offset(count)
        for k in range(count):
            svg.rect(x + k * off, y - k * off / 2, 56, 30, fill=BUILDING_FILL[t],
                     stroke="#5b4a33", rx=3, cls=f"card building-owned building-{t}")
        top = x + (count - 1) * off
        svg.text(top + 28, y + 13 - (count - 1) * off / 2, SHORT_NAMES[t], size=10,
                 anchor="middle", fill=INK)
        svg.text(top + 28, y + 25 - (count - 1) * off / 2, f"\u00d7{count}", size=10,
                 anchor="middle", weight="bold", fill=INK)
        x = top + 64


def _stack_offset(count: int) -> float:
    """The shift between the cards of a building stack of ``count`` cards."""
    return min(3.0, 12.0 / max(count - 1, 1))


def _stack_width(count: int) -> float:
    """The drawn width of a building stack of ``count`` cards."""
    return 56 + (count - 1) * _stack_offset(count)
