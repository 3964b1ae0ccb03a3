"""Uniform random legal actions for a batch of masks, in a handful of elementwise ops.

XLA on the CPU is slow at what the obvious samplers need for a 111-wide mask: Gumbel noise
for every action (``jax.random.categorical``: a threefry draw per action), or a running
count over the actions (a cumulative sum or a dot with a triangular matrix). Here each
row of the mask is packed into 32-bit words, one random integer per row picks the rank of
the legal action to take, the word holding it is found from the words' population counts,
and the bit inside the word by a five-step binary search on population counts. Every
legal action of a row is equally likely (the rank is uniform); a row with no legal action
gives action 0.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

_BIT = jnp.left_shift(jnp.uint32(1), jnp.arange(32, dtype=jnp.uint32))


def mask_words(mask: jnp.ndarray) -> jnp.ndarray:
    """uint32[B, ceil(A / 32)]: the rows of ``mask`` (bool[B, A]) as words, action ``a``
    in bit ``a % 32`` of word ``a // 32``."""
    b, a = mask.shape
    words = -(-a // 32)
    padded = jnp.pad(mask, ((0, 0), (0, words * 32 - a))).reshape(b, words, 32)
    return jnp.where(padded, _BIT, jnp.uint32(0)).sum(axis=2, dtype=jnp.uint32)


def nth_set_bit(word: jnp.ndarray, rank: jnp.ndarray) -> jnp.ndarray:
    """int32: the position of the ``rank``-th (from 0) set bit of each ``word``."""
    pos = jnp.zeros(rank.shape, jnp.int32)
    for width in (16, 8, 4, 2, 1):
        low = word & jnp.uint32((1 << width) - 1)
        below = lax.population_count(low).astype(jnp.int32)
        up = rank >= below
        word = jnp.where(up, word >> width, low)
        rank = jnp.where(up, rank - below, rank)
        pos = pos + jnp.where(up, width, 0)
    return pos


def sample_legal(key: jax.Array, mask: jnp.ndarray) -> jnp.ndarray:
    """int32[B]: a uniformly random legal action for each row of ``mask`` (bool[B, A])."""
    words = mask_words(mask)
    counts = lax.population_count(words).astype(jnp.int32)
    total = counts.sum(axis=1)
    rank = jax.random.randint(key, total.shape, 0, jnp.maximum(total, 1))
    before = jnp.zeros_like(rank)
    index, word, rank_in = jnp.zeros_like(rank), words[:, 0], rank
    for j in range(words.shape[1]):  # the word holding the rank-th legal action
        here = (rank >= before) & (rank < before + counts[:, j])
        index = jnp.where(here, j, index)
        word = jnp.where(here, words[:, j], word)
        rank_in = jnp.where(here, rank - before, rank_in)
        before = before + counts[:, j]
    return jnp.where(total > 0, index * 32 + nth_set_bit(word, rank_in), 0)


def sample_logits(key: jax.Array, logits: jnp.ndarray, mask: jnp.ndarray,
                  group: int = 16) -> jnp.ndarray:
    """int32[B]: an action per row drawn with probability ``softmax(logits)`` over the legal
    actions of ``mask`` (bool[B, A]), by inverting the cumulative distribution at one
    uniform number per row: the actions in groups of ``group``, the group found from the
    running total of the group sums, then the action inside it. (``jax.random.categorical``
    draws Gumbel noise for every action, several times slower on the CPU.) A row whose
    draw lands on an illegal action by rounding takes its most probable legal action; a
    row with no legal action gives action 0."""
    b, a = logits.shape
    weights = jnp.where(mask, jnp.exp(logits - jnp.max(jnp.where(mask, logits, -jnp.inf),
                                                       axis=1, keepdims=True)), 0.0)
    groups = -(-a // group)
    blocks = jnp.pad(weights, ((0, 0), (0, groups * group - a))).reshape(b, groups, group)
    sums = blocks.sum(axis=2)
    starts = [jnp.zeros(b, weights.dtype)]
    for g in range(groups):
        starts.append(starts[-1] + sums[:, g])
    point = jax.random.uniform(key, (b,), weights.dtype) * starts[-1]
    chosen = sum((point >= s).astype(jnp.int32) for s in starts[1:])
    chosen = jnp.minimum(chosen, groups - 1)
    inside, offset = blocks[:, 0], point - starts[0]
    for g in range(1, groups):
        inside = jnp.where((chosen == g)[:, None], blocks[:, g], inside)
        offset = jnp.where(chosen == g, point - starts[g], offset)
    running, index = jnp.zeros(b, weights.dtype), jnp.zeros(b, jnp.int32)
    for k in range(group - 1):
        running = running + inside[:, k]
        index = index + (offset >= running).astype(jnp.int32)
    action = chosen * group + index
    legal = jnp.take_along_axis(mask, jnp.minimum(action, a - 1)[:, None], axis=1)[:, 0]
    fallback = jnp.argmax(jnp.where(mask, logits, -jnp.inf), axis=1).astype(jnp.int32)
    return jnp.where(legal & (action < a), action, jnp.where(mask.any(axis=1), fallback, 0))
