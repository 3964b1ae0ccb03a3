"""Taiwan Formosa decisions: dice, the action turn, payments' purposes, choices, discards.

Decision kinds: ``draw_type``, ``reveal``, ``start``, ``roll`` (chance);
``declare``, ``act``, ``pay``, ``region``, ``warehouse``, ``judicial``,
``cleanup`` (players). Rule ids refer to ``seeds/taiwan.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision, Handler
from formosa_envs.core.engine import CHANCE
from formosa_envs.core.payment import PayHandler, start_payment

from . import actions as A
from .payment import COIN, ITEM, MERCHANT, WORKER, TaiwanPayment
from .state import MAX_COINS, MAX_COUNT, MAX_VP, TaiwanState, gain

if TYPE_CHECKING:
    from .game import TaiwanGame

DICE_COST = 5
EXCHANGE_COINS = 9
# charitable contribution per region (north, central, south, east): (resource, count, coins)
CHARITY = ((2, 2, 5), (1, 2, 5), (0, 2, 3), (3, 2, 5))
# purposes of a payment
P_LANDMARK, P_ITEMS, P_COINS, P_MERCHANT = 100, 200, 300, 400
P_OVERTIME, P_CHARITY, P_TEMPLE = 500, 600, 700
PUBLIC_ART, HOT_SPRING = 0, 1


# ----- chance ------------------------------------------------------------------

class DrawType(Handler):
    """Setup: draw one of the building types not drawn yet (12 draws)."""

    label = "drawing a building type"

    def outcomes(self, game: TaiwanGame, s: TaiwanState, d: Decision) -> list[tuple[int, float]]:
        """Every undrawn type, equally likely."""
        left = [t for t in range(18) if not s.in_game[t]]
        return [(t, 1 / len(left)) for t in left]

    def apply(self, game: TaiwanGame, s: TaiwanState, d: Decision, t: int) -> None:
        """Put the type's copies in a pile."""
        s.in_game[t] = True
        s.piles[t] = game.buildings[t].copies


class Reveal(Handler):
    """Turn up the next card of landmark deck ``ctx[0]`` (uniform over its cards)."""

    label = "revealing a landmark"

    def outcomes(self, game: TaiwanGame, s: TaiwanState, d: Decision) -> list[tuple[int, float]]:
        """Every face-down card of the deck, equally likely."""
        deck = s.decks[d.ctx[0]]
        return [(c, 1 / len(deck)) for c in deck]

    def apply(self, game: TaiwanGame, s: TaiwanState, d: Decision, card: int) -> None:
        """Move the card face up."""
        s.decks[d.ctx[0]].remove(card)
        s.face_up[d.ctx[0]] = card


class StartPlayer(Handler):
    """Setup: a random start player."""

    label = "choosing the start player"

    def outcomes(self, game: TaiwanGame, s: TaiwanState, d: Decision) -> list[tuple[int, float]]:
        """Every seat, equally likely."""
        return [(p, 1 / s.num_players) for p in range(s.num_players)]

    def apply(self, game: TaiwanGame, s: TaiwanState, d: Decision, p: int) -> None:
        """Record the start player."""
        s.start_player = p


class Roll(Handler):
    """One die of player ``ctx[0]``: wood, brick, steel, stone, worker or merchant."""

    label = "rolling a die"

    def outcomes(self, game: TaiwanGame, s: TaiwanState, d: Decision) -> list[tuple[int, float]]:
        """Six faces, equally likely (inferred: one face per item)."""
        return [(f, 1 / 6) for f in range(6)]

    def apply(self, game: TaiwanGame, s: TaiwanState, d: Decision, face: int) -> None:
        """Gain the item (Lottery Office: 4 coins per merchant rolled); roll the rest."""
        p = d.ctx[0]
        if face < 4:
            gain(s.res[p], face, 1, MAX_COUNT)
        elif face == 4:
            gain(s.workers, p, 1, MAX_COUNT)
        else:
            gain(s.merchants, p, 1, MAX_COUNT)
            gain(s.coins, p, 4 * game.completed(s, p, "lottery_office"), MAX_COINS)
        if d.count > 1:
            s.stack.append(d._replace(count=d.count - 1))


# ----- player decisions ------------------------------------------------------------

class Declare(Handler):
    """Dice phase: declare 2-7 dice, paying 5 coins per die beyond 2 (T-3.1)."""

    label = "declaring how many dice to roll"

    def legal(self, game: TaiwanGame, s: TaiwanState, d: Decision) -> list[int]:
        """Every affordable count."""
        return [A.DICE0 + k for k in range(6) if DICE_COST * k <= s.coins[d.player]]

    def apply(self, game: TaiwanGame, s: TaiwanState, d: Decision, action: int) -> None:
        """Pay and roll."""
        extra = action - A.DICE0
        s.coins[d.player] -= DICE_COST * extra
        s.last_event = f"player {d.player} rolls {2 + extra} dice"
        s.stack.append(Decision("roll", CHANCE, count=2 + extra, ctx=(d.player,)))


