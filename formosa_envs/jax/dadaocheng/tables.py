"""The constant tables of one Dadaocheng configuration, read from the Python game: disc
faces, ship and building cards, Temple die faces, event ids, seat sides, limits. The JAX
rules read them as arrays (a pytree) and a few plain ints."""

from __future__ import annotations

from typing import Any, NamedTuple

import jax.numpy as jnp
import numpy as np

from formosa_envs.games.dadaocheng.state import ROUNDS

from .layout import LayoutTables, layout_tables

EVENT_KEYS = ("e1851", "e1853", "e1859", "e1860", "e1865", "e1878", "e1884", "e1891",
              "e1895", "e1898", "e1905", "e1908", "e1915", "e1920")
"""The events by key; :class:`Tables` maps each event id to its index here."""
EVENT = {key: code for code, key in enumerate(EVENT_KEYS)}


class Tables(NamedTuple):
    """One configuration's constants (arrays) and sizes (ints)."""

    disc_faces: jnp.ndarray       # int32[16, 2]: (sun, back) colour per disc id
    ship_cost: jnp.ndarray        # int32[ships, 4]: red, white, green, yellow
    ship_required: jnp.ndarray    # int32[ships]: credit needed to buy it
    ship_credit: jnp.ndarray      # int32[ships]
    ship_level: jnp.ndarray       # int32[ships]: 0, 1 or 2
    ship_prestige: jnp.ndarray    # int32[ships]
    building_cost: jnp.ndarray    # int32[5, 4]
    building_prestige: jnp.ndarray  # int32[5]
    temple: jnp.ndarray           # int32[6]: the colour each die face gives, 5 = any
    event_key: jnp.ndarray        # int32[events]: each event id's index in EVENT_KEYS
    sides_of: jnp.ndarray         # int32[n]: the side each seat owns
    layouts: LayoutTables
    num_players: int
    hand_limit: int
    ships_per_level: int
    rounds: int
    chronological_events: bool
    first_event: int              # the id of 1851 (revealed at setup with 2+ players)


def build_tables(game: Any) -> Tables:
    """The tables of a Python :class:`~formosa_envs.games.dadaocheng.game.DadaochengGame`."""
    i32 = np.int32
    ships = game.ships
    return Tables(
        disc_faces=jnp.asarray(np.array(game.disc_faces, i32)),
        ship_cost=jnp.asarray(np.array([s.cost for s in ships], i32)),
        ship_required=jnp.asarray(np.array([s.required for s in ships], i32)),
        ship_credit=jnp.asarray(np.array([s.credit for s in ships], i32)),
        ship_level=jnp.asarray(np.array([s.level - 1 for s in ships], i32)),
        ship_prestige=jnp.asarray(np.array(game.ship_prestige, i32)),
        building_cost=jnp.asarray(np.array(game.building_costs, i32)),
        building_prestige=jnp.asarray(np.array(game.building_prestige, i32)),
        temple=jnp.asarray(np.array(game.temple, i32)),
        event_key=jnp.asarray(np.array([EVENT[e.key] for e in game.events], i32)),
        sides_of=jnp.asarray(np.array(game.sides, i32)),
        layouts=layout_tables(game.layout_table, game.disc_faces),
        num_players=game.num_players, hand_limit=game.hand_limit,
        ships_per_level=game.ships_per_level, rounds=ROUNDS[game.num_players],
        chronological_events=bool(game.config.chronological_events),
        first_event=int(game.event_index["e1851"]))
