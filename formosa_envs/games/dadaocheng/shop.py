"""Stages 3 and 4: Full House, purchases and actions, cube exchanges, hand limits.

Payments use the shared :mod:`formosa_envs.core.payment`: a cost is a tuple of
colour units (red, white, green, yellow), each paid by a cube of its colour or by a
black cube (opium, which moves the opium track). Decision kinds: ``full_house``,
``discard``, ``lose``, ``purchase``, ``pay``, ``give``, ``take``, ``store_space``;
chance ``die``. Automatic: ``full_house_check``, ``stage4``. Rule ids refer to
``seeds/dadaocheng.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from formosa_envs.core.decisions import Decision, FunctionHandler
from formosa_envs.core.engine import AUTO, CHANCE
from formosa_envs.core.payment import start_payment

from . import actions as A
from . import events as ev  # circular at import time; used only at call time
from .content import ANY, BLACK, DEN, MANSION, MARKET, STORE, WHITE, WORKSHOP, YELLOW
from .state import (
    BOUGHT0,
    HAND_LIMIT,
    USED_DENS,
    USED_MARKETS,
    USED_TEMPLE,
    USED_WORKSHOPS,
    DadaochengState,
    own_spaces,
)

if TYPE_CHECKING:
    from .game import DadaochengGame

P_SHIP, P_BUILDING, P_TEMPLE, P_1860, P_1898 = 0, 10, 20, 30, 31
G_EXCHANGE, G_MARKET, G_TEMPLE, G_1908 = 0, 1, 2, 3


class CubePayment:
    """The :class:`~formosa_envs.core.payment.PaymentModel` of coloured units."""

    def __init__(self, game: DadaochengGame) -> None:
        self.game = game

    def sources(self, s: DadaochengState, p: int, unit: int) -> Sequence[int]:
        """A unit is paid by a cube of its colour or by opium (DDC-10.1)."""
        return (unit, BLACK)

    def can_take(self, s: DadaochengState, p: int, source: int, used: Mapping[int, int]) -> bool:
        """Whether the hand still holds such a cube."""
        return used.get(source, 0) < s.hand[p][source]

    def fast_feasible(self, s: DadaochengState, p: int, units: Sequence[int],
                      used: Mapping[int, int]) -> bool:
        """Exact: black covers whatever the coloured cubes cannot."""
        hand = s.hand[p]
        short = sum(max(0, units.count(c) - (hand[c] - used.get(c, 0))) for c in range(4))
        return short <= hand[BLACK] - used.get(BLACK, 0)

    def legal_sources(self, s: DadaochengState, p: int, units: Sequence[int]) -> list[int]:
        """The unit's colour and/or black, each only if the rest stays payable."""
        first, rest = units[0], units[1:]
        return [src for src in (first, BLACK)
                if s.hand[p][src] > 0 and self.fast_feasible(s, p, rest, {src: 1})]

    def take(self, s: DadaochengState, p: int, unit: int, source: int) -> None:
        """The cube returns to the supply; paying with black is using opium (DDC-10.2)."""
        s.hand[p][source] -= 1
        if source == BLACK:
            s.opium[p] += 1

    def finish(self, s: DadaochengState, p: int, purpose: int) -> None:
        """Carry out what was paid for."""
        if purpose < P_BUILDING:
            take_ship(self.game, s, p, purpose - P_SHIP)
        elif purpose < P_TEMPLE:
            take_building(self.game, s, p, purpose - P_BUILDING)
        elif purpose == P_TEMPLE:
            roll(s, 2)
        else:
            ev.after_event_payment(self.game, s, p, purpose)


def units(cost: Sequence[int]) -> tuple[int, ...]:
    """A 4-colour cost as units, red first."""
    return tuple(c for c in range(4) for _ in range(cost[c]))


def can_pay(game: DadaochengGame, s: DadaochengState, p: int, cost: Sequence[int]) -> bool:
    """Whether ``p`` can pay ``cost`` (black standing in for any colour); the same answer
    as the payment model's feasibility check, computed from the counts directly."""
    hand = s.hand[p]
    short = (max(0, cost[0] - hand[0]) + max(0, cost[1] - hand[1])
             + max(0, cost[2] - hand[2]) + max(0, cost[3] - hand[3]))
    return short <= hand[BLACK]


# ----- Stage 3: Full House ---------------------------------------------------------------

def full_house_spaces(s: DadaochengState, p: int) -> list[int]:
    """``p``'s non-Store spaces if every one of them holds a cube, else [] (DDC-7.1)."""
    spaces = [sp for sp in own_spaces(s, p) if not s.remodelled[sp]]
    if spaces and all(sum(s.storehouse[sp]) for sp in spaces):
        return spaces
    return []


