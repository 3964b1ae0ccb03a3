"""Dadaocheng scoring on JAX (DDC-13, DDC-14): prestige, the ranking and the returns, the
Python ``game.prestige``, ``ranking_keys`` and ``returns`` with arrays."""

from __future__ import annotations

import jax.numpy as jnp

from formosa_envs.games.dadaocheng.content import DEN, MANSION, WORKSHOP
from formosa_envs.games.dadaocheng.scoring import MANSION_SETS

from .state import State
from .tables import EVENT, Tables

SOLO_CHALLENGES = (None, "ships", "buildings", "hand2")


def prestige(t: Tables, s: State) -> jnp.ndarray:
    """int32[n]: each player's prestige if the game ended now (DDC-13)."""
    n = t.num_players
    seats = jnp.arange(n)
    owned = s.ship_owner[None, :] == seats[:, None]
    ships = (owned * t.ship_prestige[None, :]).sum(axis=1)
    b = s.buildings
    others = (b[:, 1:] * t.building_prestige[None, 1:]).sum(axis=1)
    mansions = 39 * (b[:, MANSION] // 6) + jnp.asarray(MANSION_SETS)[b[:, MANSION] % 6]
    total_opium = s.opium.sum()
    den = jnp.where(total_opium > 0, -(-total_opium // n), 0)
    cards = b.sum(axis=1)
    e1920 = ((s.events >= 0)
             & (t.event_key[jnp.maximum(s.events, 0)] == EVENT["e1920"])).any()
    bonus = jnp.where(e1920 & (cards.max() > 0) & (cards == cards.max()), 5, 0)
    return (ships + others + mansions + s.credit // 5 - s.opium - b[:, DEN] * den
            + 3 * s.sign + bonus)


def returns(t: Tables, s: State, solo_target: int, solo_challenge: str | None) -> jnp.ndarray:
    """float32[n]: the rank returns of a finished game (zero before the end): by (prestige,
    credit), each seat the mean over opponents of +1 above, 0 tied, -1 below; solo: +1 when
    the objective (and the challenge) is met, else -1 (DDC-13.9, DDC-14.9)."""
    score = prestige(t, s)
    if t.num_players == 1:
        won = (score[0] >= solo_target) & challenge_met(t, s, solo_challenge)
        out = jnp.where(won, 1.0, -1.0)[None]
    else:
        above = (score[:, None] > score[None, :]) | (
            (score[:, None] == score[None, :]) & (s.credit[:, None] > s.credit[None, :]))
        sign = above.astype(jnp.float32) - above.T.astype(jnp.float32)
        out = sign.sum(axis=1) / (t.num_players - 1)
    return jnp.where(s.over, out, 0.0).astype(jnp.float32)


def challenge_met(t: Tables, s: State, challenge: str | None) -> jnp.ndarray:
    """Whether the solo challenge's condition holds (no challenge: always)."""
    if challenge == "ships":
        level3 = ((s.ship_owner == 0) & (t.ship_level == 2)).sum()
        return (level3 == t.ships_per_level) & (s.buildings[0, WORKSHOP] == 0)
    if challenge == "buildings":
        return (s.piles[:4] == 0).all()
    return jnp.bool_(True)
