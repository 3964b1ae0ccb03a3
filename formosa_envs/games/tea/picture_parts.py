"""Pieces of the Formosa Tea picture: colours, cubes, buds, pawns and a player's board.

Colours follow the components (``seeds/tea.md``): oolong cubes and buds are orange,
black tea red, green tea green; the scented track is jasmine pink. Every component
shape carries its CSS class: ``cube cube-<tea>`` (one per tea cube), ``bud bud-<tea>``
(one per bud), ``master`` (a Tea Master on a processing track), ``worker`` (any other
worker), ``kept-card`` (a fulfilled merchant card), ``character``.

A board is drawn in two layers: :func:`board_static` (frames, boxes and labels, which
depend only on the seat and the layout, so the picture caches them) and
:func:`board_dynamic` (the seat's pieces, one ``seat`` group).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.svg import Svg

from .actions import WORKER0
from .content import CHARACTER_NAMES, TEAS
from .state import BASKET_LIMIT, SCENTED, TeaState

if TYPE_CHECKING:
    from .game import TeaGame

TEA_FILL = ("#e8892b", "#b8322c", "#4c9a3d")     # oolong orange, black red, green
TRACK_FILL = (*TEA_FILL, "#c25f9e")             # + scented (jasmine pink)
TRACK_NAMES = ("Oolong", "Black", "Green", "Scented")
SEAT_FILL = ("#2a64b8", "#8646ab", "#d9559c", "#3d3d3d")   # blue, purple, pink, charcoal
QUALITY_NAMES = ("Good", "Normal", "Poor")      # Warehouse columns, best first
TECH_DISC_SHORT = ("Fix", "Rol", "Oxi", "Dry")
INK, MUTED, PAPER, LINE, CELL = "#222222", "#6b6256", "#fffdf7", "#8a7f6e", "#efe4cc"
CUBE_EDGE = "#3a2a1a"
BOARD_W, WORKSHOP_H, SHOP_H = 280, 164, 208
FACTORY_Y, SHOP_TECH_Y = 66, 112


def cubes(svg: Svg, x: float, y: float, w: float, h: float, teas: list[int],
          big: float = 12) -> None:
    """One square per tea code in ``teas``, wrapping inside the box ``w`` x ``h``.

    The cube size shrinks (down to 3 px) until every cube fits: none is dropped.
    """
    if not teas:
        return
    size, pitch, cols = big, big + 2.0, 1
    while True:
        pitch = size + max(1.0, size / 6)
        cols = max(int((w + 1) // pitch), 1)
        if size <= 3 or cols * max(int((h + 1) // pitch), 1) >= len(teas):
            break
        size -= 1
    with svg.group(stroke=CUBE_EDGE, stroke_width=0.6):
        for i, tea in enumerate(teas):
            svg.rect(x + (i % cols) * pitch, y + (i // cols) * pitch, size, size,
                     fill=TEA_FILL[tea], stroke=None, cls=CUBE_CLASS[tea])


CUBE_CLASS = tuple("cube cube-" + tea for tea in TEAS)


def buds(svg: Svg, x: float, y: float, colours: list[int], r: float = 6,
         room: float = 1e9) -> None:
    """One bud (a disc with a light centre) per colour code, left to right from ``x``."""
    pitch = min(2 * r + 3, room / max(len(colours), 1))
    for i, colour in enumerate(colours):
        cx = x + r + i * pitch
        with svg.group(cls=f"bud bud-{TEAS[colour]}"):
            svg.circle(cx, y, r, fill=TEA_FILL[colour], stroke=CUBE_EDGE)
            svg.circle(cx, y, r / 3, fill="#fff4d6", stroke=None)


def master(svg: Svg, x: float, y: float, seat: int, cls: str = "master",
           dashed: bool = False) -> None:
    """A Tea Master (a pawn with a conical hat) centred on ``x``, standing on ``y``."""
    points = [(x, y - 15), (x + 7, y - 9), (x + 3, y - 8), (x + 6, y), (x - 6, y),
              (x - 3, y - 8), (x - 7, y - 9)]
    svg.polygon(points, fill="none" if dashed else SEAT_FILL[seat],
                stroke=SEAT_FILL[seat] if dashed else "#111111",
                stroke_dasharray="2 2" if dashed else None, cls=cls)


def worker(svg: Svg, x: float, y: float, seat: int, kind: int = 0,
           cls: str = "worker") -> None:
    """A worker centred at ``x, y``: kind 0 a Tea Farmer (a round-headed pawn), 1 a Tea
    Master (hatted), -1 either (a plain disc: the state does not say which one)."""
    if kind == 1:
        master(svg, x, y + 8, seat, cls=cls + " tea-master")
    elif kind < 0:
        svg.circle(x, y, 6, fill=SEAT_FILL[seat], stroke="#111111", cls=cls)
    else:
        with svg.group(cls=cls + " farmer", fill=SEAT_FILL[seat], stroke="#111111"):
            svg.rect(x - 6, y - 1, 12, 9, fill=None, stroke=None, rx=3)
            svg.circle(x, y - 4, 4.5, fill=None, stroke=None)


def placed_kind(s: TeaState, p: int) -> int:
    """The kind of ``p``'s placed workers when the state tells: 0 Farmers, 1 Masters,
    -1 when both kinds are out (the state counts them, not where each one stands)."""
    farmers, masters = s.placed[p]
    return -1 if farmers and masters else int(masters > 0)


def seq(counts: list[int]) -> list[int]:
    """Codes repeated by their count: ``[2, 0, 1]`` -> ``[0, 0, 2]``."""
    return [code for code, k in enumerate(counts) for _ in range(k)]


def label(svg: Svg, x: float, y: float, content: object, size: float = 10,
          fill: str = MUTED, **attrs: object) -> None:
    """A small label (10 px, muted)."""
    svg.text(x, y, content, size=size, fill=fill, **attrs)


# ----- a player's board: geometry ---------------------------------------------------

def board_height(side: bool) -> float:
    """Height of a player's board: blocks side by side, or stacked."""
    return 30 + (SHOP_H if side else WORKSHOP_H + SHOP_H)


