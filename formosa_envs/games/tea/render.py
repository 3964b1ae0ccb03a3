"""Formosa Tea as text: the table for people, and action labels."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from formosa_envs.core.text import pending_decision, table_footer, table_header, to_move
from formosa_envs.core.wording import amounts, listing, plural, seat_tags, wrap_segments

from .content import CHARACTER_NAMES, QUALITIES, TEAS, TRACKS
from .state import DISPLAY_SLOTS, FLAVOR, Phase, TeaState

if TYPE_CHECKING:
    from .game import TeaGame

TAKES = ("all oolong", "all black", "all green", "one of each")
DOMESTIC = ("2 oolong", "2 black", "2 green", "one of each tea")
ACTION_DISCS = ("Global Market disc", "Tea Processing disc")
TECH_DISCS = ("Fixation disc", "Rolling disc", "Oxidation disc", "Drying disc")
LEAF = "obg"   # a tea leaf (cube) or bud of oolong, black, green in the table


def _space(i: int) -> str:
    return f"the space at row {i // 4 + 1}, column {i % 4 + 1}"


_LABELS = {
    "PASS": lambda g, s, i: "pass",
    "DONE": lambda g, s, i: "done",
    "CONFIRM": lambda g, s, i: "yes",
    "HARVEST": lambda g, s, i: f"harvest {_space(i)}",
    "PROCESS": lambda g, s, i: f"process {TRACKS[i]} tea",
    "COMPLETE": lambda g, s, i: f"complete {TRACKS[i]} tea",
    "GLOBAL_MARKET": lambda g, s, i: f"sell at Global Market space {i + 1}",
    "DOMESTIC": lambda g, s, i: f"sell {DOMESTIC[i]} at the Domestic Market",
    "USE_ACTION_DISC": lambda g, s, i: f"use a {ACTION_DISCS[i]}",
    "USE_TECH_DISC": lambda g, s, i: f"use a {TECH_DISCS[i]}",
    "WORKER": lambda g, s, i: ("place a Tea Farmer", "place a Tea Master")[i],
    "TAKE": lambda g, s, i: f"take {TAKES[i]}",
    "SPACE": lambda g, s, i: _space(i),
    "TYPE": lambda g, s, i: TEAS[i],
    "ADVANCE_MODE": lambda g, s, i: ("advance step by step (A)", "jump to the last space (B)")[i],
    "LOWER": lambda g, s, i: f"lower a cube from water level {2 - i}",
    "TRACK": lambda g, s, i: f"the {TRACKS[i]} track",
    "TECH": lambda g, s, i: f"advance {TEAS[i]} technology",
    "MERCHANT": lambda g, s, i: _merchant_label(g, s, i),
    "CUBE": lambda g, s, i: f"a {QUALITIES[i % 3]} {TEAS[i // 3]} cube",
    "CHARACTER": lambda g, s, i: CHARACTER_NAMES[i],
}


def _merchant_label(game: TeaGame, s: TeaState, slot: int) -> str:
    card = s.display[slot // DISPLAY_SLOTS][slot % DISPLAY_SLOTS]
    if card < 0:
        return f"merchant slot {slot}"
    m = game.merchants[card]
    demand = " + ".join(f"{k} {TEAS[t]}" for t, k in enumerate(m.demand) if k)
    shown = [c for row in s.display for c in row if c >= 0]
    twin = sum(game.merchants[c].code == m.code for c in shown) > 1
    where = f", row {slot // DISPLAY_SLOTS + 1} slot {slot % DISPLAY_SLOTS + 1}" if twin else ""
    return f"merchant {m.code} ({demand}; {m.good}/{m.normal}/{m.poor} VP{where})"


def label_action(game: TeaGame, s: TeaState, action: int) -> str:
    """A readable label of ``action`` in state ``s`` (chance outcomes included)."""
    return game.segment_label(s, action, _LABELS)


def space_name(space: int) -> str:
    """A plantation space as the labels and the table name it: ``the space at row 1,
    column 2``."""
    return _space(space)


def merchant_text(game: TeaGame, card: int) -> str:
    """``S1-10 1 oolong+1 green 9/6/2``: code, demand, VP for good/normal/poor tea."""
    m = game.merchants[card]
    demand = "+".join(f"{k} {TEAS[t]}" for t, k in enumerate(m.demand) if k)
    return f"{m.code} {demand} {m.good}/{m.normal}/{m.poor}"


PHASE_NAMES = ("setup", "setup", "Worker Action phase", "Preparation phase")
EFFECT_WORDS = {"none": "-", "withering": "wither", "oxidation": "oxidise", "fixation": "fix",
                "drying": "dry", "rolling": "roll", "scenting": "scent"}
BONUS_WORDS = {"bonus_masters": "2 Master advances", "bonus_technology": "a tech advance",
               "bonus_harvest": "a harvest"}


def render_text(game: TeaGame, s: TeaState, viewer: int | None = None) -> str:
    """The table for people: events, plantation and weather, processing tracks,
    merchants and markets, then every player's board (all of it is open information;
    ``viewer`` only marks that seat as "you")."""
    turn = s.turn if s.phase == Phase.ACTIONS and not s.over else None
    rounds = len(s.events) or "?"
    lines = [table_header(game.title, [f"round {s.round} of {rounds}", PHASE_NAMES[s.phase],
                                       to_move(turn), f"start player {s.start_player}"])]
    lines += _event_lines(game, s)
    if s.draft_pool:
        lines.append("Characters to draft: " + listing(CHARACTER_NAMES[c] for c in s.draft_pool))
    lines += _plantation_lines(game, s)
    lines += _track_lines(game, s)
    lines += _market_lines(game, s)
    for p in range(s.num_players):
        lines += _player_lines(game, s, p, viewer, turn)
    return "\n".join(lines + table_footer(_readable(s.last_event), pending_decision(game, s)))


def _readable(event: str) -> str:
    """The engine's last-event note with spaces and tracks named as the table names them
    (``harvests space 9`` -> ``harvests the space at row 3, column 2``)."""
    event = re.sub(r"space (\d+)\b", lambda m: _space(int(m.group(1))), event)
    return re.sub(r"track (\d)\b", lambda m: f"the {TRACKS[int(m.group(1))]} track", event)


def _event_lines(game: TeaGame, s: TeaState) -> list[str]:
    if len(s.events) < s.round:
        return []
    now = game.events[s.events[s.round - 1]]
    later = [str(game.events[e].year) for e in s.events[s.round:]]
    return [f"Event at the end of this round: {now.year} {now.name}"
            + (f"; later rounds: {', '.join(later)}" if later else "")]


def _cell(s: TeaState, sp: int) -> str:
    cubes = "".join(LEAF[c] * k for c, k in enumerate(s.cubes[sp])) or "-"
    bud = f" *{LEAF[s.bud[sp]]}" if s.bud[sp] >= 0 else ""
    who = f" @{s.occupant[sp]}" if s.occupant[sp] >= 0 else ""
    return cubes + bud + who


def _column(game: TeaGame, s: TeaState, c: int) -> str:
    return f"c{c + 1} (WL{game.water_level(s, c)})" if s.weather[c] >= 0 else f"c{c + 1}"


def _plantation_lines(game: TeaGame, s: TeaState) -> list[str]:
    head = "".join(f"{_column(game, s, c):12s}" for c in s.columns)
    lines = ["Plantation: o oolong, b black, g green leaves; *x bud; @N worker of player N; "
             "WL water level", f"  {'':11s}{head}".rstrip()]
    for r in range(4):
        cells = "".join(f"{_cell(s, 4 * r + c):12s}" for c in s.columns)
        lines.append(f"  r{r + 1} {TRACKS[r]:8s}{cells}".rstrip())
    return lines


def _track_lines(game: TeaGame, s: TeaState) -> list[str]:
    lines = ["Processing tracks (space: effect) and Tea Masters on them:"]
    for t, row in enumerate(game.board.processing):
        spaces = " ".join(f"{k + 1}:{EFFECT_WORDS[e]}" for k, e in enumerate(row.effects[:-1]))
        spaces += f" {len(row.effects)}:last"
        masters = ", ".join(f"P{p} on {pos[t] + 1}" for p, pos in enumerate(s.master_pos)
                            if pos[t] >= 0) or "none"
        lines.append(f"  {TRACKS[t]:8s} {spaces} | {masters}")
    return lines


def _market_lines(game: TeaGame, s: TeaState) -> list[str]:
    from .flow import deck_size
    lines = [f"Merchants (the rightmost card of a row is for sale; demand, VP good/normal/"
             f"poor); deck: {deck_size(s)} cards"]
    for r, row in enumerate(s.display):
        cards = " | ".join(merchant_text(game, c) if c >= 0 else "(empty)" for c in row)
        lines.append(f"  row {r + 1}: {cards}")
    spaces = [f"{g + 1} ({BONUS_WORDS[m.bonus]}): "
              + (" ".join(f"P{p}" for p in s.market[g]) or "-")
              for g, m in enumerate(game.board.market)]
    lines.append("Global Market spaces (bonus): " + " | ".join(spaces))
    return lines


def _player_lines(game: TeaGame, s: TeaState, p: int, viewer: int | None,
                  turn: int | None) -> list[str]:
    supply = f"supply {plural(s.farmers[p], 'Tea Farmer')}, {plural(s.masters[p], 'Tea Master')}"
    if s.parked[p]:
        supply += f" (+{s.parked[p]} from round 3)"
    extra = [CHARACTER_NAMES[s.character[p]]] if s.character[p] >= 0 else []
    head = f"{seat_tags(p, viewer, turn, extra)}: {s.vp[p]} VP; {supply}"
    if s.passed[p]:
        head += "; passed"
    return [head] + wrap_segments(_board_segments(game, s, p))


def _board_segments(game: TeaGame, s: TeaState, p: int) -> list[str]:
    from .turn import basket_room
    basket = [f"{s.basket[p][3 * c + wl]} {TEAS[c]} WL{wl}" for c in range(3) for wl in range(3)
              if s.basket[p][3 * c + wl]]
    limit = sum(s.basket[p]) + basket_room(s, p)
    ware = [f"{s.warehouse[p][3 * t + q]} {QUALITIES[q]} {TEAS[t]}"
            for t in range(3) for q in reversed(range(3)) if s.warehouse[p][3 * t + q]]
    tech = ", ".join(f"{TEAS[t]} {s.tech[p][t]}" for t in range(3))
    domestic = s.domestic[p]
    return [f"Basket {sum(s.basket[p])}/{limit}: {listing(basket, 'empty')}",
            "Factories: " + listing(_factories(s, p), "empty"),
            f"Warehouse: {listing(ware, 'empty')}",
            f"buds: {amounts(s.buds[p], TEAS)}" if sum(s.buds[p]) else "",
            f"tech: {tech}",
            f"Domestic track {domestic} ({game.board.domestic.vp[domestic]} VP at the end)",
            _discs(s, p),
            "kept merchants: " + ", ".join(game.merchants[c].code for c in s.kept[p])
            if s.kept[p] else ""]


def _factories(s: TeaState, p: int) -> list[str]:
    out = []
    for t in range(3):
        f = s.factory[p][4 * t:4 * t + 4]
        if not sum(f):
            continue
        parts = [f"{f[wl]} WL{wl}" for wl in (2, 1, 0) if f[wl]]
        parts += [f"{f[FLAVOR]} flavor"] if f[FLAVOR] else []
        discs = [TECH_DISCS[code % 4].split()[0] for code in s.discs_on[p] if code // 4 == t]
        out.append(f"{TEAS[t]}: {' + '.join(parts)}" + (f" ({'+'.join(discs)} disc)" if discs
                                                         else ""))
    tea, cubes, *buds = s.scent[p]
    if cubes or sum(buds):
        what = f"{cubes} {TEAS[tea]}" if cubes else "no tea"
        out.append(f"scented: {what} + buds {amounts(buds, TEAS)}")
    return out


def _discs(s: TeaState, p: int) -> str:
    held = [f"{k} {name}" for k, name in zip(s.action_discs[p], ACTION_DISCS, strict=True) if k]
    held += [f"{k} {name}" for k, name in zip(s.tech_discs[p], TECH_DISCS, strict=True) if k]
    return "discs: " + ", ".join(held) if held else ""
