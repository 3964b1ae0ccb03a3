"""Formosa Tea as an SVG picture of the table (``TeaGame.render_svg``).

Top: the plantation (weather tiles over its columns, cubes, buds and workers on its
spaces), the four Tea Processing tracks beside their plantation rows with every Tea
Master on them, and the merchant display (its right column is offered) with the deck
face down by stage. Middle: the Global Market, the Domestic Market track and the
Historical Events (or the character draft). Bottom: one board per player. A band
under the picture names the pending decision.

Everything in Formosa Tea is open (R-35): only the order of the bag and of the
merchant deck is hidden, so the bag is shown as counts, the deck as card backs with
counts, and a seat viewer sees the same table (its seat marked "you").

CSS classes counted by the tests: ``cube`` (one per tea cube outside the bag, plus
``cube-oolong|black|green``), ``bud`` (one per bud on the plantation, held or in a
Scented Factory), ``master`` (one per Tea Master on a processing track), ``merchant``
(one per face-up display card), ``card-back`` (one per non-empty deck pile),
``seat`` (one per player), ``character`` (characters owned or in the draft),
``event`` (events in play), ``kept-card``, ``worker`` (workers off the tracks),
``weather``.

Click targets (for the play page; the picture looks the same): ``data-action`` lists the
action ids a drawn thing stands for. Invisible boxes (``fill-opacity`` 0, class ``hit``)
over each plantation space (harvest there, or choose it), each Tea Processing row
(process, complete, or choose that track), each Global Market space and the Domestic
Market; the merchant cards of the display and the characters of the draft carry it on
their own group.

Speed: what depends only on the configuration (track spaces, plantation cells, the
Domestic track, board frames and labels) is drawn once per config and cached; a
picture then draws only the pieces (about 2-4 ms).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.svg import Svg, final_caption

from . import actions as A
from .content import CHARACTER_NAMES
from .picture_parts import (
    INK,
    LINE,
    MUTED,
    SEAT_FILL,
    TEA_FILL,
    TECH_DISC_SHORT,
    TRACK_FILL,
    TRACK_NAMES,
    board_dynamic,
    board_height,
    board_static,
    buds,
    cubes,
    label,
    master,
    placed_kind,
    seq,
    worker,
)
from .state import EVENTS_IN_GAME, Phase, TeaState

if TYPE_CHECKING:
    from .game import TeaGame

WIDTH = 1200
ROW_Y, ROW_PITCH, CELL_W, CELL_H = 72, 66, 64, 62
PLANT_X, TRACK_X, SPACE_W = 92, 362, 48
DISPLAY_X, CARD_W, CARD_PITCH, DECK_X = 760, 98, 104, 1078
MID_Y, BOARDS_Y = 346, 458
ROW_TINT = ("#fbe8d3", "#f5dad6", "#e0eed9", "#f5e1ee")
EFFECT_SHORT = {"withering": "Wither", "oxidation": "Oxid.", "fixation": "Fix",
                "drying": "Dry", "rolling": "Roll", "scenting": "Scent"}
REWARD_SHORT = {"action_global": "G", "action_processing": "P", "bonus_masters": "M",
                "bonus_technology": "T", "bonus_harvest": "H"}
BONUS_NAMES = {"bonus_masters": "Masters \u00d72", "bonus_technology": "Technology",
               "bonus_harvest": "Harvest"}
EVENT_SHORT = {1865: "Export", 1867: "Macau", 1868: "Refinery", 1869: "To the US",
               1874: "Scenting", 1889: "Yong Ho", 1903: "Research", 1916: "Pouchong",
               1925: "Assam", 1936: "Yuchih", 1964: "Yabukita"}
WL_FILL = ("#f6efd9", "#cfe1ef", "#9cc2e2")


def render_svg(game: TeaGame, state: TeaState, viewer: int | None = None) -> str:
    """The table as SVG: all of it is open information, so ``viewer`` only marks a seat.

    ``viewer=None`` is the spectator view; ``viewer=k`` marks seat ``k`` as "you".
    The bag is drawn as counts, the merchant deck face down with its count per stage.
    """
    s = state
    board_w = _board_width(s.num_players)
    svg = Svg(WIDTH, BOARDS_Y + board_height(board_w >= 584) + 10,
              title=f"{game.title}, round {s.round}")
    svg.reuse(_draw_static, game, key=game.config)  # the layout: drawn once per config
    _header(svg, s)
    _plantation(svg, game, s)
    _tracks(svg, game, s)
    _display(svg, game, s)
    _markets(svg, game, s)
    _events(svg, game, s)
    if not s.over:
        _targets(svg, game)
    acting = _acting(s)
    for p in range(s.num_players):
        marks = (p == viewer, p == acting, p == s.turn and s.phase == Phase.ACTIONS
                 and not s.over)
        board_dynamic(svg, game, s, p, (10 + p * (board_w + 10), BOARDS_Y, board_w), marks)
    svg.caption(caption_text(game, s))
    return svg.to_string()


def caption_text(game: TeaGame, s: TeaState) -> str:
    """The caption: the round and the pending decision, or the final scores."""
    if s.over:
        return final_caption(s.vp, "VP", game.winners(s))
    return f"Round {s.round}/{EVENTS_IN_GAME[s.num_players]} - {game.decision_description(s)}"


def _board_width(n: int) -> float:
    return (WIDTH - 20 - 10 * (n - 1)) / n


def _acting(s: TeaState) -> int:
    """The seat that must decide now (-1 at chance or after the end)."""
    if s.over or not s.stack or s.stack[-1].player == CHANCE:
        return -1
    return max(s.stack[-1].player, -1)


# ----- the static layer --------------------------------------------------------------

def _draw_static(svg: Svg, game: TeaGame) -> None:
    svg.text(10, 22, "Formosa Tea", size=16, weight="bold", fill="#3d5a2a")
    for t in range(3):
        svg.rect(WIDTH - 172 + 54 * t, 11, 12, 12, fill=TEA_FILL[t], stroke="#3a2a1a",
                 cls="bag-swatch")
    label(svg, 10, 48, "Weather")
    label(svg, 10, 60, "(water level)")
    for r in range(4):
        y = ROW_Y + ROW_PITCH * r
        svg.rect(10, y, 76, CELL_H, fill=TRACK_FILL[r], stroke=None, rx=5, cls="row-label")
        svg.text(48, y + 28, TRACK_NAMES[r], size=12, weight="bold", anchor="middle",
                 fill="#ffffff")
        svg.text(48, y + 44, f"row {r + 1}", size=10, anchor="middle", fill="#ffffff")
        for c in range(4):
            _space_static(svg, game, r, c, PLANT_X + CELL_W * c, y)
    _tracks_static(svg, game)
    svg.text(DISPLAY_X, 50, "Merchants", size=13, weight="bold", fill=INK)
    label(svg, DISPLAY_X, 65, "right column offered \u00b7 VP good / normal / poor "
          "\u00b7 \u25cf icon")
    _markets_static(svg, game)
    svg.rect(DISPLAY_X, MID_Y, 430, 104, fill="#f7f1e4", stroke=LINE, rx=6, cls="events")
    board_w = _board_width(game.num_players)
    for p in range(game.num_players):
        board_static(svg, game, p, 10 + p * (board_w + 10), BOARDS_Y, board_w)


def _space_static(svg: Svg, game: TeaGame, r: int, c: int, x: float, y: float) -> None:
    if 4 * r + c in game.play_spaces:
        svg.rect(x + 2, y, CELL_W - 4, CELL_H, fill=ROW_TINT[r], stroke=LINE, rx=4,
                 cls="space")
        return
    svg.rect(x + 2, y, CELL_W - 4, CELL_H, fill="#e3dfd6", stroke="#c9c2b4", rx=4,
             cls="space unused")
    svg.text(x + CELL_W / 2, y + 35, "unused", size=10, anchor="middle", fill="#9a9284")


def _tracks_static(svg: Svg, game: TeaGame) -> None:
    svg.text(TRACK_X, 58, "Tea Processing tracks", size=13, weight="bold", fill=INK)
    for t, row in enumerate(game.board.processing):
        y = ROW_Y + ROW_PITCH * t
        last = len(row.effects) - 1
        for i, effect in enumerate(row.effects):
            x = TRACK_X + SPACE_W * i
            svg.rect(x + 1, y, SPACE_W - 2, CELL_H, fill=TRACK_FILL[t] if i == last
                     else ROW_TINT[t], stroke=TRACK_FILL[t], rx=3, cls="track-space")
            if i == last:
                svg.text(x + SPACE_W / 2, y + 12, "last", size=10, anchor="middle",
                         fill="#ffffff", weight="bold")
            elif effect in EFFECT_SHORT:
                svg.text(x + SPACE_W / 2, y + 12, EFFECT_SHORT[effect], size=10,
                         anchor="middle", fill=INK)


def _markets_static(svg: Svg, game: TeaGame) -> None:
    y = MID_Y
    svg.rect(10, y, 340, 104, fill="#f7f1e4", stroke=LINE, rx=6, cls="global-market")
    svg.text(18, y + 17, "Global Market", size=13, weight="bold", fill=INK)
    for g, space in enumerate(game.board.market):
        x = 18 + 110 * g
        svg.rect(x, y + 24, 104, 50, fill="#fffaf0", stroke=LINE, rx=4)
        label(svg, x + 5, y + 37, f"{g + 1} \u00b7 {BONUS_NAMES[space.bonus]}", fill=INK)
    x = 360
    svg.rect(x, y, 390, 104, fill="#f7f1e4", stroke=LINE, rx=6, cls="domestic-market")
    svg.text(x + 8, y + 17, "Domestic Market", size=13, weight="bold", fill=INK)
    track = game.board.domestic
    pitch = 374 / len(track.vp)
    for i, vp in enumerate(track.vp):
        cx = x + 8 + pitch * i
        svg.rect(cx, y + 24, pitch - 2, 62, fill="#fffaf0", stroke=LINE, rx=3)
        svg.text(cx + pitch / 2 - 1, y + 36, vp, size=10, anchor="middle", fill=INK)
        if track.rewards[i] in REWARD_SHORT:
            svg.text(cx + pitch / 2 - 1, y + 49, REWARD_SHORT[track.rewards[i]], size=10,
                     anchor="middle", fill="#8a5a12", weight="bold")
    label(svg, x + 8, y + 98, "VP at the end \u00b7 G/P: GM/TP disc \u00b7 "
          "T/M/H: tech, Masters, harvest bonus")


# ----- the pieces --------------------------------------------------------------------

def _header(svg: Svg, s: TeaState) -> None:
    rounds = EVENTS_IN_GAME[s.num_players]
    info = f"Round {s.round} of {rounds} \u00b7 {s.num_players} players \u00b7 " \
           f"start player {s.start_player}" + (" \u00b7 game over" if s.over else "")
    svg.text(128, 22, info, size=12, fill=INK)
    label(svg, WIDTH - 180, 22, f"Bag ({sum(s.bag)})", anchor="end")
    for t in range(3):
        svg.text(WIDTH - 156 + 54 * t, 22, s.bag[t], size=11, fill=INK)


def _plantation(svg: Svg, game: TeaGame, s: TeaState) -> None:
    for c in range(4):
        _weather(svg, game, s, c, PLANT_X + CELL_W * c)
    for sp in game.play_spaces:
        x, y = PLANT_X + CELL_W * (sp % 4), ROW_Y + ROW_PITCH * (sp // 4)
        cubes(svg, x + 7, y + 6, 52, 16, seq(s.cubes[sp]), big=14)
        if s.bud[sp] >= 0:
            buds(svg, x + 7, y + 46, [s.bud[sp]], r=7)
        if s.occupant[sp] >= 0:
            worker(svg, x + 48, y + 46, s.occupant[sp], placed_kind(s, s.occupant[sp]))


def _weather(svg: Svg, game: TeaGame, s: TeaState, c: int, x: float) -> None:
    if s.weather[c] < 0:
        svg.rect(x + 3, 36, CELL_W - 6, 30, fill="none", stroke=LINE,
                 stroke_dasharray="3 3", rx=4)
        return
    wl = game.water_level(s, c)
    with svg.group(cls="weather", data_wl=wl):
        svg.rect(x + 3, 36, CELL_W - 6, 30, fill=WL_FILL[wl], stroke="#5a7a95", rx=4)
        svg.text(x + 10, 56, f"WL {wl}", size=11, weight="bold", fill="#234a6a")
        for i in range(wl):
            svg.circle(x + 46 + 8 * i, 51, 3.5, fill="#2f78c4", stroke=None)


def _tracks(svg: Svg, game: TeaGame, s: TeaState) -> None:
    for t in range(4):
        seats_at: dict[int, int] = {}
        for p in range(s.num_players):
            pos = s.master_pos[p][t]
            if pos >= 0:
                k = seats_at.get(pos, 0)
                seats_at[pos] = k + 1
                master(svg, TRACK_X + SPACE_W * pos + 14 + 20 * (k % 2),
                       ROW_Y + ROW_PITCH * t + 36 + 22 * (k // 2), p)


def _display(svg: Svg, game: TeaGame, s: TeaState) -> None:
    for r, row in enumerate(s.display):
        y = ROW_Y + ROW_PITCH * r
        for slot, card in enumerate(row):
            _merchant(svg, game, card, DISPLAY_X + CARD_PITCH * slot, y, offered=slot == 2,
                      action=A.MERCHANT0 + 3 * r + slot)
    piles = [("Stage 1", len(s.deck_pools[0])), ("Stage 2", len(s.deck_pools[1])),
             ("Stage 3", len(s.deck_pools[2])), ("Returned", len(s.deck_tail))]
    label(svg, DECK_X + 8, 50, f"Deck ({sum(k for _, k in piles)})", fill=INK)
    for r, (name, count) in enumerate(piles):
        _pile(svg, name, count, DECK_X, ROW_Y + ROW_PITCH * r)


def _merchant(svg: Svg, game: TeaGame, card: int, x: float, y: float,
              offered: bool, action: int) -> None:
    if card < 0:
        svg.rect(x, y, CARD_W, CELL_H, fill="none", stroke=LINE, stroke_dasharray="4 3",
                 rx=5, cls="merchant-slot")
        return
    m = game.merchants[card]
    with svg.group(cls="merchant offered" if offered else "merchant", data_card=m.code,
                   data_action=action):
        svg.rect(x, y, CARD_W, CELL_H, fill="#fbf3e2", stroke="#b8902f" if offered else LINE,
                 stroke_width=2.5 if offered else 1, rx=5)
        svg.text(x + 6, y + 14, m.code, size=10, weight="bold", fill=INK)
        svg.circle(x + CARD_W - 11, y + 10, 6, fill=TEA_FILL[m.icon_index], stroke="#3a2a1a",
                   cls="merchant-icon")
        for i, tea in enumerate(seq(list(m.demand))):
            svg.rect(x + 6 + 14 * i, y + 21, 11, 11, fill=TEA_FILL[tea], stroke="#3a2a1a",
                     cls="demand")
        svg.text(x + 6, y + 52, f"VP {m.good} / {m.normal} / {m.poor}", size=11, fill=INK)


def _pile(svg: Svg, name: str, count: int, x: float, y: float) -> None:
    if count:
        svg.rect(x + 4, y + 2, 36, 54, fill="#7a4e2a", stroke="#3b2412", rx=4)
        with svg.group(cls="card-back", data_count=count):
            svg.rect(x, y + 5, 36, 54, fill="#8b5a32", stroke="#3b2412", rx=4)
            svg.rect(x + 5, y + 10, 26, 44, fill="none", stroke="#e2c48c", rx=3)
            svg.text(x + 18, y + 37, count, size=12, weight="bold", anchor="middle",
                     fill="#fbeed3")
    else:
        svg.rect(x, y + 5, 36, 54, fill="none", stroke=LINE, stroke_dasharray="3 3", rx=4)
    label(svg, x + 44, y + 26, name, fill=INK)
    label(svg, x + 44, y + 40, f"{count} card{'s' * (count != 1)}")


def _markets(svg: Svg, game: TeaGame, s: TeaState) -> None:
    y = MID_Y
    for g in range(3):
        for k, p in enumerate(s.market[g]):
            worker(svg, 30 + 110 * g + 16 * k, y + 57, p, placed_kind(s, p))
    supply = [f"GM {s.action_supply[0]}", f"TP {s.action_supply[1]}"]
    supply += [f"{TECH_DISC_SHORT[k]} {v}" for k, v in enumerate(s.tech_supply)]
    label(svg, 18, y + 93, "Disc supply: " + " \u00b7 ".join(supply))
    n, x = s.num_players, 360
    here = [max(sum(s.placed[p]) - s.occupant.count(p) - sum(p in m for m in s.market), 0)
            for p in range(n)]
    step = min(16.0, 236 / max(sum(here), 1))
    wx = x + 140
    for p in range(n):
        for _ in range(here[p]):
            worker(svg, wx, y + 11, p, placed_kind(s, p))
            wx += step
    pitch = 374 / len(game.board.domestic.vp)
    for p in range(n):
        k = sum(1 for q in range(p) if s.domestic[q] == s.domestic[p])
        svg.circle(x + 14 + pitch * s.domestic[p] + 9 * (k % 2), y + 60 + 9 * (k // 2), 4,
                   fill=SEAT_FILL[p], stroke="#111111", cls="domestic-marker")


def _events(svg: Svg, game: TeaGame, s: TeaState) -> None:
    x, y = DISPLAY_X, MID_Y
    title = "Characters to draft" if s.draft_pool else "Historical events (one per round)"
    svg.text(x + 8, y + 17, title, size=13, weight="bold", fill=INK)
    for k, ch in enumerate(s.draft_pool):
        with svg.group(cls="character draft", data_character=ch, data_action=A.CHARACTER0 + ch):
            svg.rect(x + 8 + 84 * k, y + 26, 80, 30, fill="#f3e6c8", stroke="#9a7b3c", rx=4)
            first, _, rest = CHARACTER_NAMES[ch].partition(" ")
            svg.text(x + 48 + 84 * k, y + 39, first, size=10, anchor="middle", fill=INK)
            svg.text(x + 48 + 84 * k, y + 51, rest, size=10, anchor="middle", fill=INK)
    top, height = (y + 62, 36) if s.draft_pool else (y + 24, 70)
    events = sorted(s.events, key=lambda e: game.events[e].year)
    for k, e in enumerate(events):
        _event(svg, game.events[e].year, k + 1, s, x + 8 + 70 * k, top, height)


def _targets(svg: Svg, game: TeaGame) -> None:
    """Invisible click boxes: plantation spaces, processing rows, the two markets."""
    for sp in game.play_spaces:
        r, c = divmod(sp, 4)
        _hit(svg, PLANT_X + CELL_W * c + 2, ROW_Y + ROW_PITCH * r, CELL_W - 4, CELL_H,
             (A.HARVEST0 + sp, A.SPACE0 + sp))
    for t, row in enumerate(game.board.processing):
        _hit(svg, TRACK_X, ROW_Y + ROW_PITCH * t, SPACE_W * len(row.effects), CELL_H,
             (A.PROCESS0 + t, A.COMPLETE0 + t, A.TRACK0 + t))
    for g in range(len(game.board.market)):
        _hit(svg, 18 + 110 * g, MID_Y + 24, 104, 50, (A.GLOBAL0 + g,))
    _hit(svg, 360, MID_Y, 390, 104, tuple(range(A.DOMESTIC0, A.DOMESTIC0 + 4)))


def _hit(svg: Svg, x: float, y: float, w: float, h: float, actions: tuple[int, ...]) -> None:
    """A box that is not seen but can be clicked, standing for ``actions``."""
    svg.rect(x, y, w, h, fill="#ffffff", stroke=None, fill_opacity=0, cls="hit",
             data_action=" ".join(str(a) for a in actions))


def _event(svg: Svg, year: int, rnd: int, s: TeaState, x: float, y: float,
           h: float) -> None:
    done = rnd < s.round or s.over
    current = rnd == s.round and not s.over
    ink = MUTED if done else INK
    with svg.group(cls="event resolved" if done else "event", data_year=year):
        svg.rect(x, y, 66, h, fill="#e9e4da" if done else "#fffaf0",
                 stroke="#b8902f" if current else LINE, stroke_width=2 if current else 1,
                 rx=4)
        svg.text(x + 33, y + 14, year, size=11, weight="bold", anchor="middle", fill=ink)
        svg.text(x + 33, y + 27, EVENT_SHORT.get(year, ""), size=10, anchor="middle",
                 fill=ink)
        if h > 40:
            label(svg, x + 33, y + 50, f"round {rnd}", anchor="middle")
            if current:
                label(svg, x + 33, y + 63, "this round", anchor="middle", fill="#8a5a12")