def board_origins(x: float, y: float, w: float) -> tuple[float, float, float, float]:
    """Top-left corners ``(wx, wy, sx, sy)`` of the workshop and shop blocks of a board
    at ``(x, y)``, ``w`` wide: side by side when ``w`` allows, else stacked, centred."""
    if w >= 2 * BOARD_W + 24:
        return x + 8, y + 28, x + w - BOARD_W - 8, y + 28
    inner = x + max(8.0, (w - BOARD_W) / 2)
    return inner, y + 28, inner, y + 28 + WORKSHOP_H


# ----- a player's board: the static layer -----------------------------------------

def board_static(svg: Svg, game: TeaGame, p: int, x: float, y: float, w: float) -> None:
    """Frame, boxes and labels of seat ``p``'s board (nothing that changes in play)."""
    svg.rect(x, y, w, board_height(w >= 2 * BOARD_W + 24), fill=PAPER,
             stroke=SEAT_FILL[p], stroke_width=1.5, rx=6, cls="seat-frame")
    svg.rect(x + 8, y + 7, 14, 14, fill=SEAT_FILL[p], stroke="#111111", rx=3)
    wx, wy, sx, sy = board_origins(x, y, w)
    label(svg, wx, wy + 14, "Supply")
    label(svg, wx, wy + 40, "Basket")
    for wl in range(3):
        bx = wx + 44 + 76 * wl
        svg.rect(bx, wy + 26, 72, 32, fill=CELL, stroke=LINE, rx=4, cls="basket-wl")
        label(svg, bx + 4, wy + 46, f"WL{wl}")
    for t in range(4):
        _factory_static(svg, t, wx + 70 * t, wy + FACTORY_Y)
    _shop_static(svg, game, sx, sy)


def _factory_static(svg: Svg, t: int, x: float, y: float) -> None:
    svg.rect(x, y, 66, 92, fill="#f4eee2", stroke=LINE, rx=4, cls="factory")
    svg.rect(x, y, 66, 15, fill=TRACK_FILL[t], stroke=None, rx=4)
    svg.text(x + 33, y + 11.5, TRACK_NAMES[t], size=10, anchor="middle", fill="#ffffff",
             weight="bold")
    if t == SCENTED:
        label(svg, x + 4, y + 28, "tea")
        label(svg, x + 4, y + 70, "buds")
        return
    for row, name in enumerate("210F"):
        label(svg, x + 4, y + 28 + 14 * row, name)


