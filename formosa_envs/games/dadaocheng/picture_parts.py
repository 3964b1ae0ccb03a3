"""Pieces of the Dadaocheng picture: palette, cubes, the disc grid with its storehouses,
and the market (ship display, building piles, events or the solo objective).

Drawn with :class:`formosa_envs.core.svg.Svg`; :mod:`.picture` assembles the table.
Classes: ``disc`` (a group per disc), ``disc-face`` (two per disc), ``cube`` with
``cube-<colour>``, ``storehouse`` (one per space), ``ship`` (a face-up ship card),
``card-back`` (a face-down pile), ``cost-pip`` (a unit of a printed cost).

Click targets (for the play page; the picture looks the same): ``data-action`` lists the
action ids a drawn thing stands for: a grid cell (flip its disc, or pick it for a
swap), a candidate line's frame (collect it), a face-up ship (buy it), a building pile
(buy or convert to it).
"""

from __future__ import annotations

import math
from contextlib import nullcontext
from typing import TYPE_CHECKING

from formosa_envs.core.svg import Svg

from . import actions as A
from .content import COLOURS
from .grid import LINES, state_candidates
from .shop import ships_left
from .state import DadaochengState

if TYPE_CHECKING:
    from .game import DadaochengGame

FILL = ("#c0392b", "#f4f0e2", "#3f8f3f", "#e6b422", "#2b2b2b")   # red white green yellow black
GOODS = ("sugar", "rice", "tea", "camphor", "opium")
SEAT_FILL = ("#2e5fa8", "#8a4fb0", "#a8632f", "#2a8a98")
SIDE_NAMES = ("South", "West", "North", "East")
LEVEL_NAMES = ("Junk boat", "Small steamboat", "Large steamboat")
LEVEL_FILL = ("#efe2c4", "#d9e4ef", "#e7dcef")
BUILDING_NAMES = ("Mansion", "Store", "Market", "Workshop", "Opium Den")
BUILDING_FILL = ("#e9d3b0", "#f2c6bd", "#cfe3c5", "#d8d2c4", "#cdbfd6")
BACK_FILL, PAPER, INK, MUTED = "#6b4a2f", "#fffdf6", "#222", "#6b6b6b"

CELL, DISC_R, INSET_R = 66, 27, 10
BOX_LONG, BOX_DEEP, GAP = 58, 40, 10
CUBE = 13
BOARD_SIZE = 2 * (16 + BOX_DEEP + GAP) + 4 * CELL      # 396
RIGHT_W = 740


def cube(svg: Svg, x: float, y: float, colour: int, size: float = CUBE) -> None:
    """One resource cube (class ``cube cube-<colour>``)."""
    svg.rect(x, y, size, size, fill=FILL[colour], stroke="#444", rx=2,
             cls=f"cube cube-{COLOURS[colour]}")


