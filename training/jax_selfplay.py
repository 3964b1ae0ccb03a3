"""The learner's view of a batch of Flowers games on JAX (used by :mod:`training.jax_ppo`).

The batch of ``num_envs`` games (lanes) is split into ``pool_size`` equal blocks; block
``k`` plays against opponent ``k``: the first blocks (``random_fraction`` of them) against a
uniformly random legal player, the others against snapshot ``k`` of the learner's pool.
A fixed lane-to-opponent map lets every snapshot run once per move on its own block (a
``vmap`` over the pool) instead of gathering a parameter set for every game.

One learner step: the learner's action in every lane, the opponents' moves until the
learner decides again or the game ends, then the finished games are replaced by new ones
(a new learner seat) played up to the learner's first decision.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from formosa_envs.jax.engine import FlowersJax

from .jax_nets import NEG, Layers, masked_logits


def random_lanes(num_envs: int, pool_size: int, random_fraction: float) -> jax.Array:
    """bool[num_envs]: the lanes whose opponents play at random (whole blocks)."""
    blocks = round(random_fraction * pool_size)
    return jnp.arange(num_envs) < blocks * (num_envs // pool_size)


def opponent_actions(pool: dict[str, Layers], states: Any, randoms: jax.Array,
                     key: jax.Array, activation: str) -> jax.Array:
    """Every lane's move for its seat to act: its block's snapshot samples from its
    policy, a random lane uniformly among the legal actions."""
    obs, mask = states.observation, states.legal_action_mask
    k = jax.tree_util.tree_leaves(pool)[0].shape[0]
    shape = (k, obs.shape[0] // k)
    logits = jax.vmap(masked_logits, in_axes=(0, 0, 0, None))(
        pool, obs.reshape(shape + obs.shape[1:]), mask.reshape(shape + mask.shape[1:]),
        activation).reshape(mask.shape)
    logits = jnp.where(randoms[:, None], jnp.where(mask, 0.0, NEG), logits)
    return jax.random.categorical(key, logits)


def finished(states: Any) -> jax.Array:
    """Ended by the rules or stopped by the length guard."""
    return states.terminated | states.truncated


def _select(which: jax.Array, a: Any, b: Any) -> Any:
    """Lane-wise ``a if which else b`` over two batches of states."""
    return jax.tree_util.tree_map(
        lambda x, y: jnp.where(which.reshape((-1,) + (1,) * (x.ndim - 1)), x, y), a, b)


def play_opponents(env: FlowersJax, pool: dict[str, Layers], randoms: jax.Array,
                   states: Any, seats: jax.Array, key: jax.Array, activation: str
                   ) -> tuple[Any, jax.Array]:
    """Opponents move in every lane until its learner decides or its game is over;
    returns the states and each learner's reward collected meanwhile."""
    lanes = jnp.arange(seats.shape[0])
    step = jax.vmap(env.step)

    def waiting(s: Any) -> jax.Array:
        return ~finished(s) & (s.current_player != seats)

    def move(carry: tuple[Any, jax.Array, jax.Array]) -> tuple[Any, jax.Array, jax.Array]:
        s, k, reward = carry
        k, k_act, k_env = jax.random.split(k, 3)
        actions = opponent_actions(pool, s, randoms, k_act, activation)
        moved = step(s, actions, jax.random.split(k_env, seats.shape[0]))
        live = waiting(s)
        reward = reward + jnp.where(live, moved.rewards[lanes, seats], 0.0)
        return _select(live, moved, s), k, reward

    start = (states, key, jnp.zeros(seats.shape[0], jnp.float32))
    states, _, reward = jax.lax.while_loop(lambda c: waiting(c[0]).any(), move, start)
    return states, reward


def new_games(env: FlowersJax, pool: dict[str, Layers], randoms: jax.Array, key: jax.Array,
              activation: str) -> tuple[Any, jax.Array]:
    """A new game in every lane, played up to the learner's first decision, and the
    learner's seat in it."""
    k_init, k_seat, k_play = jax.random.split(key, 3)
    n = randoms.shape[0]
    seats = jax.random.randint(k_seat, (n,), 0, env.num_players)
    states = jax.vmap(env.init)(jax.random.split(k_init, n))
    states, _ = play_opponents(env, pool, randoms, states, seats, k_play, activation)
    return states, seats


def learner_step(env: FlowersJax, pool: dict[str, Layers], randoms: jax.Array, states: Any,
                 seats: jax.Array, actions: jax.Array, key: jax.Array, activation: str
                 ) -> tuple[Any, jax.Array, jax.Array, jax.Array]:
    """Apply the learners' ``actions`` and play on: ``(states, seats, reward, done)``,
    new games already in place of the finished ones (one opponents' loop serves both the
    games going on and the new ones)."""
    n = seats.shape[0]
    lanes = jnp.arange(n)
    k_env, k_play, k_init, k_seat, k_new = jax.random.split(key, 5)
    after = jax.vmap(env.step)(states, actions, jax.random.split(k_env, n))
    reward = after.rewards[lanes, seats]
    after, more = play_opponents(env, pool, randoms, after, seats, k_play, activation)
    done = finished(after)
    fresh = jax.vmap(env.init)(jax.random.split(k_init, n))
    seats = jnp.where(done, jax.random.randint(k_seat, (n,), 0, env.num_players), seats)
    states, _ = play_opponents(env, pool, randoms, _select(done, fresh, after), seats, k_new,
                               activation)
    return states, seats, reward + more, done
