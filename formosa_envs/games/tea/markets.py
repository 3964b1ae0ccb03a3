"""Selling tea: the Global Market, merchant cards, the Domestic Market, bonus actions.

Payments use the shared :mod:`formosa_envs.core.payment` mechanism: a demand is a
tuple of tea units, each paid by a Warehouse cube of that tea whose quality the
player picks (``CUBE[3*tea + quality]``, R-46). Decision kinds: ``choose_merchant``,
``pay``, ``dodd_advance``, ``bonus_space``. Automatic: ``gm_bonus``, ``dodd``,
``domestic_step``. Rule ids refer to ``seeds/tea.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision, FunctionHandler
from formosa_envs.core.engine import AUTO
from formosa_envs.core.payment import PayHandler, start_payment

from . import actions as A
from . import effects as E
from .state import DISPLAY_SLOTS, TeaState, in_play, tea_in_warehouse

if TYPE_CHECKING:
    from .game import TeaGame

WANG, JOHN_DODD, LI_CHUN_SHENG = 0, 2, 3
DOMESTIC_PURPOSE = 100
RIGHTMOST = DISPLAY_SLOTS - 1
NORMAL = 1


class CubePayment:
    """The :class:`~formosa_envs.core.payment.PaymentModel` of Warehouse cubes."""

    def __init__(self, game: TeaGame) -> None:
        self.game = game

    def sources(self, s: TeaState, p: int, unit: int) -> Sequence[int]:
        """A tea unit is paid by a cube of that tea, of any quality (poor first)."""
        return (3 * unit, 3 * unit + 1, 3 * unit + 2)

    def can_take(self, s: TeaState, p: int, source: int, used: Mapping[int, int]) -> bool:
        """Whether the Warehouse still holds such a cube."""
        return used.get(source, 0) < s.warehouse[p][source]

    def fast_feasible(self, s: TeaState, p: int, units: Sequence[int],
                      used: Mapping[int, int]) -> bool:
        """Qualities of one tea are interchangeable: counting per tea is exact."""
        for tea in range(3):
            spent = sum(used.get(3 * tea + q, 0) for q in range(3))
            if units.count(tea) > tea_in_warehouse(s, p, tea) - spent:
                return False
        return True

    def legal_sources(self, s: TeaState, p: int, units: Sequence[int]) -> list[int]:
        """Every held quality of the next unit's tea keeps the rest payable."""
        return [src for src in self.sources(s, p, units[0]) if s.warehouse[p][src] > 0]

    def take(self, s: TeaState, p: int, unit: int, source: int) -> None:
        """The cube goes back to the bag; the sale's lowest quality is remembered."""
        s.warehouse[p][source] -= 1
        s.bag[unit] += 1
        s.pay_low = min(s.pay_low, source % 3)

    def finish(self, s: TeaState, p: int, purpose: int) -> None:
        """Carry out the sale that was paid for."""
        if purpose >= DOMESTIC_PURPOSE:
            steps = 3 if purpose - DOMESTIC_PURPOSE == 3 else 2
            s.stack.append(Decision("domestic_step", AUTO, ctx=(p, steps)))
        else:
            settle_sale(self.game, s, p, purpose)


def demand_units(demand: Sequence[int]) -> tuple[int, ...]:
    """A merchant's demand as tea units, oolong first."""
    return tuple(t for t in range(3) for _ in range(demand[t]))


def payable_slots(game: TeaGame, s: TeaState, p: int, any_slot: bool) -> list[int]:
    """Display slots whose card ``p`` can pay (rightmost column unless ``any_slot``)."""
    w = s.warehouse[p]
    h0, h1, h2 = w[0] + w[1] + w[2], w[3] + w[4] + w[5], w[6] + w[7] + w[8]
    demands = game.demands
    cols = _ALL_COLUMNS if any_slot else _RIGHT_COLUMN
    slots = []
    for row, cards in enumerate(s.display):
        for col in cols:
            card = cards[col]
            if card >= 0:
                d0, d1, d2 = demands[card]
                if d0 <= h0 and d1 <= h1 and d2 <= h2:
                    slots.append(DISPLAY_SLOTS * row + col)
    return slots


_ALL_COLUMNS, _RIGHT_COLUMN = tuple(range(DISPLAY_SLOTS)), (RIGHTMOST,)


def domestic_payable(s: TeaState, p: int, kind: int) -> bool:
    """2 cubes of one tea (kind 0-2) or one of each (kind 3) in the Warehouse (TEA-10.1)."""
    if kind == 3:
        return all(tea_in_warehouse(s, p, t) for t in range(3))
    return tea_in_warehouse(s, p, kind) >= 2


def domestic_actions(s: TeaState, p: int) -> list[int]:
    """The DOMESTIC ids ``p`` can pay for (:func:`domestic_payable` of the 4 kinds)."""
    w = s.warehouse[p]
    have = (w[0] + w[1] + w[2], w[3] + w[4] + w[5], w[6] + w[7] + w[8])
    legal = [A.DOMESTIC0 + k for k in range(3) if have[k] >= 2]
    if have[0] and have[1] and have[2]:
        legal.append(A.DOMESTIC0 + 3)
    return legal


# ----- Global Market -------------------------------------------------------------------

def global_market(game: TeaGame, s: TeaState, p: int, space: int) -> None:
    """A worker on Global Market ``space``: a sale, John Dodd, then the bonus (TEA-9)."""
    s.market[space].append(p)
    s.stack.append(Decision("gm_bonus", AUTO, ctx=(p, space)))
    global_sale(game, s, p, any_slot=s.character[p] == JOHN_DODD)


