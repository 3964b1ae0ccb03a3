"""The settle loop of the JAX Dadaocheng engine, over a batch of games at once.

:func:`run_batch` applies the pending node of every game (a player's action, or a chance
outcome), then automatic frames, forced decisions and (with ``draw``) chance frames, until
each game reaches a decision it may not take (the Python ``apply_action`` and ``settle``).

It runs at the batch level rather than under ``vmap`` so that the expensive handlers run
only where they are needed: under ``vmap`` a ``lax.switch`` runs every branch in every
game. The cheap handlers still run as one ``vmap``-ed switch over all live games (without
the cascade's history: three quarters of a state's bytes), but the cascade (its automatic
collection and its can-end search), a purchase (with its payment set-up) and a chance frame
(a layout's deal) run only on the games whose top frame needs them, gathered ``chunk`` at a
time (:func:`compacted`), and not at all in an iteration where no game needs them. A game's
``illegal`` flag is set, and the game left as it was, when its action is not a legal one
of its pending player decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from formosa_envs.core.engine import AUTO, CHANCE

from . import flow, shop
from .legal import legal_mask
from .state import KIND, State, pop, top
from .tables import Tables

CASCADES = (KIND["cascade"], KIND["line"])


def sample_chance(t: Tables, s: State, key: jax.Array) -> jnp.ndarray:
    """An outcome of the pending chance frame, drawn with the Python engine's odds (the
    layout's outcome is unused: its deal draws from the node's own key)."""
    odds = chance_odds(t, s)
    return jax.random.choice(key, odds.shape[0], p=odds / odds.sum()).astype(jnp.int32)


def chance_odds(t: Tables, s: State) -> jnp.ndarray:
    """float32[64]: the pending chance frame's outcome weights (zero-padded)."""
    f = top(s)
    level_ships = s.in_pool & (t.ship_level == f[3])
    return jnp.select(
        [f[0] == KIND["ship_reveal"], f[0] == KIND["event_draw"],
         f[0] == KIND["start_player"], f[0] == KIND["die"]],
        [pad(level_ships), pad(s.event_pool), pad(jnp.arange(t.num_players) >= 0),
         pad(jnp.ones(6, bool))], pad(jnp.ones(1, bool)))


def pad(mask: jnp.ndarray, size: int = 64) -> jnp.ndarray:
    """float32[size]: ``mask`` as weights, zero-padded."""
    return jnp.zeros(size, jnp.float32).at[:mask.shape[0]].set(mask.astype(jnp.float32))


