"""Dadaocheng in words: what each decision asks and how chance is told.

Read by ``formosa_envs.tools.narrate`` (the contract is in its docstring). Everything
in Dadaocheng is open, so every chance outcome is named (the disc layout is shown by
the table rather than listed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision
from formosa_envs.core.payment import pay_purpose, pay_units
from formosa_envs.core.wording import listing, plural, prompt_from

from .content import ANY, COLOURS
from .render import building_name
from .shop import G_1908, G_EXCHANGE, G_MARKET, G_TEMPLE, P_BUILDING, P_SHIP, P_TEMPLE
from .state import DadaochengState, Phase

if TYPE_CHECKING:
    from .game import DadaochengGame

P_1860 = 30   # shop.P_1860: the 1860 event's payment


def whose_turn(game: DadaochengGame, s: DadaochengState) -> int | None:
    """The seat whose turn it is (Full House, loop gifts and discards may ask others)."""
    return s.turn if s.phase == Phase.TURNS and not s.over else None


def prompt(game: DadaochengGame, s: DadaochengState) -> str:
    """The pending decision as an instruction to the deciding seat."""
    return prompt_from(_PROMPTS, game, s)


def _move(game: DadaochengGame, s: DadaochengState, d: Decision) -> str:
    return (f"planning: flip one disc, or swap two discs ({plural(d.count, 'movement')} left;"
            " then every line of 3 or 4 discs of one colour is collected)")


def _discard(game: DadaochengGame, s: DadaochengState, d: Decision) -> str:
    held = sum(s.hand[d.player])
    return (f"you hold {held} cubes, more than the hand limit of {held - d.count}: choose a "
            f"cube to return ({d.count} to return)")


def _pay(game: DadaochengGame, s: DadaochengState, d: Decision) -> str:
    units, purpose = pay_units(d), pay_purpose(d)
    colour = COLOURS[units[0]]
    more = f"; {len(units) - 1} more to pay after it" if len(units) > 1 else ""
    return (f"pay one {colour} cube for {_purpose(game, s, purpose)}: with a {colour} cube or "
            f"with opium (black; it counts as opium used){more}")


def _purpose(game: DadaochengGame, s: DadaochengState, purpose: int) -> str:
    if purpose < P_BUILDING:
        ship = s.ship_up[purpose - P_SHIP]
        return f"ship {game.ships[ship].code}" if ship >= 0 else "a ship"
    if purpose < P_TEMPLE:
        return f"a {building_name(purpose - P_BUILDING)}"
    if purpose == P_TEMPLE:
        return "2 Temple dice"
    return "the event 1860" if purpose == P_1860 else "the event 1898"


_GIVE = {G_EXCHANGE: "exchange: give a cube ({n} to give), then take 1 of any colour",
         G_MARKET: "Market: give a cube, then take 1 of another colour",
         G_TEMPLE: "Temple: give cubes of any colours for 3 dice ({n} to give)",
         G_1908: "event 1908: give a cube, then take 1 of another colour"}


def _give(game: DadaochengGame, s: DadaochengState, d: Decision) -> str:
    return _GIVE.get(d.ctx[0], "give a cube ({n} to give)").format(n=d.count)


def _take(game: DadaochengGame, s: DadaochengState, d: Decision) -> str:
    not_ = f", not {COLOURS[d.ctx[0]]}" if d.ctx[0] >= 0 else ""
    return f"take a cube of the colour you choose{not_} ({d.count} to take)"


def _fixed(text: str) -> Callable[[DadaochengGame, DadaochengState, Decision], str]:
    return lambda game, s, d: text


_PROMPTS: dict[str, Callable[[DadaochengGame, DadaochengState, Decision], str]] = {
    "move": _move, "discard": _discard, "pay": _pay, "give": _give, "take": _take,
    "swap_to": lambda g, s, d: f"swap cell {d.ctx[0]} with which cell?",
    "line": _fixed("several lines can be collected: choose the line to collect first"),
    "loop_any": _fixed("infinite loop! Besides a yellow, a red and a green cube, take a cube "
                       "of any colour"),
    "loop_gift": lambda g, s, d: (f"player {s.turn}'s cascade ended in a loop: take a cube "
                                  f"of any colour ({d.count} to take)"),
    "full_house": _fixed("Full House (every non-Store space of your storehouse holds "
                         "cubes): choose the space whose cubes you take"),
    "lose": _fixed("event 1853 Dingxiajiao Conflict: choose a cube to lose"),
    "purchase": _fixed("buy a ship or a building, use the Temple, an exchange, your "
                       "buildings or the event, or end your turn (done)"),
    "store_space": _fixed("choose the empty storehouse space your new Store remodels"),
    "convert": lambda g, s, d: ("event 1905: turn one of your buildings into a Mansion"
                                + (" (or stop: done)" if d.count < 2 else "")),
    "exchange_more": _fixed("event 1908: give one more cube for one of another colour, or "
                            "stop (done)"),
}


def chance_note(game: DadaochengGame, s: DadaochengState, outcome: int
                ) -> tuple[str, str, str]:
    """The group, public context and outcome of a Dadaocheng chance event."""
    d = s.stack[-1]
    if d.kind == "ship_reveal":
        return d.kind, str(d.ctx[0] + 1), game.ships[outcome].code
    if d.kind == "event_draw":
        event = game.events[outcome]
        return d.kind, "", f"{event.year} {event.name}"
    if d.kind == "die":
        gives = game.temple[outcome]
        return d.kind, str(s.turn), "any colour" if gives == ANY else COLOURS[gives]
    if d.kind == "place_disc":
        return d.kind, "", game.discs[outcome].code
    return d.kind, "", f"player {outcome}"


def chance_line(game: DadaochengGame, group: str, items: list[tuple[str, str | None]]
                ) -> str:
    """One line per kind: the new disc layout, ships turned up, dice, the event."""
    names = [what or "?" for _, what in items]
    if group == "place_disc":
        return f"the {len(names)} discs are laid out anew, sun side up (see the grid)"
    if group == "ship_reveal":
        return "ships turned up: " + listing(f"{what or '?'} (level {who})"
                                             for who, what in items)
    if group == "die":
        return f"Temple dice for player {items[0][0]}: {listing(names)}"
    if group == "event_draw":
        return f"event of this round: {listing(names)}"
    return f"start player: {listing(names)}"
