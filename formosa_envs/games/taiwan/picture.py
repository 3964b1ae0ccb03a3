"""An SVG picture of a Taiwan Formosa state (see ``core/svg.py``).

Layout: a schematic map of Taiwan on the left (the four regions, north to
south, with every marker in placement order and the region's landmarks), the
building piles and landmark decks on the right, the score track with one pawn
per player, and one panel per seat below (holdings, supply, time track,
completed cards). The caption names the pending decision.

CSS classes counted by the tests: ``region`` (4), ``marker`` (one per placed
marker, the neutral's included), ``landmark`` (one per landmark card, on the map),
``card`` (each face-up card: pile tops, face-up landmarks, cards on time tracks,
completed cards), ``card-back`` (one per face-down landmark when a seat views),
``deck-card`` (one per face-down landmark, named, in the spectator view),
``time-pawn`` (one per player, on the score track) and ``seat`` (one per player).
Everything but the face-down landmarks is open information (R-28).

Click targets (for the play page; the picture looks the same): ``data-action`` lists the
action ids a drawn thing stands for: a building pile's card (buy it), a face-up
landmark (buy it from its deck), a region (a charitable contribution, or choosing
that region), and the acting seat's coins, goods and workers (paying with them,
discarding them, exchanging for them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.svg import Svg, final_caption

from . import picture_parts as P
from .actions import (
    BUY_B0,
    BUY_L0,
    CHARITY0,
    DISCARD0,
    EX_COINS0,
    EX_ITEMS0,
    EX_MERCH0,
    PAY0,
    REGION0,
)
from .flow import RED_KEYS
from .payment import HAND0, HAND_WORKER, MERCHANT_TILE, PURSE, TRIBAL_WORKER, WAREHOUSE0
from .state import LANDMARK0, TaiwanState

if TYPE_CHECKING:
    from .game import TaiwanGame

WIDTH = 1180
RIGHT = 362
REGION_SHORT = ("Northern", "Central", "Southern", "Eastern")
REGION_BOXES = ((22, 76, 316, 116), (22, 202, 165, 172), (22, 384, 165, 166),
                (195, 202, 143, 348))
PHASE_NAMES = ("Setup", "Dice phase", "Action phase", "Building phase", "Income phase",
               "Cleanup phase", "End of round")
KIND_NOTES = {"basic": "basic", "exclusive": "exclusive", "global": "global",
              "minor_landmark": "minor landmark"}
PLAYERS_TOP = 580
TRACK_X, TRACK_COL = 282, 100
BUILT_X, BUILT_COL = 792, 120


def render_svg(game: TaiwanGame, state: TaiwanState, viewer: int | None = None) -> str:
    """The table as ``viewer`` sees it (``None``: the face-down landmarks named too)."""
    s = state
    heights = [_panel_height(s, p) for p in range(s.num_players)]
    svg = Svg(WIDTH, PLAYERS_TOP + sum(heights) + 8 * len(heights) + 4,
              title=f"Taiwan Formosa, round {s.round}")
    _header(svg, game, s)
    _map(svg, game, s, viewer)
    _market(svg, game, s)
    _decks(svg, game, s, viewer)
    _score_track(svg, s)
    _status(svg, game, s)
    acting = game.current_player(s)
    y = PLAYERS_TOP
    for p in range(s.num_players):
        _seat(svg, game, s, p, y, heights[p], viewer, acting == p)
        y += heights[p] + 8
    svg.caption(caption_text(game, s))
    return svg.to_string()


def caption_text(game: TaiwanGame, s: TaiwanState) -> str:
    """``Round r - <pending decision>``, or the final scores once the game is over."""
    if not game.is_terminal(s):
        return f"Round {s.round} - {game.decision_description(s)}"
    return final_caption(s.vp, "VP", game.winners(s))  # coins break ties


def empty_count(s: TaiwanState) -> int:
    """Empty building piles and landmark decks (the end trigger counts them)."""
    piles = sum(1 for t, n in enumerate(s.piles) if s.in_game[t] and n == 0)
    return piles + sum(1 for d, up in enumerate(s.face_up) if up < 0 and not s.decks[d])


def _header(svg: Svg, game: TaiwanGame, s: TaiwanState) -> None:
    svg.text(12, 26, "Taiwan Formosa", size=18, weight="bold", fill="#2f3b45")
    final = " (final round)" if s.final_round else ""
    phase = PHASE_NAMES[s.phase] if 0 <= s.phase < len(PHASE_NAMES) else "?"
    trigger = ("end triggered: last round" if s.final_round else
               f"empty piles/decks: {empty_count(s)} ({s.num_players} trigger the end)")
    svg.text(190, 26, f"Round {s.round}{final} \u00b7 {phase} \u00b7 start player "
             f"P{s.start_player} \u00b7 {trigger}", size=12.5, fill="#2f3b45")


# ----- map ------------------------------------------------------------------------------
def _map(svg: Svg, game: TaiwanGame, s: TaiwanState, viewer: int | None) -> None:
    svg.rect(10, 40, 340, 528, fill="#d9e8f2", stroke="#9fb7c7", cls="map", rx=8)
    svg.text(22, 66, "Regions (markers in placement order)", size=11, fill="#2f3b45",
             weight="bold")
    if s.num_players == 2:
        P.marker(svg, 28, 561, 4, 2, 2, "legend-marker")
        svg.text(37, 565, "grey: the neutral colour of the 2-player game", size=10, fill="#555")
    where = _landmark_places(game, s)
    for r, box in enumerate(REGION_BOXES):
        _region(svg, game, s, r, box, where, viewer)


def _landmark_places(game: TaiwanGame, s: TaiwanState) -> dict[int, tuple[str, int, int]]:
    """Landmark id -> (where, who, detail): track/built by a seat, market or deck."""
    where: dict[int, tuple[str, int, int]] = {}
    for d, up in enumerate(s.face_up):
        if up >= 0:
            where[up] = ("market", -1, d)
        for card in s.decks[d]:
            where[card] = ("deck", -1, d)
    for p in range(s.num_players):
        for code, space in s.track[p]:
            if code >= LANDMARK0:
                where[code - LANDMARK0] = ("track", p, space)
        for code in s.built[p]:
            if code >= LANDMARK0:
                where[code - LANDMARK0] = ("built", p, 0)
    return where


def _region(svg: Svg, game: TaiwanGame, s: TaiwanState, r: int,
            box: tuple[int, int, int, int], where: dict[int, tuple[str, int, int]],
            viewer: int | None) -> None:
    x, y, w, h = box
    owners = s.regions[r]
    with svg.group(cls="region-group", data_action=f"{CHARITY0 + r} {REGION0 + r}"):
        svg.rect(x, y, w, h, fill="#eef3e2", stroke="#7c8a6a", cls="region", rx=6,
                 stroke_width=1.2)
        svg.text(x + 6, y + 15, f"{REGION_SHORT[r]} ({len(owners)})", size=12, weight="bold")
        svg.text(x + 6, y + 28, _ranking(s, owners), size=10, fill="#555")
        per_row = max(int((w - 12) / 13), 1)
        for i, owner in enumerate(owners):
            P.marker(svg, x + 12 + (i % per_row) * 13, y + 40 + (i // per_row) * 13, 5,
                     owner, s.num_players)
        ids = [lm.id for lm in game.landmarks if game.region_of[lm.id] == r]
        cols = 2 if w > 250 else 1
        pill_w = (w - 12 - (cols - 1) * 4) / cols
        top = y + h - ((len(ids) + cols - 1) // cols) * 17 - 3
        for i, lm in enumerate(ids):
            _landmark_pill(svg, game, s, x + 6 + (i % cols) * (pill_w + 4),
                           top + (i // cols) * 17, pill_w, lm, where, viewer)


def _ranking(s: TaiwanState, owners: list[int]) -> str:
    """``1st P2 · 2nd N`` for a region's area majority so far."""
    if not owners:
        return "no markers"
    counts: dict[int, int] = {}
    for o in owners:
        counts[o] = counts.get(o, 0) + 1
    order = sorted(counts, key=lambda o: (-counts[o], owners.index(o)))
    names = [f"{rank} {P.owner_tag(o, s.num_players)}"
             for rank, o in zip(("1st", "2nd"), order, strict=False)]
    return " \u00b7 ".join(names)