def apply_light(t: Tables, s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """Apply frame ``f`` (already popped; not a chance frame, not a cascade) with its
    Python handler; the handlers see the state without the cascade's history (only
    ``after_planning`` writes it: anew)."""
    handled = apply_frame(t, s._replace(history=s.history[:1]), f, action)
    fresh = jnp.full_like(s.history, -1).at[0].set(handled.history[0])
    return handled._replace(
        history=jnp.where(f[0] == KIND["after_planning"], fresh, s.history))


def apply_frame(t: Tables, s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """Apply the frame ``f`` (already popped, neither chance nor cascade) with ``action``:
    the Python handler of its kind."""
    handlers = {
        "move": lambda x: flow.move(x, f, action),
        "swap_to": lambda x: flow.swap_to(x, f, action),
        "after_planning": flow.after_planning,
        "loop_any": lambda x: shop.gain_one(x, f, action),
        "loop_gift": lambda x: shop.gain_one(x, f, action),
        "full_house_check": lambda x: shop.full_house_check(t, x, f),
        "full_house": lambda x: shop.full_house(t, x, f, action),
        "discard": lambda x: shop.lose_one(x, f, action),
        "lose": lambda x: shop.lose_one(x, f, action),
        "stage4": lambda x: shop.stage4(t, x, f),
        "purchase": lambda x: x,  # run on its own games (run_batch)
        "store_space": lambda x: shop.store_space(t, x, f, action),
        "give": lambda x: shop.give(x, f, action),
        "take": lambda x: shop.gain_one(x, f, action),
        "end_turn": lambda x: shop.end_turn(t, x),
        "convert": lambda x: shop.convert(x, f, action),
        "convert_check": lambda x: shop.convert_check(x, f),
        "exchange_more": lambda x: shop.exchange_more(x, f, action),
        "next_turn": lambda x: flow.next_turn(t, x),
        "start_round": lambda x: flow.start_turn(x, x.start_player),
        "pay": lambda x: shop.pay(t, x, f, action),
        "begin": lambda x: begin(t, x)}
    names = list(handlers)
    codes = np.array([KIND[name] for name in names])
    which = jnp.argmax(jnp.asarray(codes) == f[0])
    return jax.lax.switch(which, [handlers[name] for name in names], s)


def begin(t: Tables, s: State) -> State:
    """The end of setup: 1851 revealed with 2+ players, then turn 1 (DDC-2)."""
    if t.num_players > 1:
        s = s._replace(events=s.events.at[0].set(t.first_event),
                       event_pool=s.event_pool.at[t.first_event].set(False))
    return flow.start_turn(s, s.start_player)


def compacted(fn: Callable[..., State], need: jnp.ndarray, args: tuple, out: State,
              chunk: int) -> State:
    """``out`` with ``fn(*args[i])`` in the games ``i`` where ``need`` holds (``args``:
    pytrees with a batch axis), computed ``chunk`` games at a time (no pass where none
    needs it)."""
    size = need.shape[0]

    def fill(carry: tuple[State, jnp.ndarray]) -> tuple[State, jnp.ndarray]:
        out, waiting = carry
        rank = jnp.cumsum(waiting) - 1
        take = waiting & (rank < chunk)
        lanes = jnp.zeros(chunk, jnp.int32).at[jnp.where(take, rank, chunk)].set(
            jnp.arange(size, dtype=jnp.int32), mode="drop")
        slots = jnp.where(jnp.arange(chunk) < take.sum(), lanes, size)
        done = jax.vmap(fn)(*jax.tree.map(lambda x: x[lanes], args))
        out = jax.tree.map(lambda o, d: o.at[slots].set(d, mode="drop"), out, done)
        return out, waiting & ~take

    return jax.lax.while_loop(lambda c: c[1].any(), fill, (out, need))[0]


def select(which: jnp.ndarray, a: Any, b: Any) -> Any:
    """Per game: ``a`` where ``which`` holds, else ``b`` (pytrees with a batch axis)."""
    return jax.tree.map(
        lambda x, y: jnp.where(which.reshape(which.shape + (1,) * (x.ndim - 1)), x, y), a, b)


def refused(t: Tables, s: State, mask: jnp.ndarray, action: jnp.ndarray,
            draw: bool) -> jnp.ndarray:
    """bool: ``action`` is not a legal move of the pending player decision (with ``draw``
    false, at a chance frame: an outcome of no probability; a layout takes any)."""
    f = top(s)
    inside = (action >= 0) & (action < mask.shape[0])
    player = ~s.over & (s.depth > 0) & (f[1] >= 0) & ~(inside & mask[jnp.clip(action, 0, 95)])
    if draw:
        return player
    odds = chance_odds(t, s)
    possible = (action >= 0) & (action < 64) & (odds[jnp.clip(action, 0, 63)] > 0)
    at_chance = ~s.over & (s.depth > 0) & (f[1] == CHANCE) & (f[0] != KIND["place_disc"])
    return player | (at_chance & ~possible)


class Carry(NamedTuple):
    """The settle loop's data for a batch (every field with a leading batch axis but
    ``count``, the iterations so far, the same for every game of the batch)."""

    s: State
    masks: jnp.ndarray     # bool[B, 96]: the legal masks of ``s``
    live: jnp.ndarray      # bool[B]: the game goes on
    action: jnp.ndarray    # int32[B]: the action of the first node
    keys: jax.Array        # key[B]: the chance keys
    count: jnp.ndarray     # int32


def run_batch(t: Tables, s: State, action: jnp.ndarray, keys: jax.Array, draw: bool,
              sizes: tuple[int, ...]) -> State:
    """Every game of the batch ``s`` takes its ``action`` and settles (module docstring);
    chance outcomes come from ``keys`` (one per game) where ``draw``. ``sizes``: the
    batch size, then the smaller batches the games still going move to (:func:`settle`)."""
    masks = jax.vmap(legal_mask, in_axes=(None, 0))(t, s)
    bad = jax.vmap(refused, in_axes=(None, 0, 0, 0, None))(t, s, masks, action, draw)
    live = ~bad & jax.vmap(_going, in_axes=(0, None, 0, None))(s, 0, masks, draw)
    carry = Carry(s, masks, live, action, keys, jnp.int32(0))
    return settle(t, carry, draw, sizes).s._replace(illegal=bad)


def settle(t: Tables, carry: Carry, draw: bool, sizes: tuple[int, ...]) -> Carry:
    """Iterate until no game of the batch goes on. Few games go on after the first
    iterations (about 40% after one, 20% after five), so once the games still going fit
    in the next size of ``sizes`` they are gathered into a batch of that size and settle
    there (the iterations cost about the batch's size), then scattered back."""
    if len(sizes) == 1:
        return jax.lax.while_loop(lambda c: c.live.any(), lambda c: iterate(t, c, draw), carry)
    small = sizes[1]

    def step(c: Carry) -> Carry:
        return jax.lax.cond(c.live.sum() <= small, lambda x: descend(t, x, draw, sizes[1:]),
                            lambda x: iterate(t, x, draw), c)

    return jax.lax.while_loop(lambda c: c.live.any(), step, carry)


def descend(t: Tables, carry: Carry, draw: bool, sizes: tuple[int, ...]) -> Carry:
    """Settle the (at most ``sizes[0]``) games going on in a batch of ``sizes[0]``."""
    size, small = carry.live.shape[0], sizes[0]
    rank = jnp.cumsum(carry.live) - 1
    lanes = jnp.zeros(small, jnp.int32).at[jnp.where(carry.live, rank, small)].set(
        jnp.arange(size, dtype=jnp.int32), mode="drop")
    used = jnp.arange(small) < carry.live.sum()
    part = Carry(*jax.tree.map(lambda x: x[lanes], tuple(carry)[:-1]), count=carry.count)
    part = settle(t, part._replace(live=used), draw, sizes)
    slots = jnp.where(used, lanes, size)
    s, masks = jax.tree.map(lambda o, d: o.at[slots].set(d, mode="drop"),
                            (carry.s, carry.masks), (part.s, part.masks))
    return carry._replace(s=s, masks=masks, live=jnp.zeros_like(carry.live),
                          count=part.count)


def iterate(t: Tables, carry: Carry, draw: bool) -> Carry:
    """One node of every live game: the cheap handlers in one switch, the cascade,
    purchases and chance frames on their own games (:func:`compacted`)."""
    s, masks, live, count = carry.s, carry.masks, carry.live, carry.count
    chunk = max(1, live.shape[0] // 8)
    frames, chosen, deal_keys = jax.vmap(_choose, in_axes=(None, 0, 0, 0, 0, None, None))(
        t, s, masks, carry.action, carry.keys, count, draw)
    popped = jax.vmap(pop)(s)
    moved = jax.vmap(apply_light, in_axes=(None, 0, 0, 0))(t, popped, frames, chosen)
    kinds, player = frames[:, 0], frames[:, 1]
    moved = compacted(lambda x, f, a, k: flow.chance(t, x, f, a, k), live & (player == CHANCE),
                      (popped, frames, chosen, deal_keys), moved, chunk)
    cascading = live & (player != CHANCE) & ((kinds == CASCADES[0]) | (kinds == CASCADES[1]))
    line = jnp.where(kinds == KIND["line"], chosen, -1)
    moved = compacted(lambda x, a: flow.cascade(t, x, a), cascading, (popped, line),
                      moved, chunk)
    buying = live & (player >= 0) & (kinds == KIND["purchase"])
    moved = compacted(lambda x, f, a: shop.purchase(t, x, f, a), buying,
                      (popped, frames, chosen), moved, chunk)
    counted = live & (count == 0) & (player >= 0)
    moved = moved._replace(decisions=moved.decisions + counted.astype(jnp.int32))
    s = select(live, moved, s)
    masks = jax.vmap(legal_mask, in_axes=(None, 0))(t, s)
    live = live & jax.vmap(_going, in_axes=(0, None, 0, None))(s, count + 1, masks, draw)
    return carry._replace(s=s, masks=masks, live=live, count=count + 1)


def _going(s: State, count: jnp.ndarray, mask: jnp.ndarray, draw: bool) -> jnp.ndarray:
    """A game goes on: its first node, or an automatic frame, a forced decision or (with
    ``draw``) a chance frame, unless it is over."""
    f = top(s)
    forced = (f[1] >= 0) & (mask.sum() == 1)
    automatic = (f[1] == AUTO) | forced | ((f[1] == CHANCE) & draw)
    return ~s.over & (s.depth > 0) & ((count == 0) | automatic)


def _choose(t: Tables, s: State, mask: jnp.ndarray, action: jnp.ndarray, key: jax.Array,
            count: jnp.ndarray, draw: bool) -> tuple[jnp.ndarray, jnp.ndarray, jax.Array]:
    """The top frame, the action or outcome to apply to it, and its layout key: the given
    action first, then a forced decision's only action or a drawn chance outcome."""
    f, first = top(s), count == 0
    draw_key, deal_key = jax.random.split(jax.random.fold_in(key, count))
    outcome = sample_chance(t, s, draw_key) if draw else action
    chosen = jnp.where(f[1] == CHANCE, jnp.where(first & ~draw, action, outcome),
                       jnp.where(first, action, jnp.argmax(mask).astype(jnp.int32)))
    return f, chosen, deal_key


__all__ = ["apply_frame", "apply_light", "chance_odds", "compacted", "run_batch",
           "sample_chance"]
