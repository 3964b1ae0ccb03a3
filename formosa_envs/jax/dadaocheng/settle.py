"""The settle loop of the JAX Dadaocheng engine, over a batch of games at once.

:func:`run_batch` applies the pending node of every game (a player's action, or a chance
outcome), then automatic frames, forced decisions and (with ``draw``) chance frames, until
each game reaches a decision it may not take (the Python ``apply_action`` and ``settle``).

It runs at the batch level rather than under ``vmap`` so that the expensive handlers run
only where they are needed: under ``vmap`` a ``lax.switch`` runs every branch in every
game. The cheap handlers still run as one ``vmap``-ed switch over all live games, but the
cascade (its automatic collection and its can-end search), a purchase (with its payment
set-up) and a chance frame (a layout's deal) run only on the games whose top frame needs
them, gathered ``chunk`` at a time (:func:`compacted`), and not at all in an iteration
where no game needs them. The cascade's history (three quarters of a state's bytes) stays
out of the states the loop copies: it is kept beside them (:attr:`Carry.history`) and only
the cascade reads and writes it. A game's
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

CASCADES = np.array([KIND["cascade"], KIND["line"], KIND["after_planning"]])
"""The frames run by :func:`plan_then_cascade`."""


def sample_chance(t: Tables, s: State, key: jax.Array,
                  f: jnp.ndarray | None = None) -> jnp.ndarray:
    """An outcome of the pending chance frame (or of frame ``f``, already popped), drawn
    with the Python engine's odds (the layout's outcome is unused: its deal draws from the
    node's own key)."""
    odds = chance_odds(t, s, f)
    return jax.random.choice(key, odds.shape[0], p=odds / odds.sum()).astype(jnp.int32)


def chance_odds(t: Tables, s: State, f: jnp.ndarray | None = None) -> jnp.ndarray:
    """float32[64]: the outcome weights (zero-padded) of the pending chance frame, or of
    frame ``f`` (already popped)."""
    f = top(s) if f is None else f
    level_ships = s.in_pool & (t.ship_level == f[3])
    return jnp.select(
        [f[0] == KIND["ship_reveal"], f[0] == KIND["event_draw"],
         f[0] == KIND["start_player"], f[0] == KIND["die"]],
        [pad(level_ships), pad(s.event_pool), pad(jnp.arange(t.num_players) >= 0),
         pad(jnp.ones(6, bool))], pad(jnp.ones(1, bool)))


def pad(mask: jnp.ndarray, size: int = 64) -> jnp.ndarray:
    """float32[size]: ``mask`` as weights, zero-padded."""
    return jnp.zeros(size, jnp.float32).at[:mask.shape[0]].set(mask.astype(jnp.float32))


