"""The JAX Formosa Flowers state: a NamedTuple of fixed-shape arrays (a pytree).

Public fields (PGX style): ``current_player``, ``observation``, ``legal_action_mask``,
``rewards``, ``terminated``, ``truncated``, ``scores``, and ``drawn`` / ``num_drawn``
(the cards chance drew during the last ``init`` or ``step``, in draw order). The rest
mirrors :class:`~formosa_envs.games.flowers.state.FlowersState` with card sets packed
in two ``uint32`` words each (:mod:`.bits`; ``bits.unpack`` gives the boolean masks over
the 54 card ids), and the deck as the tail of the round's shuffle. A batch of states is
the same tuple with a leading batch axis on every field.
"""

from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from formosa_envs.games.flowers.state import NUM_CARDS

from .bits import WORDS

PLAY, CAPTURE_PLAYED, CAPTURE_REVEALED, KEEP_OR_CASH, OVER = 0, 1, 2, 3, 4
"""Decision kinds (the order of the observation's ``decision`` piece), then game over."""
TERMINAL = -4
"""``current_player`` of a finished game (``formosa_envs.core.engine.TERMINAL``)."""


class State(NamedTuple):
    """One Formosa Flowers position on JAX (see the module docstring)."""

    current_player: jnp.ndarray     # int32: the seat to decide, or TERMINAL
    observation: jnp.ndarray        # float32[442]: the current player's observation
    legal_action_mask: jnp.ndarray  # bool[111]
    rewards: jnp.ndarray            # float32[n]: rank returns on the final step, else 0
    terminated: jnp.ndarray         # bool: the game ended by the rules
    truncated: jnp.ndarray          # bool: the decision limit was reached first
    scores: jnp.ndarray             # int32[n]: victory points
    drawn: jnp.ndarray              # int32[max_draws]: cards drawn by the last call, -1 pad
    num_drawn: jnp.ndarray          # int32
    illegal: jnp.ndarray            # bool: the last step's action was refused (no-op)
    kind: jnp.ndarray               # int32: pending decision kind, OVER when finished
    turn: jnp.ndarray               # int32: the active player
    hands: jnp.ndarray              # uint32[n, 2]: card sets
    field: jnp.ndarray              # uint32[2]
    piles: jnp.ndarray              # uint32[n, 2]
    deck_order: jnp.ndarray         # int32[54]: this round's shuffle; the deck is its tail
    deck_next: jnp.ndarray          # int32: cards of deck_order dealt or revealed so far
    pending: jnp.ndarray            # int32: the card being matched, -1 if none
    pile_vp: jnp.ndarray            # int32[n]: set VP of each pile
    pile_sets: jnp.ndarray          # int32[n]: completed (set, tier) mask of each pile
    tokens: jnp.ndarray             # int32[n]
    supply: jnp.ndarray             # int32
    cashed: jnp.ndarray             # bool[n]
    round: jnp.ndarray              # int32, from 1
    round_start: jnp.ndarray        # int32
    captured: jnp.ndarray           # bool: the active player captured this turn
    decisions: jnp.ndarray          # int32: player decisions so far


def blank_state(num_players: int, max_draws: int, obs_size: int, num_actions: int) -> State:
    """An all-zero state before the first deal (seat 0 starts round 1)."""
    n, i32, u32 = num_players, jnp.int32, jnp.uint32
    zero, false = jnp.zeros((), i32), jnp.zeros((), bool)
    return State(
        current_player=zero, observation=jnp.zeros(obs_size, jnp.float32),
        legal_action_mask=jnp.zeros(num_actions, bool), rewards=jnp.zeros(n, jnp.float32),
        terminated=false, truncated=false, scores=jnp.zeros(n, i32),
        drawn=jnp.full(max_draws, -1, i32), num_drawn=zero, illegal=false, kind=zero,
        turn=zero, hands=jnp.zeros((n, WORDS), u32), field=jnp.zeros(WORDS, u32),
        piles=jnp.zeros((n, WORDS), u32), deck_order=jnp.arange(NUM_CARDS, dtype=i32),
        deck_next=zero,
        pending=jnp.full((), -1, i32), pile_vp=jnp.zeros(n, i32), pile_sets=jnp.zeros(n, i32),
        tokens=jnp.zeros(n, i32), supply=jnp.full((), 9, i32), cashed=jnp.zeros(n, bool),
        round=jnp.ones((), i32), round_start=zero, captured=false, decisions=zero)
