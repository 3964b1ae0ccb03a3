"""Stages 3 and 4 on JAX: Full House, payments, purchases, exchanges, Temple dice, events and
the hand limit; pure functions of (tables, state), the Python ``shop.py`` and ``events.py``
written with arrays (rule ids: ``seeds/dadaocheng.md``)."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from formosa_envs.core.engine import AUTO, CHANCE
from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.content import (
    BLACK,
    DEN,
    GREEN,
    MANSION,
    RED,
    STORE,
    WHITE,
    WORKSHOP,
    YELLOW,
)
from formosa_envs.games.dadaocheng.shop import (
    G_1908,
    G_EXCHANGE,
    G_MARKET,
    G_TEMPLE,
    P_1860,
    P_1898,
    P_BUILDING,
    P_SHIP,
    P_TEMPLE,
)
from formosa_envs.games.dadaocheng.state import (
    BOUGHT0,
    HAND_LIMIT,
    USED_DENS,
    USED_EVENT,
    USED_MARKETS,
    USED_TEMPLE,
    USED_WORKSHOPS,
)

from .state import State, frame, push
from .tables import EVENT, Tables

ANY_FACE = 5
NO_COLOUR = -1


def when(condition: jnp.ndarray, change: Any, state: State) -> State:
    """``change(state)`` where ``condition`` holds, else ``state``."""
    return jax.lax.cond(condition, change, lambda s: s, state)


def current_event(t: Tables, s: State) -> jnp.ndarray:
    """This round's event as an index in ``EVENT_KEYS``, -1 when none (solo)."""
    event = s.events[jnp.maximum(s.round - 1, 0)]
    return jnp.where(event >= 0, t.event_key[jnp.maximum(event, 0)], -1)


def own_spaces(t: Tables, p: jnp.ndarray) -> jnp.ndarray:
    """int32[4]: ``p``'s storehouse spaces."""
    return 4 * t.sides_of[p] + jnp.arange(4)


def can_pay(s: State, p: jnp.ndarray, cost: jnp.ndarray) -> jnp.ndarray:
    """Whether ``p`` can pay ``cost`` (red, white, green, yellow), black covering any."""
    short = jnp.maximum(cost - s.hand[p, :4], 0).sum()
    return short <= s.hand[p, BLACK]


# ----- Stage 3 ------------------------------------------------------------------------------

def full_house_spaces(t: Tables, s: State, p: jnp.ndarray) -> jnp.ndarray:
    """bool[4]: ``p``'s non-Store spaces if every one holds a cube and there is one, else
    none (DDC-7.1)."""
    spaces = own_spaces(t, p)
    open_ = ~s.remodelled[spaces]
    filled = s.storehouse[spaces].sum(axis=1) > 0
    full = open_.any() & (filled | ~open_).all()
    return open_ & full


def push_discard(s: State, p: jnp.ndarray, limit: int) -> State:
    """Ask ``p`` to return cubes down to ``limit`` (DDC-7.3, DDC-12.1)."""
    excess = s.hand[p].sum() - limit
    return push(s, frame("discard", p, excess), excess > 0)


def full_house_check(t: Tables, s: State, f: jnp.ndarray) -> State:
    """Players in turn order from the active one take a Full House reward (DDC-7)."""
    k, n = f[3], t.num_players
    q = (s.turn + k) % n
    going = k < n
    s = push(s, frame("full_house_check", AUTO, 1, k + 1), going)
    return push(s, frame("full_house", q), going & full_house_spaces(t, s, q).any())