def _shop_static(svg: Svg, game: TeaGame, x: float, y: float) -> None:
    label(svg, x, y + 10, "Warehouse")
    for q, name in enumerate(QUALITY_NAMES):
        label(svg, x + 90 + 64 * q, y + 10, name, anchor="middle")
    for t in range(3):
        ry = y + 15 + 23 * t
        svg.text(x, ry + 15, TEAS[t], size=10, fill=TEA_FILL[t], weight="bold")
        for q in range(3):
            svg.rect(x + 60 + 64 * q, ry, 60, 21, fill=CELL, stroke=LINE, rx=3,
                     cls="warehouse-cell")
    label(svg, x, y + 102, "Buds")
    ty = y + SHOP_TECH_Y
    label(svg, x, ty + 10, "Technology")
    label(svg, x + 184, ty + 10, "Discs held")
    for t in range(3):
        ry = ty + 15 + 14 * t
        label(svg, x, ry + 10, TEAS[t], fill=TEA_FILL[t])
        for i in range(game.tech_top[t]):
            svg.rect(x + 60 + 12 * i, ry, 12, 11, fill="#ffffff", stroke=TEA_FILL[t],
                     stroke_width=0.8, cls="tech-step")


# ----- a player's board: the pieces -------------------------------------------------

def board_dynamic(svg: Svg, game: TeaGame, s: TeaState, p: int,
                  box: tuple[float, float, float], marks: tuple[bool, bool, bool]) -> None:
    """Seat ``p``'s pieces on its board at ``box`` = (x, y, width), as one ``seat`` group.

    ``marks`` = (the viewer's seat, the seat to act, the turn player's seat).
    """
    x, y, w = box
    wx, wy, sx, sy = board_origins(x, y, w)
    with svg.group(cls="seat", data_seat=p):
        if marks[1]:
            svg.rect(x, y, w, board_height(w >= 2 * BOARD_W + 24), fill="none",
                     stroke=SEAT_FILL[p], stroke_width=4, rx=6, cls="acting-frame")
        _header(svg, s, p, x, y, w, marks)
        _workshop(svg, s, p, wx, wy, marks[1])
        _shop(svg, game, s, p, sx, sy)


def _header(svg: Svg, s: TeaState, p: int, x: float, y: float, w: float,
            marks: tuple[bool, bool, bool]) -> None:
    you, acting, turn = marks
    name = f"Player {p}" + (" (you)" if you else "")
    svg.text(x + 28, y + 19, name, size=13, weight="bold", fill=SEAT_FILL[p])
    status = "\u25b6 to act" if acting else ("turn" if turn else "")
    if s.passed[p] and not s.over:
        status = (status + " \u00b7 passed").strip(" \u00b7")
    if status:
        svg.text(x + 36 + len(name) * 8, y + 19, status, size=11,
                 weight="bold" if acting else None, fill="#b02020" if acting else MUTED,
                 cls="to-act" if acting else None)
    svg.text(x + w - 10, y + 20, f"{s.vp[p]} VP", size=14, weight="bold", anchor="end",
             fill=INK, cls="vp")


def _workshop(svg: Svg, s: TeaState, p: int, x: float, y: float, acting: bool) -> None:
    """The workers at home; the acting seat's stand for placing a Farmer or a Master."""
    cx = x + 44
    for kind, count in ((0, s.farmers[p]), (1, s.masters[p])):
        for _ in range(count):
            with svg.group(data_action=WORKER0 + kind if acting else None):
                worker(svg, cx, y + 9, p, kind)
            cx += 16
    for _ in range(s.parked[p]):
        master(svg, cx, y + 17, p, cls="worker tea-master parked", dashed=True)
        cx += 16
    if cx == x + 44:
        label(svg, cx, y + 14, "none")
    if s.character[p] >= 0:
        with svg.group(cls="character", data_character=s.character[p]):
            svg.rect(x + BOARD_W - 126, y + 1, 126, 18, fill="#f3e6c8", stroke="#9a7b3c",
                     rx=4)
            svg.text(x + BOARD_W - 63, y + 14, CHARACTER_NAMES[s.character[p]], size=10,
                     anchor="middle", weight="bold", fill="#5a4318")
    limit = BASKET_LIMIT + 2 * (s.character[p] == 3)   # Li Chun Sheng holds 8
    label(svg, x, y + 53, f"{sum(s.basket[p])}/{limit}")
    b = s.basket[p]
    for wl in range(3):
        cubes(svg, x + 74 + 76 * wl, y + 29, 40, 27, seq([b[wl], b[3 + wl], b[6 + wl]]),
              big=11)
    for t in range(4):
        _factory(svg, s, p, t, x + 70 * t, y + FACTORY_Y)