class Act(Handler):
    """Action phase: one action (bought, exchanged, ...) or PASS to end the turn (T-4)."""

    label = "choosing an action"

    def legal(self, game: TaiwanGame, s: TaiwanState, d: Decision) -> list[int]:
        """PASS and every action the player can complete now."""
        return [A.PASS, *game.action_options(s, d.player)]

    def is_legal(self, game: TaiwanGame, s: TaiwanState, d: Decision, action: int) -> bool:
        """Check just this action (cheaper than listing every option)."""
        return action == A.PASS or game.action_allowed(s, d.player, action)

    def apply(self, game: TaiwanGame, s: TaiwanState, d: Decision, action: int) -> None:
        """Start the chosen action's payment; the turn continues afterwards."""
        if action == A.PASS:
            s.last_event = f"player {d.player} passes"
            return
        s.stack.append(d)
        purpose, units = game.action_payment(s, d.player, action)
        start_payment(game.payment, s, d.player, purpose, units)


class RegionChoice(Handler):
    """Public Art Installation / Hot Spring Hotel: where to place (T-9.x)."""

    label = "choosing a region"

    def legal(self, game: TaiwanGame, s: TaiwanState, d: Decision) -> list[int]:
        """Public Art: regions without the player's markers; Hot Spring: any region."""
        regions = range(4)
        if d.ctx[0] == PUBLIC_ART:
            regions = [r for r in regions if d.player not in s.regions[r]]
        return [A.REGION0 + r for r in regions]

    def apply(self, game: TaiwanGame, s: TaiwanState, d: Decision, action: int) -> None:
        """Place the marker(s); Hot Spring scores 2 VP per other marker there."""
        r, p = action - A.REGION0, d.player
        if d.ctx[0] == HOT_SPRING:
            gain(s.vp, p, 2 * len(s.regions[r]), MAX_VP)
            place_markers(s, p, r, 1)
        else:
            place_markers(s, p, r, 2)


class WarehouseChoice(Handler):
    """A completed Warehouse: which resource type it stores (3 of them)."""

    label = "choosing the Warehouse's resource"

    def legal(self, game: TaiwanGame, s: TaiwanState, d: Decision) -> list[int]:
        """Any of the four resources."""
        return [A.WAREHOUSE0 + r for r in range(4)]

    def apply(self, game: TaiwanGame, s: TaiwanState, d: Decision, action: int) -> None:
        """Store three of that resource."""
        s.warehouse[d.player][action - A.WAREHOUSE0] += 3


class Discard(Handler):
    """Discard one hand resource of the player's choice (Judicial Court, hand limit)."""

    def __init__(self, label: str) -> None:
        self.label = label

    def legal(self, game: TaiwanGame, s: TaiwanState, d: Decision) -> list[int]:
        """A DISCARD per resource type held in hand."""
        return [A.DISCARD0 + r for r in range(4) if s.res[d.player][r] > 0]

    def apply(self, game: TaiwanGame, s: TaiwanState, d: Decision, action: int) -> None:
        """Discard it; ask again while ``count`` remains."""
        s.res[d.player][action - A.DISCARD0] -= 1
        if d.count > 1:
            s.stack.append(d._replace(count=d.count - 1))


def place_markers(s: TaiwanState, p: int, region: int, count: int) -> None:
    """Place up to ``count`` of ``p``'s markers in ``region`` (limited by supply)."""
    for _ in range(min(count, s.markers[p])):
        s.regions[region].append(p)
        s.markers[p] -= 1


def hold_coins(s: TaiwanState) -> None:
    """Hold every purse at :data:`~.state.MAX_COINS` (after a fee was paid to a seat)."""
    s.coins[:] = [min(c, MAX_COINS) for c in s.coins]


def complete_purpose(game: TaiwanGame, s: TaiwanState, p: int, purpose: int) -> None:
    """What a finished payment buys (called by the payment model)."""
    if purpose < P_LANDMARK:
        game.place_building(s, p, purpose)
        hold_coins(s)  # the Urban Development Bureau's fee
    elif purpose < P_ITEMS:
        game.place_landmark(s, p, purpose - P_LANDMARK)
        hold_coins(s)
    elif purpose < P_OVERTIME:
        gain_output(s, p, purpose % 100)
    elif purpose < P_CHARITY:
        s.track[p][purpose - P_OVERTIME][1] -= 1
    elif purpose < P_TEMPLE:
        place_markers(s, p, purpose - P_CHARITY, 1)
    else:
        gain(s.vp, p, 2, MAX_VP)
        s.temple_used[p] += 1


def gain_output(s: TaiwanState, p: int, output: int) -> None:
    """Gain one worker (0) or one resource (1-4) from an exchange."""
    if output == 0:
        gain(s.workers, p, 1, MAX_COUNT)
    else:
        gain(s.res[p], output - 1, 1, MAX_COUNT)


def handlers(game: TaiwanGame) -> dict[str, Handler]:
    """The handler table (the payment handler needs the game's payment model)."""
    return {"draw_type": DrawType(), "reveal": Reveal(), "start": StartPlayer(),
            "roll": Roll(), "declare": Declare(), "act": Act(),
            "pay": PayHandler(TaiwanPayment(game), A.PAY0), "region": RegionChoice(),
            "warehouse": WarehouseChoice(), "judicial": Discard("discarding for the Court"),
            "cleanup": Discard("discarding down to 5 resources")}


UNITS = {"items": (ITEM, ITEM, ITEM), "coins": (COIN,) * EXCHANGE_COINS,
         "merchant": (MERCHANT, COIN, COIN), "overtime": (WORKER, COIN, COIN),
         "temple": (COIN, COIN)}
