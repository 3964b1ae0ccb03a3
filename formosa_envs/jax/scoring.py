"""Pile scoring on JAX: a few gathers into the tables of :mod:`.score_tables`.

:func:`score_pile` gives the same VP and the same completed ``(set, tier)`` pairs as
``FlowersGame.score_cards`` (the Python scorer), for any deck the tables accept.
The set pairs come back as a 12-bit mask (:data:`~.score_tables.KEY_BITS`), so "this
turn completed a new set" is ``after & ~before != 0``.
"""

from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from .score_tables import SHIFT, ScoreTables


class Scorer(NamedTuple):
    """The scoring tables as JAX arrays (fields as in :class:`ScoreTables`)."""

    card_row: jnp.ndarray
    card_class: jnp.ndarray
    plain: jnp.ndarray
    opt_uses: jnp.ndarray
    opt_shift: jnp.ndarray
    opt_const: jnp.ndarray
    opt_month: jnp.ndarray
    month_cards: jnp.ndarray


def make_scorer(tables: ScoreTables) -> Scorer:
    """The JAX form of numpy scoring tables."""
    return Scorer(*(jnp.asarray(getattr(tables, f)) for f in Scorer._fields))


def best_key(sc: Scorer, pile: jnp.ndarray) -> jnp.ndarray:
    """The packed key of a pile's best split (``pile``: bool[54]); int32 scalar."""
    x = pile.astype(jnp.int32)
    held = x @ sc.card_class
    row = x @ sc.card_row
    month_full = (x * sc.month_cards).sum() == 4
    valid = jnp.all(held[None, :] >= sc.opt_uses, axis=1) & (~sc.opt_month | month_full)
    rows = jnp.clip(row - sc.opt_shift, 0, sc.plain.shape[0] - 1)
    keys = jnp.where(valid, sc.plain[rows] + sc.opt_const, -1)
    return keys.max()


def decode_key(key: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    """``(vp, set mask)`` of a packed key."""
    vp = key >> SHIFT["vp"]
    night = (key >> SHIFT["night"]) & 3
    bird = (key >> SHIFT["bird"]) & 3
    sets = jnp.where(night > 0, 1 << (night - 1), 0) | jnp.where(bird > 0, 8 << (bird - 1), 0)
    flag_bits = ((SHIFT["treasure"], 7), (SHIFT["weather"], 8), (SHIFT["typhoon"], 9),
                 (SHIFT["month"], 10))
    for shift, bit in flag_bits:
        sets = sets | (((key >> shift) & 1) << bit)
    sets = sets | jnp.where(((key >> SHIFT["animal"]) & 63) > 0, 1 << 6, 0)
    sets = sets | jnp.where((key & 63) > 0, 1 << 11, 0)
    return vp.astype(jnp.int32), sets.astype(jnp.int32)


def score_pile(sc: Scorer, pile: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
    """``(vp, set mask)`` of the pile ``pile`` (bool[54]), as the Python scorer has them."""
    return decode_key(best_key(sc, pile))
