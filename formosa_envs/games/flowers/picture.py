"""SVG picture of a Formosa Flowers state (``FlowersGame.render_svg``).

Top to bottom: a header (round, start player, target, token supply, the deck),
the field with the card being matched, one panel per seat (hand, Keep Playing
tokens, score, and the scoring pile grouped into its sets) and a caption naming
the pending decision. ``viewer=k`` draws other seats' hands as card backs;
``viewer=None`` shows every hand.

Classes: ``card`` (a face-up card: field, pending, piles, shown hands),
``card-back`` (a hidden hand card), ``deck`` (the deck, its count as text),
``token`` (one Keep Playing token, in the supply or held), ``seat`` (a seat's
group), ``pile-set`` (one group of a scoring pile: a completed set or the loose
cards), ``field``, ``pending``.

Click targets: a face-up hand card's group carries ``data-action`` = its PLAY_CARD
id, a field card's its CAPTURE id and the card being matched LEAVE_ON_FIELD (the
play page makes the legal ones clickable; hidden cards carry none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.svg import Svg, final_caption, text_width

from .actions import CAPTURE0, LEAVE, MULTIPLIER, PLAY0
from .picture_parts import (
    BIG,
    SET_LABELS,
    SMALL,
    draw_back,
    draw_card,
    draw_deck,
    draw_token,
    split_pile,
)
from .state import FlowersState

if TYPE_CHECKING:
    from .game import FlowersGame

WIDTH = 1180.0
PAD = 12.0
HEADER_H = 74.0
BIG_STEP, SMALL_STEP = BIG[0] + 5, SMALL[0] + 3
PENDING_W = 130.0          # room right of the field for the card being matched
PILE_LINE = SMALL[1] + 22  # a pile line: set label, cards, gap
SEAT_HEAD = 30.0
ACT_RING, YOU_FILL, SEAT_FILL, OUT_FILL = "#e6a100", "#e8f1fb", "#f3efe4", "#e4e4e4"


def render_svg(game: FlowersGame, state: FlowersState, viewer: int | None = None) -> str:
    """The table as ``viewer`` sees it (``None``: every hand face up), with a caption."""
    svg = Svg(WIDTH, 100, title=f"Formosa Flowers - round {state.round}")
    _header(svg, game, state)
    y = _field(svg, game, state, HEADER_H)
    for p in range(state.num_players):
        y = _seat(svg, game, state, p, viewer, y) + 8
    svg.height = y + 2
    svg.caption(caption_text(game, state))
    return svg.to_string()


def caption_text(game: FlowersGame, state: FlowersState) -> str:
    """The caption: the round and pending decision, or the final scores."""
    if state.over:
        return final_caption(state.scores, "VP", game.winners(state))
    return f"Round {state.round} - {game.decision_description(state)}"


def _header(svg: Svg, game: FlowersGame, s: FlowersState) -> None:
    """Title, round facts, the token supply and the deck."""
    svg.text(PAD, 26, "Formosa Flowers", size=18, weight="bold", fill="#3e2723")
    facts = [f"Round {s.round}", f"start: Player {s.round_start}",
             f"target {game.config.target_vp} VP", f"cash-out threshold {game.vp_threshold} VP"]
    if game.config.current_month:
        facts.append(f"Current Month: {game.config.current_month}")
    svg.text(PAD, 48, "  \u00b7  ".join(facts), size=12, fill="#444")
    if s.last_event:
        svg.text(PAD, 66, f"Last: {s.last_event}", size=11, fill="#666")
    deck_x = WIDTH - PAD - BIG[0] - 3
    svg.text(deck_x - 10, 30, "deck", size=11, anchor="end", fill="#444")
    draw_deck(svg, deck_x, 8, len(s.deck))
    right = deck_x - 70
    svg.text(right, 30, f"token supply {s.supply}", size=11, anchor="end", fill="#444")
    for k in range(s.supply):
        draw_token(svg, right - 6.5 - k * 16, 48)


def _field(svg: Svg, game: FlowersGame, s: FlowersState, top: float) -> float:
    """The field (wrapping rows) and the card being matched; returns the next free y."""
    per_row = max(1, int((WIDTH - 2 * PAD - PENDING_W) // BIG_STEP))
    rows = max(1, -(-len(s.field) // per_row))
    height = 22 + rows * (BIG[1] + 6) + 4
    with svg.group(cls="field"):
        svg.rect(PAD - 4, top, WIDTH - 2 * PAD + 8, height, fill="#e9f0e1", stroke="#b5c4a5",
                 rx=6)
        svg.text(PAD + 4, top + 16, f"Field ({len(s.field)} cards)", size=12, weight="bold",
                 fill="#33691e")
        order = sorted(s.field, key=lambda c: (game.cards[c].months, c))
        for i, c in enumerate(order):
            row, col = divmod(i, per_row)
            draw_card(svg, game.cards[c], PAD + 4 + col * BIG_STEP,
                      top + 22 + row * (BIG[1] + 6), action=CAPTURE0 + c)
    if s.pending >= 0:
        x = WIDTH - PAD - PENDING_W + 20
        with svg.group(cls="pending"):
            svg.text(x + BIG[0] / 2, top + 16, "being matched", size=11, anchor="middle",
                     fill="#8a5a00", weight="bold")
            draw_card(svg, game.cards[s.pending], x, top + 22, ring=ACT_RING, action=LEAVE)
    return top + height + 8


def _seat(svg: Svg, game: FlowersGame, s: FlowersState, p: int, viewer: int | None,
          top: float) -> float:
    """One seat's panel; returns its bottom y."""
    hand_w = game.hand_size * BIG_STEP
    pile_x = PAD + 8 + max(hand_w, 4 * BIG_STEP) + 18
    lines = _pile_lines(game, s.piles[p], WIDTH - PAD - 8 - pile_x)
    body = max(BIG[1] + 16, len(lines) * PILE_LINE)
    height = SEAT_HEAD + body + 8
    acting = not s.over and bool(s.stack) and s.stack[-1].player == p
    fill = OUT_FILL if s.cashed[p] else YOU_FILL if p == viewer else SEAT_FILL
    with svg.group(cls="seat", data_seat=p):
        svg.rect(PAD - 4, top, WIDTH - 2 * PAD + 8, height, fill=fill,
                 stroke=ACT_RING if acting else "#c8bfa8", rx=6,
                 stroke_width=3 if acting else 1)
        _seat_head(svg, s, p, viewer, acting, top, game.score_cards(s.piles[p]).vp)
        _hand(svg, game, s, p, viewer, top + SEAT_HEAD)
        _pile(svg, game, lines, pile_x, top + SEAT_HEAD)
    return top + height