def global_sale(game: TeaGame, s: TeaState, p: int, any_slot: bool) -> None:
    """Choose a payable card and pay it; John Dodd's advance follows (TEA-9.2-9.6)."""
    s.stack.append(Decision("dodd", AUTO, ctx=(p,)))
    E.ask(game, s, Decision("choose_merchant", p, ctx=(int(any_slot or
                                                           s.character[p] == JOHN_DODD),)))


def _choose_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    return [A.MERCHANT0 + slot for slot in payable_slots(game, s, d.player, bool(d.ctx[0]))]


def _choose_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    slot = action - A.MERCHANT0
    card = game.merchants[s.display[slot // DISPLAY_SLOTS][slot % DISPLAY_SLOTS]]
    s.pay_low = 2
    start_payment(game.payment, s, d.player, slot, demand_units(card.demand))


def settle_sale(game: TeaGame, s: TeaState, p: int, slot: int) -> None:
    """Score the card at the lowest quality paid; keep it or return it (TEA-9.4, 9.5)."""
    row, col = divmod(slot, DISPLAY_SLOTS)
    card_id = s.display[row][col]
    card = game.merchants[card_id]
    s.display[row][col] = -1
    if row not in s.lost_rows:
        s.lost_rows.append(row)
    gained = card.vp(s.pay_low)
    if s.character[p] == WANG and card.demand[0] > 0:
        gained += s.tech[p][0]
    if s.character[p] == LI_CHUN_SHENG:
        gained += len(s.kept[p])
    s.vp[p] += gained
    if s.pay_low >= NORMAL:
        s.kept[p].append(card_id)
    else:
        s.deck_tail.append(card_id)
    s.last_event = f"player {p} sells to merchant {card.code} for {gained} VP"


def _dodd_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    p = d.ctx[0]
    if s.character[p] == JOHN_DODD:
        E.ask(game, s, Decision("dodd_advance", p))


def _own_tracks(game: TeaGame, s: TeaState, p: int) -> list[int]:
    return [A.TRACK0 + t for t in range(4) if 0 <= s.master_pos[p][t] < game.last[t]]


def _dodd_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    tracks = _own_tracks(game, s, d.player)
    return [A.DONE, *tracks] if tracks else []


def _dodd_advance_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    if action != A.DONE:
        E.push_move(s, d.player, action - A.TRACK0, 1, arai=True)


def _gm_bonus_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    p, space = d.ctx
    offer_bonus(game, s, p, game.board.market[space].bonus)


def offer_bonus(game: TeaGame, s: TeaState, p: int, bonus: str) -> None:
    """One optional bonus action (TEA-9.7)."""
    if bonus == "bonus_masters":
        E.ask(game, s, Decision("bonus_advance", p, 2, optional=True))
    elif bonus == "bonus_technology":
        E.gain_reward(game, s, p, bonus, optional=True)
    elif bonus == "bonus_harvest":
        E.ask(game, s, Decision("bonus_space", p))
    else:
        E.gain_reward(game, s, p, bonus, optional=False)


def _bonus_space_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    spaces = [A.SPACE0 + sp for sp in range(16)
              if in_play(s, sp) and s.occupant[sp] < 0]
    return [A.DONE, *spaces] if spaces else []


def _bonus_space_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    """A harvest without a worker: no Master advances; Wu's extra cube applies (R-7)."""
    if action == A.DONE:
        return
    space = action - A.SPACE0
    s.stack.append(Decision("wu", AUTO, ctx=(d.player, space)))
    E.ask(game, s, Decision("take", d.player, ctx=(space,)))


# ----- Domestic Market ---------------------------------------------------------------

def domestic(game: TeaGame, s: TeaState, p: int, kind: int) -> None:
    """Sell 2 cubes of one tea or one of each; the marker then advances (TEA-10)."""
    units = (0, 1, 2) if kind == 3 else (kind, kind)
    s.pay_low = 2
    s.last_event = f"player {p} sells to the Domestic Market"
    start_payment(game.payment, s, p, DOMESTIC_PURPOSE + kind, units)


def _domestic_step_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    p, steps = d.ctx
    pos, top = s.domestic[p], len(game.board.domestic.vp) - 1
    if steps == 0 or pos == top:
        return
    s.domestic[p] = pos + 1
    s.stack.append(Decision("domestic_step", AUTO, ctx=(p, steps - 1)))
    reward = game.board.domestic.rewards[pos + 1]
    if reward != "none":
        offer_bonus(game, s, p, reward)


def handlers(game: TeaGame) -> dict[str, object]:
    """This module's decision handlers (the payment needs the game's model)."""
    return {
        "choose_merchant": FunctionHandler("choosing a merchant card", _choose_apply,
                                           _choose_legal),
        "pay": PayHandler(game.payment, A.CUBE0),
        "dodd": FunctionHandler("John Dodd's advance", _dodd_apply),
        "dodd_advance": FunctionHandler("choosing a Tea Master for John Dodd's advance",
                                        _dodd_advance_apply, _dodd_legal),
        "gm_bonus": FunctionHandler("the Global Market bonus", _gm_bonus_apply),
        "bonus_space": FunctionHandler("choosing a space for the bonus harvest",
                                       _bonus_space_apply, _bonus_space_legal),
        "domestic_step": FunctionHandler("advancing on the Domestic Market",
                                         _domestic_step_apply),
    }
