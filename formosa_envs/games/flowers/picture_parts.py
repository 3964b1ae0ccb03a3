"""Pieces of the Formosa Flowers picture: card faces and backs, tokens, pile sets.

Colours: every month has its own colour (the card's top band; a wild card's
band is split between its two months) and every icon kind its own symbol and
colour (Night: navy crescent, Bird: red triangle, Animal: brown diamond,
Weather: blue drop). :func:`split_pile` sorts a scoring pile into the sets its
best scoring makes, so the picture groups the cards as the game counts them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from formosa_envs.core.svg import Svg

from .cards import Card
from .scoring import encode_cards

if TYPE_CHECKING:
    from .game import FlowersGame

MONTH_COLOURS = ("#2e7d32", "#c2185b", "#f06292", "#7e57c2", "#3949ab", "#e53935",
                 "#9e9d24", "#f9a825", "#ef6c00", "#8d3b1f", "#00897b", "#546e7a")
"""Months 1-12: pine, plum, cherry, wisteria, iris, peony, bush clover, pampas moon,
chrysanthemum, maple, willow, paulownia."""
LIGHT_MONTHS = frozenset((8,))  # bands light enough to need dark digits
KINDS = {"night": ("Ngt", "#1a237e"), "bird": ("Brd", "#d84315"),
         "animal": ("Anm", "#6d4c41"), "weather": ("Wth", "#0277bd")}
BIG = (42.0, 58.0)    # hand, field and pending cards
SMALL = (34.0, 48.0)  # scoring-pile cards
BACK_FILL, BACK_LINE = "#37474f", "#90a4ae"
TOKEN_FILL = "#ffb300"

SET_LABELS = {"night": "Night", "bird": "Bird", "animal": "Animal", "treasure": "Treasure",
              "weather": "Weather", "typhoon": "Typhoon", "current_month": "Month",
              "casual": "Casual", "loose": "no set"}
# scoring.py takes the Current Month set, then Treasure, then Typhoon, then plain sets
PICK_ORDER = ("current_month", "treasure", "typhoon", "night", "bird", "animal", "weather",
              "casual")
# card codes (see scoring.py): bits 0-3 the plain sets a card may join (night, bird,
# animal, weather); bits 4-5 its Treasure slot, bits 6-7 its Typhoon slot
PLAIN_BIT = {"night": 1, "bird": 2, "animal": 4, "weather": 8}
SLOT_SHIFT = {"treasure": 4, "typhoon": 6}


def draw_card(svg: Svg, card: Card, x: float, y: float, small: bool = False,
              ring: str | None = None, action: int | None = None) -> None:
    """A face-up card (class ``card``): month band, icon symbol, short tag, tooltip.

    ``action``: the id of the move this card stands for (playing it from the hand,
    capturing it from the field), written as the group's ``data-action`` so a page can
    make the card clickable; it does not change how the card looks.
    """
    with svg.group(transform=f"translate({x:.1f} {y:.1f})", data_action=action):
        svg.reuse(_face, card, small, ring)


def _face(svg: Svg, card: Card, small: bool, ring: str | None) -> None:
    """A card face at the origin (drawn once per card, size and ring: ``Svg.reuse``)."""
    w, h = SMALL if small else BIG
    band = 15.0 if small else 18.0
    svg.tooltip(f"{card.short} (card {card.id})")
    svg.rect(0, 0, w, h, fill="#fffdf5", stroke=ring or "#5d5d5d", cls="card", rx=4,
             stroke_width=3 if ring else 1, data_card=card.id)
    _band(svg, card, w, band)
    ink = "#222" if card.months[0] in LIGHT_MONTHS and not card.is_wild else "#fff"
    label = "/".join(str(m) for m in card.months)
    size = (10 if small else 11) if card.is_wild else (11 if small else 13)
    svg.text(w / 2, band - (3.5 if small else 4.5), label, size=size, anchor="middle",
             fill=ink, weight="bold")
    kind = card.icons[0] if card.icons else ""
    _symbol(svg, kind, w / 2, band + (10 if small else 13), 5.0 if small else 6.5)
    tag = "+".join(KINDS[i][0] for i in card.icons) or ("wild" if card.is_wild else "plain")
    svg.text(w / 2, h - 5, tag, size=10, anchor="middle", fill=KINDS[kind][1] if kind else "#777")


def _band(svg: Svg, card: Card, w: float, band: float) -> None:
    """The month-coloured top band (split in two for a wild card)."""
    colours = [MONTH_COLOURS[m - 1] for m in card.months]
    if len(colours) == 1:
        svg.rect(0.5, 0.5, w - 1, band, fill=colours[0], stroke=None, rx=3.5)
        return
    svg.rect(0.5, 0.5, w / 2, band, fill=colours[0], stroke=None, rx=3.5)
    svg.rect(w / 2, 0.5, w / 2 - 0.5, band, fill=colours[1], stroke=None, rx=3.5)


def _symbol(svg: Svg, kind: str, cx: float, cy: float, r: float) -> None:
    """The icon's symbol: crescent, triangle, diamond, drop; a dot for a plain card."""
    if kind == "night":
        svg.circle(cx, cy, r, fill=KINDS[kind][1], stroke=None)
        svg.circle(cx + r * 0.45, cy - r * 0.3, r * 0.8, fill="#fffdf5", stroke=None)
    elif kind == "bird":
        svg.polygon([(cx - r, cy + r * 0.8), (cx + r, cy + r * 0.8), (cx, cy - r)],
                    fill=KINDS[kind][1], stroke=None)
    elif kind == "animal":
        svg.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)],
                    fill=KINDS[kind][1], stroke=None)
    elif kind == "weather":
        svg.polygon([(cx, cy - r * 1.2), (cx + r * 0.8, cy + r * 0.2), (cx + r * 0.5, cy + r),
                     (cx - r * 0.5, cy + r), (cx - r * 0.8, cy + r * 0.2)],
                    fill=KINDS[kind][1], stroke=None)
    else:
        svg.circle(cx, cy, r * 0.35, fill="#bbb", stroke=None)


