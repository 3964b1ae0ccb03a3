"""Observation and legal-action mask of the JAX engine (as ``FlowersObserver`` builds them).

The vector follows ``formosa_envs.games.flowers.observer.LAYOUT`` piece by piece: own
hand, field, egocentric piles (padded to 4 seats), pending card, decision kind, seat
rows, globals, current month and player count. Encoded numbers come from the lookup
tables of :mod:`.tables`, so the floats are the Python observer's, bit for bit.
"""

from __future__ import annotations

import jax.numpy as jnp

from formosa_envs.games.flowers.actions import NUM_ACTIONS
from formosa_envs.games.flowers.config import MAX_PLAYERS
from formosa_envs.games.flowers.state import NUM_CARDS

from . import bits
from .rules import NONE, Ctx, match_info, seat_cards
from .state import CAPTURE_PLAYED, CAPTURE_REVEALED, KEEP_OR_CASH, OVER, PLAY, State
from .tables import ROUND_ROWS, SCORE_ROWS, VP_ROWS, ObsTables


def _pad_rows(rows: jnp.ndarray) -> jnp.ndarray:
    """Pad a per-seat block to MAX_PLAYERS rows with zeros."""
    extra = MAX_PLAYERS - rows.shape[0]
    return jnp.concatenate([rows, jnp.zeros((extra, rows.shape[1]), rows.dtype)])


def from_viewer(rows: jnp.ndarray, viewer: jnp.ndarray) -> jnp.ndarray:
    """``rows`` (one per seat) starting at ``viewer`` and going round the table: a select
    among the ``n`` static rotations (cheaper than a gather per game on the CPU)."""
    n = rows.shape[0]
    out = rows
    for k in range(1, n):
        out = jnp.where(viewer == k, jnp.roll(rows, -k, axis=0), out)
    return out


def _seat_rows(ot: ObsTables, s: State) -> jnp.ndarray:
    """float32[n, 10]: the seat features of each seat, in seat order."""
    seats = jnp.arange(s.scores.shape[0])
    turn = jnp.where(s.kind == OVER, -1, s.turn)
    flags = jnp.stack([jnp.ones(seats.shape, bool), seats == turn, seats == s.round_start,
                       s.cashed], axis=1).astype(jnp.float32)
    vp = ot.set_vp[jnp.clip(s.pile_vp, 0, VP_ROWS - 1)]
    score = ot.score[jnp.clip(s.scores, 0, SCORE_ROWS - 1)]
    hand = ot.hand[jnp.clip(bits.count(s.hands), 0, ot.hand.shape[0] - 1)]
    return jnp.concatenate([flags, ot.tokens[s.tokens][:, None], vp, score,
                            hand[:, None]], axis=1)


def observe(ctx: Ctx, ot: ObsTables, s: State, viewer: jnp.ndarray) -> jnp.ndarray:
    """The observation vector of seat ``viewer`` (float32[442])."""
    own = seat_cards(ctx, s.hands, viewer)
    pending = bits.card_bits(s.pending)
    # own hand, field, piles from the viewer round (padded to 4 seats), pending card
    sets = jnp.concatenate([own[None], s.field[None], _pad_rows(from_viewer(s.piles, viewer)),
                            pending[None]])
    cards = bits.unpack_floats(sets).ravel()
    decision = (jnp.arange(4) == s.kind) & (s.kind != OVER) & (s.turn == viewer)
    glob = jnp.stack([ot.deck[NUM_CARDS - s.deck_next], ot.supply[s.supply],
                      ot.round[jnp.clip(s.round, 0, ROUND_ROWS - 1)], ot.threshold])
    parts = [cards, decision.astype(jnp.float32),
             _pad_rows(from_viewer(_seat_rows(ot, s), viewer)).ravel(), glob, ot.tail]
    return jnp.concatenate(parts)


def legal_mask(ctx: Ctx, s: State) -> jnp.ndarray:
    """bool[111]: the legal actions of the pending decision (none once the game is over)."""
    play = jnp.where(s.kind == PLAY, seat_cards(ctx, s.hands, s.turn), NONE)
    choosing = (s.kind == CAPTURE_PLAYED) | (s.kind == CAPTURE_REVEALED)
    targets, _, leave = match_info(ctx, s.field, s.pending)
    cards = bits.unpack(jnp.stack([play, jnp.where(choosing, targets, NONE)])).ravel()
    koc = s.kind == KEEP_OR_CASH
    mask = jnp.concatenate([cards, jnp.stack([leave & choosing, koc, koc])])
    assert mask.shape == (NUM_ACTIONS,)  # static: checked once, at trace time
    return mask
