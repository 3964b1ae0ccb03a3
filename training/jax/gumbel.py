"""Gumbel MuZero self-play on the JAX Flowers engine, with DeepMind's ``mctx``.

The PGX recipe on our game (2 players): every decision of a batch of self-play games is
searched by :func:`mctx.gumbel_muzero_policy` (Danihelka et al., ICLR 2022: Gumbel top-k
sampling and sequential halving at the root, few simulations) with the **real engine** as
the recurrent function: a search step is ``FlowersJax.step`` on the searched position,
whose value is the network's (the tanh value head) from the seat to move, and whose
discount is +1 when the same seat decides again and -1 when the other seat does (two
players, zero sum). The search never reads hidden cards: at the root the cards the
deciding seat cannot see (the other hand and the deck) are reshuffled
(:func:`determinize`, as ``FlowersGame.determinize`` and the ``az`` agent do), and the
tree searches that one deal. Chance inside the tree (reveals, the next round's deal)
follows the determinized deck.

Targets: the search's improved policy (``action_weights``: softmax of the prior logits
plus the completed Q-values) and the game's final rank return for the seat that decided.
The network is :mod:`.nets`'s actor + value MLP, so the export plays through ``policy:``
(the network alone) and ``az:`` (the network with the Python search).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from formosa_envs.jax.flowers import bits
from formosa_envs.jax.flowers.engine import FlowersJax
from formosa_envs.jax.flowers.state import State
from formosa_envs.jax.flowers.vec_env import FlowersVecEnv

from .nets import Layers, masked_logits, value_of

NUM_CARDS = 54


def determinize(engine: FlowersJax, state: State, key: jax.Array) -> State:
    """``state`` with the cards its deciding seat cannot see (the other hands and the
    undealt deck) dealt again at random, every hand keeping its size."""
    n = engine.num_players
    me = jnp.clip(state.current_player, 0, n - 1)
    others = jnp.arange(n) != me
    other_cards = jnp.where(others[:, None], state.hands, jnp.uint32(0)).sum(
        axis=0, dtype=jnp.uint32)
    in_deck = jnp.zeros(NUM_CARDS, bool).at[state.deck_order].set(
        jnp.arange(NUM_CARDS) >= state.deck_next)
    hidden = bits.unpack(other_cards) | in_deck
    order = jnp.argsort(jnp.where(hidden, jax.random.uniform(key, (NUM_CARDS,)), 2.0))
    sizes = jnp.where(others, bits.count(state.hands), 0)
    start = jnp.cumsum(sizes) - sizes                       # each other hand's first rank
    rank = jnp.arange(NUM_CARDS)
    owns = others[:, None] & (rank >= start[:, None]) & (rank < (start + sizes)[:, None])
    dealt = jnp.where(owns[:, :, None], bits.card_bits(order)[None], jnp.uint32(0)).sum(
        axis=1, dtype=jnp.uint32)
    hands = jnp.where(others[:, None], dealt, state.hands)
    source = jnp.clip(sizes.sum() + rank - state.deck_next, 0, NUM_CARDS - 1)
    deck = jnp.where(rank >= state.deck_next, order[source], state.deck_order)
    return state._replace(hands=hands, deck_order=deck.astype(jnp.int32))


def make_recurrent_fn(engine: FlowersJax, activation: str) -> Any:
    """The ``mctx`` recurrent function: one engine step of every searched position."""
    import mctx

    def recurrent_fn(params: dict[str, Layers], key: jax.Array, action: jax.Array,
                     state: State) -> tuple[Any, State]:
        batch = action.shape[0]
        nxt = jax.vmap(engine.step)(state, action, jax.random.split(key, batch))
        actor = state.current_player
        reward = nxt.rewards[jnp.arange(batch), jnp.clip(actor, 0, engine.num_players - 1)]
        over = nxt.terminated | nxt.truncated
        discount = jnp.where(over, 0.0, jnp.where(nxt.current_player == actor, 1.0, -1.0))
        value = jnp.where(over, 0.0, value_of(params, nxt.observation, activation))
        logits = masked_logits(params, nxt.observation, nxt.legal_action_mask, activation)
        return mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=logits,
                                      value=value), nxt

    return recurrent_fn


class SearchOutput(NamedTuple):
    """One searched decision per game."""

    action: jax.Array     # int32[B]
    weights: jax.Array    # float32[B, A]: the improved policy (training target)


def search(engine: FlowersJax, params: dict[str, Layers], states: State, key: jax.Array,
           simulations: int, activation: str, considered: int = 16,
           gumbel_scale: float = 1.0) -> SearchOutput:
    """Gumbel MuZero search from every game of a batch (each root determinized;
    ``gumbel_scale`` 0: no Gumbel noise, the deterministic choice for play)."""
    import mctx

    k_det, k_search = jax.random.split(key)
    batch = states.current_player.shape[0]
    roots = jax.vmap(determinize, in_axes=(None, 0, 0))(
        engine, states, jax.random.split(k_det, batch))
    root = mctx.RootFnOutput(
        prior_logits=masked_logits(params, states.observation, states.legal_action_mask,
                                   activation),
        value=value_of(params, states.observation, activation), embedding=roots)
    out = mctx.gumbel_muzero_policy(
        params, k_search, root, make_recurrent_fn(engine, activation),
        num_simulations=simulations, invalid_actions=~states.legal_action_mask,
        max_num_considered_actions=considered, gumbel_scale=gumbel_scale)
    return SearchOutput(out.action.astype(jnp.int32), out.action_weights)


class Sample(NamedTuple):
    """Self-play records (leading axes: step, game)."""

    obs: jax.Array
    mask: jax.Array
    policy: jax.Array
    player: jax.Array
    rewards: jax.Array    # float32[n]: the final returns when the game ended on this step
    done: jax.Array


def self_play(vec: FlowersVecEnv, params: dict[str, Layers], states: State, key: jax.Array,
              steps: int, simulations: int, activation: str) -> tuple[State, Sample]:
    """``steps`` searched decisions in every game (auto-reset); every seat plays the
    search."""
    def one(carry: State, k: jax.Array) -> tuple[State, Sample]:
        k_search, k_env = jax.random.split(k)
        found = search(vec.engine, params, carry, k_search, simulations, activation)
        out = vec._step(carry, found.action, k_env)
        record = Sample(carry.observation, carry.legal_action_mask, found.weights,
                        carry.current_player, out.rewards, out.done)
        return out.state, record

    return jax.lax.scan(one, states, jax.random.split(key, steps))


def value_targets(samples: Sample) -> tuple[jax.Array, jax.Array]:
    """Each decision's final return for its seat, and 1.0 where its game ended inside the
    window (decisions of games still running carry no target)."""
    def back(carry: tuple, s: Sample) -> tuple[tuple, tuple]:
        future, known = carry
        future = jnp.where(s.done[:, None], s.rewards, future)
        known = known | s.done
        target = jnp.take_along_axis(future, jnp.clip(s.player, 0)[:, None], 1)[:, 0]
        return (future, known), (target, known.astype(jnp.float32))

    batch, n = samples.rewards.shape[1:]
    start = (jnp.zeros((batch, n)), jnp.zeros(batch, bool))
    _, (targets, known) = jax.lax.scan(back, start, samples, reverse=True)
    return targets, known


def loss(params: dict[str, Layers], obs: jax.Array, mask: jax.Array, policy: jax.Array,
         target: jax.Array, known: jax.Array, activation: str) -> tuple[jax.Array, Any]:
    """Cross-entropy to the improved policy plus the squared error of the value (where
    the outcome is known)."""
    logits = masked_logits(params, obs, mask, activation)
    log_probs = jax.nn.log_softmax(logits)
    policy_loss = -(policy * jnp.where(mask, log_probs, 0.0)).sum(axis=-1).mean()
    err = (value_of(params, obs, activation) - target) ** 2
    value_loss = (err * known).sum() / jnp.maximum(known.sum(), 1.0)
    return policy_loss + value_loss, (policy_loss, value_loss)