def _landmark_pill(svg: Svg, game: TaiwanGame, s: TaiwanState, x: float, y: float, w: float,
                   lm: int, where: dict[int, tuple[str, int, int]], viewer: int | None) -> None:
    place, who, detail = where.get(lm, ("pending", -1, 0))  # pending: being bought now
    name = game.landmarks[lm].name
    fill, stroke, ink, note = "#ffffff", "#aaa", "#222", "being bought"
    if place == "market":
        stroke, note = P.DECK_COLOURS[detail], f"deck {detail}"
    elif place == "deck":
        fill, stroke, ink, note = "#e2e2e2", "#aaa", "#666", "face down"
        if viewer is not None:
            name = "?"
    elif place == "track":
        stroke, note = P.owner_colour(who, s.num_players), f"P{who} @{detail}"
    elif place == "built":
        fill = stroke = P.owner_colour(who, s.num_players)
        ink, note = P.owner_ink(who), f"P{who} built"
    style = (fill, stroke, ink, 2 if place == "track" else 1)
    svg.reuse(_pill, x, y, w, name, note, style, place)


def _pill(svg: Svg, x: float, y: float, w: float, name: str, note: str,
          style: tuple[str, str, str, int], place: str) -> None:
    fill, stroke, ink, width = style
    svg.rect(x, y, w, 15, fill=fill, stroke=stroke, cls="landmark", rx=7, stroke_width=width,
             data_place=place)
    room = int((w - 12) / 6.0) - len(note) - 1
    svg.text(x + 6, y + 11.5, P.clip(name, room), size=10, fill=ink)
    svg.text(x + w - 6, y + 11.5, note, size=10, fill=ink, anchor="end")


