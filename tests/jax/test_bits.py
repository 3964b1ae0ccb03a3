"""Packed card sets (formosa_envs.jax.flowers.bits) and the packed-mask sampler (jax.sample)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from formosa_envs.jax.flowers import bits
from formosa_envs.jax.sample import sample_legal


def _random_masks(rows: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).random((rows, 54)) < 0.3


def test_pack_and_unpack_round_trip() -> None:
    masks = _random_masks(500, 0)
    words = bits.pack(masks)
    assert words.shape == (500, 2) and words.dtype == np.uint32
    assert np.array_equal(np.asarray(bits.unpack(jnp.asarray(words))), masks)
    floats = np.asarray(bits.unpack_floats(jnp.asarray(words)))
    assert floats.dtype == np.float32 and np.array_equal(floats, masks.astype(np.float32))
    with pytest.raises(ValueError, match="54 entries"):
        bits.pack(np.zeros(53, bool))


def test_counts_lowest_card_and_single_cards() -> None:
    masks = _random_masks(500, 1)
    masks[0] = False  # an empty set
    words = jnp.asarray(bits.pack(masks))
    assert np.array_equal(np.asarray(bits.count(words)), masks.sum(axis=1))
    assert np.array_equal(np.asarray(bits.nonempty(words)), masks.any(axis=1))
    lowest = np.where(masks.any(axis=1), masks.argmax(axis=1), 64)
    assert np.array_equal(np.asarray(bits.lowest(words)), lowest)
    ids = jnp.arange(-1, 54)
    singles = np.asarray(bits.unpack(bits.card_bits(ids)))
    assert not singles[0].any()  # -1: no card
    assert np.array_equal(singles[1:], np.eye(54, dtype=bool))


def test_union_of_chosen_cards() -> None:
    cards = jnp.array([0, 31, 32, 53, 7])
    chosen = jnp.array([[True, False, True, True, False], [False, True, False, False, True]])
    got = np.asarray(bits.unpack(bits.union_of(cards, chosen)))
    assert np.flatnonzero(got[0]).tolist() == [0, 32, 53]
    assert np.flatnonzero(got[1]).tolist() == [7, 31]


def test_sample_legal_takes_only_legal_actions_uniformly() -> None:
    rng = np.random.default_rng(2)
    masks = rng.random((4000, 111)) < 0.05
    masks[:, 110] |= rng.random(4000) < 0.5  # the last action, in the last word
    masks[:, 5] |= ~masks.any(axis=1)
    masks[0] = False  # no legal action: action 0
    masks[1] = False
    masks[1, 64] = True  # a single legal action
    got = np.asarray(jax.jit(sample_legal)(jax.random.PRNGKey(0), jnp.asarray(masks)))
    assert got[0] == 0 and got[1] == 64
    assert masks[np.arange(2, 4000), got[2:]].all()
    legal = np.zeros((60_000, 111), bool)
    legal[:, [3, 31, 32, 64, 110]] = True
    picks = np.asarray(jax.jit(sample_legal)(jax.random.PRNGKey(1), jnp.asarray(legal)))
    counts = np.bincount(picks, minlength=111)[[3, 31, 32, 64, 110]]
    assert counts.sum() == 60_000
    assert (np.abs(counts - 12_000) < 4 * np.sqrt(12_000 * 0.8)).all(), counts
