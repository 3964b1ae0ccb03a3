"""Stage 2 of a Dadaocheng turn on JAX: the collect-and-stock cascade with its loop checks,
pure and vmap-able, with the Python engine's ``cascade.py`` as the reference.

The cascade's data is a :class:`Cascade`: the side state, its history, the hands, the
storehouse and the storehouse signs. The grid's discs (``faces``), which sides nobody owns
(``covered``), the Store markers (``remodelled``) and the active player stay fixed during
Stage 2 and are passed beside it. :func:`run_cascade` applies the automatic steps until one
of three outcomes (``seeds/dadaocheng.md`` DDC-5, DDC-6):

* :data:`ENDED`: no candidate line is left;
* :data:`CHOOSE`: several candidates, the active player chooses (:func:`choose_line`, which
  collects that line and runs on);
* :data:`LOOPED`: an infinite loop, found before a choice (the cascade cannot end, DDC-6.2)
  or after an exhaustion (the grid repeats, DDC-6.3). Its first steps are applied: every
  storehouse space emptied, 1 yellow, 1 red and 1 green cube to the active player and a cube
  on their sign (DDC-6.4 steps 1, 3 and 4). The caller deals the new layout and asks for the
  chosen cubes (steps 2, 3's cube of any colour, and 5).

Every step flips a line, so the history holds distinct states reachable from its first one,
one per collection. :data:`HISTORY_SIZE` bounds it; :attr:`Cascade.overflow` says if it was
ever exceeded (a cascade that long has never been seen: the longest in play had 6 states).
A side state fits 16 bits, so the history is ``uint16``; its unused entries repeat its
first state (which the history holds anyway), so a look-up needs no length.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from formosa_envs.games.dadaocheng.content import GREEN, RED, YELLOW
from formosa_envs.games.dadaocheng.grid import LINES, NUM_LINES, stocked_spaces

from . import grid

ENDED, CHOOSE, LOOPED = 0, 1, 2
"""Outcomes of :func:`run_cascade`."""
HISTORY_SIZE = 1024
"""States a cascade's history holds (each one a collection the active player chose or was
forced to: the longest seen in play is 6)."""
HISTORY_DTYPE = jnp.uint16
"""The history's entries: a side state (one bit per cell) fits 16 bits."""
CORRUPTION = 3
"""A storehouse space holding this many cubes is emptied (corruption, R-10)."""

LINE_LENGTH = np.array([len(cells) for cells in LINES], dtype=np.int32)
FIRST_CELL = np.array([cells[0] for cells in LINES], dtype=np.int32)
STOCKED = np.zeros((NUM_LINES, 16), dtype=bool)
"""bool[24, 16]: the storehouse spaces (``4*side + k``) each line stocks (DDC-5.6)."""
for _line in range(NUM_LINES):
    for _side, _k in stocked_spaces(_line):
        STOCKED[_line, 4 * _side + _k] = True
LOOP_CUBES = np.zeros(5, dtype=np.int32)
LOOP_CUBES[[YELLOW, RED, GREEN]] = 1


class Cascade(NamedTuple):
    """The data Stage 2 changes (a pytree; a batch has a leading axis on every field)."""

    sides: jnp.ndarray        # int32: bit c set when the disc in cell c shows its back
    history: jnp.ndarray      # uint16[HISTORY_SIZE]: this cascade's states, padded with
                              # the first
    length: jnp.ndarray       # int32: states in the history
    hand: jnp.ndarray         # int32[players, 5]: cubes per colour
    storehouse: jnp.ndarray   # int32[16, 5]: cubes per space and colour
    sign: jnp.ndarray         # int32[players]: loop cubes on each storehouse sign
    overflow: jnp.ndarray     # bool: a search queue or the history ran out of room


def start_cascade(sides: jnp.ndarray, hand: jnp.ndarray, storehouse: jnp.ndarray,
                  sign: jnp.ndarray) -> Cascade:
    """The cascade after planning: its history is the grid's state alone (DDC-6.1)."""
    sides = jnp.asarray(sides, jnp.int32)
    history = jnp.full(HISTORY_SIZE, sides, HISTORY_DTYPE)
    return Cascade(sides, history, jnp.int32(1), jnp.asarray(hand, jnp.int32),
                   jnp.asarray(storehouse, jnp.int32), jnp.asarray(sign, jnp.int32),
                   jnp.bool_(False))


