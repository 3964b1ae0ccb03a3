"""Stages 1 and 2, the loop's rewards, turns, rounds and chance on JAX: the Python ``flow.py``
and ``cascade.py`` handlers as pure functions of (tables, state)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from formosa_envs.core.engine import AUTO, CHANCE
from formosa_envs.games.dadaocheng import actions as A

from . import cascade as jc
from .layout import deal_layout
from .shop import die, when
from .state import KIND, State, frame, push
from .tables import Tables


def start_turn(s: State, p: jnp.ndarray) -> State:
    """Planning, the cascade, Full House for everyone, then purchases (DDC-3.3)."""
    s = s._replace(turn=jnp.asarray(p, jnp.int32), used=jnp.zeros_like(s.used))
    s = push(s, frame("stage4", AUTO))
    s = push(s, frame("full_house_check", AUTO, 1, 0))
    s = push(s, frame("after_planning", AUTO))
    return push(s, frame("move", p, 2))


def move(s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """A planning movement: flip a disc, or start a swap (DDC-4)."""
    s = push(s, f.at[2].add(-1), f[2] > 1)
    flip = action < A.SWAP0
    cell = jnp.where(flip, action - A.FLIP0, 0)
    s = s._replace(sides=jnp.where(flip, s.sides ^ (1 << cell), s.sides))
    return push(s, frame("swap_to", f[1], 1, action - A.SWAP0), ~flip)


def swap_to(s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """The swap's second cell: the two discs change places, each keeping its side up."""
    a, b = f[3], action - A.SWAP_TO0
    bit_a, bit_b = (s.sides >> a) & 1, (s.sides >> b) & 1
    sides = s.sides ^ jnp.where(bit_a != bit_b, (1 << a) | (1 << b), 0)
    cells = s.cell_disc.at[a].set(s.cell_disc[b]).at[b].set(s.cell_disc[a])
    return s._replace(sides=sides, cell_disc=cells)


def faces(t: Tables, s: State) -> jnp.ndarray:
    """int32[16, 2]: the (sun, back) colours of the disc in each cell."""
    return t.disc_faces[jnp.maximum(s.cell_disc, 0)]


def cascade_of(s: State) -> jc.Cascade:
    """The Stage 2 data of a state."""
    return jc.Cascade(s.sides, s.history, s.history_len, s.hand, s.storehouse, s.sign,
                      s.overflow)


def after_cascade(t: Tables, s: State, c: jc.Cascade, status: jnp.ndarray) -> State:
    """Write a cascade back; a choice pushes ``line``, a loop its decisions and layout."""
    s = s._replace(sides=c.sides, history=c.history, history_len=c.length, hand=c.hand,
                   storehouse=c.storehouse, sign=c.sign, overflow=c.overflow)
    s = push(s, frame("line", s.turn), status == jc.CHOOSE)
    return when(status == jc.LOOPED, lambda x: loop_frames(t, x), s)


def loop_frames(t: Tables, s: State) -> State:
    """DDC-6.4 after its fixed rewards: the others' gifts, the cube of any colour, and a
    new layout (dealt by the ``place_disc`` chance frame)."""
    n, p = t.num_players, s.turn
    for k in reversed(range(1, n)):
        s = push(s, frame("loop_gift", (p + k) % n, 2))
    s = push(s, frame("loop_any", p))
    return push_layout(s)


def push_layout(s: State) -> State:
    """Reset the discs (all sun side up) and queue the new layout's chance frame."""
    s = s._replace(cell_disc=jnp.full_like(s.cell_disc, -1), sides=jnp.zeros_like(s.sides))
    return push(s, frame("place_disc", CHANCE))


def after_planning(s: State) -> State:
    """The cascade's history starts with the grid after planning (DDC-6.1)."""
    history = jnp.full_like(s.history, s.sides)
    s = s._replace(history=history, history_len=jnp.int32(1))
    return push(s, frame("cascade", AUTO))


def cascade(t: Tables, s: State, line: jnp.ndarray) -> State:
    """The automatic cascade until it ends, needs a choice or loops (DDC-5, DDC-6); with
    ``line >= 0`` the active player's chosen line is collected first (a repeated state
    loops at once)."""
    c, face_up = cascade_of(s), faces(t, s)
    collected, repeated = jc.collect(c, face_up, s.covered, s.remodelled, s.turn,
                                     jnp.maximum(line - A.LINE0, 0))
    chosen = line >= 0
    start = jax.tree.map(lambda a, b: jnp.where(chosen, a, b), collected, c)
    looped_now = chosen & repeated
    after, status = jc.run_cascade(start, face_up, s.covered, s.remodelled, s.turn)
    c = jax.tree.map(lambda a, b: jnp.where(looped_now, a, b),
                     jc.loop_reward(start, s.turn), after)
    return after_cascade(t, s, c, jnp.where(looped_now, jc.LOOPED, status))


def next_turn(t: Tables, s: State) -> State:
    """The next seat, or the end of the round: the next event, or the end (DDC-12)."""
    n = t.num_players
    nxt = (s.turn + 1) % n
    same_round = nxt != s.start_player
    last = s.round >= t.rounds

    def new_round(x: State) -> State:
        x = push(x._replace(round=x.round + 1), frame("start_round", AUTO))
        if n == 1:
            return x
        pending = x.event_pool.any()
        if t.chronological_events:
            first = jnp.argmax(x.event_pool)
            return x._replace(
                events=x.events.at[jnp.where(pending, x.round - 1, x.events.shape[0])].set(
                    first, mode="drop"),
                event_pool=x.event_pool.at[first].set(x.event_pool[first] & ~pending))
        return push(x, frame("event_draw", CHANCE), pending)

    return jax.lax.cond(same_round, lambda x: start_turn(x, nxt), lambda x: jax.lax.cond(
        last, lambda y: y._replace(over=jnp.bool_(True)), new_round, x), s)


def chance(t: Tables, s: State, f: jnp.ndarray, outcome: jnp.ndarray,
           key: jax.Array) -> State:
    """Apply a chance frame's outcome (``place_disc``: a whole layout from ``key``)."""
    kind = f[0]

    def ship(x: State) -> State:
        level = f[3]
        return x._replace(in_pool=x.in_pool.at[outcome].set(False),
                          ship_up=x.ship_up.at[level].set(outcome),
                          revealed=x.revealed.at[level].add(1))

    def event(x: State) -> State:
        count = (x.events >= 0).sum()
        return x._replace(event_pool=x.event_pool.at[outcome].set(False),
                          events=x.events.at[count].set(outcome))

    branches = {
        "place_disc": lambda x: x._replace(cell_disc=deal_layout(key, t.layouts)),
        "ship_reveal": ship,
        "start_player": lambda x: x._replace(start_player=outcome, turn=outcome),
        "event_draw": event,
        "die": lambda x: die(t, x, outcome)}
    names = list(branches)
    which = jnp.argmax(jnp.array([KIND[name] for name in names]) == kind)
    return jax.lax.switch(which, [branches[name] for name in names], s)