def _factory(svg: Svg, s: TeaState, p: int, t: int, x: float, y: float) -> None:
    if t == SCENTED:
        tea = s.scent[p][0]
        cubes(svg, x + 4, y + 32, 58, 26, [tea] * s.scent[p][1] if tea >= 0 else [], big=10)
        buds(svg, x + 4, y + 81, seq(s.scent[p][2:5]), r=5, room=58)
        return
    f = s.factory[p]
    for row, k in enumerate((2, 1, 0, 3)):
        cubes(svg, x + 14, y + 19 + 14 * row, 50, 12, [t] * f[4 * t + k], big=10)
    discs = [c % 4 for c in s.discs_on[p] if c // 4 == t]
    for i, kind in enumerate(discs):
        with svg.group(cls="tech-disc on-factory"):
            svg.rect(x + 3 + 31 * i, y + 76, 29, 13, fill="#d8e3ee", stroke="#4a6a8a", rx=6)
            svg.text(x + 17.5 + 31 * i, y + 86, TECH_DISC_SHORT[kind], size=10,
                     anchor="middle", fill=INK)


def _shop(svg: Svg, game: TeaGame, s: TeaState, p: int, x: float, y: float) -> None:
    for t in range(3):
        for q in range(3):
            cubes(svg, x + 63 + 64 * q, y + 18 + 23 * t, 56, 16,
                  [t] * s.warehouse[p][3 * t + 2 - q], big=9)
    held = seq(s.buds[p])
    buds(svg, x + 40, y + 98, held, r=5.5, room=BOARD_W - 44)
    if not held:
        label(svg, x + 40, y + 102, "none")
    ty = y + SHOP_TECH_Y
    for t in range(3):
        ry = ty + 15 + 14 * t
        if s.tech[p][t]:
            svg.rect(x + 60, ry, 12 * s.tech[p][t], 11, fill=TEA_FILL[t], fill_opacity=0.85,
                     stroke=TEA_FILL[t], cls="tech-level")
        svg.text(x + 64 + 12 * game.tech_top[t], ry + 10, s.tech[p][t], size=10,
                 weight="bold", fill=TEA_FILL[t])
    held_discs = [f"{('GM', 'TP')[i]} \u00d7{k}" for i, k in enumerate(s.action_discs[p]) if k]
    held_discs += [f"{TECH_DISC_SHORT[i]} \u00d7{k}" for i, k in enumerate(s.tech_discs[p])
                   if k]
    for i in range(0, max(len(held_discs), 1), 2):
        label(svg, x + 184, ty + 23 + 12 * (i // 2), "  ".join(held_discs[i:i + 2]) or "none",
              fill=INK)
    dom = game.board.domestic.vp[s.domestic[p]]
    label(svg, x, y + 180, f"Domestic Market: space {s.domestic[p]} ({dom} VP at the end)")
    _kept(svg, game, s, p, x, y + 188)


def _kept(svg: Svg, game: TeaGame, s: TeaState, p: int, x: float, y: float) -> None:
    label(svg, x, y + 12, f"Kept {len(s.kept[p])}")
    pitch = min(14.0, (BOARD_W - 50) / max(len(s.kept[p]), 1))
    for i, card in enumerate(s.kept[p]):
        m = game.merchants[card]
        with svg.group(cls="kept-card", data_card=m.code):
            svg.rect(x + 48 + pitch * i, y, 12, 17, fill="#f6eed9", stroke="#6b5a3a", rx=2)
            svg.circle(x + 54 + pitch * i, y + 8.5, 3.5, fill=TEA_FILL[m.icon_index],
                       stroke=None)
