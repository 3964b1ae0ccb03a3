"""A Dadaocheng disc layout dealt on JAX: exactly the Python setup's distribution (DDC-2.2,
DDC-2.3, R-5, R-6), drawn in one step from a key.

The Python engine places the discs cell by cell as chance events (corners first, then the
12 other cells in :data:`~formosa_envs.games.dadaocheng.layouts.NON_CORNER` order), with odds
that make every valid arrangement of the discs equally likely
(:mod:`formosa_envs.games.dadaocheng.layouts`). Every valid colour layout has the same number
of disc arrangements, so a uniform arrangement is: the four opium discs in the corners in a
uniformly random order; a uniformly random valid colour layout of the other 12 cells (an
index into the setup's table of them, :class:`LayoutTables`); and the discs of each colour in
a uniformly random order over the cells of that colour. :func:`deal_layout` draws exactly
that, and ``cell_disc[cell]`` lists the discs in the order the Python chance nodes take
them, so a parity harness can feed them to the Python engine.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from formosa_envs.games.dadaocheng.grid import CORNERS, NUM_CELLS
from formosa_envs.games.dadaocheng.layouts import BASE, NON_CORNER, LayoutTable

BLACK = 4


class LayoutTables(NamedTuple):
    """What :func:`deal_layout` draws from (a pytree of constant arrays)."""

    codes: jnp.ndarray          # int32[L]: the valid colour layouts, base 5, first cell first
    discs: jnp.ndarray          # int32[12]: the commodity disc ids, by sun colour
    disc_colours: jnp.ndarray   # int32[12]: their sun colours, ascending
    corner_discs: jnp.ndarray   # int32[4]: the opium discs (sun side black)


def layout_tables(table: LayoutTable, disc_faces: tuple[tuple[int, int], ...]) -> LayoutTables:
    """The tables of one game: its setup's :class:`LayoutTable` (solo or multiplayer
    condition) and its discs' (sun, back) colours, indexed by disc id."""
    suns = np.array([faces[0] for faces in disc_faces])
    commodity = np.flatnonzero(suns != BLACK)
    commodity = commodity[np.argsort(suns[commodity], kind="stable")]
    return LayoutTables(jnp.asarray(table.codes.astype(np.int32)),
                        jnp.asarray(commodity.astype(np.int32)),
                        jnp.asarray(suns[commodity].astype(np.int32)),
                        jnp.asarray(np.flatnonzero(suns == BLACK).astype(np.int32)))


def layout_colours(tables: LayoutTables, index: jnp.ndarray) -> jnp.ndarray:
    """int32[12]: the sun colours of valid layout ``index``, in ``NON_CORNER`` order."""
    powers = BASE ** jnp.arange(len(NON_CORNER) - 1, -1, -1)
    return (tables.codes[index] // powers) % BASE


def deal_layout(key: jax.Array, tables: LayoutTables) -> jnp.ndarray:
    """int32[16]: the disc in each cell of a uniformly random valid arrangement."""
    corner_key, layout_key, order_key = jax.random.split(key, 3)
    corners = jax.random.permutation(corner_key, tables.corner_discs)
    colours = layout_colours(tables, jax.random.randint(layout_key, (), 0,
                                                        tables.codes.shape[0]))
    shuffle = jax.random.uniform(order_key, (len(NON_CORNER),))
    disc_order = jnp.argsort(tables.disc_colours + shuffle)  # by colour, random within one
    cell_order = jnp.argsort(colours * NUM_CELLS + jnp.arange(len(NON_CORNER)))
    placed = jnp.zeros(len(NON_CORNER), jnp.int32).at[cell_order].set(
        tables.discs[disc_order])
    cell_disc = jnp.zeros(NUM_CELLS, jnp.int32).at[jnp.asarray(NON_CORNER)].set(placed)
    return cell_disc.at[jnp.asarray(CORNERS)].set(corners)
