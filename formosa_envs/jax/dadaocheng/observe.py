"""The Dadaocheng observation vector on JAX, as the Python observer builds it
(:mod:`formosa_envs.games.dadaocheng.observer`), bit for bit.

The dense block (seat rows from the viewer round, storehouse, face-up ships, piles, this
turn's counters, the pending count) is gathered as raw integers and encoded by the Python
codec's own look-up table (:meth:`formosa_envs.core.observer.Codec.encode_flat`), so the
floats are the same bytes. The one-hot pieces (grid, storehouse spaces, sides, events,
round, decision, context, player count) are written from the same tables the Python memos
use. Raw values outside the table (``-128..255``) are clipped: no reachable quantity of the
game leaves it (prestige, the largest, stays far below 255).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax.numpy as jnp
import numpy as np

from formosa_envs.core.observer import TABLE_LOW, TABLE_SPAN
from formosa_envs.games.dadaocheng import observer as py

from .scoring import prestige
from .state import KIND, KINDS, State, top
from .tables import Tables

OFF = py.OFF
SIZE = py.LAYOUT.size
"""Floats per observation."""


class ObsTables(NamedTuple):
    """Per-configuration constants of the observation (a pytree)."""

    lookup: jnp.ndarray      # float32[columns * TABLE_SPAN]: the codec's encodings
    offsets: jnp.ndarray     # int32[columns]: each column's row in ``lookup``
    source: jnp.ndarray      # int32[columns]: the raw value each column encodes
    ship_rows: jnp.ndarray   # int32[ships + 1, 7]: raw ship features, the last row none
    cell_rows: jnp.ndarray   # float32[32, 16]: the grid row per disc and side up
    decision_of: jnp.ndarray  # int32[frame kinds]: index in the observer's KINDS, -1 none


def obs_tables(game: Any) -> ObsTables:
    """The observation tables of a Python ``DadaochengGame``."""
    codec = py.DENSE
    codec.encode_flat([0] * len(codec.features))  # builds the look-up table
    rows = py._ship_rows(game)
    ship_rows = np.array([rows[i] for i in range(len(game.ships))] + [rows[-1]], np.int32)
    decision_of = np.array([py.KIND_INDEX.get(kind, -1) for kind in KINDS], np.int32)
    return ObsTables(
        lookup=jnp.asarray(codec._lookup()),
        offsets=jnp.asarray(np.arange(codec.width, dtype=np.int32) * TABLE_SPAN + TABLE_LOW),
        source=jnp.asarray(codec._source.astype(np.int32)),
        ship_rows=jnp.asarray(ship_rows), cell_rows=jnp.asarray(py._cell_rows(game)),
        decision_of=jnp.asarray(decision_of))


def _seat_raw(t: Tables, s: State) -> jnp.ndarray:
    """int32[n, 20]: each seat's raw row, in seat order."""
    n = t.num_players
    seats = jnp.arange(n)
    owned = s.ship_owner[None, :] == seats[:, None]
    levels = (owned[:, :, None] & (t.ship_level[None, :, None] == jnp.arange(3))).sum(axis=1)
    flags = jnp.stack([jnp.ones(n, bool), seats == s.turn, seats == s.start_player], axis=1)
    return jnp.concatenate([flags.astype(jnp.int32), s.hand, s.credit[:, None],
                            s.opium[:, None], s.sign[:, None], levels.astype(jnp.int32),
                            s.buildings, prestige(t, s)[:, None]], axis=1)


def _dense_raw(t: Tables, ot: ObsTables, s: State, order: jnp.ndarray,
               count: jnp.ndarray) -> jnp.ndarray:
    """int32[features]: the dense block's raw values for the seats in ``order``."""
    seats = _seat_raw(t, s)[order]
    padding = jnp.zeros((py.S - t.num_players) * py.SEAT_RAW, jnp.int32)
    level_pool = (s.in_pool[None, :] & (t.ship_level[None, :] == jnp.arange(3)[:, None]))
    left = jnp.clip(jnp.minimum(level_pool.sum(axis=1), t.ships_per_level - s.revealed), 0)
    ships = ot.ship_rows[jnp.where(s.ship_up >= 0, s.ship_up, ot.ship_rows.shape[0] - 1)]
    return jnp.concatenate([seats.ravel(), padding, s.storehouse.ravel(), ships.ravel(),
                            left.astype(jnp.int32), s.piles, s.used, count[None]])