def apply_frame(t: Tables, s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """Apply the frame ``f`` (already popped, neither chance nor cascade) with ``action``:
    the Python handler of its kind."""
    handlers = {
        "move": lambda x: flow.move(x, f, action),
        "swap_to": lambda x: flow.swap_to(x, f, action),
        "after_planning": flow.after_planning,
        "loop_any": lambda x: shop.gain_one(x, f, action),
        "loop_gift": lambda x: shop.gain_one(x, f, action),
        "full_house_check": lambda x: full_house_checks(t, x, f),
        "full_house": lambda x: shop.full_house(t, x, f, action),
        "discard": lambda x: shop.lose_one(x, f, action),
        "lose": lambda x: shop.lose_one(x, f, action),
        "stage4": lambda x: shop.stage4(t, x, f),
        "purchase": lambda x: x,  # run on its own games (run_batch)
        "store_space": lambda x: shop.store_space(t, x, f, action),
        "give": lambda x: shop.give(x, f, action),
        "take": lambda x: shop.gain_one(x, f, action),
        "end_turn": lambda x: end_turn(t, x),
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


def full_house_checks(t: Tables, s: State, f: jnp.ndarray) -> State:
    """The ``full_house_check`` frames from ``f``'s player on, in one call: the automatic
    checks of players without a Full House change nothing, so this skips to the first
    player with one (their decision, then the next check); without one, the ``stage4``
    frame below runs at once. The decisions reached are the Python engine's."""
    n = t.num_players
    order = jnp.arange(n)
    has = jax.vmap(lambda q: shop.full_house_spaces(t, s, q).any())((s.turn + order) % n)
    has = has & (order >= f[3])
    found = has.any()
    checked = shop.full_house_check(t, s, f.at[3].set(jnp.argmax(has)))
    below = top(s)
    staged = shop.stage4(t, pop(s), below)
    staged = _pick(below[0] == KIND["stage4"], staged, s)
    return _pick(found, checked, staged)


def end_turn(t: Tables, s: State) -> State:
    """``end_turn``, and its ``next_turn`` frame at once when no discard comes first."""
    s = shop.end_turn(t, s)
    return _pick(top(s)[0] == KIND["next_turn"], flow.next_turn(t, pop(s)), s)


def plan_then_cascade(t: Tables, s: State, history: jnp.ndarray, kind: jnp.ndarray,
                      line: jnp.ndarray) -> tuple[State, jnp.ndarray]:
    """The cascade (``line`` >= 0: after the chosen line) of ``s`` with its ``history``
    (the state holds a placeholder); an ``after_planning`` frame starts the history and
    runs the cascade at once (its ``cascade`` frame is automatic). Returns the state with
    the placeholder again, and the history."""
    s = s._replace(history=history)
    planned = pop(flow.after_planning(s))
    s = flow.cascade(t, _pick(kind == KIND["after_planning"], planned, s), line)
    return s._replace(history=s.history[:1]), s.history


def chance_then_round(t: Tables, s: State, f: jnp.ndarray, outcome: jnp.ndarray,
                      key: jax.Array, drawn: jnp.ndarray) -> State:
    """A chance outcome (where ``drawn``, one drawn from ``key`` instead), and the
    ``start_round`` frame below it at once (automatic)."""
    draw_key, deal_key = jax.random.split(key)
    outcome = jnp.where(drawn, sample_chance(t, s, draw_key, f), outcome)
    s = flow.chance(t, s, f, outcome, deal_key)
    started = flow.start_turn(pop(s), s.start_player)
    return _pick((s.depth > 0) & (top(s)[0] == KIND["start_round"]), started, s)


def _pick(which: jnp.ndarray, a: State, b: State) -> State:
    """``a`` where ``which`` (a scalar) holds, else ``b``."""
    return jax.tree.map(lambda x, y: jnp.where(which, x, y), a, b)


def begin(t: Tables, s: State) -> State:
    """The end of setup: 1851 revealed with 2+ players, then turn 1 (DDC-2)."""
    if t.num_players > 1:
        s = s._replace(events=s.events.at[0].set(t.first_event),
                       event_pool=s.event_pool.at[t.first_event].set(False))
    return flow.start_turn(s, s.start_player)


def compacted(fn: Callable[..., Any], need: jnp.ndarray, args: tuple, out: Any,
              chunk: int) -> Any:
    """``out`` with ``fn(*args[i])`` in the games ``i`` where ``need`` holds (``args``,
    ``out`` and what ``fn`` returns: pytrees with a batch axis), computed ``chunk`` games
    at a time (no pass where none needs it)."""
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
    history: jnp.ndarray   # uint16[B, HISTORY_SIZE]: the cascades' histories (``s`` holds
                           # a placeholder of one entry, which the handlers may read)
    count: jnp.ndarray     # int32


def run_batch(t: Tables, s: State, action: jnp.ndarray, keys: jax.Array, draw: bool,
              sizes: tuple[int, ...]) -> tuple[State, jnp.ndarray]:
    """Every game of the batch ``s`` takes its ``action`` and settles (module docstring);
    chance outcomes come from ``keys`` (one per game) where ``draw``. ``sizes``: the
    batch size, then the smaller batches the games still going move to (:func:`settle`).
    Returns the states and their legal masks (the loop computes them anyway)."""
    masks = jax.vmap(legal_mask, in_axes=(None, 0))(t, s)
    bad = jax.vmap(refused, in_axes=(None, 0, 0, 0, None))(t, s, masks, action, draw)
    live = ~bad & jax.vmap(_going, in_axes=(0, None, 0, None))(s, 0, masks, draw)
    carry = Carry(s._replace(history=s.history[:, :1]), masks, live, action, keys,
                  s.history, jnp.int32(0))
    done = settle(t, carry, draw, sizes)
    return done.s._replace(history=done.history, illegal=bad), done.masks


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
    s, masks, history = jax.tree.map(lambda o, d: o.at[slots].set(d, mode="drop"),
                                     (carry.s, carry.masks, carry.history),
                                     (part.s, part.masks, part.history))
    return carry._replace(s=s, masks=masks, history=history, live=jnp.zeros_like(carry.live),
                          count=part.count)


def iterate(t: Tables, carry: Carry, draw: bool) -> Carry:
    """One node of every live game: the cheap handlers in one switch, the cascade,
    purchases and chance frames on their own games (:func:`compacted`)."""
    s, masks, live, count = carry.s, carry.masks, carry.live, carry.count
    chunk = max(1, live.shape[0] // 8)
    frames, chosen = jax.vmap(_choose, in_axes=(0, 0, 0, None))(s, masks, carry.action, count)
    node_keys = jax.vmap(jax.random.fold_in, in_axes=(0, None))(carry.keys, count)
    drawn = jnp.asarray(draw) | (count > 0)
    popped = jax.vmap(pop)(s)
    moved = jax.vmap(apply_frame, in_axes=(None, 0, 0, 0))(t, popped, frames, chosen)
    kinds, player = frames[:, 0], frames[:, 1]
    moved = compacted(lambda x, f, a, k: chance_then_round(t, x, f, a, k, drawn),
                      live & (player == CHANCE), (popped, frames, chosen, node_keys), moved,
                      chunk)
    cascading = live & (player != CHANCE) & jnp.any(kinds[:, None] == CASCADES, axis=1)
    line = jnp.where(kinds == KIND["line"], chosen, -1)
    moved, history = compacted(lambda x, h, k, a: plan_then_cascade(t, x, h, k, a),
                               cascading, (popped, carry.history, kinds, line),
                               (moved, carry.history), chunk)
    buying = live & (player >= 0) & (kinds == KIND["purchase"])
    moved = compacted(lambda x, f, a: shop.purchase(t, x, f, a), buying,
                      (popped, frames, chosen), moved, chunk)
    counted = live & (count == 0) & (player >= 0)
    moved = moved._replace(decisions=moved.decisions + counted.astype(jnp.int32))
    s = select(live, moved, s)
    masks = jax.vmap(legal_mask, in_axes=(None, 0))(t, s)
    live = live & jax.vmap(_going, in_axes=(0, None, 0, None))(s, count + 1, masks, draw)
    return carry._replace(s=s, masks=masks, live=live, history=history, count=count + 1)


def _going(s: State, count: jnp.ndarray, mask: jnp.ndarray, draw: bool) -> jnp.ndarray:
    """A game goes on: its first node, or an automatic frame, a forced decision or (with
    ``draw``) a chance frame, unless it is over."""
    f = top(s)
    forced = (f[1] >= 0) & (mask.sum() == 1)
    automatic = (f[1] == AUTO) | forced | ((f[1] == CHANCE) & draw)
    return ~s.over & (s.depth > 0) & ((count == 0) | automatic)


def _choose(s: State, mask: jnp.ndarray, action: jnp.ndarray,
            count: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    """The top frame and the action to apply to it: the given action first, then a forced
    decision's only action (a chance outcome after the first node is drawn where the chance
    frame is applied: :func:`chance_then_round`)."""
    f = top(s)
    return f, jnp.where(count == 0, action, jnp.argmax(mask).astype(jnp.int32))


__all__ = ["apply_frame", "chance_odds", "compacted", "run_batch",
           "sample_chance"]
