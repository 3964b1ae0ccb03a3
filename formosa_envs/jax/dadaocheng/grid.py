"""The Dadaocheng disc grid on JAX: showing colours, candidate lines, flips and whether a
cascade can still end, pure and vmap-able, with the Python grid
(:mod:`formosa_envs.games.dadaocheng.grid`) as the reference.

Codes are the Python engine's: cells ``4*row + col``, colours ``0..4`` (4 black), a *side
state* is an int whose bit ``c`` is set when the disc in cell ``c`` shows its back, and line
``12*o + 3*i + v`` (``o`` row/column, ``i`` its index, ``v`` cells 0-2 / 1-3 / 0-3). A grid's
discs are given by their ``faces``: ``int32[16, 2]``, the (sun, back) colour of the disc in
each cell.

**Can the cascade end?** A cascade flips one candidate line at a time; it is an infinite loop
when no sequence of choices reaches a state without a candidate (``seeds/dadaocheng.md``
DDC-6.2). The Python engine searches every side state reachable from the cascade's start.
Here :func:`can_end` searches forward from one state, breadth first, with a fixed-size queue;
distinct lines have distinct cell masks, so the (at most 8) successors of a state are distinct
and are queued together, and each state's successors are one look-up per row and column in a
table built from the faces (:func:`axis_table`). A short search (:data:`SHORT_QUEUE` states,
a state is new when it differs from every queued one) settles almost every state; where its
queue spills before it finds an end, a full search runs: membership in a bitmap of all 65,536
side states, and a ring of :data:`QUEUE_SIZE` slots for the frontier (the states found and
not yet expanded). It is exact as long as the frontier fits the ring, and
:func:`can_end_checked` says when it did not. How large a
reachable set gets was measured exhaustively over all 65,536 side states of sampled disc
arrangements (``benchmarks/dadaocheng_reach.py``): see ``docs/jax.md``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from formosa_envs.games.dadaocheng import grid as py

NUM_CELLS = py.NUM_CELLS
NUM_LINES = py.NUM_LINES
NO_LINE = -1
QUEUE_SIZE = 1024
"""The full search's frontier ring (4 KiB a grid): it holds the states found and not yet
expanded, a subset of the reachable set, whose largest found is 874 states
(``benchmarks/dadaocheng_reach.py``)."""
SHORT_QUEUE = 64
"""States the short search holds (membership by comparison with all of them)."""
BITMAP_WORDS = (1 << NUM_CELLS) // 32

AXES = np.array([py.LINES[3 * k + 2] for k in range(8)], dtype=np.int32)
"""int32[8, 4]: the cells of rows 0-3 then columns 0-3, in order along the line."""
LINE_MASKS = np.array([*py.LINE_MASKS, 0], dtype=np.int32)
"""int32[25]: each line's cell bits; index ``NO_LINE`` (the last) is 0."""
LINE_CELLS = np.array([(*cells, -1)[:4] for cells in py.LINES], dtype=np.int32)
"""int32[24, 4]: the cells of each line (-1 pads the lines of three)."""


def showing(faces: jnp.ndarray, sides: jnp.ndarray) -> jnp.ndarray:
    """int32[16]: the colour each cell shows, ``faces[cell, bit cell of sides]``."""
    backs = (sides >> jnp.arange(NUM_CELLS)) & 1
    return jnp.take_along_axis(faces, backs[:, None], axis=1)[:, 0]


def axis_lines(colours: jnp.ndarray) -> jnp.ndarray:
    """int32[8]: the candidate line of each row and column (``NO_LINE`` when none): its
    maximal run of 3 or 4 equal colours, a run of 4 being the length-4 line (DDC-5.1)."""
    a, b, c, d = (colours[AXES[:, n]] for n in range(4))
    middle = b == c
    first, last = middle & (a == b), middle & (c == d)
    span = jnp.where(first & last, 2, jnp.where(first, 0, jnp.where(last, 1, NO_LINE)))
    return jnp.where(span >= 0, 3 * jnp.arange(8) + span, NO_LINE)


def candidates(faces: jnp.ndarray, sides: jnp.ndarray) -> jnp.ndarray:
    """bool[24]: which lines are candidates in this side state (the Python
    :func:`~formosa_envs.games.dadaocheng.grid.candidates` as a mask)."""
    lines = axis_lines(showing(faces, sides))
    return (jnp.arange(NUM_LINES)[:, None] == lines[None, :]).any(axis=1)


def flip_line(sides: jnp.ndarray, line: jnp.ndarray) -> jnp.ndarray:
    """The side state with every disc of ``line`` flipped (DDC-5.8)."""
    return sides ^ jnp.asarray(LINE_MASKS)[line]


def successors(faces: jnp.ndarray, sides: jnp.ndarray) -> jnp.ndarray:
    """int32[8]: the state after collecting each axis's candidate line, -1 where the axis
    has none."""
    return _successors(axis_table(faces), sides)


def axis_table(faces: jnp.ndarray) -> jnp.ndarray:
    """int32[8, 16]: the candidate line (or ``NO_LINE``) of row/column ``k`` when its four
    side bits, in order along it, are ``p`` (a search then costs a look-up a state)."""
    backs = (jnp.arange(16)[:, None] >> jnp.arange(4)) & 1
    colours = faces[jnp.asarray(AXES)[:, None, :], backs[None, :, :]]
    a, b, c, d = (colours[..., n] for n in range(4))
    middle = b == c
    first, last = middle & (a == b), middle & (c == d)
    span = jnp.where(first & last, 2, jnp.where(first, 0, jnp.where(last, 1, NO_LINE)))
    return jnp.where(span >= 0, 3 * jnp.arange(8)[:, None] + span, NO_LINE)