def _full_house_check_apply(game: DadaochengGame, s: DadaochengState, d: Decision,
                            _action: int) -> None:
    """Players in turn order from the active one take a Full House reward (DDC-7)."""
    k = d.ctx[0]
    if k >= s.num_players:
        return
    s.stack.append(Decision("full_house_check", AUTO, ctx=(k + 1,)))
    q = (s.turn + k) % s.num_players
    if full_house_spaces(s, q):
        s.stack.append(Decision("full_house", q))


def _full_house_legal(game: DadaochengGame, s: DadaochengState, d: Decision) -> list[int]:
    return [A.SPACE0 + sp % 4 for sp in full_house_spaces(s, d.player)]


def _full_house_apply(game: DadaochengGame, s: DadaochengState, d: Decision,
                      action: int) -> None:
    p = d.player
    space = 4 * s.sides_of[p] + action - A.SPACE0
    for c in range(5):
        s.hand[p][c] += s.storehouse[space][c]
    s.storehouse[space] = [0] * 5
    s.last_event = f"player {p} takes a Full House reward"
    if p != s.turn:
        push_discard(s, p, HAND_LIMIT)


def push_discard(s: DadaochengState, p: int, limit: int) -> None:
    """Ask ``p`` to return cubes of their choice down to ``limit`` (DDC-7.3, DDC-12.1)."""
    excess = sum(s.hand[p]) - limit
    if excess > 0:
        s.stack.append(Decision("discard", p, count=excess))


def _held_legal(game: DadaochengGame, s: DadaochengState, d: Decision) -> list[int]:
    return [A.COLOUR0 + c for c in range(5) if s.hand[d.player][c]]


def _discard_apply(game: DadaochengGame, s: DadaochengState, d: Decision, action: int) -> None:
    s.hand[d.player][action - A.COLOUR0] -= 1
    if d.count > 1:
        s.stack.append(Decision(d.kind, d.player, d.count - 1))


# ----- Stage 4: the purchase loop ----------------------------------------------------------

def _stage4_apply(game: DadaochengGame, s: DadaochengState, d: Decision, _action: int) -> None:
    """The 1853 loss, then the purchase loop (DDC-8.1, DDC-11.2)."""
    s.stack.append(Decision("purchase", s.turn))
    if ev.current_event(game, s) == "e1853" and sum(s.hand[s.turn]):
        s.stack.append(Decision("lose", s.turn))


def purchase_options(game: DadaochengGame, s: DadaochengState, p: int) -> list[int]:
    """Every Stage 4 action ``p`` can complete now, and DONE (DDC-8)."""
    legal = [A.DONE]
    legal += [A.SHIP0 + lvl for lvl in range(3) if ship_buyable(game, s, p, lvl)]
    legal += [A.BUILDING0 + t for t in range(5) if building_buyable(game, s, p, t)]
    legal += [action for action, allowed in OTHER_PURCHASES.items() if allowed(game, s, p)]
    return legal


def purchase_allowed(game: DadaochengGame, s: DadaochengState, d: Decision,
                     action: int) -> bool:
    """Whether ``action`` is one of :func:`purchase_options` (the same tests, for the one
    action only)."""
    if action == A.DONE:
        return True
    if A.SHIP0 <= action < A.SHIP0 + 3:
        return ship_buyable(game, s, d.player, action - A.SHIP0)
    if A.BUILDING0 <= action < A.BUILDING0 + 5:
        return building_buyable(game, s, d.player, action - A.BUILDING0)
    allowed = OTHER_PURCHASES.get(action)
    return allowed is not None and allowed(game, s, d.player)


OTHER_PURCHASES: dict[int, Any] = {
    A.TEMPLE0: lambda game, s, p: not s.used[USED_TEMPLE] and can_pay(game, s, p,
                                                                       (0, 1, 0, 0)),
    A.TEMPLE0 + 1: lambda game, s, p: not s.used[USED_TEMPLE] and sum(s.hand[p]) >= 2,
    A.EXCHANGE: lambda game, s, p: sum(s.hand[p]) >= 2,
    A.MARKET: lambda game, s, p: s.used[USED_MARKETS] < s.buildings[p][MARKET]
    and sum(s.hand[p]) > 0,
    A.DEN: lambda game, s, p: s.used[USED_DENS] < s.buildings[p][DEN] and s.hand[p][BLACK] > 0,
    A.EVENT: lambda game, s, p: ev.event_available(game, s, p),
}
"""The Stage 4 actions other than DONE, ships and buildings, in the order they are listed,
and when each is open (DDC-8.2-8.7): (game, state, seat)."""


def ship_cost(game: DadaochengGame, s: DadaochengState, p: int, level: int) -> list[int]:
    """The face-up ship's cost after a Workshop's green reduction (DDC-9.2, R-20)."""
    cost = list(game.ships[s.ship_up[level]].cost)
    workshops = s.buildings[p][WORKSHOP] - s.used[USED_WORKSHOPS]
    if cost[2] and workshops > 0:
        cost[2] -= 1
    return cost


