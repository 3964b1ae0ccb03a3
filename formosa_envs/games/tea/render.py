"""Formosa Tea as text: the table for people, and action labels."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .content import CHARACTER_NAMES, QUALITIES, TEAS, TRACKS
from .state import DISPLAY_SLOTS, TeaState

if TYPE_CHECKING:
    from .game import TeaGame

TAKES = ("all oolong", "all black", "all green", "one of each")
DOMESTIC = ("2 oolong", "2 black", "2 green", "one of each tea")
ACTION_DISCS = ("Global Market disc", "Tea Processing disc")
TECH_DISCS = ("Fixation disc", "Rolling disc", "Oxidation disc", "Drying disc")


def _space(i: int) -> str:
    return f"space r{i // 4 + 1}c{i % 4 + 1}"


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


def render_text(game: TeaGame, s: TeaState) -> str:
    """The table: plantation, weather, merchants and every player's board."""
    lines = [f"Formosa Tea, round {s.round}/{len(s.events) or '?'}, start player {s.start_player}"]
    levels = [game.water_level(s, c) if s.weather[c] >= 0 else "-" for c in range(4)]
    lines.append("weather WL per column: " + " ".join(str(x) for x in levels))
    for r in range(4):
        cells = []
        for c in range(4):
            sp = 4 * r + c
            if c not in s.columns:
                cells.append("  --  ")
                continue
            cubes = "".join(str(x) for x in s.cubes[sp])
            bud = "oBg"[s.bud[sp]] if s.bud[sp] >= 0 else "."
            who = str(s.occupant[sp]) if s.occupant[sp] >= 0 else "."
            cells.append(f"{cubes}{bud}{who}")
        lines.append(f"  {TRACKS[r]:8s} " + " ".join(cells))
    lines.append("merchants (rightmost column first): " + "; ".join(
        _merchant_label(game, s, DISPLAY_SLOTS * r + DISPLAY_SLOTS - 1) for r in range(4)))
    for p in range(s.num_players):
        lines.append(_player_line(game, s, p))
    if s.last_event:
        lines.append(f"last: {s.last_event}")
    if not s.over and s.stack:
        lines.append(f"now: {game.decision_description(s)}")
    return "\n".join(lines)


def _player_line(game: TeaGame, s: TeaState, p: int) -> str:
    masters = ",".join(f"{TRACKS[t][0]}{pos}" for t, pos in enumerate(s.master_pos[p]) if pos >= 0)
    who = CHARACTER_NAMES[s.character[p]] if s.character[p] >= 0 else ""
    return (f"  P{p}{'*' if p == s.turn else ' '} {s.vp[p]:3d} VP {who} farmers {s.farmers[p]} "
            f"masters {s.masters[p]} on [{masters}] basket {s.basket[p]} factory "
            f"{s.factory[p]} warehouse {s.warehouse[p]} tech {s.tech[p]} "
            f"domestic {s.domestic[p]} kept {len(s.kept[p])}{' passed' if s.passed[p] else ''}")