def _successors(table: jnp.ndarray, sides: jnp.ndarray) -> jnp.ndarray:
    patterns = (((sides >> jnp.asarray(AXES)) & 1) << jnp.arange(4)).sum(axis=1)
    lines = table[jnp.arange(8), patterns]
    return jnp.where(lines >= 0, sides ^ jnp.asarray(LINE_MASKS)[lines], -1)


def _queue_new(queue: jnp.ndarray, tail: jnp.ndarray, nxt: jnp.ndarray,
               new: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]:
    """Append the ``new`` successors: (queue, tail, whether they did not all fit)."""
    size = queue.shape[0]
    slots = tail + jnp.cumsum(new) - 1
    queue = queue.at[jnp.where(new & (slots < size), slots, size)].set(nxt, mode="drop")
    tail_next = tail + new.sum()
    return queue, jnp.minimum(tail_next, size), tail_next > size


def _list_search(table: jnp.ndarray, sides: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    """The search with :data:`SHORT_QUEUE` states and membership by comparison with the
    queue: (found an end, overflowed)."""
    queue = jnp.full(SHORT_QUEUE, -1, jnp.int32).at[0].set(sides)

    def expand(carry: tuple) -> tuple:
        queue, head, tail, found, overflow = carry
        nxt = _successors(table, queue[head])
        new = (nxt >= 0) & ~(queue[None, :] == nxt[:, None]).any(axis=1)
        queue, tail, spilled = _queue_new(queue, tail, nxt, new)
        return queue, head + 1, tail, found | (nxt < 0).all(), overflow | spilled

    start = (queue, jnp.int32(0), jnp.int32(1), jnp.bool_(False), jnp.bool_(False))
    _, _, _, found, overflow = jax.lax.while_loop(_searching, expand, start)
    return found, overflow


def _has_bit(bitmap: jnp.ndarray, states: jnp.ndarray) -> jnp.ndarray:
    word = bitmap[jnp.maximum(states, 0) >> 5]
    return ((word >> (jnp.maximum(states, 0) & 31).astype(jnp.uint32)) & 1) == 1


def _set_bits(bitmap: jnp.ndarray, states: jnp.ndarray, new: jnp.ndarray) -> jnp.ndarray:
    """Set the bits of the ``new`` states (distinct and unset, so adding them is an or)."""
    bits = jnp.left_shift(jnp.uint32(1), (jnp.maximum(states, 0) & 31).astype(jnp.uint32))
    return bitmap.at[jnp.maximum(states, 0) >> 5].add(jnp.where(new, bits, jnp.uint32(0)))


def _bitmap_search(table: jnp.ndarray, sides: jnp.ndarray,
                   needed: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    """The search with a bitmap of all side states for membership and a ring of
    :data:`QUEUE_SIZE` slots for the states found but not yet expanded (the frontier: the
    queue never holds the expanded ones), run only where ``needed`` (elsewhere its loop
    makes no step): (found an end, the frontier overflowed)."""
    queue = jnp.zeros(QUEUE_SIZE, jnp.int32).at[0].set(sides)
    bitmap = _set_bits(jnp.zeros(BITMAP_WORDS, jnp.uint32), sides[None], jnp.ones(1, bool))

    def expand(carry: tuple) -> tuple:
        queue, head, tail, found, overflow, bitmap = carry
        nxt = _successors(table, queue[head % QUEUE_SIZE])
        new = (nxt >= 0) & ~_has_bit(bitmap, nxt)
        slots = (tail + jnp.cumsum(new) - 1) % QUEUE_SIZE
        queue = queue.at[jnp.where(new, slots, QUEUE_SIZE)].set(nxt, mode="drop")
        tail_next = tail + new.sum()
        spilled = tail_next - (head + 1) > QUEUE_SIZE
        return (queue, head + 1, tail_next, found | (nxt < 0).all(), overflow | spilled,
                _set_bits(bitmap, nxt, new))

    start = (queue, jnp.int32(0), jnp.where(needed, 1, 0).astype(jnp.int32), jnp.bool_(False),
             jnp.bool_(False), bitmap)
    _, _, _, found, overflow, _ = jax.lax.while_loop(_searching, expand, start)
    return found, overflow


def _searching(carry: tuple) -> jnp.ndarray:
    _, head, tail, found = carry[:4]
    return (head < tail) & ~found


def can_end_checked(faces: jnp.ndarray, sides: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    """(whether a cascade from ``sides`` can reach a state without candidate, whether the
    search queue overflowed: then the first answer may be a wrong False).

    Two searches: a short one (:data:`SHORT_QUEUE` states, membership by comparison), which
    settles almost every state; where it spilled without finding an end, the full one
    (:data:`QUEUE_SIZE` states and the bitmap). Under ``vmap`` the full search's loop makes
    no step unless some lane needs it."""
    sides = jnp.asarray(sides, jnp.int32)
    table = axis_table(faces)
    short_found, short_spilled = _list_search(table, sides)
    needed = short_spilled & ~short_found
    full_found, full_spilled = _bitmap_search(table, sides, needed)
    return jnp.where(needed, full_found, short_found), needed & full_spilled


def can_end(faces: jnp.ndarray, sides: jnp.ndarray) -> jnp.ndarray:
    """Whether a cascade from side state ``sides`` can still end (DDC-6.2): some sequence of
    line choices reaches a state without candidate (a state without one can end at once)."""
    return can_end_checked(faces, sides)[0]