def _seat_head(svg: Svg, s: FlowersState, p: int, viewer: int | None, acting: bool,
               top: float, set_vp: int) -> None:
    """Name, tags (you, start, turn, to act, cashed out), score, tokens, set VP.

    ``set_vp`` is the pile's VP now; ``state.pile_vp`` catches up at the turn's
    scoring phase, so mid-turn it may still lack this turn's captures.
    """
    y = top + 20
    name = f"Player {p}" + (" (you)" if p == viewer else "")
    svg.text(PAD + 8, y, name, size=14, weight="bold", fill="#1a3d6d" if p == viewer else "#222")
    x = PAD + 8 + text_width(name, 14) + 10
    tags = [("start", "#5d4037", p == s.round_start),
            ("to act" if acting else "turn", "#b36b00", p == s.turn and not s.over),
            ("cashed out", "#616161", s.cashed[p])]
    for label, colour, shown in tags:
        if shown:
            w = text_width(label, 11) + 10
            svg.rect(x, y - 13, w, 17, fill=colour, stroke=None, rx=8)
            svg.text(x + w / 2, y - 1, label, size=11, anchor="middle", fill="#fff")
            x += w + 6
    mult = MULTIPLIER[s.tokens[p]]
    info = f"sets {set_vp} VP \u00d7{mult} = {set_vp * mult}"
    svg.text(WIDTH - PAD - 8, y, info, size=12, anchor="end", fill="#444")
    x = WIDTH - PAD - 8 - text_width(info, 12) - 14
    for k in range(s.tokens[p]):
        draw_token(svg, x - k * 16, y - 4)
    svg.text(x - 3 * 16 - 4, y, f"score {s.scores[p]} VP", size=13, anchor="end",
             weight="bold", fill="#222")


def _hand(svg: Svg, game: FlowersGame, s: FlowersState, p: int, viewer: int | None,
          top: float) -> None:
    """The hand: faces for the viewer (or everyone with ``viewer=None``), else backs."""
    hand = s.hands[p]
    shown = viewer is None or viewer == p
    label = f"hand ({len(hand)})" + (" - out of play" if s.cashed[p] and hand else "")
    svg.text(PAD + 8, top + 10, label, size=10, fill="#555")
    cards = sorted(hand, key=lambda c: (game.cards[c].months, c)) if shown else hand
    for i, c in enumerate(cards):
        x, y = PAD + 8 + i * BIG_STEP, top + 14
        if shown:
            draw_card(svg, game.cards[c], x, y, action=PLAY0 + c)
        else:
            draw_back(svg, x, y)


Line = list[tuple[str, int, list[int], bool]]  # (set, VP, cards, first chunk of the set)


def _pile_lines(game: FlowersGame, pile: list[int], width: float) -> list[Line]:
    """The pile's set groups flowed into lines of at most ``width`` pixels."""
    lines: list[Line] = [[]]
    used = 0.0
    per_line = max(1, int((width + 3) // SMALL_STEP))
    for name, vp, cards in split_pile(game, pile):
        label_w = text_width(_set_label(name, vp, len(cards)), 10)
        for k in range(0, len(cards), per_line):
            chunk = cards[k:k + per_line]
            w = max(len(chunk) * SMALL_STEP - 3, label_w if k == 0 else 0)
            if lines[-1] and used + w > width:
                lines.append([])
                used = 0.0
            lines[-1].append((name, vp, chunk, k == 0))
            used += w + 12
    return lines


def _set_label(name: str, vp: int, count: int) -> str:
    """``Night 3 · 5 VP``; loose cards: ``no set 2``."""
    base = f"{SET_LABELS[name]} {count}"
    return base if name == "loose" else f"{base} \u00b7 {vp} VP"


def _pile(svg: Svg, game: FlowersGame, lines: list[Line], x0: float, top: float) -> None:
    """The scoring pile, one labelled group per set (loose cards last)."""
    if not lines[0]:
        svg.text(x0, top + 10, "pile: no captures yet", size=10, fill="#777")
        return
    for row, line in enumerate(lines):
        x, y = x0, top + row * PILE_LINE
        for name, vp, cards, first in line:
            label = _set_label(name, vp, len(cards)) if first else ""
            w = max(len(cards) * SMALL_STEP - 3, text_width(label, 10))
            with svg.group(cls="pile-set" if first else "pile-set-more", data_set=name):
                if label:
                    svg.text(x, y + 10, label, size=10, weight="bold",
                             fill="#777" if name == "loose" else "#3e2723")
                for i, c in enumerate(cards):
                    draw_card(svg, game.cards[c], x + i * SMALL_STEP, y + 14, small=True)
            x += w + 12