def collect(c: Cascade, faces: jnp.ndarray, covered: jnp.ndarray, remodelled: jnp.ndarray,
            turn: jnp.ndarray, line: jnp.ndarray) -> tuple[Cascade, jnp.ndarray]:
    """Collect ``line`` (DDC-5.5-5.9): its colour's cubes to the active player (2 for a
    line of four), one to each uncovered, unremodelled space it stocks, corruption, the
    line's discs flipped; returns the cascade and whether the new state repeats one of the
    history (an infinite loop, DDC-6.3; the state is not added then)."""
    colour = grid.showing(faces, c.sides)[jnp.asarray(FIRST_CELL)[line]]
    gain = jnp.where(jnp.asarray(LINE_LENGTH)[line] == 4, 2, 1)
    hand = c.hand.at[turn, colour].add(gain)
    spaces = jnp.asarray(STOCKED)[line] & ~jnp.repeat(covered, 4) & ~remodelled
    storehouse = c.storehouse.at[:, colour].add(spaces.astype(jnp.int32))
    corrupt = storehouse.sum(axis=1) >= CORRUPTION
    storehouse = jnp.where(corrupt[:, None], 0, storehouse)
    sides = grid.flip_line(c.sides, line)
    repeated = (c.history == sides.astype(HISTORY_DTYPE)).any()
    room = c.length < HISTORY_SIZE
    history = c.history.at[jnp.where(repeated | ~room, HISTORY_SIZE, c.length)].set(
        sides.astype(HISTORY_DTYPE), mode="drop")
    length = c.length + jnp.where(repeated | ~room, 0, 1)
    return c._replace(sides=sides, history=history, length=length, hand=hand,
                      storehouse=storehouse, overflow=c.overflow | (~repeated & ~room)), repeated


def loop_reward(c: Cascade, turn: jnp.ndarray) -> Cascade:
    """DDC-6.4 steps 1, 3 (the fixed cubes) and 4: storehouses emptied, yellow, red and
    green to the active player, a cube on their sign."""
    return c._replace(storehouse=jnp.zeros_like(c.storehouse),
                      hand=c.hand.at[turn].add(jnp.asarray(LOOP_CUBES)),
                      sign=c.sign.at[turn].add(1))


def run_cascade(c: Cascade, faces: jnp.ndarray, covered: jnp.ndarray,
                remodelled: jnp.ndarray, turn: jnp.ndarray) -> tuple[Cascade, jnp.ndarray]:
    """The automatic steps from ``c`` until the cascade ends, needs a choice or loops
    (returns the cascade and :data:`ENDED`, :data:`CHOOSE` or :data:`LOOPED`)."""

    def outcome(c: Cascade) -> tuple[jnp.ndarray, ...]:
        """(no candidate, the cascade cannot end, the single candidate or -1, whether the
        search's queue overflowed)."""
        lines = grid.candidates(faces, c.sides)
        count = lines.sum()
        found, spilled = grid.can_end_checked(faces, c.sides)
        single = jnp.where(count == 1, jnp.argmax(lines), -1)
        return count == 0, (count > 0) & ~found, single, spilled

    def going(carry: tuple) -> jnp.ndarray:
        return carry[1] < 0

    def step(carry: tuple) -> tuple:
        c = carry[0]
        ended, stuck, single, spilled = outcome(c)
        c = c._replace(overflow=c.overflow | spilled)
        collected, repeated = collect(c, faces, covered, remodelled, turn, jnp.maximum(single, 0))
        take = ~ended & ~stuck & (single >= 0)
        c = jax.tree.map(lambda new, old: jnp.where(take, new, old), collected, c)
        looped = stuck | (take & repeated)
        status = jnp.where(ended, ENDED, jnp.where(looped, LOOPED,
                                                    jnp.where(take, -1, CHOOSE)))
        return c, status

    c, status = jax.lax.while_loop(going, step, (c, jnp.int32(-1)))
    c = jax.tree.map(lambda new, old: jnp.where(status == LOOPED, new, old),
                     loop_reward(c, turn), c)
    return c, status


def choose_line(c: Cascade, faces: jnp.ndarray, covered: jnp.ndarray, remodelled: jnp.ndarray,
                turn: jnp.ndarray, line: jnp.ndarray) -> tuple[Cascade, jnp.ndarray]:
    """The active player's choice of candidate ``line``: collect it, then run on
    (:func:`run_cascade`'s outcomes; a repeated state loops at once)."""
    collected, repeated = collect(c, faces, covered, remodelled, turn, line)
    after, status = run_cascade(collected, faces, covered, remodelled, turn)
    looped = loop_reward(collected, turn)
    c = jax.tree.map(lambda a, b: jnp.where(repeated, a, b), looped, after)
    return c, jnp.where(repeated, LOOPED, status)
