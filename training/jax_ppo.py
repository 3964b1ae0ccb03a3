"""Jitted self-play PPO for Formosa Flowers on the JAX engine (``[jax]`` extra).

PureJaxRL-style: the environment (:class:`formosa_envs.jax.vec_env.FlowersVecEnv`), the
learner, its opponents and the PPO update run in one compiled function. A batch of
``num_envs`` games is played at once; in each the learner holds one seat (drawn at every
reset) and the other seats are played inside the env step by an **opponent**. The games
are split into ``pool_size`` blocks (:mod:`training.jax_selfplay`): ``random_fraction`` of
the blocks play against a uniformly random legal player, each other block against one
frozen snapshot of the learner (the pool is a ring refreshed every ``snapshot_every``
updates). The learner's environment step is therefore: its own move, then the opponents'
moves (a ``lax.while_loop``) until its next decision or the end of the game, so its
rollouts hold only its own decisions and its reward is its final rank return
(``Game.returns``; a game stopped by the length guard is a draw, 0). The networks are
those of :mod:`training.jax_nets` (the numpy export format).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import optax

from formosa_envs.jax.vec_env import FlowersVecEnv

from . import jax_selfplay as play
from .jax_config import JaxTrainConfig
from .jax_nets import Layers, init_params, masked_logits, value_of


class Carry(NamedTuple):
    """What one update hands to the next (a pytree)."""

    params: dict[str, Layers]
    opt_state: Any
    pool: dict[str, Layers]          # every leaf with a leading pool axis
    snapshots: jax.Array             # int32: snapshots taken (the pool's ring position)
    games: Any                       # the batch of engine states
    seats: jax.Array                 # int32[num_envs]: the learner's seat per game
    key: jax.Array
    update: jax.Array                # int32: updates done




class Trajectory(NamedTuple):
    """One rollout step of every game (leading axes: step, game)."""

    obs: jax.Array
    mask: jax.Array
    action: jax.Array
    logp: jax.Array
    value: jax.Array
    reward: jax.Array
    done: jax.Array
    random_opponent: jax.Array


class Batch(NamedTuple):
    """The flattened training samples of one update."""

    obs: jax.Array
    mask: jax.Array
    action: jax.Array
    logp: jax.Array
    advantage: jax.Array
    target: jax.Array


def gae(traj: Trajectory, last_value: jax.Array, lam: float) -> tuple[jax.Array, jax.Array]:
    """Advantages and value targets (undiscounted: the only reward is the final one)."""
    def back(carry: tuple[jax.Array, jax.Array], t: Trajectory
             ) -> tuple[tuple[jax.Array, jax.Array], jax.Array]:
        advantage_next, value_next = carry
        live = 1.0 - t.done
        delta = t.reward + value_next * live - t.value
        advantage = delta + lam * live * advantage_next
        return (advantage, t.value), advantage

    start = (jnp.zeros_like(last_value), last_value)
    _, advantages = jax.lax.scan(back, start, traj, reverse=True)
    return advantages, advantages + traj.value


def ppo_loss(params: dict[str, Layers], batch: Batch, cfg: JaxTrainConfig
             ) -> tuple[jax.Array, dict[str, jax.Array]]:
    """Clipped policy loss + value loss - entropy bonus, and its parts."""
    logits = masked_logits(params, batch.obs, batch.mask, cfg.activation)
    log_probs = jax.nn.log_softmax(logits)
    logp = jnp.take_along_axis(log_probs, batch.action[:, None], axis=1)[:, 0]
    ratio = jnp.exp(logp - batch.logp)
    adv = (batch.advantage - batch.advantage.mean()) / (batch.advantage.std() + 1e-8)
    clipped = jnp.clip(ratio, 1.0 - cfg.clip, 1.0 + cfg.clip)
    policy_loss = -jnp.minimum(ratio * adv, clipped * adv).mean()
    value_loss = 0.5 * ((value_of(params, batch.obs, cfg.activation) - batch.target) ** 2).mean()
    entropy = -jnp.where(batch.mask, jnp.exp(log_probs) * log_probs, 0.0).sum(axis=1).mean()
    total = policy_loss + cfg.value_coef * value_loss - cfg.entropy_coef * entropy
    return total, {"policy_loss": policy_loss, "value_loss": value_loss, "entropy": entropy}


def make_train(vec: FlowersVecEnv, cfg: JaxTrainConfig) -> tuple[Any, Any]:
    """``(init, train)`` for the games of ``vec`` (``cfg.num_envs`` of them):
    ``init(key) -> Carry`` and ``train(carry, updates)`` (jit it with ``updates`` static),
    which runs that many rollout + PPO updates in one ``lax.scan`` and returns the new
    carry and per-update metrics."""
    optimizer = optax.chain(optax.clip_by_global_norm(cfg.max_grad_norm),
                            optax.adam(cfg.learning_rate, eps=1e-5))
    act, n = cfg.activation, cfg.num_envs

    if n % cfg.pool_size or vec.num_envs != n:
        raise ValueError(f"num_envs ({n}) must be a multiple of pool_size ({cfg.pool_size}) "
                         f"and the vector env's size ({vec.num_envs})")
    randoms = play.random_lanes(n, cfg.pool_size, cfg.random_fraction)

    def init(key: jax.Array) -> Carry:
        k_params, k_games, k_next = jax.random.split(key, 3)
        params = init_params(k_params, vec.observation_size, vec.num_actions, cfg.hidden)
        pool = jax.tree_util.tree_map(lambda leaf: jnp.stack([leaf] * cfg.pool_size), params)
        games, seats = play.new_games(vec, pool, randoms, k_games, act)
        return Carry(params, optimizer.init(params), pool, jnp.int32(1), games, seats,
                     k_next, jnp.int32(0))

    def rollout(carry: Carry) -> tuple[Carry, Trajectory, jax.Array]:
        def env_step(c: tuple, _: Any) -> tuple[tuple, Trajectory]:
            games, seats, key = c
            key, k_act, k_env = jax.random.split(key, 3)
            obs, mask = games.observation, games.legal_action_mask
            logits = masked_logits(carry.params, obs, mask, act)
            action = jax.random.categorical(k_act, logits)
            logp = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], 1)[:, 0]
            value = value_of(carry.params, obs, act)
            games, seats, reward, done = play.learner_step(
                vec, carry.pool, randoms, games, seats, action, k_env, act)
            record = Trajectory(obs, mask, action, logp, value, reward,
                                done.astype(jnp.float32), randoms)
            return (games, seats, key), record

        start = (carry.games, carry.seats, carry.key)
        (games, seats, key), traj = jax.lax.scan(env_step, start, None,
                                                 length=cfg.rollout_steps)
        last_value = value_of(carry.params, games.observation, act)
        return carry._replace(games=games, seats=seats, key=key), traj, last_value

    def learn(carry: Carry, traj: Trajectory, last_value: jax.Array
              ) -> tuple[Carry, dict[str, jax.Array]]:
        advantages, targets = gae(traj, last_value, cfg.gae_lambda)
        flat = Batch(*(x.reshape((-1,) + x.shape[2:]) for x in (
            traj.obs, traj.mask, traj.action, traj.logp, advantages, targets)))
        size = flat.action.shape[0] // cfg.minibatches
        key, k_perm = jax.random.split(carry.key)

        def epoch(c: tuple, k: jax.Array) -> tuple[tuple, dict[str, jax.Array]]:
            order = jax.random.permutation(k, flat.action.shape[0])[:size * cfg.minibatches]
            shuffled = jax.tree_util.tree_map(
                lambda x: x[order].reshape((cfg.minibatches, size) + x.shape[1:]), flat)

            def minibatch(c2: tuple, batch: Batch) -> tuple[tuple, dict[str, jax.Array]]:
                params, opt_state = c2
                (_, parts), grads = jax.value_and_grad(ppo_loss, has_aux=True)(
                    params, batch, cfg)
                updates, opt_state = optimizer.update(grads, opt_state, params)
                return (optax.apply_updates(params, updates), opt_state), parts

            return jax.lax.scan(minibatch, c, shuffled)

        (params, opt_state), parts = jax.lax.scan(
            epoch, (carry.params, carry.opt_state), jax.random.split(k_perm, cfg.epochs))
        carry = carry._replace(params=params, opt_state=opt_state, key=key)
        return carry, jax.tree_util.tree_map(jnp.mean, parts)

    def snapshot(carry: Carry) -> Carry:
        take = (carry.update + 1) % cfg.snapshot_every == 0
        slot = carry.snapshots % cfg.pool_size
        pool = jax.tree_util.tree_map(
            lambda p, q: jnp.where(take, p.at[slot].set(q), p), carry.pool, carry.params)
        return carry._replace(pool=pool, snapshots=carry.snapshots + take.astype(jnp.int32),
                              update=carry.update + 1)

    def one_update(carry: Carry, _: Any) -> tuple[Carry, dict[str, jax.Array]]:
        carry, traj, last_value = rollout(carry)
        carry, metrics = learn(carry, traj, last_value)
        return snapshot(carry), {**metrics, **episode_metrics(traj)}

    def train(carry: Carry, updates: int) -> tuple[Carry, dict[str, jax.Array]]:
        return jax.lax.scan(one_update, carry, None, length=updates)

    return init, train


def episode_metrics(traj: Trajectory) -> dict[str, jax.Array]:
    """Games finished in a rollout and the learner's results in them, overall and against
    the random player (the rest are against snapshots of itself)."""
    done, won = traj.done, (traj.reward > 0).astype(jnp.float32)
    vs_random = done * traj.random_opponent
    return {"games": done.sum(), "win_rate": (won * done).sum() / jnp.maximum(done.sum(), 1),
            "return": (traj.reward * done).sum() / jnp.maximum(done.sum(), 1),
            "games_vs_random": vs_random.sum(),
            "win_rate_vs_random": (won * vs_random).sum() / jnp.maximum(vs_random.sum(), 1)}