def ship_buyable(game: DadaochengGame, s: DadaochengState, p: int, level: int) -> bool:
    """A face-up ship whose required credit ``p`` has and whose cost ``p`` can pay."""
    ship = s.ship_up[level]
    if ship < 0 or s.credit[p] < game.ships[ship].required:
        return False
    if level == 2 and ev.current_event(game, s) == "e1895":
        return False
    return can_pay(game, s, p, ship_cost(game, s, p, level))


def building_cost(game: DadaochengGame, s: DadaochengState, kind: int) -> list[int]:
    """A building's cost, with 1884's Mansion discount (DDC-11.8)."""
    cost = list(game.buildings[kind].cost)
    if kind == MANSION and ev.current_event(game, s) == "e1884" and cost[YELLOW]:
        cost[YELLOW] -= 1
    return cost


def building_buyable(game: DadaochengGame, s: DadaochengState, p: int, kind: int) -> bool:
    """Pile not empty, per-turn and Den limits, a space for a Store, payable (DDC-8.4)."""
    if s.piles[kind] <= 0:
        return False
    if kind != MANSION and s.used[BOUGHT0 + kind - 1]:
        return False
    if kind == DEN and s.buildings[p][DEN] >= 2:
        return False
    if kind == STORE and not store_spaces(s, p):
        return False
    cost = game.building_costs[kind]
    if kind == MANSION and cost[YELLOW]:  # the only cost an event changes
        cost = building_cost(game, s, kind)
    return can_pay(game, s, p, cost)


def store_spaces(s: DadaochengState, p: int) -> list[int]:
    """``p``'s spaces a Store may remodel: empty and not a Store yet (DDC-9.3)."""
    return [sp for sp in own_spaces(s, p) if not s.remodelled[sp] and not sum(s.storehouse[sp])]


def _purchase_apply(game: DadaochengGame, s: DadaochengState, d: Decision, action: int) -> None:
    """Carry out one Stage 4 action, then come back to the purchase loop (DDC-8)."""
    p = d.player
    if action == A.DONE:
        s.stack.append(Decision("end_turn", AUTO))
        return
    s.stack.append(Decision("purchase", p))
    seg, i = game.action_space.decode(action)
    if seg == "SHIP":
        cost = ship_cost(game, s, p, i)
        if cost != list(game.ships[s.ship_up[i]].cost):
            s.used[USED_WORKSHOPS] += 1
        start_payment(game.payment, s, p, P_SHIP + i, units(cost))
    elif seg == "BUILDING":
        start_payment(game.payment, s, p, P_BUILDING + i, units(building_cost(game, s, i)))
    elif seg == "TEMPLE":
        s.used[USED_TEMPLE] = 1
        if i == 0:
            start_payment(game.payment, s, p, P_TEMPLE, (WHITE,))
        else:
            s.stack.append(Decision("give", p, 2, ctx=(G_TEMPLE, -1)))
    elif seg == "EXCHANGE":
        s.stack.append(Decision("give", p, 2, ctx=(G_EXCHANGE, -1)))
    elif seg == "MARKET":
        s.used[USED_MARKETS] += 1
        s.stack.append(Decision("give", p, 1, ctx=(G_MARKET, -1)))
    elif seg == "DEN":
        s.used[USED_DENS] += 1
        s.hand[p][BLACK] -= 1
        s.opium[p] += 1                   # the Den's black cube is opium used
        s.stack.append(Decision("take", p, 2, ctx=(-1,)))
    else:
        ev.execute_event(game, s, p)


def take_ship(game: DadaochengGame, s: DadaochengState, p: int, level: int) -> None:
    """The paid ship joins ``p``'s cards; the next one of its pile is revealed."""
    ship = game.ships[s.ship_up[level]]
    s.ships[p].append(ship.id)
    s.credit[p] += ship.credit
    s.ship_up[level] = -1
    s.last_event = f"player {p} buys ship {ship.code}"
    if ships_left(game, s, level) > 0:
        s.stack.append(Decision("ship_reveal", CHANCE, ctx=(level,)))


def ships_left(game: DadaochengGame, s: DadaochengState, level: int) -> int:
    """Face-down ships still to come on ``level``'s pile (the solo game reveals only
    ``ships_per_level`` = 6 of the 12 ships in its pool)."""
    return _left(s.ship_pool[level], game.ships_per_level, s.revealed[level])


def ships_left_per_level(game: DadaochengGame, s: DadaochengState) -> list[int]:
    """:func:`ships_left` of the three levels, in one pass."""
    per_level = game.ships_per_level
    return [_left(pool, per_level, shown)
            for pool, shown in zip(s.ship_pool, s.revealed, strict=True)]


