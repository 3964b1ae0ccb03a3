"""Formosa Tea in words: what each decision asks and how chance is told.

Read by ``formosa_envs.tools.narrate`` (the contract is in its docstring). Everything
in Formosa Tea is open (only the bag and the deck order are unknown, and they are
drawn by chance), so every chance outcome is named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision
from formosa_envs.core.payment import pay_purpose, pay_units
from formosa_envs.core.wording import listing, plural, prompt_from, tally

from . import actions as A
from .content import CHARACTER_NAMES, TEAS, TRACKS
from .render import TECH_DISCS, merchant_text, space_name
from .state import DISPLAY_SLOTS, Phase, TeaState
from .turn import basket_room

if TYPE_CHECKING:
    from .game import TeaGame

PLANT = 0                 # flow.PLANT: a draw_cube onto a plantation space
DOMESTIC_PURPOSE = 100    # markets.DOMESTIC_PURPOSE


def whose_turn(game: TeaGame, s: TeaState) -> int | None:
    """The seat taking a turn in the Worker Action phase; nobody's during setup and the
    Preparation phase."""
    return s.turn if s.phase == Phase.ACTIONS and not s.over else None


def prompt(game: TeaGame, s: TeaState) -> str:
    """The pending decision as an instruction to the deciding seat."""
    return prompt_from(_PROMPTS, game, s)


def _turn(game: TeaGame, s: TeaState, d: Decision) -> str:
    if d.ctx[0]:
        return "your main action is done: use another disc, or end your turn (done)"
    text = ("choose your main action (harvest, process, complete or sell tea), or use a "
            "disc first")
    if A.PASS in game.legal_actions(s):
        text += "; with no worker left you may pass for the rest of the round"
    return text


def _worker(game: TeaGame, s: TeaState, d: Decision) -> str:
    return (f"which worker do you place to {game.action_label(s, d.ctx[0])}: a Tea Farmer or"
            " a Tea Master (only Masters can process tea)?")


def _take(game: TeaGame, s: TeaState, d: Decision) -> str:
    space = d.ctx[0]
    cubes = ", ".join(f"{k} {TEAS[c]}" for c, k in enumerate(s.cubes[space]) if k)
    wl = game.water_level(s, space % 4)
    return (f"harvest {space_name(space)} ({cubes}): choose the tea leaves to take (they go "
            f"to your Basket at WL {wl}; room for {basket_room(s, d.player)})")


def _lower(game: TeaGame, s: TeaState, d: Decision) -> str:
    optional = " - a second step you may skip (done)" if d.optional else ""
    return (f"your {TRACKS[d.ctx[0]]} batch loses water: choose the cube to lower "
            f"(from WL 2 or from WL 1){optional}")


def _advance_mode(game: TeaGame, s: TeaState, d: Decision) -> str:
    row, steps = d.ctx
    who = "your" if s.turn == d.player else f"player {s.turn}'s"
    return (f"{who} harvest on the {TRACKS[row]} row moves your {TRACKS[row]} Tea Master "
            f"{plural(steps, 'space')}: A step by step (each space's effect happens) or "
            "B jump to the last space (no effects)?")


def _tech_any(game: TeaGame, s: TeaState, d: Decision) -> str:
    if d.ctx:
        return "advance one of your lowest technology tracks by 1 space"
    return "choose a technology track to advance 1 space" + (
        " (or decline: done)" if d.optional else "")


def _tech_reward(game: TeaGame, s: TeaState, d: Decision) -> str:
    return (f"processing reward: advance your {TEAS[d.ctx[0]]} technology 1 space (yes), or "
            "decline it (done)?")


def _pay(game: TeaGame, s: TeaState, d: Decision) -> str:
    units, purpose = pay_units(d), pay_purpose(d)
    if purpose >= DOMESTIC_PURPOSE:
        what = "the Domestic Market"
    else:
        card = s.display[purpose // DISPLAY_SLOTS][purpose % DISPLAY_SLOTS]
        what = f"merchant {game.merchants[card].code}" if card >= 0 else "the merchant"
    more = f"; {len(units) - 1} more to pay after it" if len(units) > 1 else ""
    return (f"choose the quality of the {TEAS[units[0]]} tea you sell to {what} (the lowest "
            f"quality paid sets the reward){more}")


def _event_discard(game: TeaGame, s: TeaState, d: Decision) -> str:
    event = game.events[s.events[s.round - 1]]
    vp = f" and {d.ctx[0]} VP" if d.ctx[0] else ""
    return (f"event {event.year} {event.name}: discard 1 oolong tea from your Warehouse for "
            f"an oolong technology advance{vp}, or keep it (done)?")


def _scent_cube(game: TeaGame, s: TeaState, d: Decision) -> str:
    held = s.scent[d.player][1]
    return (f"choose a Warehouse tea for your scented batch ({held} in it, at most 6 of one "
            "tea" + ("; done to stop)" if held else ")"))


def _fixed(text: str) -> Callable[[TeaGame, TeaState, Decision], str]:
    return lambda game, s, d: text


_PROMPTS: dict[str, Callable[[TeaGame, TeaState, Decision], str]] = {
    "turn": _turn, "worker": _worker, "take": _take, "lower": _lower,
    "advance_mode": _advance_mode, "tech_any": _tech_any, "tech_reward": _tech_reward,
    "pay": _pay, "event_discard": _event_discard, "scent_cube": _scent_cube,
    "extra_space": _fixed("Wu Zhen Duo: take 1 extra tea leaf from another space "
                          "(or done)"),
    "extra_colour": lambda g, s, d: f"choose the colour of the leaf you take from "
                                    f"{space_name(d.ctx[0])}",
    "disc_factory": lambda g, s, d: f"choose the Factory to put your {TECH_DISCS[d.ctx[0]]} "
                                    "on (it acts on that batch)",
    "bonus_advance": lambda g, s, d: f"advance one of your Tea Masters 1 space ("
                                     f"{plural(d.count, 'advance')} left; done to stop)",
    "scent_bud": _fixed("choose the bud to put into your Scented Factory"),
    "arai_extra": _fixed("Arai Kokichiro: move your black Tea Master 1 more space (yes) or "
                         "not (done)?"),
    "choose_merchant": _fixed("choose the merchant card to sell to"),
    "dodd_advance": _fixed("John Dodd: advance one of your Tea Masters 1 space (or done)"),
    "bonus_space": _fixed("bonus harvest: choose a free plantation space to take tea "
                          "from (no worker is placed; or done)"),
    "event_1868": _fixed("event 1868 Oolong Refinery: advance your oolong Tea Master or "
                         "your oolong technology 1 space"),
    "draft": _fixed("draft a character (the start player picks last)"),
    "setup_space": lambda g, s, d: f"starting harvest: choose a plantation space to take 1 "
                                   f"tea leaf from ({plural(d.count, 'leaf', 'leaves')} "
                                   "to take)",
    "setup_colour": lambda g, s, d: f"choose the colour of the starting leaf from "
                                    f"{space_name(d.ctx[0])}",
}


def chance_note(game: TeaGame, s: TeaState, outcome: int) -> tuple[str, str, str]:
    """The group, public context and outcome of a Tea chance event."""
    d = s.stack[-1]
    kind = d.kind
    if kind in ("place_bud", "draw_cube"):
        if kind == "draw_cube" and d.ctx[0] != PLANT:
            return "basket", str(d.ctx[1]), TEAS[outcome]
        return kind, "", TEAS[outcome]
    if kind == "weather":
        tile, face = divmod(outcome, 2)
        return kind, str(d.ctx[0] + 1), str(game.board.weather[tile].faces[face])
    if kind == "merchant_draw":
        return kind, "", merchant_text(game, outcome)
    if kind == "event_draw":
        event = game.events[outcome]
        return kind, "", f"{event.year} {event.name}"
    if kind == "character_draw":
        return kind, "", CHARACTER_NAMES[outcome]
    return kind, "", f"player {outcome}"


def _by_tea(names: list[str]) -> str:
    """``5 oolong, 4 black, 3 green`` (teas in their usual order)."""
    return tally(sorted(names, key=lambda n: TEAS.index(n) if n in TEAS else len(TEAS)))


_HEADINGS = {"place_bud": "buds placed on the plantation",
             "draw_cube": "tea leaves drawn from the bag onto the plantation",
             "event_draw": "historical events in play (one per round, by year)",
             "character_draw": "characters revealed for the draft",
             "start_player": "start player"}


def chance_line(game: TeaGame, group: str, items: list[tuple[str, str | None]]) -> str:
    """One line per kind: counts for buds and leaves, names for cards and events."""
    names = [what or "?" for _, what in items]
    if group in ("place_bud", "draw_cube"):
        return f"{_HEADINGS[group]} ({len(names)}): {_by_tea(names)}"
    if group == "basket":
        seats = dict.fromkeys(who for who, _ in items)
        drawn = [f"player {p}: " + _by_tea([what or "?" for who, what in items if who == p]
                                             ).replace(", ", " + ") for p in seats]
        return f"tea leaves drawn into the Baskets at WL 1: {'; '.join(drawn)}"
    if group == "event_draw":
        names = sorted(names)  # by year: the order they are resolved in
    if group == "weather":
        return "weather tiles placed (water level per column): " + listing(
            f"c{who} WL{what}" for who, what in items)
    if group == "merchant_draw":
        if len(names) > 3:
            names = [name.split(" ")[0] for name in names]
        return f"merchant card{'s' if len(names) > 1 else ''} drawn for the display: " + \
            listing(names)
    return f"{_HEADINGS.get(group, group)}: {listing(names)}"
