"""Drawing pieces of the Taiwan Formosa picture: palette, markers, chips and cards.

``picture.py`` lays the table out; this module draws its repeated pieces with
:class:`formosa_envs.core.svg.Svg`. Colours follow the components: resources
(wood, brick, steel, stone), workers, merchants and coins have one colour each,
building cards take their frame colour (tan basic, red exclusive, blue global,
green minor landmark), landmark cards are gold and each deck has its own back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.svg import Svg

from .cards import BuildingType, Landmark
from .state import LANDMARK0

if TYPE_CHECKING:
    from .game import TaiwanGame

Card = BuildingType | Landmark
PLAYER_COLOURS = ("#d1403a", "#2f9e4f", "#2f6fc0", "#e3a91c", "#8a4fb3")
NEUTRAL_COLOUR = "#9a9a9a"
SHAPES = ("circle", "square", "triangle", "diamond", "hexagon")
ITEM_COLOURS = {"wood": "#8d5a2b", "brick": "#c0532d", "steel": "#5d7f99",
                "stone": "#a8a294", "worker": "#3f3f3f", "merchant": "#7b4fa2",
                "coins": "#f1c232"}
RESOURCE_NAMES = ("wood", "brick", "steel", "stone")
KIND_COLOURS = {"basic": "#dcc095", "exclusive": "#c2453a", "global": "#3c74b8",
                "minor_landmark": "#4e9a50", "landmark": "#e2c25e"}
LIGHT_TEXT_KINDS = ("exclusive", "global", "minor_landmark")
DECK_COLOURS = ("#2a7f7f", "#8a2f55", "#33468f", "#6b7f2a", "#9a5a1f")
CARD_W, CARD_H = 128, 86
MINI_H = 16


def owner_colour(owner: int, num_players: int) -> str:
    """The colour of seat ``owner`` (the 2-player neutral colour is grey)."""
    return NEUTRAL_COLOUR if owner >= num_players else PLAYER_COLOURS[owner]


def owner_ink(owner: int) -> str:
    """Text colour on a seat's colour (dark on yellow, white on the others)."""
    return "#222222" if owner == 3 else "#ffffff"


def owner_tag(owner: int, num_players: int) -> str:
    """``P2`` for a seat, ``N`` for the neutral colour."""
    return "N" if owner >= num_players else f"P{owner}"


def marker(svg: Svg, x: float, y: float, r: float, owner: int, num_players: int,
           cls: str | None = "marker") -> None:
    """A marker of ``owner`` centred on (x, y): one colour and shape per seat."""
    svg.reuse(_marker, x, y, r, owner, num_players, cls)


def _marker(svg: Svg, x: float, y: float, r: float, owner: int, num_players: int,
            cls: str | None) -> None:
    fill = owner_colour(owner, num_players)
    shape = "circle" if owner >= num_players else SHAPES[owner]
    if shape == "circle":
        svg.circle(x, y, r, fill=fill, stroke="#222", cls=cls, stroke_width=0.8,
                   data_owner=owner)
        return
    if shape == "square":
        svg.rect(x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8, fill=fill, stroke="#222", cls=cls,
                 stroke_width=0.8, data_owner=owner)
        return
    points = {"triangle": ((0, -1.15), (1.05, 0.8), (-1.05, 0.8)),
              "diamond": ((0, -1.2), (1.1, 0), (0, 1.2), (-1.1, 0)),
              "hexagon": ((0, -1.1), (0.95, -0.55), (0.95, 0.55), (0, 1.1), (-0.95, 0.55),
                          (-0.95, -0.55))}[shape]
    svg.polygon([(x + dx * r, y + dy * r) for dx, dy in points], fill=fill, stroke="#222",
                cls=cls, stroke_width=0.8, data_owner=owner)


def chip(svg: Svg, x: float, y: float, item: str, count: int | str, size: float = 11) -> float:
    """An item symbol with its count to the right; returns the x after it."""
    text = str(count)
    svg.reuse(_chip, x, y, item, text, size)
    return x + 16 + len(text) * size * 0.62


def _chip(svg: Svg, x: float, y: float, item: str, text: str, size: float) -> None:
    fill = ITEM_COLOURS[item]
    if item in ("coins", "worker", "merchant"):
        svg.circle(x + 5, y - 4, 5, fill=fill, stroke="#333", cls=f"chip-{item}",
                   stroke_width=0.6)
    else:
        svg.rect(x, y - 9, 10, 10, fill=fill, stroke="#333", cls=f"chip-{item}", rx=1.5,
                 stroke_width=0.6)
    svg.text(x + 13, y, text, size=size)


def token(svg: Svg, x: float, y: float, item: str, count: int) -> float:
    """A compact item token with its count inside (card costs); returns the x after it."""
    fill = ITEM_COLOURS[item]
    ink = "#222" if item in ("stone", "coins") else "#fff"
    if item == "coins":
        svg.circle(x + 7, y - 4, 7, fill=fill, stroke="#8a6d1a", cls="cost-coins",
                   stroke_width=0.8)
    else:
        svg.rect(x, y - 11, 14, 14, fill=fill, stroke="#333", cls=f"cost-{item}", rx=2,
                 stroke_width=0.6)
    svg.text(x + 7, y, count, size=10, fill=ink, anchor="middle", weight="bold")
    return x + 17