def full_house(t: Tables, s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """The chosen space's cubes to the hand (DDC-7.2); others discard down to 6 (7.3)."""
    p = f[1]
    space = 4 * t.sides_of[p] + action - A.SPACE0
    s = s._replace(hand=s.hand.at[p].add(s.storehouse[space]),
                   storehouse=s.storehouse.at[space].set(0))
    return when(p != s.turn, lambda x: push_discard(x, p, HAND_LIMIT), s)


def lose_one(s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """``discard`` and ``lose``: one cube of the chosen colour back to the supply."""
    s = s._replace(hand=s.hand.at[f[1], action - A.COLOUR0].add(-1))
    return push(s, frame_again(f), f[2] > 1)


def gain_one(s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """``loop_any``, ``loop_gift`` and ``take``: one cube of the chosen colour."""
    s = s._replace(hand=s.hand.at[f[1], action - A.COLOUR0].add(1))
    return push(s, frame_again(f), f[2] > 1)


def frame_again(f: jnp.ndarray) -> jnp.ndarray:
    """The same frame with one fewer to go."""
    return f.at[2].add(-1)


# ----- payments ---------------------------------------------------------------------------

def pay_sources(s: State, p: jnp.ndarray, units: jnp.ndarray) -> jnp.ndarray:
    """bool[2]: whether the next unit may be paid by its colour, by black (each only if
    the rest stays payable); ``units`` is int32[4], the units left per colour."""
    first = jnp.argmax(units > 0)
    rest = units.at[first].add(-1)
    hand = s.hand[p]

    def payable_after(used: jnp.ndarray) -> jnp.ndarray:
        left = hand - used
        return jnp.maximum(rest - left[:4], 0).sum() <= left[BLACK]

    own = (hand[first] > 0) & payable_after(jnp.zeros(5, jnp.int32).at[first].set(1))
    black = (hand[BLACK] > 0) & payable_after(jnp.zeros(5, jnp.int32).at[BLACK].set(1))
    return jnp.stack([own, black])


def pay_unit(s: State, p: jnp.ndarray, source: jnp.ndarray) -> State:
    """One unit paid from ``source``; black is opium used (DDC-10.2)."""
    return s._replace(hand=s.hand.at[p, source].add(-1),
                      opium=s.opium.at[p].add(jnp.where(source == BLACK, 1, 0)))


def start_payment(t: Tables, s: State, p: jnp.ndarray, purpose: jnp.ndarray,
                  units: jnp.ndarray) -> State:
    """Pay forced units, push a ``pay`` decision at the first real choice, or finish."""

    def paying(carry: tuple) -> jnp.ndarray:
        _, units, asked = carry
        return (units.sum() > 0) & ~asked

    def next_unit(carry: tuple) -> tuple:
        s, units, _ = carry
        sources = pay_sources(s, p, units)
        ask = sources.all()
        first = jnp.argmax(units > 0)
        source = jnp.where(sources[0], first, BLACK)
        paid = pay_unit(s, p, source)
        s = jax.tree.map(lambda a, b: jnp.where(ask, a, b),
                         push(s, frame("pay", p, 1, purpose, *units)), paid)
        return s, jnp.where(ask, units, units.at[first].add(-1)), ask

    s, _, asked = jax.lax.while_loop(paying, next_unit, (s, units, jnp.bool_(False)))
    return when(~asked, lambda x: finish_payment(t, x, p, purpose), s)


def pay(t: Tables, s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """The ``pay`` decision: the next unit from the chosen source, then on."""
    p, units = f[1], f[4:8]
    s = pay_unit(s, p, action - A.COLOUR0)
    return start_payment(t, s, p, f[3], units.at[jnp.argmax(units > 0)].add(-1))


def finish_payment(t: Tables, s: State, p: jnp.ndarray, purpose: jnp.ndarray) -> State:
    """Carry out what was paid for."""
    branches = [lambda x: take_ship(t, x, p, purpose - P_SHIP),
                lambda x: take_building(t, x, p, purpose - P_BUILDING),
                lambda x: roll(x, 2),
                lambda x: push(x, frame("take", p, 3, NO_COLOUR)),
                lambda x: x._replace(opium=x.opium.at[p].set(jnp.maximum(x.opium[p] - 2, 0)))]
    which = jnp.select([purpose < P_BUILDING, purpose < P_TEMPLE, purpose == P_TEMPLE,
                        purpose == P_1860], [0, 1, 2, 3], 4)
    return jax.lax.switch(which, branches, s)


def ships_left(t: Tables, s: State, level: jnp.ndarray) -> jnp.ndarray:
    """Face-down ships still to come on ``level``'s pile."""
    pool = (s.in_pool & (t.ship_level == level)).sum()
    return jnp.maximum(jnp.minimum(pool, t.ships_per_level - s.revealed[level]), 0)


def take_ship(t: Tables, s: State, p: jnp.ndarray, level: jnp.ndarray) -> State:
    """The paid ship joins ``p``'s cards; the next one of its pile is revealed."""
    ship = s.ship_up[level]
    s = s._replace(ship_owner=s.ship_owner.at[ship].set(p),
                   credit=s.credit.at[p].add(t.ship_credit[ship]),
                   ship_up=s.ship_up.at[level].set(-1))
    return push(s, frame("ship_reveal", CHANCE, 1, level), ships_left(t, s, level) > 0)


def take_building(t: Tables, s: State, p: jnp.ndarray, kind: jnp.ndarray) -> State:
    """The paid building joins ``p``'s cards (a Store then remodels a space)."""
    used = s.used.at[BOUGHT0 + kind - 1].set(jnp.where(kind != MANSION, 1,
                                                        s.used[BOUGHT0 + kind - 1]))
    s = s._replace(piles=s.piles.at[kind].add(-1), buildings=s.buildings.at[p, kind].add(1),
                   used=jnp.where(kind != MANSION, used, s.used))
    return push(s, frame("store_space", p), kind == STORE)


def roll(s: State, dice: int) -> State:
    """Roll ``dice`` Temple dice (chance frames)."""
    for _ in range(dice):
        s = push(s, frame("die", CHANCE))
    return s


# ----- Stage 4 ------------------------------------------------------------------------------

def stage4(t: Tables, s: State, f: jnp.ndarray) -> State:
    """The 1853 loss, then the purchase loop (DDC-8.1, DDC-11.2)."""
    s = push(s, frame("purchase", s.turn))
    lose = (current_event(t, s) == EVENT["e1853"]) & (s.hand[s.turn].sum() > 0)
    return push(s, frame("lose", s.turn), lose)


def ship_cost(t: Tables, s: State, p: jnp.ndarray, level: jnp.ndarray) -> jnp.ndarray:
    """The face-up ship's cost after a Workshop's green reduction (DDC-9.2)."""
    cost = t.ship_cost[jnp.maximum(s.ship_up[level], 0)]
    reduce = (cost[GREEN] > 0) & (s.buildings[p, WORKSHOP] - s.used[USED_WORKSHOPS] > 0)
    return cost.at[GREEN].add(jnp.where(reduce, -1, 0))


def building_cost(t: Tables, s: State, kind: jnp.ndarray) -> jnp.ndarray:
    """A building's cost, with 1884's Mansion discount (DDC-11.8)."""
    cost = t.building_cost[kind]
    discount = (kind == MANSION) & (current_event(t, s) == EVENT["e1884"]) & (cost[YELLOW] > 0)
    return cost.at[YELLOW].add(jnp.where(discount, -1, 0))


def purchase(t: Tables, s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """One Stage 4 action, then back to the purchase loop (DDC-8)."""
    p = f[1]
    done = action == A.DONE
    s = jax.tree.map(lambda a, b: jnp.where(done, a, b), push(s, frame("end_turn", AUTO)),
                     push(s, frame("purchase", p)))
    segment = jnp.select(
        [done, action < A.BUILDING0, action < A.TEMPLE0, action < A.EXCHANGE,
         action == A.EXCHANGE, action == A.MARKET, action == A.DEN], [0, 1, 2, 3, 4, 5, 6], 7)
    branches = [lambda x: x, lambda x: buy_ship(t, x, p, action - A.SHIP0),
                lambda x: start_payment(t, x, p, P_BUILDING + action - A.BUILDING0,
                                        building_cost(t, x, action - A.BUILDING0)),
                lambda x: temple(t, x, p, action - A.TEMPLE0),
                lambda x: push(x, frame("give", p, 2, G_EXCHANGE, NO_COLOUR)),
                lambda x: push(x._replace(used=x.used.at[USED_MARKETS].add(1)),
                               frame("give", p, 1, G_MARKET, NO_COLOUR)),
                lambda x: den(x, p), lambda x: execute_event(t, x, p)]
    return jax.lax.switch(segment, branches, s)


def buy_ship(t: Tables, s: State, p: jnp.ndarray, level: jnp.ndarray) -> State:
    """Pay for the face-up ship of ``level`` (a Workshop's reduction counts as used)."""
    cost = ship_cost(t, s, p, level)
    reduced = (cost != t.ship_cost[s.ship_up[level]]).any()
    s = s._replace(used=s.used.at[USED_WORKSHOPS].add(jnp.where(reduced, 1, 0)))
    return start_payment(t, s, p, P_SHIP + level, cost)


def temple(t: Tables, s: State, p: jnp.ndarray, option: jnp.ndarray) -> State:
    """1 white for 2 dice, or 2 cubes of any colours for 3 (DDC-8.5)."""
    s = s._replace(used=s.used.at[USED_TEMPLE].set(1))
    white = jnp.zeros(4, jnp.int32).at[WHITE].set(1)
    return jax.lax.cond(option == 0, lambda x: start_payment(t, x, p, P_TEMPLE, white),
                        lambda x: push(x, frame("give", p, 2, G_TEMPLE, NO_COLOUR)), s)


def den(s: State, p: jnp.ndarray) -> State:
    """An Opium Den: a black cube (opium used, R-22) for 2 cubes of any colours."""
    s = s._replace(used=s.used.at[USED_DENS].add(1), hand=s.hand.at[p, BLACK].add(-1),
                   opium=s.opium.at[p].add(1))
    return push(s, frame("take", p, 2, NO_COLOUR))


def execute_event(t: Tables, s: State, p: jnp.ndarray) -> State:
    """Carry out this round's event for ``p`` (DDC-11.3-11.14)."""
    key = current_event(t, s)
    s = s._replace(used=s.used.at[USED_EVENT].set(1))
    cube = jnp.zeros(4, jnp.int32)
    cases = {
        "e1851": lambda x: push(x, frame("take", p, 2, NO_COLOUR)),
        "e1859": lambda x: roll(x, 2), "e1878": lambda x: roll(x, 3),
        "e1865": lambda x: x._replace(hand=x.hand.at[p, GREEN].add(1)),
        "e1891": lambda x: x._replace(hand=x.hand.at[p, WHITE].add(1)),
        "e1860": lambda x: start_payment(t, x, p, P_1860, cube.at[RED].set(2)),
        "e1898": lambda x: start_payment(t, x, p, P_1898, cube.at[WHITE].set(1)),
        "e1905": lambda x: push(x, frame("convert", p, 2)),
        "e1908": lambda x: push(x, frame("give", p, 1, G_1908, NO_COLOUR)),
        "e1915": lambda x: x._replace(opium=x.opium.at[p].set(jnp.maximum(x.opium[p] - 2, 0)))}
    keys = list(cases)
    which = jnp.argmax(jnp.array([EVENT[k] for k in keys]) == key)
    return jax.lax.switch(which, [cases[k] for k in keys], s)


def store_space(t: Tables, s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """The space the new Store remodels (DDC-9.3)."""
    space = 4 * t.sides_of[f[1]] + action - A.SPACE0
    return s._replace(remodelled=s.remodelled.at[space].set(True))


def die(t: Tables, s: State, face: jnp.ndarray) -> State:
    """A Temple die: its colour to the active player, or a cube of their choice."""
    gives = t.temple[face]
    any_ = gives == ANY_FACE
    s = s._replace(hand=s.hand.at[s.turn, jnp.where(any_, 0, gives)].add(jnp.where(any_, 0, 1)))
    return push(s, frame("take", s.turn, 1, NO_COLOUR), any_)


def give(s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """Give one cube; after the last, what the exchange gives back (DDC-8.5, 8.6, 9.4)."""
    p, purpose, colour = f[1], f[3], action - A.COLOUR0
    s = s._replace(hand=s.hand.at[p, colour].add(-1), opium=s.opium.at[p].add(
        jnp.where((purpose == G_TEMPLE) & (colour == BLACK), 1, 0)))
    more = f[2] > 1
    s = push(s, frame("give", p, f[2] - 1, purpose, colour), more)
    last = ~more
    s = roll_when(s, last & (purpose == G_TEMPLE))
    s = push(s, frame("take", p, 1, NO_COLOUR), last & (purpose == G_EXCHANGE))
    back = last & ((purpose == G_MARKET) | (purpose == G_1908))
    s = push(s, frame("exchange_more", p), back & (purpose == G_1908))
    return push(s, frame("take", p, 1, colour), back)


def roll_when(s: State, condition: jnp.ndarray) -> State:
    """Three Temple dice where ``condition`` holds."""
    for _ in range(3):
        s = push(s, frame("die", CHANCE), condition)
    return s


def convertible(s: State, p: jnp.ndarray) -> jnp.ndarray:
    """bool[5]: the building types ``p`` may convert into a Mansion (1905, R-29)."""
    return (jnp.arange(5) > 0) & (s.buildings[p] > 0) & (s.piles[MANSION] > 0)


def convert(s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """One building back to its pile, a Mansion from the pile (1905)."""
    p, kind = f[1], action - A.BUILDING0

    def swap(x: State) -> State:
        x = x._replace(buildings=x.buildings.at[p, kind].add(-1).at[p, MANSION].add(1),
                       piles=x.piles.at[kind].add(1).at[MANSION].add(-1))
        return push(x, frame("convert_check", AUTO, 1, p), f[2] > 1)
    return when(action != A.DONE, swap, s)


def convert_check(s: State, f: jnp.ndarray) -> State:
    """Offer the second conversion when one is still possible."""
    return push(s, frame("convert", f[3], 1), convertible(s, f[3]).any())


def exchange_more(s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """1908's optional second exchange."""
    p, colour = f[1], action - A.COLOUR0

    def swap(x: State) -> State:
        x = x._replace(hand=x.hand.at[p, colour].add(-1))
        return push(x, frame("take", p, 1, colour))
    return when(action != A.DONE, swap, s)


def end_turn(t: Tables, s: State) -> State:
    """The end-of-turn hand limit, then the next turn (DDC-12.1)."""
    s = push(s, frame("next_turn", AUTO))
    return push_discard(s, s.turn, t.hand_limit)


__all__ = ["DEN", "can_pay", "current_event", "full_house_spaces", "pay_sources"]
