"""The JAX Dadaocheng state: a NamedTuple of fixed-shape arrays (a pytree), its frame stack,
and :func:`from_python`, the same position read from a Python
:class:`~formosa_envs.games.dadaocheng.state.DadaochengState` (what the differential tests
compare, field by field).

The fields mirror the Python state with lists made fixed-size: ship ownership as an owner
per ship (``-1``: nobody), the ship piles as a mask of the ships still in them, the events
revealed as a padded list, the cascade's history as a list padded with its first state.
The decision stack is ``frames`` (``int32[DEPTH, FRAME]``: kind, player, count, then up
to five context values) with ``depth`` frames in use, the top at ``depth - 1``. Frame kinds
are the Python handler names, numbered by :data:`KINDS`. A ``pay`` frame keeps its
purpose and the units still to pay as counts per colour (the Python frame lists the units,
red first, and the sources of the next one, which follow from them).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax.numpy as jnp
import numpy as np

from formosa_envs.core.engine import AUTO, CHANCE
from formosa_envs.core.payment import pay_purpose, pay_units

from .cascade import HISTORY_DTYPE, HISTORY_SIZE

KINDS = ("move", "swap_to", "after_planning", "cascade", "line", "place_disc", "loop_any",
         "loop_gift", "full_house_check", "full_house", "discard", "lose", "stage4",
         "purchase", "store_space", "die", "give", "take", "end_turn", "convert",
         "convert_check", "exchange_more", "next_turn", "start_round", "ship_reveal",
         "start_player", "event_draw", "pay", "begin")
"""Frame kinds (the Python engine's handler names, and ``begin``, the end of the JAX
setup), numbered in this order."""
KIND = {name: code for code, name in enumerate(KINDS)}
DEPTH = 16
"""Frames the stack holds (the deepest seen in Python play is 15 with a layout's 16
place_disc frames, which JAX deals in one step)."""
FRAME = 8
"""int32 values per frame: kind, player, count, five context values."""
MAX_EVENTS = 10
"""Events revealed in a game at most: one per round (10 rounds at most)."""


class State(NamedTuple):
    """One Dadaocheng position on JAX (see the module docstring)."""

    cell_disc: jnp.ndarray      # int32[16]: the disc in each cell, -1 while being set up
    sides: jnp.ndarray          # int32: bit c set when the disc in cell c shows its back
    storehouse: jnp.ndarray     # int32[16, 5]: cubes per space and colour
    remodelled: jnp.ndarray     # bool[16]: a Store on the space
    covered: jnp.ndarray        # bool[4]: a side nobody owns
    hand: jnp.ndarray           # int32[n, 5]
    ship_owner: jnp.ndarray     # int32[ships]: the seat that bought each ship, -1 none
    buildings: jnp.ndarray      # int32[n, 5]: cards per building type
    credit: jnp.ndarray         # int32[n]
    opium: jnp.ndarray          # int32[n]: opium used
    sign: jnp.ndarray           # int32[n]: loop cubes on the storehouse sign
    piles: jnp.ndarray          # int32[5]: building cards left per type
    in_pool: jnp.ndarray        # bool[ships]: still face down in its level's pile
    ship_up: jnp.ndarray        # int32[3]: the face-up ship per level, -1 none
    revealed: jnp.ndarray       # int32[3]: ships revealed per level
    events: jnp.ndarray         # int32[MAX_EVENTS]: events revealed, round by round, -1 pad
    event_pool: jnp.ndarray     # bool[events]: not revealed yet
    used: jnp.ndarray           # int32[9]: this turn's flags and counts
    history: jnp.ndarray        # uint16[HISTORY_SIZE]: this cascade's states (pad: first)
    history_len: jnp.ndarray    # int32
    round: jnp.ndarray          # int32, from 1
    start_player: jnp.ndarray   # int32
    turn: jnp.ndarray           # int32: the active player
    frames: jnp.ndarray         # int32[DEPTH, FRAME]: the decision stack, bottom first
    depth: jnp.ndarray          # int32: frames in use
    over: jnp.ndarray           # bool: the game has ended
    decisions: jnp.ndarray      # int32: player decisions so far
    overflow: jnp.ndarray       # bool: a fixed-size array ran out of room (never expected)
    illegal: jnp.ndarray        # bool: the last call's action was refused (state unchanged)


def frame_row(kind: str, player: int, count: int, ctx: tuple[int, ...]) -> list[int]:
    """One frame as its ``FRAME`` int32 values."""
    values = [KIND[kind], player, count, *ctx]
    if len(values) > FRAME:
        raise ValueError(f"a {kind} frame has {len(ctx)} context values, at most {FRAME - 3}")
    return values + [0] * (FRAME - len(values))


def python_frame(d: Any) -> list[int]:
    """A Python :class:`~formosa_envs.core.decisions.Decision` as a JAX frame (``pay``:
    purpose, then the units left per colour)."""
    if d.kind == "pay":
        units = pay_units(d)
        return frame_row("pay", d.player, d.count,
                         (pay_purpose(d), *(units.count(c) for c in range(4))))
    return frame_row(d.kind, d.player, d.count, tuple(d.ctx))


def from_python(game: Any, s: Any) -> State:
    """The JAX state of a Python Dadaocheng state (numpy arrays; the same position)."""
    n, ships, i32 = s.num_players, len(game.ships), np.int32
    owner = np.full(ships, -1, i32)
    for seat, owned in enumerate(s.ships):
        owner[list(owned)] = seat
    in_pool = np.zeros(ships, bool)
    in_pool[[ship for pool in s.ship_pool for ship in pool]] = True
    events = np.full(MAX_EVENTS, -1, i32)
    events[:len(s.events)] = s.events
    event_pool = np.zeros(len(game.events), bool)
    event_pool[s.event_pool] = True
    history = np.full(HISTORY_SIZE, s.history[0] if s.history else 0, HISTORY_DTYPE)
    history[:len(s.history)] = s.history
    frames = np.zeros((DEPTH, FRAME), i32)
    if len(s.stack) > DEPTH:
        raise ValueError(f"the Python stack holds {len(s.stack)} frames, the JAX one {DEPTH}")
    for row, d in enumerate(s.stack):
        frames[row] = python_frame(d)
    return State(
        cell_disc=np.array(s.cell_disc, i32), sides=i32(s.bits()),
        storehouse=np.array(s.storehouse, i32), remodelled=np.array(s.remodelled, bool),
        covered=np.array(s.covered, bool), hand=np.array(s.hand, i32).reshape(n, 5),
        ship_owner=owner, buildings=np.array(s.buildings, i32).reshape(n, 5),
        credit=np.array(s.credit, i32), opium=np.array(s.opium, i32),
        sign=np.array(s.sign, i32), piles=np.array(s.piles, i32), in_pool=in_pool,
        ship_up=np.array(s.ship_up, i32), revealed=np.array(s.revealed, i32), events=events,
        event_pool=event_pool, used=np.array(s.used, i32), history=history,
        history_len=i32(len(s.history)), round=i32(s.round), start_player=i32(s.start_player),
        turn=i32(s.turn), frames=frames, depth=i32(len(s.stack)), over=np.bool_(s.over),
        decisions=i32(s.decisions), overflow=np.bool_(False), illegal=np.bool_(False))


def differences(expected: State, actual: State) -> list[str]:
    """The fields where two states differ (frames compared up to ``depth``)."""
    out = []
    for name in State._fields:
        want, got = np.asarray(getattr(expected, name)), np.asarray(getattr(actual, name))
        if name == "frames":
            depth = int(np.asarray(expected.depth))
            want, got = want[:depth], got[:depth]
        if want.shape != got.shape or not np.array_equal(want, got):
            out.append(f"{name}: expected {want.tolist()}, got {got.tolist()}")
    return out


def top(state: State) -> jnp.ndarray:
    """int32[FRAME]: the top frame (all zeros on an empty stack)."""
    return jnp.where(state.depth > 0, state.frames[jnp.maximum(state.depth - 1, 0)], 0)


def pop(state: State) -> State:
    """The state with its top frame removed."""
    return state._replace(depth=jnp.maximum(state.depth - 1, 0))


def push(state: State, frame: jnp.ndarray, when: jnp.ndarray | bool = True) -> State:
    """The state with ``frame`` (``int32[FRAME]``) pushed where ``when`` holds."""
    room = state.depth < DEPTH
    frames = state.frames.at[jnp.where(when & room, state.depth, DEPTH)].set(
        frame, mode="drop")
    return state._replace(frames=frames, depth=state.depth + jnp.where(when & room, 1, 0),
                          overflow=state.overflow | (when & ~room))


def frame(kind: str, player: Any, count: Any = 1, *ctx: Any) -> jnp.ndarray:
    """A frame of ``kind`` (``AUTO`` and ``CHANCE`` players are the Python codes)."""
    values = [jnp.int32(KIND[kind]), player, count, *ctx]
    values += [0] * (FRAME - len(values))
    return jnp.stack([jnp.asarray(v, jnp.int32) for v in values])


__all__ = ["AUTO", "CHANCE", "DEPTH", "FRAME", "KIND", "KINDS", "State", "differences",
           "frame", "from_python", "pop", "push", "top"]
