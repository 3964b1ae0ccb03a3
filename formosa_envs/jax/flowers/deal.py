"""Dealing a Formosa Flowers round on JAX (F-2.1): a uniform shuffle, hands, field, deck.

A round's shuffle decides every card it will see: its first ``deal_total`` cards are dealt
(to the hands in turn, then to the field) and the rest, in the same order, is the deck that
reveals draw from (``State.deck_order`` and ``State.deck_next``).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from formosa_envs.games.flowers.state import NUM_CARDS

from . import bits
from .rules import Ctx
from .state import PLAY, State


def shuffle_rows(key: jax.Array, rows: int) -> jnp.ndarray:
    """``rows`` independent, uniformly random orders of the 54 cards (int32[rows, 54]).

    Each row sorts random words tagged with the card ids in their low bits (much faster
    than ``jax.random.permutation`` on CPU), all rows from one draw of random bits; a row
    whose random parts tie is drawn again, so every order is exactly uniform."""
    ids = jnp.arange(NUM_CARDS, dtype=jnp.uint32)

    def draw(k: jax.Array) -> tuple[jnp.ndarray, jnp.ndarray]:
        words = jax.random.bits(k, (rows, NUM_CARDS), jnp.uint32)
        tagged = jnp.sort((words & ~jnp.uint32(63)) | ids, axis=1)
        tie = jnp.any((tagged[:, 1:] >> 6) == (tagged[:, :-1] >> 6), axis=1)
        return (tagged & 63).astype(jnp.int32), tie

    def again(carry: tuple) -> tuple:
        k, order, tie = carry
        k, sub = jax.random.split(k)
        fresh, fresh_tie = draw(sub)
        return k, jnp.where(tie[:, None], fresh, order), tie & fresh_tie

    key, sub = jax.random.split(key)
    return jax.lax.while_loop(lambda c: c[2].any(), again, (key, *draw(sub)))[1]


def shuffle(key: jax.Array) -> jnp.ndarray:
    """A uniformly random order of the 54 cards (int32[54])."""
    return shuffle_rows(key, 1)[0]


def lay_out(ctx: Ctx, round_start: jnp.ndarray, order: jnp.ndarray
            ) -> tuple[jnp.ndarray, jnp.ndarray]:
    """``(hands, field)`` dealt from the shuffle ``order`` (F-2.1): card ``order[k]`` goes
    to hand ``(round_start + k) % n`` while the hands fill, then to the field, as the
    Python engine deals its ``k``-th draw; the cards after ``deal_total`` are the deck."""
    n, in_hands = ctx.num_players, ctx.hand_size * ctx.num_players
    owner = (round_start + jnp.arange(in_hands)) % n
    hands = bits.union_of(order[:in_hands], owner[None, :] == jnp.arange(n)[:, None])
    to_field = order[in_hands:ctx.deal_total]
    field = bits.union_of(to_field, jnp.ones(to_field.shape, bool))
    return hands, field


def dealt_cards(ctx: Ctx, round_start: jnp.ndarray, key: jax.Array
                ) -> tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]:
    """A fresh deal from all 54 cards: ``(hands, field, order)``, ``order`` the whole
    shuffle (see :func:`lay_out`)."""
    order = shuffle(key)
    return (*lay_out(ctx, round_start, order), order)


def apply_deal(ctx: Ctx, s: State, do: jnp.ndarray, hands: jnp.ndarray,
               field: jnp.ndarray, order: jnp.ndarray) -> State:
    """When ``do``: lay out a deal and give the start player the first turn."""
    def sel(new: jnp.ndarray, old: jnp.ndarray) -> jnp.ndarray:
        return jnp.where(do, new, old)

    return s._replace(hands=sel(hands, s.hands), field=sel(field, s.field),
                      deck_order=sel(order, s.deck_order),
                      deck_next=sel(ctx.deal_total, s.deck_next),
                      turn=sel(s.round_start, s.turn), kind=sel(PLAY, s.kind),
                      captured=s.captured & ~do, pending=sel(-1, s.pending))


def deal(ctx: Ctx, s: State, do: jnp.ndarray, key: jax.Array) -> tuple[State, jnp.ndarray]:
    """When ``do``, deal a new round (:func:`dealt_cards`); returns the dealt cards in
    draw order (int32[deal_total])."""
    hands, field, order = dealt_cards(ctx, s.round_start, key)
    return apply_deal(ctx, s, do, hands, field, order), order[:ctx.deal_total]
