"""The learner's view of a batch of Flowers games on JAX (used by :mod:`training.jax_ppo`).

The batch of ``num_envs`` games (lanes) is split into ``pool_size`` equal blocks; block
``k`` plays against opponent ``k``: the first blocks (``random_fraction`` of them) against a
uniformly random legal player, the others against snapshot ``k`` of the learner's pool.
A fixed lane-to-opponent map lets every snapshot run once per move on its own block (a
``vmap`` over the pool) instead of gathering a parameter set for every game.

One learner step: the learner's action in every lane, then the opponents' moves until the
learner decides again. The games run in :class:`~formosa_envs.jax.vec_env.FlowersVecEnv`,
whose auto-reset restarts a finished game in the same step (deals computed only where
needed); the lane then gets a new learner seat and play goes on to its first decision.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from formosa_envs.jax.vec_env import FlowersVecEnv

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


def _select(which: jax.Array, a: Any, b: Any) -> Any:
    """Lane-wise ``a if which else b`` over two batches of states."""
    return jax.tree_util.tree_map(
        lambda x, y: jnp.where(which.reshape((-1,) + (1,) * (x.ndim - 1)), x, y), a, b)


def _new_seats(vec: FlowersVecEnv, key: jax.Array) -> jax.Array:
    return jax.random.randint(key, (vec.num_envs,), 0, vec.num_players)


def play_opponents(vec: FlowersVecEnv, pool: dict[str, Layers], randoms: jax.Array,
                   states: Any, seats: jax.Array, key: jax.Array, activation: str
                   ) -> tuple[Any, jax.Array, jax.Array, jax.Array]:
    """Opponents move in every lane until its learner decides. A game that ends meanwhile
    restarts at once (the vector env's auto-reset) with a new learner seat, and play goes on
    to the learner's first decision there. Returns ``(states, seats, reward, done)``: the
    learner's reward from the games that ended, and which lanes ended one."""
    lanes = jnp.arange(vec.num_envs)
    zeros = jnp.zeros(vec.num_envs, jnp.float32)

    def waiting(carry: tuple) -> jax.Array:
        return (carry[0].current_player != carry[1]).any()

    def move(carry: tuple) -> tuple:
        s, seat, k, reward, done = carry
        k, k_act, k_env, k_seat = jax.random.split(k, 4)
        live = s.current_player != seat
        out = vec._step(s, opponent_actions(pool, s, randoms, k_act, activation), k_env)
        ended = out.done & live
        reward = reward + jnp.where(live, out.rewards[lanes, seat], 0.0)
        seat = jnp.where(ended, _new_seats(vec, k_seat), seat)
        return _select(live, out.state, s), seat, k, reward, done | ended

    start = (states, seats, key, zeros, jnp.zeros(vec.num_envs, bool))
    states, seats, _, reward, done = jax.lax.while_loop(waiting, move, start)
    return states, seats, reward, done


def new_games(vec: FlowersVecEnv, pool: dict[str, Layers], randoms: jax.Array,
              key: jax.Array, activation: str) -> tuple[Any, jax.Array]:
    """A new game in every lane, played up to the learner's first decision, and the
    learner's seat in it."""
    k_init, k_seat, k_play = jax.random.split(key, 3)
    seats = _new_seats(vec, k_seat)
    states, seats, _, _ = play_opponents(vec, pool, randoms, vec._reset(k_init).state, seats,
                                         k_play, activation)
    return states, seats


def learner_step(vec: FlowersVecEnv, pool: dict[str, Layers], randoms: jax.Array,
                 states: Any, seats: jax.Array, actions: jax.Array, key: jax.Array,
                 activation: str) -> tuple[Any, jax.Array, jax.Array, jax.Array]:
    """Apply the learners' ``actions`` and play on: ``(states, seats, reward, done)``, new
    games (auto-reset, new seats) already in place of the finished ones."""
    k_env, k_seat, k_play = jax.random.split(key, 3)
    out = vec._step(states, actions, k_env)
    reward = out.rewards[jnp.arange(vec.num_envs), seats]
    seats = jnp.where(out.done, _new_seats(vec, k_seat), seats)
    states, seats, more, ended = play_opponents(vec, pool, randoms, out.state, seats, k_play,
                                                activation)
    return states, seats, reward + more, out.done | ended
