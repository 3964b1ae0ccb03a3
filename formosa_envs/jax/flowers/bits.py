"""Card sets as bits: the JAX engine keeps every set of cards in two ``uint32`` words.

Card ``c`` (0..53) is bit ``c % 32`` of word ``c // 32``, so a set is a ``uint32[2]``
array (a batch of sets: ``uint32[..., 2]``). Union, intersection and removal are one
bitwise operation on two words instead of one on 54 booleans, a count is a population
count, and the lowest card of a set is a trailing-zero count. :func:`unpack` gives the
54 booleans back where the observation or the legal mask shows the cards one by one.
Distinct cards are distinct powers of two, so summing the bits of distinct cards is
their union (used to build a set from a list of cards).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from formosa_envs.games.flowers.state import NUM_CARDS

WORDS = 2
"""Words per card set (54 cards, 32 bits a word)."""
_SHIFTS = np.arange(32, dtype=np.uint32)
_ONE = np.uint32(0x3F800000)


def card_bits(card: jnp.ndarray) -> jnp.ndarray:
    """The set holding card ``card`` alone (``uint32[..., 2]``); empty for a negative id."""
    card = jnp.asarray(card, jnp.int32)
    bit = jnp.left_shift(jnp.uint32(1), (card & 31).astype(jnp.uint32))
    word = jnp.arange(WORDS) == (card >> 5)[..., None]
    return jnp.where(word & (card >= 0)[..., None], bit[..., None], jnp.uint32(0))


def count(cards: jnp.ndarray) -> jnp.ndarray:
    """int32[...]: the number of cards in each set of ``cards`` (``uint32[..., 2]``)."""
    return jax.lax.population_count(cards).astype(jnp.int32).sum(axis=-1)


def nonempty(cards: jnp.ndarray) -> jnp.ndarray:
    """bool[...]: whether each set holds a card."""
    return (cards[..., 0] | cards[..., 1]) != 0


def lowest(cards: jnp.ndarray) -> jnp.ndarray:
    """int32[...]: the lowest card id in each set (64 for an empty set)."""
    def trailing_zeros(word: jnp.ndarray) -> jnp.ndarray:
        return jax.lax.population_count(~word & (word - jnp.uint32(1))).astype(jnp.int32)

    low, high = cards[..., 0], cards[..., 1]
    return jnp.where(low != 0, trailing_zeros(low), 32 + trailing_zeros(high))


def union_of(cards: jnp.ndarray, chosen: jnp.ndarray) -> jnp.ndarray:
    """The set of the cards ``cards[k]`` (distinct ids, ``int32[K]``) where ``chosen[..., k]``;
    ``chosen``: bool[..., K]. Returns ``uint32[..., 2]``."""
    one = card_bits(cards)  # [K, 2]
    return jnp.where(chosen[..., None], one, jnp.uint32(0)).sum(axis=-2, dtype=jnp.uint32)


def unpack(cards: jnp.ndarray) -> jnp.ndarray:
    """bool[..., 54]: the sets as masks over the card ids."""
    flags = (cards[..., None] >> _SHIFTS) & jnp.uint32(1)
    return flags.reshape(cards.shape[:-1] + (WORDS * 32,))[..., :NUM_CARDS] != 0


def unpack_floats(cards: jnp.ndarray) -> jnp.ndarray:
    """float32[..., 54]: the sets as 0/1 floats over the card ids (as ``unpack``, but the
    float bits are made directly: ``1.0`` is the word ``0x3F800000``)."""
    def floats(word: jnp.ndarray, width: int) -> jnp.ndarray:
        flags = (word[..., None] >> _SHIFTS[:width]) & jnp.uint32(1)
        return jax.lax.bitcast_convert_type(flags * _ONE, jnp.float32)

    return jnp.concatenate([floats(cards[..., 0], 32), floats(cards[..., 1], NUM_CARDS - 32)],
                           axis=-1)


def pack(mask: np.ndarray) -> np.ndarray:
    """numpy ``uint32[..., 2]`` of bool masks ``mask[..., 54]`` (the tables are built with it;
    also for tests and callers holding masks)."""
    mask = np.asarray(mask, dtype=bool)
    if mask.shape[-1] != NUM_CARDS:
        raise ValueError(f"a card mask has {NUM_CARDS} entries, got shape {mask.shape}")
    padded = np.zeros(mask.shape[:-1] + (WORDS * 32,), dtype=np.uint64)
    padded[..., :NUM_CARDS] = mask
    weights = np.uint64(1) << np.arange(32, dtype=np.uint64)
    words = (padded.reshape(mask.shape[:-1] + (WORDS, 32)) * weights).sum(axis=-1)
    return words.astype(np.uint32)