# ----- market, decks, score track, status -------------------------------------------------
def _market(svg: Svg, game: TaiwanGame, s: TaiwanState) -> None:
    svg.text(RIGHT, 56, "Building piles (cost shown; every purchase adds 1 worker)", size=12,
             weight="bold", fill="#2f3b45")
    types = [b for b in game.buildings if s.in_game[b.id]]
    for i, b in enumerate(types):
        x, y = RIGHT + (i % 6) * 134, 64 + (i // 6) * 92
        if s.piles[b.id] <= 0:
            P.empty_slot(svg, x, y, (*P.wrap(b.name, 19), "sold out"), "pile-empty")
            continue
        note = KIND_NOTES[b.kind]
        if b.kind == "exclusive":
            owner = s.exclusive[RED_KEYS.index(b.key)]
            note = f"active: P{owner}" if owner >= 0 else "exclusive"
        P.market_card(svg, x, y, game, b.id, (note, f"{s.piles[b.id]} left"),
                      action=BUY_B0 + b.id)


def _decks(svg: Svg, game: TaiwanGame, s: TaiwanState, viewer: int | None) -> None:
    svg.text(RIGHT, 258, "Landmark decks (face-up card, face-down cards behind)", size=12,
             weight="bold", fill="#2f3b45")
    for d, up in enumerate(s.face_up):
        x, y, below = RIGHT + d * 162, 280, s.decks[d]
        for k in range(len(below), 0, -1):
            P.card_back(svg, x + 4 * k, y - 4 * k, d,
                        "card-back" if viewer is not None else "deck-back")
        if up >= 0:
            notes = (REGION_SHORT[game.region_of[up]], f"deck {d}")
            P.market_card(svg, x, y, game, LANDMARK0 + up, notes, action=BUY_L0 + d)
            svg.rect(x, y + 30, 4, P.CARD_H - 36, fill=P.DECK_COLOURS[d], stroke=None)
        else:
            P.empty_slot(svg, x, y, (f"deck {d}", "empty" if not below else "revealing"),
                         "deck-empty")
        svg.text(x, y + P.CARD_H + 14, f"{len(below)} face down", size=10, fill="#555")
        if viewer is None:
            for i, card in enumerate(sorted(below)):
                svg.text(x + 8, y + P.CARD_H + 26 + i * 12,
                         P.clip(game.landmarks[card].name, 25), size=10, fill="#777",
                         cls="deck-card")


def _score_track(svg: Svg, s: TaiwanState) -> None:
    x0, x1, line_y = RIGHT + 34, WIDTH - 24, 484
    top = max(50, -(-(max(s.vp) + 1) // 10) * 10)
    svg.reuse(_axis, x0, x1, line_y, top)
    placed: list[tuple[float, int]] = []
    for p in sorted(range(s.num_players), key=lambda q: s.vp[q]):
        px = x0 + (x1 - x0) * max(s.vp[p], 0) / top
        level = 0
        while any(abs(px - qx) < 13 and lv == level for qx, lv in placed):
            level += 1
        placed.append((px, level))
        with svg.group(cls="pawn"):
            svg.tooltip(f"P{p}: {s.vp[p]} VP")
            P.marker(svg, px, line_y - 11 - level * 13, 6, p, s.num_players, "time-pawn")


def _axis(svg: Svg, x0: float, x1: float, line_y: float, top: int) -> None:
    svg.text(RIGHT, line_y + 4, "VP", size=12, weight="bold", fill="#2f3b45")
    svg.line(x0, line_y, x1, line_y, stroke="#666", stroke_width=2)
    for v in range(0, top + 1, 5):
        tx = x0 + (x1 - x0) * v / top
        svg.line(tx, line_y - 4, tx, line_y + 4, stroke="#666")
        if v % 10 == 0:
            svg.text(tx, line_y + 16, v, size=10, anchor="middle", fill="#555")


def _status(svg: Svg, game: TaiwanGame, s: TaiwanState) -> None:
    svg.rect(RIGHT, 506, WIDTH - RIGHT - 10, 62, fill="#eef1f3", stroke="#c5cdd3", rx=6,
             cls="status")
    x = RIGHT + 8.0
    for item in ("wood", "brick", "steel", "stone", "worker", "merchant", "coins"):
        x = P.chip(svg, x, 523, item, item) + 8
    active = [f"{game.buildings[game.type_id[k]].name} P{o}"
              for k, o in zip(RED_KEYS, s.exclusive, strict=True) if o >= 0]
    svg.text(RIGHT + 8, 542, "Active exclusives: " + (", ".join(active) or "none"), size=11)
    svg.text(RIGHT + 8, 560, "Last event: " + (s.last_event or "-"), size=11, fill="#444")


# ----- seats ----------------------------------------------------------------------------
def _columns(s: TaiwanState) -> list[int]:
    """Time-track spaces shown, highest first (space 6 only when a card is there)."""
    top = 6 if any(sp >= 6 for p in range(s.num_players) for _c, sp in s.track[p]) else 5
    return list(range(top, 0, -1))


def _panel_height(s: TaiwanState, p: int) -> int:
    by_space = [sum(1 for _c, sp in s.track[p] if sp == col) for col in range(7)]
    rows = max(max(by_space), -(-len(s.built[p]) // 3), 1)
    return max(104, 30 + rows * 18 + 6)


def _seat(svg: Svg, game: TaiwanGame, s: TaiwanState, p: int, y: float, h: float,
          viewer: int | None, acting: bool) -> None:
    colour = P.owner_colour(p, s.num_players)
    with svg.group(cls="seat", transform=f"translate(10 {y})"):
        svg.rect(0, 0, WIDTH - 20, h, fill="#fff8e6" if viewer == p else "#ffffff",
                 stroke=colour, rx=6, stroke_width=3.5 if acting else 1.5, cls="seat-frame")
        P.marker(svg, 14, 16, 7, p, s.num_players, "seat-token")
        you = " (you)" if viewer == p else ""
        svg.text(28, 21, f"Player {p}{you}", size=13.5, weight="bold")
        if acting:
            svg.rect(180, 6, 76, 19, fill=colour, stroke=None, rx=9, cls="to-act")
            svg.text(218, 20, "to act", size=11, weight="bold", fill=P.owner_ink(p),
                     anchor="middle")
        _holdings(svg, s, p, acting)
        _track(svg, game, s, p)
        _built(svg, game, s, p)


def _holdings(svg: Svg, s: TaiwanState, p: int, acting: bool) -> None:
    """Coins, hand, stored goods; the acting seat's chips stand for paying with them,
    discarding them and exchanging for them (``data-action``)."""
    def mark(*actions: int) -> str | None:
        return " ".join(str(a) for a in actions) if acting else None
    svg.text(10, 40, f"{s.vp[p]} VP", size=12.5, weight="bold")
    coins = s.coins[p]
    with svg.group(data_action=mark(PAY0 + PURSE)):
        P.chip(svg, 70, 40, "coins", f"{coins} coin{'' if coins == 1 else 's'}", 11.5)
    svg.text(10, 60, "hand", size=10, fill="#666")
    x = 44.0
    for r, name in enumerate(P.RESOURCE_NAMES):
        with svg.group(data_action=mark(PAY0 + HAND0 + r, DISCARD0 + r, EX_ITEMS0 + 1 + r,
                                        EX_COINS0 + 1 + r, EX_MERCH0 + 1 + r)):
            x = P.chip(svg, x, 60, name, s.res[p][r])
    with svg.group(data_action=mark(PAY0 + HAND_WORKER, EX_ITEMS0, EX_COINS0, EX_MERCH0)):
        x = P.chip(svg, x + 4, 60, "worker", s.workers[p])
    with svg.group(data_action=mark(PAY0 + MERCHANT_TILE)):
        P.chip(svg, x, 60, "merchant", s.merchants[p])
    svg.text(10, 79, "stored", size=10, fill="#666")
    with svg.group(data_action=mark(PAY0 + TRIBAL_WORKER)):
        x = P.chip(svg, 44, 79, "worker", s.tribal[p])
    for r, name in enumerate(P.RESOURCE_NAMES):
        if s.warehouse[p][r]:
            with svg.group(data_action=mark(PAY0 + WAREHOUSE0 + r)):
                x = P.chip(svg, x, 79, name, s.warehouse[p][r])
    svg.text(10, 97, "supply", size=10, fill="#666")
    for i in range(s.markers[p]):
        P.marker(svg, 52 + i * 13, 93, 5, p, s.num_players, "supply-marker")


def _track(svg: Svg, game: TaiwanGame, s: TaiwanState, p: int) -> None:
    columns = _columns(s)
    svg.reuse(_track_frame, tuple(columns))
    for i, col in enumerate(columns):
        x = TRACK_X + i * TRACK_COL
        cards = [code for code, sp in s.track[p] if sp == col]
        for k, code in enumerate(cards):
            P.mini_card(svg, x, 28 + k * 18, TRACK_COL - 4, game, code)


def _track_frame(svg: Svg, columns: tuple[int, ...]) -> None:
    for i, col in enumerate(columns):
        x = TRACK_X + i * TRACK_COL
        svg.rect(x, 20, TRACK_COL - 4, 4, fill="#d7d2c4", stroke=None)
        svg.text(x, 15, f"time space {col}", size=10, fill="#666")


def _built(svg: Svg, game: TaiwanGame, s: TaiwanState, p: int) -> None:
    svg.text(BUILT_X, 15, f"completed ({len(s.built[p])})", size=10, fill="#666")
    for k, code in enumerate(s.built[p]):
        x = BUILT_X + (k % 3) * BUILT_COL
        P.mini_card(svg, x, 28 + (k // 3) * 18, BUILT_COL - 4, game, code)
