"""The legal actions of the pending decision on JAX (``bool[96]``), the Python handlers'
``legal`` lists as masks; chance outcomes' odds for the frames the engine samples."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.content import BLACK, DEN, MANSION, STORE, WORKSHOP
from formosa_envs.games.dadaocheng.state import (
    BOUGHT0,
    USED_DENS,
    USED_EVENT,
    USED_MARKETS,
    USED_TEMPLE,
)

from . import grid
from .flow import faces
from .shop import (
    building_cost,
    can_pay,
    convertible,
    current_event,
    full_house_spaces,
    own_spaces,
    pay_sources,
    ship_cost,
)
from .state import KIND, State, top
from .tables import EVENT, Tables

NUM_ACTIONS = A.ACTION_SPACE.size
IDS = jnp.arange(NUM_ACTIONS)


def segment(first: int, open_: jnp.ndarray) -> jnp.ndarray:
    """bool[96]: ``open_`` (bool[k]) placed at action ids ``first .. first + k - 1``."""
    return jnp.zeros(NUM_ACTIONS, bool).at[first:first + open_.shape[0]].set(open_)


def legal_mask(t: Tables, s: State) -> jnp.ndarray:
    """bool[96]: the legal actions of the top frame (all False at chance, automatic and
    finished states)."""
    f = top(s)
    kind, p = f[0], f[1]
    held = s.hand[p] > 0
    colours = jnp.ones(5, bool)
    masks = {
        "move": (IDS >= A.FLIP0) & (IDS < A.SWAP0 + 15),
        "swap_to": (A.SWAP_TO0 + f[3] < IDS) & (IDS < A.SWAP_TO0 + 16),
        "line": segment(A.LINE0, grid.candidates(faces(t, s), s.sides)),
        "loop_any": segment(A.COLOUR0, colours), "loop_gift": segment(A.COLOUR0, colours),
        "full_house": segment(A.SPACE0, full_house_spaces(t, s, p)),
        "discard": segment(A.COLOUR0, held), "lose": segment(A.COLOUR0, held),
        "give": segment(A.COLOUR0, held),
        "purchase": purchase_mask(t, s, p),
        "store_space": segment(A.SPACE0, store_spaces(t, s, p)),
        "take": segment(A.COLOUR0, jnp.arange(5) != f[3]),
        "convert": convert_mask(s, f),
        "exchange_more": segment(A.COLOUR0, held).at[A.DONE].set(True),
        "pay": segment(A.COLOUR0, jnp.zeros(5, bool).at[jnp.argmax(f[4:8] > 0)].set(
            pay_sources(s, p, f[4:8])[0]).at[BLACK].set(pay_sources(s, p, f[4:8])[1]))}
    names = list(masks)
    stacked = jnp.stack([masks[name] for name in names])
    match = jnp.array([KIND[name] for name in names]) == kind
    return (stacked & match[:, None]).any(axis=0) & (p >= 0) & (s.depth > 0) & ~s.over


def store_spaces(t: Tables, s: State, p: jnp.ndarray) -> jnp.ndarray:
    """bool[4]: ``p``'s spaces a Store may remodel: empty and not a Store yet (DDC-9.3)."""
    spaces = own_spaces(t, p)
    return ~s.remodelled[spaces] & (s.storehouse[spaces].sum(axis=1) == 0)


def convert_mask(s: State, f: jnp.ndarray) -> jnp.ndarray:
    """1905: the convertible types, and DONE when one is open and it is the second."""
    kinds = convertible(s, f[1])
    return segment(A.BUILDING0, kinds).at[A.DONE].set(kinds.any() & (f[2] < 2))


def purchase_mask(t: Tables, s: State, p: jnp.ndarray) -> jnp.ndarray:
    """Every Stage 4 action ``p`` can complete now, and DONE (DDC-8)."""
    ships = jax.vmap(lambda level: ship_buyable(t, s, p, level))(jnp.arange(3))
    buildings = jax.vmap(lambda kind: building_buyable(t, s, p, kind))(jnp.arange(5))
    hand = s.hand[p].sum()
    white = jnp.zeros(4, jnp.int32).at[1].set(1)
    temple = jnp.stack([(s.used[USED_TEMPLE] == 0) & can_pay(s, p, white),
                        (s.used[USED_TEMPLE] == 0) & (hand >= 2)])
    others = jnp.stack([hand >= 2, (s.used[USED_MARKETS] < s.buildings[p, 2]) & (hand > 0),
                        (s.used[USED_DENS] < s.buildings[p, DEN]) & (s.hand[p, BLACK] > 0),
                        event_available(t, s, p)])
    return (segment(A.SHIP0, ships) | segment(A.BUILDING0, buildings)
            | segment(A.TEMPLE0, temple) | segment(A.EXCHANGE, others)).at[A.DONE].set(True)


def ship_buyable(t: Tables, s: State, p: jnp.ndarray, level: jnp.ndarray) -> jnp.ndarray:
    """A face-up ship whose required credit ``p`` has and whose cost ``p`` can pay."""
    ship = s.ship_up[level]
    blocked = (level == 2) & (current_event(t, s) == EVENT["e1895"])
    return ((ship >= 0) & (s.credit[p] >= t.ship_required[jnp.maximum(ship, 0)]) & ~blocked
            & can_pay(s, p, ship_cost(t, s, p, level)))


def building_buyable(t: Tables, s: State, p: jnp.ndarray, kind: jnp.ndarray) -> jnp.ndarray:
    """Pile not empty, per-turn and Den limits, a space for a Store, payable (DDC-8.4)."""
    bought = jnp.where(kind != MANSION, s.used[BOUGHT0 + jnp.maximum(kind - 1, 0)], 0)
    return ((s.piles[kind] > 0) & (bought == 0)
            & ~((kind == DEN) & (s.buildings[p, DEN] >= 2))
            & ~((kind == STORE) & ~store_spaces(t, s, p).any())
            & can_pay(s, p, building_cost(t, s, kind)))


def event_available(t: Tables, s: State, p: jnp.ndarray) -> jnp.ndarray:
    """Whether ``p`` may execute this round's event now (once per turn, DDC-8.7)."""
    key, hand = current_event(t, s), s.hand[p]
    cube = jnp.zeros(4, jnp.int32)
    checks = {"e1851": True, "e1859": True, "e1865": True, "e1878": True, "e1891": True,
              "e1860": can_pay(s, p, cube.at[0].set(2)),
              "e1898": (s.opium[p] >= 1) & can_pay(s, p, cube.at[1].set(1)),
              "e1905": convertible(s, p).any(), "e1908": hand.sum() >= 1,
              "e1915": s.opium[p] >= 1}
    open_ = jnp.stack([jnp.asarray(v) & (key == EVENT[k]) for k, v in checks.items()]).any()
    return open_ & (s.used[USED_EVENT] == 0) & (key >= 0)


__all__ = ["NUM_ACTIONS", "WORKSHOP", "legal_mask"]