def _grid(ot: ObsTables, s: State) -> jnp.ndarray:
    """float32[256]: each cell's row for its disc and side up (zeros during setup)."""
    up = (s.sides >> jnp.arange(16)) & 1
    rows = ot.cell_rows[2 * jnp.maximum(s.cell_disc, 0) + up].ravel()
    return jnp.where((s.cell_disc >= 0).all(), rows, 0.0)


def _one_hots(t: Tables, ot: ObsTables, s: State, viewer: jnp.ndarray,
              rel: jnp.ndarray, f: jnp.ndarray, mine: jnp.ndarray) -> jnp.ndarray:
    """float32[SIZE]: the ones of the one-hot pieces."""
    n, vec = t.num_players, jnp.zeros(SIZE + 1, jnp.float32)
    drop = SIZE  # an index past the vector: a one that is not there
    sides = OFF["seat_sides"] + 4 * rel + t.sides_of
    vec = vec.at[sides].set(1.0)
    vec = vec.at[jnp.where(s.ship_up >= 0, OFF["ship_up"] + jnp.arange(3), drop)].set(1.0)
    shown = s.events >= 0
    event = jnp.maximum(s.events, 0)
    vec = vec.at[jnp.where(shown, OFF["events"] + 2 * event + 1, drop)].set(1.0)
    this_round = shown & (jnp.arange(s.events.shape[0]) + 1 == s.round)
    vec = vec.at[jnp.where(this_round, OFF["events"] + 2 * event, drop)].set(1.0)
    vec = vec.at[OFF["round"] + jnp.minimum(s.round, 10) - 1].set(1.0)
    vec = vec.at[OFF["players"] + n - 1].set(1.0)
    kind = ot.decision_of[f[0]]
    vec = vec.at[jnp.where(mine & (kind >= 0), OFF["decision"] + kind, drop)].set(1.0)
    swap = mine & (f[0] == KIND["swap_to"])
    vec = vec.at[jnp.where(swap, OFF["context"] + f[3], drop)].set(1.0)
    take = mine & (f[0] == KIND["take"]) & (f[3] >= 0)
    vec = vec.at[jnp.where(take, OFF["context"] + 16 + f[3], drop)].set(1.0)
    return _spaces(t, s, rel, vec)[:SIZE]


def _spaces(t: Tables, s: State, rel: jnp.ndarray, vec: jnp.ndarray) -> jnp.ndarray:
    """``vec`` with the storehouse spaces piece's ones: a Store, a covered side, the
    owner of the side (egocentric)."""
    space = jnp.arange(16)
    side = space // 4
    at = OFF["spaces"] + 6 * space
    owner_rel = jnp.full(4, -1, jnp.int32).at[t.sides_of].set(rel)[side]
    vec = vec.at[jnp.where(s.remodelled, at, SIZE)].set(1.0)
    covered = s.covered[side]
    vec = vec.at[jnp.where(covered, at + 1, SIZE)].set(1.0)
    owned = ~covered & (owner_rel >= 0)
    return vec.at[jnp.where(owned, at + 2 + owner_rel, SIZE)].set(1.0)


def observe(t: Tables, ot: ObsTables, s: State, viewer: jnp.ndarray) -> jnp.ndarray:
    """float32[SIZE]: the observation vector of seat ``viewer``."""
    n = t.num_players
    order = (viewer + jnp.arange(n)) % n
    rel = (jnp.arange(n) - viewer) % n
    f = top(s)
    mine = ~s.over & (s.depth > 0) & (f[1] == viewer)
    count = jnp.where(mine, f[2], 0)
    raw = jnp.clip(_dense_raw(t, ot, s, order, count), -TABLE_LOW, TABLE_SPAN - TABLE_LOW - 1)
    dense = ot.lookup[ot.offsets + raw[ot.source]]
    vec = _one_hots(t, ot, s, viewer, rel, f, mine)
    vec = vec.at[:py.DENSE_END].set(dense)
    return vec.at[py.DENSE_END:py.DENSE_END + py.GRID_SIZE].set(_grid(ot, s))


__all__ = ["SIZE", "ObsTables", "obs_tables", "observe"]
