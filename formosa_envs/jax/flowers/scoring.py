"""Pile scoring on JAX: a few gathers into the tables of :mod:`.score_tables`.

:func:`score_pile` gives the same VP and the same completed ``(set, tier)`` pairs as
``FlowersGame.score_cards`` (the Python scorer), for any deck the tables accept.
The set pairs come back as a 12-bit mask (:data:`~.score_tables.KEY_BITS`), so "this
turn completed a new set" is ``after & ~before != 0``.
"""

from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

from .bits import count, pack
from .score_tables import SHIFT, ScoreTables


class Scorer(NamedTuple):
    """The scoring tables as JAX arrays, card sets packed (:mod:`.bits`)."""

    class_cards: jnp.ndarray  # uint32[K, 2]: the cards of each code class
    class_row: jnp.ndarray    # int32[K]: a class card's weight in the plain-table row
    plain: jnp.ndarray
    opt_uses: jnp.ndarray
    opt_shift: jnp.ndarray
    opt_const: jnp.ndarray
    opt_month: jnp.ndarray
    month_cards: jnp.ndarray  # uint32[2]: the four cards of the current month (or none)


def make_scorer(tables: ScoreTables) -> Scorer:
    """The JAX form of numpy scoring tables (a class's cards share one row weight)."""
    in_class = tables.card_class.T.astype(bool)  # [K, 54]
    class_row = np.array([tables.card_row[row].max() for row in in_class], dtype=np.int32)
    if any(len(set(tables.card_row[row].tolist())) != 1 for row in in_class):
        raise ValueError("scoring tables: the cards of a class must share a row weight")
    rest = (getattr(tables, f) for f in Scorer._fields[2:-1])
    return Scorer(jnp.asarray(pack(in_class)), jnp.asarray(class_row),
                  *(jnp.asarray(t) for t in rest), jnp.asarray(pack(tables.month_cards)))


def best_key(sc: Scorer, pile: jnp.ndarray) -> jnp.ndarray:
    """The packed key of a pile's best split (``pile``: a card set, uint32[2]); int32."""
    held = count(pile & sc.class_cards)
    row = (held * sc.class_row).sum()
    month_full = count(pile & sc.month_cards) == 4
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
    """``(vp, set mask)`` of the pile ``pile`` (a card set, uint32[2]), as the Python
    scorer has them."""
    return decode_key(best_key(sc, pile))