def cubes_in_box(svg: Svg, counts: list[int], x: float, y: float, w: float,
                 size: float = CUBE) -> None:
    """Cubes of ``counts`` (per colour) in rows across ``w`` pixels from (x, y)."""
    step = size + 3
    per_row = max(int((w + 3) // step), 1)
    k = 0
    for colour, n in enumerate(counts):
        for _ in range(n):
            row, col = divmod(k, per_row)
            cube(svg, x + col * step, y + row * step, colour, size)
            k += 1


def cost_pips(svg: Svg, cost: tuple[int, ...], x: float, y: float, size: float = 11) -> float:
    """A printed cost as small coloured squares (class ``cost-pip``); returns the end x."""
    for colour, n in enumerate(cost):
        for _ in range(n):
            svg.rect(x, y, size, size, fill=FILL[colour], stroke="#555", cls="cost-pip")
            x += size + 2
    return x


_STAR = tuple((math.cos(k * math.pi / 8) * (1 if k % 2 == 0 else 0.45),
               math.sin(k * math.pi / 8) * (1 if k % 2 == 0 else 0.45)) for k in range(16))


def star(svg: Svg, cx: float, cy: float, r: float) -> None:
    """The sun mark of a disc's sun side (class ``sun``)."""
    svg.polygon([(cx + r * dx, cy + r * dy) for dx, dy in _STAR], fill="#ff9f1a",
                stroke="#6a3d00", cls="sun", stroke_width=0.8)


def card_back(svg: Svg, x: float, y: float, w: float, h: float, count: int,
              label: str) -> None:
    """A face-down pile with its count (class ``card-back``)."""
    svg.rect(x, y, w, h, fill=BACK_FILL, stroke="#3b2818", rx=4, cls="card-back")
    svg.rect(x + 4, y + 4, w - 8, h - 8, fill="none", stroke="#c9a77a", rx=3)
    svg.text(x + w / 2, y + h / 2 + 1, str(count), size=15, anchor="middle", fill="#fff",
             weight="bold")
    svg.text(x + w / 2, y + h / 2 + 15, label, size=10, anchor="middle", fill="#f1e3c8")


# ----- the board -----------------------------------------------------------------------
def grid_origin(bx: float, by: float) -> tuple[float, float]:
    """The top-left corner of the 4x4 grid on a board drawn at (bx, by)."""
    off = 16 + BOX_DEEP + GAP
    return bx + off, by + off


def draw_board(svg: Svg, game: DadaochengGame, s: DadaochengState, bx: float, by: float,
               viewer: int | None) -> None:
    """The disc grid framed by the four storehouse regions."""
    gx, gy = grid_origin(bx, by)
    svg.rect(bx, by, BOARD_SIZE, BOARD_SIZE, fill="#efe6d2", stroke="#8c7a5b", rx=8,
             cls="board")
    svg.rect(gx - 4, gy - 4, 4 * CELL + 8, 4 * CELL + 8, fill="#d9c7a3", stroke="#8c7a5b",
             rx=4)
    picked = _swap_source(s)
    for cell in range(16):
        x, y = gx + (cell % 4) * CELL, gy + (cell // 4) * CELL
        actions = f"{A.FLIP0 + cell} {A.SWAP0 + cell} {A.SWAP_TO0 + cell}"
        with svg.group(data_action=actions):
            svg.rect(x + 2, y + 2, CELL - 4, CELL - 4, fill="#e8dcc0", stroke="#b9a682",
                     rx=3, cls="cell")
            svg.text(x + 4, y + 13, cell, size=10, fill="#7a6a4e")
            if cell == picked:
                svg.rect(x + 1, y + 1, CELL - 2, CELL - 2, fill="none", stroke="#d0021b",
                         stroke_width=3, rx=4, cls="swap-pick")
            if s.cell_disc[cell] >= 0:
                _disc(svg, game, s, cell, x + CELL / 2, y + CELL / 2)
    if min(s.cell_disc) >= 0:
        _candidate_lines(svg, game, s, gx, gy)
    owner = {side: p for p, side in enumerate(s.sides_of)}
    for side in range(4):
        _region(svg, s, side, owner.get(side), gx, gy, viewer)


def _candidate_lines(svg: Svg, game: DadaochengGame, s: DadaochengState, gx: float,
                     gy: float) -> None:
    """A dashed frame around every line of 3-4 equal colours (class ``line-candidate``)."""
    faces = [game.disc_faces[d] for d in s.cell_disc]
    for line in state_candidates(faces, s.bits()):
        cells = LINES[line]
        (r0, c0), (r1, c1) = divmod(cells[0], 4), divmod(cells[-1], 4)
        svg.rect(gx + c0 * CELL + 1, gy + r0 * CELL + 1, (c1 - c0 + 1) * CELL - 2,
                 (r1 - r0 + 1) * CELL - 2, fill="none", stroke="#d0021b", stroke_width=2.5,
                 stroke_dasharray="7 4", rx=10, cls="line-candidate",
                 data_action=A.LINE0 + line)


def _swap_source(s: DadaochengState) -> int:
    """The cell picked by a pending swap (-1 when none)."""
    if s.stack and not s.over and s.stack[-1].kind == "swap_to":
        return s.stack[-1].ctx[0]
    return -1


def _disc(svg: Svg, game: DadaochengGame, s: DadaochengState, cell: int, cx: float,
          cy: float) -> None:
    """One disc: the face up large, the face down as an inset; a star marks the sun side."""
    disc = game.discs[s.cell_disc[cell]]
    sun, back = disc.faces
    up, down = (back, sun) if s.flipped[cell] else (sun, back)
    with svg.group(cls="disc"):
        side = "back" if s.flipped[cell] else "sun side"
        svg.tooltip(f"cell {cell}: disc {disc.code}, {side} up; sun {disc.sun}, "
                    f"back {disc.back}")
        svg.circle(cx, cy, DISC_R, fill=FILL[up], stroke="#3a3a3a", stroke_width=1.5,
                   cls=f"disc-face disc-up face-{COLOURS[up]}")
        ix, iy = cx + DISC_R * 0.68, cy + DISC_R * 0.68
        svg.circle(ix, iy, INSET_R, fill=FILL[down], stroke="#3a3a3a",
                   cls=f"disc-face disc-down face-{COLOURS[down]}")
        if s.flipped[cell]:
            star(svg, ix, iy, 5)
        else:
            star(svg, cx - 11, cy - 11, 7)


def _space_rect(side: int, k: int, gx: float, gy: float) -> tuple[float, float, float, float]:
    """The box (x, y, w, h) of space k of ``side`` (S, W, N, E) around the grid."""
    span = 4 * CELL
    along = (CELL - BOX_LONG) / 2 + k * CELL
    if side == 0:
        return gx + along, gy + span + GAP, BOX_LONG, BOX_DEEP
    if side == 2:
        return gx + along, gy - GAP - BOX_DEEP, BOX_LONG, BOX_DEEP
    if side == 1:
        return gx - GAP - BOX_DEEP, gy + along, BOX_DEEP, BOX_LONG
    return gx + span + GAP, gy + along, BOX_DEEP, BOX_LONG


def _region(svg: Svg, s: DadaochengState, side: int, owner: int | None, gx: float,
            gy: float, viewer: int | None) -> None:
    """One side's four spaces, its label and owner colour."""
    covered = bool(s.covered[side])
    colour = "#9a9a9a" if owner is None else SEAT_FILL[owner]
    name = SIDE_NAMES[side]
    who = "covered" if owner is None else f"P{owner}" + (" (you)" if owner == viewer else "")
    acting = not s.over and bool(s.stack) and owner is not None and \
        s.stack[-1].player == owner
    with svg.group(cls="storehouse-region"):
        for k in range(4):
            space = 4 * side + k
            x, y, w, h = _space_rect(side, k, gx, gy)
            with svg.group(data_action=A.SPACE0 + k) if acting else nullcontext():
                _space(svg, s, space, k, x, y, w, h, colour, covered)
        _region_label(svg, side, f"{name} \u00b7 {who}", colour, gx, gy)


def _space(svg: Svg, s: DadaochengState, space: int, k: int, x: float, y: float, w: float,
           h: float, colour: str, covered: bool) -> None:
    """One storehouse space (class ``storehouse``) with its cubes or Store marker."""
    fill = "#d6d2ca" if covered else ("#f3d3cc" if s.remodelled[space] else PAPER)
    svg.rect(x, y, w, h, fill=fill, stroke=colour, stroke_width=2, rx=4, cls="storehouse")
    svg.text(x + 3, y + 11, k + 1, size=10, fill=MUTED)
    if s.remodelled[space]:
        svg.rect(x + w - 14, y + 3, 11, 11, fill="#c0392b", stroke="#5a1a12",
                 cls="store-marker")
        svg.text(x + w / 2, y + h - 5, "Store", size=10, anchor="middle", fill="#7a2318")
    cubes_in_box(svg, s.storehouse[space], x + 4, y + 16, w - 6)


def _region_label(svg: Svg, side: int, text: str, colour: str, gx: float, gy: float) -> None:
    """The side's name and owner, outside its spaces (rotated on West and East)."""
    span, mid = 4 * CELL, 2 * CELL
    edge = GAP + BOX_DEEP + 5
    if side == 0:
        svg.text(gx + mid, gy + span + edge + 10, text, size=11, anchor="middle",
                 fill=colour, weight="bold")
    elif side == 2:
        svg.text(gx + mid, gy - edge - 1, text, size=11, anchor="middle", fill=colour,
                 weight="bold")
    elif side == 1:
        x, y = gx - edge - 1, gy + mid
        svg.text(x, y, text, size=11, anchor="middle", fill=colour, weight="bold",
                 transform=f"rotate(-90 {x:.1f} {y:.1f})")
    else:
        x, y = gx + span + edge + 1, gy + mid
        svg.text(x, y, text, size=11, anchor="middle", fill=colour, weight="bold",
                 transform=f"rotate(90 {x:.1f} {y:.1f})")


# ----- the market ------------------------------------------------------------------------
def draw_ships(svg: Svg, game: DadaochengGame, s: DadaochengState, x0: float,
               y0: float) -> None:
    """The ship display: per level the face-down pile and the face-up ship."""
    svg.text(x0, y0 + 12, "Ships", size=13, weight="bold", fill=INK)
    for level in range(3):
        x, y = x0 + level * 247, y0 + 20
        left = ships_left(game, s, level)
        if left:
            card_back(svg, x, y, 46, 72, left, "left")
        else:
            svg.rect(x, y, 46, 72, fill="none", stroke="#b5a98f", rx=4, stroke_dasharray="4 3")
        ship = s.ship_up[level]
        if ship >= 0:
            _ship_card(svg, game, ship, x + 52, y, A.SHIP0 + level)
        else:
            svg.rect(x + 52, y, 186, 72, fill="none", stroke="#b5a98f", rx=4,
                     stroke_dasharray="4 3")
            svg.text(x + 145, y + 40, f"level {level + 1}: sold out", size=11,
                     anchor="middle", fill=MUTED)


def _ship_card(svg: Svg, game: DadaochengGame, ship_id: int, x: float, y: float,
               action: int) -> None:
    """A face-up ship card (class ``ship``): level, code, cost, required credit, rewards."""
    ship = game.ships[ship_id]
    with svg.group(cls="ship-card", data_action=action):
        svg.tooltip(f"{ship.code}: {LEVEL_NAMES[ship.level - 1]}")
        svg.rect(x, y, 186, 72, fill=LEVEL_FILL[ship.level - 1], stroke="#5b4a33", rx=5,
                 cls="ship")
        svg.text(x + 6, y + 15, f"{ship.code} \u00b7 {LEVEL_NAMES[ship.level - 1]}", size=11,
                 weight="bold", fill=INK)
        svg.text(x + 6, y + 30, "cost", size=10, fill=MUTED)
        cost_pips(svg, ship.cost, x + 34, y + 21)
        need = f"needs {ship.required} credit" if ship.required else "no credit needed"
        svg.text(x + 6, y + 48, need, size=10, fill=INK)
        svg.text(x + 6, y + 64, f"+{ship.credit} credit   +{ship.prestige} PP", size=11,
                 weight="bold", fill="#2d4f1e")


def draw_buildings(svg: Svg, game: DadaochengGame, s: DadaochengState, x0: float,
                   y0: float, mansion_discount: bool) -> None:
    """The five building piles: cost, prestige and cards left."""
    svg.text(x0, y0 + 12, "Buildings", size=13, weight="bold", fill=INK)
    for t, building in enumerate(game.buildings):
        x, y = x0 + t * 148, y0 + 20
        dim = s.piles[t] == 0
        with svg.group(cls="building-pile", opacity="0.45" if dim else None,
                       data_action=A.BUILDING0 + t):
            svg.tooltip(f"{BUILDING_NAMES[t]}: {s.piles[t]} left")
            svg.rect(x, y, 140, 62, fill=BUILDING_FILL[t], stroke="#5b4a33", rx=5)
            svg.text(x + 6, y + 15, BUILDING_NAMES[t], size=11, weight="bold", fill=INK)
            svg.text(x + 134, y + 15, f"{s.piles[t]} left", size=10, anchor="end", fill=INK)
            cost = list(building.cost)
            if t == 0 and mansion_discount and cost[3]:
                cost[3] -= 1
            cost_pips(svg, tuple(cost), x + 6, y + 22)
            worth = "sets 4/10/16/23/31/39" if t == 0 else f"{building.prestige} PP"
            svg.text(x + 6, y + 53, worth, size=10, fill="#2d4f1e")


def draw_events(svg: Svg, game: DadaochengGame, s: DadaochengState, x0: float,
                y0: float) -> None:
    """This round's event card, the face-down event deck and the years seen."""
    svg.text(x0, y0 + 12, "Historical events", size=13, weight="bold", fill=INK)
    y = y0 + 20
    if s.event_pool:
        card_back(svg, x0, y, 46, 58, len(s.event_pool), "deck")
    current = s.events[s.round - 1] if 0 < s.round <= len(s.events) else -1
    with svg.group(cls="event-card", data_action=A.EVENT):
        svg.rect(x0 + 52, y, 686, 58, fill="#f6ecd6", stroke="#5b4a33", rx=5)
        if current >= 0:
            event = game.events[current]
            tag = " (automatic)" if event.automatic else ""
            svg.text(x0 + 60, y + 18, f"Round {s.round}: {event.year}{tag}", size=11,
                     weight="bold", fill="#7a2318")
            svg.text(x0 + 60, y + 34, _fit(event.name, 100), size=11, fill=INK)
        seen = " ".join(str(game.events[e].year) for e in s.events)
        svg.text(x0 + 60, y + 50, f"seen: {seen or '-'}", size=10, fill=MUTED)


def draw_objective(svg: Svg, game: DadaochengGame, s: DadaochengState, x0: float,
                   y0: float) -> None:
    """The solo game's objective and challenge with progress."""
    cfg = game.config
    result = game.solo_result(s)
    svg.text(x0, y0 + 12, "Solo objective", size=13, weight="bold", fill=INK)
    y = y0 + 20
    with svg.group(cls="objective"):
        svg.rect(x0, y, 738, 58, fill="#f6ecd6", stroke="#5b4a33", rx=5)
        svg.text(x0 + 8, y + 18, f"Win with {cfg.solo_target} PP \u00b7 tiers: Apprentice 50, "
                 f"Experienced 60, Master 70 \u00b7 now {result['score']} PP "
                 f"({result['tier']})", size=11, weight="bold", fill="#7a2318")
        svg.text(x0 + 8, y + 34, _challenge_text(game, s), size=11, fill=INK)
        svg.text(x0 + 8, y + 50, f"hand limit {game.hand_limit} \u00b7 no events \u00b7 "
                 f"{game.ships_per_level} ships per level", size=10, fill=MUTED)


def _challenge_text(game: DadaochengGame, s: DadaochengState) -> str:
    """The chosen challenge and how far it has got."""
    challenge = game.config.solo_challenge
    if challenge == "ships":
        level3 = sum(1 for i in s.ships[0] if game.ships[i].level == 3)
        return (f"Challenge ships: all {game.ships_per_level} level-3 ships, no Workshop "
                f"\u00b7 {level3} bought, Workshops {s.buildings[0][3]}")
    if challenge == "buildings":
        left = sum(s.piles[:4])
        return f"Challenge buildings: buy every Mansion, Store, Market, Workshop \u00b7 {left} left"
    if challenge == "hand2":
        return "Challenge hand2: keep at most 2 cubes at the end of each turn"
    return "No challenge chosen"


def _fit(text: str, room: int) -> str:
    """``text`` cut to ``room`` characters with an ellipsis."""
    return text if len(text) <= room else text[:room - 1] + "\u2026"
