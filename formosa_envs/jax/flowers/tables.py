"""Constant tables of the JAX engine: card matching and observation encodings.

Built once per configuration with numpy from the same objects the Python engine
uses (the card list, the observer's codecs), then closed over by the jitted
functions. Observation encodings are lookup tables filled by the Python
:class:`~formosa_envs.core.observer.Codec` itself, so every float matches the Python
observation bit for bit (the codec computes in float64 and casts once; recomputing
that in float32 would not round the same way).
"""

from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

from formosa_envs.core.observer import Codec
from formosa_envs.games.flowers import observer
from formosa_envs.games.flowers.cards import Card
from formosa_envs.games.flowers.config import FlowersConfig
from formosa_envs.games.flowers.state import MAX_TOKENS_PER_PLAYER, NUM_CARDS, TOKEN_SUPPLY

from .bits import pack

SCORE_ROWS = 2048
"""Encoded score values 0..2047 (a score stays below target VP + 8 x 127 <= 1136)."""
ROUND_ROWS = 8192
"""Encoded rounds 1..8191 (a round takes at least one decision; the env stops at 4000)."""
VP_ROWS = 128
"""Encoded set VP values (a pile scores below 128 VP: the packed key's limit)."""


class CardTables(NamedTuple):
    """Which cards match which, as card sets (:mod:`.bits`), by card id."""

    match: jnp.ndarray      # uint32[54, 2]: the other cards sharing a month
    month_a: jnp.ndarray    # uint32[54, 2]: the cards bearing the card's first month
    month_b: jnp.ndarray    # uint32[54, 2]: ... its second month (the first for a single card)
    wild: jnp.ndarray       # bool[54]


class ObsTables(NamedTuple):
    """Encoded columns of every quantity the observation shows, by raw value."""

    tokens: jnp.ndarray     # f32[4]
    set_vp: jnp.ndarray     # f32[VP_ROWS, 2]
    score: jnp.ndarray      # f32[SCORE_ROWS, 2]
    hand: jnp.ndarray       # f32[9]
    deck: jnp.ndarray       # f32[55]
    supply: jnp.ndarray     # f32[10]
    round: jnp.ndarray      # f32[ROUND_ROWS]
    threshold: jnp.ndarray  # f32 scalar
    tail: jnp.ndarray       # f32[16]: the constant current-month and player-count pieces


def card_tables(cards: tuple[Card, ...]) -> CardTables:
    """Matching tables of a deck (as ``FlowersGame.match_mask`` and ``may_leave``)."""
    months = np.zeros((NUM_CARDS, 12), dtype=bool)
    for card in cards:
        months[card.id, [m - 1 for m in card.months]] = True
    match = (months.astype(np.int32) @ months.T.astype(np.int32)) > 0
    np.fill_diagonal(match, False)
    bearing = months.T  # [12, 54]: the cards of each month
    first = bearing[[c.months[0] - 1 for c in cards]]
    second = bearing[[c.months[-1] - 1 for c in cards]]
    wild = np.array([c.is_wild for c in cards])
    return CardTables(*(jnp.asarray(pack(t)) for t in (match, first, second)),
                      jnp.asarray(wild))


def _columns(codec: Codec, feature: str, values: np.ndarray) -> np.ndarray:
    """The encoded columns of one feature of ``codec`` for each of ``values``."""
    names = [f.name for f in codec.features]
    raw = np.zeros((len(values), len(names)))
    raw[:, names.index(feature)] = values
    cols = [i for i, src in enumerate(codec._source) if names[src] == feature]
    return codec.encode(raw)[:, cols]


def obs_tables(config: FlowersConfig) -> ObsTables:
    """The observation's encoding tables for ``config`` (target VP, threshold, variant)."""
    seats = Codec(observer.seat_features(config.target_vp))
    glob = observer.GLOBALS

    def seat(name: str, rows: int) -> np.ndarray:
        return _columns(seats, name, np.arange(rows))

    def glob_col(name: str, values: np.ndarray) -> np.ndarray:
        return _columns(glob, name, values)[:, 0]

    rounds = np.arange(ROUND_ROWS)
    rounds[0] = 1
    tail = np.zeros(16, dtype=np.float32)
    tail[config.current_month or 0] = 1.0
    tail[13 + config.num_players - 2] = 1.0
    tables = (seat("tokens", MAX_TOKENS_PER_PLAYER + 1)[:, 0], seat("set_vp", VP_ROWS),
              seat("score", SCORE_ROWS), seat("hand_size", 9)[:, 0],
              glob_col("deck", np.arange(NUM_CARDS + 1)),
              glob_col("supply", np.arange(TOKEN_SUPPLY + 1)), glob_col("round", rounds),
              glob_col("threshold", np.array([config.vp_threshold]))[0], tail)
    return ObsTables(*(jnp.asarray(t, dtype=jnp.float32) for t in tables))


def rank_reward_table(num_players: int) -> jnp.ndarray:
    """``Game.returns`` by the sum of signs against the opponents (index ``sum + n - 1``)."""
    n = num_players
    values = [sum_signs / (n - 1) for sum_signs in range(-(n - 1), n)]
    return jnp.asarray(np.array(values, dtype=np.float64).astype(np.float32))