def draw_back(svg: Svg, x: float, y: float) -> None:
    """A hidden hand card (class ``card-back``): no month, no icon, no name."""
    w, h = BIG
    svg.rect(x, y, w, h, fill=BACK_FILL, stroke="#263238", cls="card-back", rx=4)
    svg.rect(x + 5, y + 5, w - 10, h - 10, fill="none", stroke=BACK_LINE, rx=3)


def draw_deck(svg: Svg, x: float, y: float, count: int) -> None:
    """The face-down deck: one shape of class ``deck`` with its card count."""
    w, h = BIG
    if count > 1:
        svg.rect(x + 3, y - 3, w, h, fill=BACK_FILL, stroke="#263238", rx=4)
    svg.rect(x, y, w, h, fill=BACK_FILL if count else "none", stroke="#263238",
             cls="deck", rx=4)
    svg.text(x + w / 2, y + h / 2 + 5, count, size=14, anchor="middle",
             fill="#fff" if count else "#555", weight="bold", cls="deck-count")


def draw_token(svg: Svg, cx: float, cy: float) -> None:
    """One Keep Playing token (class ``token``)."""
    svg.circle(cx, cy, 6.5, fill=TOKEN_FILL, stroke="#8d6e00", cls="token")


@lru_cache(maxsize=8)
def _codes(cards: tuple[Card, ...]) -> tuple[tuple[int, int], ...]:
    """Each card's scoring ``(code, month)`` (month 0 for a wild), per deck."""
    return tuple(encode_cards(cards))


def split_pile(game: FlowersGame, pile: list[int]) -> list[tuple[str, int, list[int]]]:
    """The pile as ``(set name, VP, card ids)`` groups, in the game's set order.

    The sizes come from the pile's best scoring (``game.score_cards``); cards are
    assigned in the order scoring takes them. Cards in no completed set form a
    last ``loose`` group.
    """
    score = game.score_cards(pile)
    codes = _codes(game.cards)
    left = sorted(pile, key=lambda c: (game.cards[c].months, c))
    picked: dict[str, list[int]] = {}
    for name in PICK_ORDER:
        for s in score.sets:
            if s.name == name:
                picked[name] = _pick(game, name, s.cards, left, codes)
                left = [c for c in left if c not in picked[name]]
    groups = [(s.name, s.vp, picked[s.name]) for s in score.sets]
    if left:
        groups.append(("loose", 0, left))
    return groups


def _pick(game: FlowersGame, name: str, size: int, left: list[int],
          codes: tuple[tuple[int, int], ...]) -> list[int]:
    """``size`` cards of ``left`` able to join set ``name``."""
    if name == "casual":
        return left[:size]
    if name == "current_month":
        month = game.config.current_month
        return [c for c in left if codes[c][1] == month][:size]
    if name in SLOT_SHIFT:
        shift, out = SLOT_SHIFT[name], []
        for slot in (1, 2, 3):
            out += [c for c in left if (codes[c][0] >> shift) & 3 == slot][:1]
        return out
    bit = PLAIN_BIT[name]
    able = [c for c in left if codes[c][0] & bit]
    able.sort(key=lambda c: bin(codes[c][0] & 15).count("1"))  # single-icon cards first
    return sorted(able[:size], key=left.index)