def _left(pool: list[int], per_level: int, shown: int) -> int:
    return max(min(len(pool), per_level - shown), 0)


def take_building(game: DadaochengGame, s: DadaochengState, p: int, kind: int) -> None:
    """The paid building joins ``p``'s cards (a Store then remodels a space)."""
    s.piles[kind] -= 1
    s.buildings[p][kind] += 1
    if kind != MANSION:
        s.used[BOUGHT0 + kind - 1] = 1
    s.last_event = f"player {p} buys a {game.buildings[kind].key.replace('_', ' ')}"
    if kind == STORE:
        s.stack.append(Decision("store_space", p))


def _store_space_legal(game: DadaochengGame, s: DadaochengState, d: Decision) -> list[int]:
    return [A.SPACE0 + sp % 4 for sp in store_spaces(s, d.player)]


def _store_space_apply(game: DadaochengGame, s: DadaochengState, d: Decision,
                       action: int) -> None:
    s.remodelled[4 * s.sides_of[d.player] + action - A.SPACE0] = 1


def roll(s: DadaochengState, dice: int) -> None:
    """Roll ``dice`` Temple dice (chance events)."""
    for _ in range(dice):
        s.stack.append(Decision("die", CHANCE))


def _die_outcomes(game: DadaochengGame, s: DadaochengState,
                  d: Decision) -> list[tuple[int, float]]:
    return [(face, 1 / 6) for face in range(6)]


def _die_apply(game: DadaochengGame, s: DadaochengState, d: Decision, face: int) -> None:
    gives = game.temple[face]
    if gives == ANY:
        s.stack.append(Decision("take", s.turn, 1, ctx=(-1,)))
    else:
        s.hand[s.turn][gives] += 1


def _give_apply(game: DadaochengGame, s: DadaochengState, d: Decision, action: int) -> None:
    """Give one cube; after the last one, what the exchange gives back (DDC-8.5, 8.6, 9.4)."""
    p, colour = d.player, action - A.COLOUR0
    purpose = d.ctx[0]
    s.hand[p][colour] -= 1
    if purpose == G_TEMPLE and colour == BLACK:
        s.opium[p] += 1                   # the Temple's "any 2 cubes" is a payment
    if d.count > 1:
        s.stack.append(Decision("give", p, d.count - 1, ctx=(purpose, colour)))
    elif purpose == G_TEMPLE:
        roll(s, 3)
    elif purpose == G_EXCHANGE:
        s.stack.append(Decision("take", p, 1, ctx=(-1,)))
    else:
        if purpose == G_1908:
            s.stack.append(Decision("exchange_more", p))
        s.stack.append(Decision("take", p, 1, ctx=(colour,)))


def _take_legal(game: DadaochengGame, s: DadaochengState, d: Decision) -> list[int]:
    return [A.COLOUR0 + c for c in range(5) if c != d.ctx[0]]


def _take_apply(game: DadaochengGame, s: DadaochengState, d: Decision, action: int) -> None:
    s.hand[d.player][action - A.COLOUR0] += 1
    if d.count > 1:
        s.stack.append(Decision("take", d.player, d.count - 1, ctx=d.ctx))


def _end_turn_apply(game: DadaochengGame, s: DadaochengState, d: Decision,
                    _action: int) -> None:
    """The end-of-turn hand limit, then the next turn (DDC-12.1)."""
    s.stack.append(Decision("next_turn", AUTO))
    push_discard(s, s.turn, game.hand_limit)


HANDLERS = {
    "full_house_check": FunctionHandler("checking Full Houses", _full_house_check_apply),
    "full_house": FunctionHandler("choosing a storehouse space for a Full House",
                                  _full_house_apply, _full_house_legal),
    "discard": FunctionHandler("returning cubes over the hand limit", _discard_apply,
                               _held_legal),
    "lose": FunctionHandler("losing a cube to the Dingxiajiao Conflict", _discard_apply,
                            _held_legal),
    "stage4": FunctionHandler("starting purchases", _stage4_apply),
    "purchase": FunctionHandler("buying and taking actions", _purchase_apply,
                                lambda g, s, d: purchase_options(g, s, d.player),
                                is_legal=purchase_allowed),
    "store_space": FunctionHandler("choosing the space a Store remodels", _store_space_apply,
                                   _store_space_legal),
    "die": FunctionHandler("rolling a Temple die", _die_apply, outcomes=_die_outcomes),
    "give": FunctionHandler("giving a cube", _give_apply, _held_legal),
    "take": FunctionHandler("taking a cube", _take_apply, _take_legal),
    "end_turn": FunctionHandler("ending the turn", _end_turn_apply),
}
