"""Taiwan Formosa in words: what each decision asks and how chance is told.

Read by ``formosa_envs.tools.narrate`` (the contract is in its docstring). Everything
in Taiwan Formosa is open, so every chance outcome is named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.payment import pay_purpose, pay_units
from formosa_envs.core.wording import listing, plural

from . import actions as A
from .payment import describe_unit
from .render import FACES, card_name
from .rules import (
    DICE_COST,
    HOT_SPRING,
    P_CHARITY,
    P_COINS,
    P_ITEMS,
    P_LANDMARK,
    P_MERCHANT,
    P_OVERTIME,
    P_TEMPLE,
)
from .state import HAND_LIMIT, LANDMARK0, Phase, TaiwanState

if TYPE_CHECKING:
    from .game import TaiwanGame

JUDICIAL = 0   # RED_KEYS index of the Judicial Court


def whose_turn(game: TaiwanGame, s: TaiwanState) -> int | None:
    """The seat rolling or acting; nobody's turn in the build, income and cleanup."""
    return s.turn if s.phase in (Phase.DICE, Phase.ACTIONS) and not s.over else None


def prompt(game: TaiwanGame, s: TaiwanState) -> str:
    """The pending decision as an instruction to the deciding seat."""
    d = s.stack[-1]
    p = d.player
    if d.kind == "declare":
        return (f"declare how many dice to roll (2 are free, {DICE_COST} coins per extra die;"
                f" you have {s.coins[p]} coins)")
    if d.kind == "act":
        return ("choose an action (buy a building or landmark, exchange, work overtime, "
                "give to charity, use a Temple) or pass to end your action turn")
    if d.kind == "pay":
        units = pay_units(d)
        more = f"; {len(units) - 1} more to pay after it" if len(units) > 1 else ""
        return (f"choose how to pay one {describe_unit(units[0])} for "
                f"{_purpose(game, s, p, pay_purpose(d))}{more}")
    if d.kind == "region":
        if d.ctx[0] == HOT_SPRING:
            return ("your Hot Spring Hotel places a marker and scores 2 VP per marker "
                    "already there: choose a region")
        return ("your Public Art Installation places 2 markers: choose a region without "
                "markers of yours")
    if d.kind == "warehouse":
        return "your Warehouse is complete: choose the resource it stores (3 of it)"
    if d.kind == "judicial":
        court = s.exclusive[JUDICIAL]
        return (f"after income, player {court}'s Judicial Court makes you discard: "
                "choose 1 resource from your hand")
    if d.kind == "cleanup":
        return (f"cleanup: you hold {sum(s.res[p])} resources, more than {HAND_LIMIT}: "
                f"choose one to discard ({d.count} to discard)")
    return game.decision_description(s)


def _purpose(game: TaiwanGame, s: TaiwanState, p: int, purpose: int) -> str:
    """What a payment is for, in words."""
    if purpose < P_LANDMARK:
        return f"the {card_name(game, purpose)} you are buying"
    if purpose < P_ITEMS:
        card = s.face_up[purpose - P_LANDMARK]
        return f"the landmark {card_name(game, LANDMARK0 + card)}" if card >= 0 else \
            "a landmark"
    if purpose < P_OVERTIME:
        how = {P_ITEMS: "3 items", P_COINS: "9 coins", P_MERCHANT: "a merchant + 2 coins"}
        return f"exchanging {how[purpose // 100 * 100]} for 1 {A.OUTPUTS[purpose % 100]}"
    if purpose < P_CHARITY:
        i = purpose - P_OVERTIME
        card = card_name(game, s.track[p][i][0]) if i < len(s.track[p]) else "a card"
        return f"overtime on {card}"
    if purpose < P_TEMPLE:
        return f"a charitable contribution to {A.REGION_NAMES[purpose - P_CHARITY]}"
    return "the Temple (2 VP)"


def chance_note(game: TaiwanGame, s: TaiwanState, outcome: int) -> tuple[str, str, str]:
    """Setup draws and reveals name their card; a die names its face and owner."""
    d = s.stack[-1]
    if d.kind == "draw_type":
        return d.kind, "", card_name(game, outcome)
    if d.kind == "reveal":
        return d.kind, f"deck {d.ctx[0]}", card_name(game, LANDMARK0 + outcome)
    if d.kind == "roll":
        return f"roll:{d.ctx[0]}", str(d.ctx[0]), FACES[outcome]
    return d.kind, "", f"player {outcome}"


def chance_line(game: TaiwanGame, group: str, items: list[tuple[str, str | None]]) -> str:
    """One line per kind: building types drawn, landmarks turned up, a player's dice."""
    names = [what or "?" for _, what in items]
    if group == "draw_type":
        return f"building types in this game ({len(names)}): {listing(names)}"
    if group == "reveal":
        cards = listing(f"{what or '?'} (deck {who[5:]})" for who, what in items)
        return f"landmark{'s' if len(items) > 1 else ''} turned face up: {cards}"
    if group.startswith("roll:"):
        return f"player {items[0][0]} rolled {plural(len(names), 'die', 'dice')}: " \
               f"{listing(names)}"
    return f"start player: {listing(names)}"