def cost_chips(svg: Svg, x: float, y: float, card: Card) -> float:
    """A card's printed cost (resources, coins, then its worker icons; not the worker
    every purchase costs); returns the end x."""
    for i, name in enumerate(RESOURCE_NAMES):
        amount = card.resource_cost[i]
        if amount:
            x = token(svg, x, y, name, amount)
    if card.coins:
        x = token(svg, x, y, "coins", card.coins)
    return token(svg, x, y, "worker", card.workers) if card.workers else x


def wrap(text: str, chars: int, lines: int = 2) -> list[str]:
    """``text`` broken on spaces into at most ``lines`` lines of about ``chars``."""
    out: list[str] = []
    for word in text.split():
        if out and len(out[-1]) + 1 + len(word) <= chars:
            out[-1] += " " + word
        else:
            out.append(word)
    if len(out) > lines:
        out = out[:lines - 1] + [" ".join(out[lines - 1:])]
    return [clip(line, chars) for line in out]


def clip(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters with an ellipsis."""
    return text if len(text) <= chars else text[:max(chars - 1, 1)] + "\u2026"


def card_kind(game: TaiwanGame, code: int) -> str:
    """The frame kind of a card code (``landmark`` for landmarks)."""
    return game.buildings[code].kind if code < LANDMARK0 else "landmark"


def card_info(game: TaiwanGame, code: int) -> Card:
    """The printed card (building type or landmark) of a card code."""
    return game.buildings[code] if code < LANDMARK0 else game.landmarks[code - LANDMARK0]


def text_colour(kind: str) -> str:
    """Dark or white text, whichever reads on the kind's colour."""
    return "#ffffff" if kind in LIGHT_TEXT_KINDS else "#222222"


def market_card(svg: Svg, x: float, y: float, game: TaiwanGame, code: int,
                notes: tuple[str, str], action: int | None = None) -> None:
    """A face-up card: name band in its kind colour, cost, time and VP, two notes.

    ``action``: the id of buying it, written as the group's ``data-action`` (a click
    target for the play page; it does not change the picture)."""
    with svg.group(cls="card-group", transform=f"translate({x:g} {y:g})",
                   data_action=action):
        svg.reuse(_card_face, code, card_info(game, code), card_kind(game, code), notes)


def _card_face(svg: Svg, code: int, info: Card, kind: str, notes: tuple[str, str]) -> None:
    name, time, vp = info.name, info.time, info.vp
    svg.tooltip(f"{name}: time {time}, {vp} VP")
    svg.rect(0, 0, CARD_W, CARD_H, fill="#fffdf7", stroke="#555", cls="card", rx=5,
             data_card=code)
    svg.rect(0, 0, CARD_W, 28, fill=KIND_COLOURS[kind], stroke=None, rx=5)
    for i, line in enumerate(wrap(name, 17)):  # bold glyphs are wider
        svg.text(5, 12 + i * 12, line, size=10, weight="bold", fill=text_colour(kind))
    cost_chips(svg, 5, 46, info)
    svg.text(5, 62, f"time {time}", size=10.5)
    svg.text(CARD_W - 5, 62, f"{vp} VP", size=11, weight="bold", anchor="end")
    svg.text(5, 79, notes[0], size=10, fill="#555")
    svg.text(CARD_W - 5, 79, notes[1], size=10.5, weight="bold", anchor="end")


def mini_card(svg: Svg, x: float, y: float, w: float, game: TaiwanGame, code: int) -> None:
    """A small card on a time track or in a tableau: its name on its kind colour."""
    svg.reuse(_mini_card, x, y, w, code, card_kind(game, code), card_info(game, code).name)


def _mini_card(svg: Svg, x: float, y: float, w: float, code: int, kind: str,
               name: str) -> None:
    svg.rect(x, y, w, MINI_H, fill=KIND_COLOURS[kind], stroke="#555", cls="card", rx=3,
             data_card=code)
    svg.text(x + 4, y + 12, clip(name, int((w - 8) / 6.0)), size=10, fill=text_colour(kind))


def card_back(svg: Svg, x: float, y: float, deck: int, cls: str = "card-back") -> None:
    """The back of a face-down landmark card of ``deck``."""
    svg.rect(x, y, CARD_W, CARD_H, fill=DECK_COLOURS[deck], stroke="#f4f0e6", cls=cls, rx=5)


def empty_slot(svg: Svg, x: float, y: float, lines: tuple[str, ...], cls: str) -> None:
    """A dashed place where a pile or deck used to be, with up to three short lines."""
    svg.rect(x, y, CARD_W, CARD_H, fill="none", stroke="#aaa", cls=cls, rx=5,
             stroke_dasharray="5 4")
    top = y + CARD_H / 2 + 4 - 6 * (len(lines) - 1)
    for i, line in enumerate(lines):
        svg.text(x + CARD_W / 2, top + i * 12, clip(line, 19), size=10.5, fill="#888",
                 anchor="middle")
