"""Jitted self-play PPO for Formosa Flowers on the JAX engine (``[jax]`` extra).

PureJaxRL-style: the environment (:class:`formosa_envs.jax.flowers.vec_env.FlowersVecEnv`), the
learner, its opponents and the PPO update run in one compiled function. A batch of
``num_envs`` games is played at once; in each the learner holds one seat (drawn at every
reset) and the other seats are played inside the env step by an **opponent**. The games
are split into ``pool_size`` blocks (:mod:`formosa_envs.training.jax.selfplay`):
``random_fraction`` of the blocks play against a uniformly random legal player,
``heuristic_fraction`` against the JAX heuristic (epsilons from 0 to ``heuristic_epsilon``),
each other block against one frozen snapshot of the learner (the snapshots form a ring
refreshed every ``snapshot_every`` updates). With ``kickstart`` > 0 a cross-entropy loss
toward the JAX heuristic's action at each learner decision (kickstarting: Schmitt et al.,
2018) starts at that weight and falls linearly to 0 over ``kickstart_share`` of the budget.
The learner's environment step is therefore: its own move, then up to
``opponent_moves`` rounds of the opponents' moves, so its rollouts hold only its
own decisions (a lane whose opponents are still to move records an invalid step, left out
of the loss; see :mod:`formosa_envs.training.jax.selfplay`) and its reward is its final rank return
(``Game.returns``; a game stopped by the length guard is a draw, 0), or with ``reward =
"win"`` its share of the victory. With ``learner_kinds`` the learner decides only at its
seat's decisions of those kinds; the JAX heuristic makes the seat's other decisions
among the opponents' moves. At the end of a
rollout the opponents play on until every lane waits for its learner, so the last values
are the learner's. The networks are those of :mod:`formosa_envs.training.jax.nets` (the numpy export
format); actions are drawn by :func:`formosa_envs.jax.sample.sample_logits`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import optax
from formosa_envs.training.jax import selfplay as play
from formosa_envs.training.jax.config import JaxTrainConfig
from formosa_envs.training.jax.nets import Layers, init_params, masked_logits, value_of

from formosa_envs.jax.flowers.vec_env import FlowersVecEnv
from formosa_envs.jax.sample import sample_logits


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
    lr_scale: jax.Array              # float32: the learning rate's factor (annealing)
    teacher_scale: jax.Array         # float32: the kickstarting loss's weight now
    returns: jax.Array               # float32[num_envs]: the learner's reward so far in
                                     # each lane's current game (for the return metric)




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
    heuristic_opponent: jax.Array    # the lane plays the heuristic itself (epsilon 0)
    teacher: jax.Array               # int32: the heuristic's action here (kickstarting)
    valid: jax.Array                 # 1.0 where the learner moved (its seat was to move)


class Batch(NamedTuple):
    """The flattened training samples of one update."""

    obs: jax.Array
    mask: jax.Array
    action: jax.Array
    logp: jax.Array
    advantage: jax.Array
    target: jax.Array
    valid: jax.Array
    teacher: jax.Array


def gae(traj: Trajectory, last_value: jax.Array, lam: float) -> tuple[jax.Array, jax.Array]:
    """Advantages and value targets (undiscounted: the only reward is the final one).

    An invalid step (the learner did not move) is skipped: the reward and game end it
    recorded go to the lane's previous valid step, whose successor is the next valid one.
    Invalid steps get advantage 0."""
    def back(carry: tuple, t: Trajectory) -> tuple[tuple, jax.Array]:
        advantage_next, value_next, reward_later, done_later = carry
        reward = t.reward + reward_later
        live = 1.0 - jnp.maximum(t.done, done_later)
        delta = reward + value_next * live - t.value
        advantage = delta + lam * live * advantage_next
        valid = t.valid > 0
        carry = (jnp.where(valid, advantage, advantage_next),
                 jnp.where(valid, t.value, value_next),
                 jnp.where(valid, 0.0, reward), jnp.where(valid, 0.0, 1.0 - live))
        return carry, jnp.where(valid, advantage, 0.0)

    zeros = jnp.zeros_like(last_value)
    _, advantages = jax.lax.scan(back, (zeros, last_value, zeros, zeros), traj, reverse=True)
    return advantages, advantages + traj.value


def ppo_loss(params: dict[str, Layers], batch: Batch, cfg: JaxTrainConfig,
             teacher_scale: jax.Array | float = 0.0) -> tuple[jax.Array, dict[str, jax.Array]]:
    """Clipped policy loss + value loss - entropy bonus (+ ``teacher_scale`` x the
    cross-entropy to the heuristic's actions: kickstarting), and its parts."""
    logits = masked_logits(params, batch.obs, batch.mask, cfg.activation)
    log_probs = jax.nn.log_softmax(logits)
    logp = jnp.take_along_axis(log_probs, batch.action[:, None], axis=1)[:, 0]
    ratio = jnp.exp(logp - batch.logp)
    weight = batch.valid / jnp.maximum(batch.valid.sum(), 1.0)  # invalid steps: no loss

    def mean(x: jax.Array) -> jax.Array:
        return (x * weight).sum()

    centred = batch.advantage - mean(batch.advantage)
    adv = centred / (jnp.sqrt(mean(centred ** 2)) + 1e-8)
    clipped = jnp.clip(ratio, 1.0 - cfg.clip, 1.0 + cfg.clip)
    policy_loss = -mean(jnp.minimum(ratio * adv, clipped * adv))
    value_loss = 0.5 * mean((value_of(params, batch.obs, cfg.activation) - batch.target) ** 2)
    entropy = -mean(jnp.where(batch.mask, jnp.exp(log_probs) * log_probs, 0.0).sum(axis=1))
    imitation = -mean(jnp.take_along_axis(log_probs, batch.teacher[:, None], axis=1)[:, 0])
    total = (policy_loss + cfg.value_coef * value_loss - cfg.entropy_coef * entropy
             + teacher_scale * imitation)
    return total, {"policy_loss": policy_loss, "value_loss": value_loss, "entropy": entropy,
                   "teacher_loss": imitation}


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
    lineup = play.make_lineup(vec, cfg.pool_size, cfg.random_fraction,
                              cfg.heuristic_fraction, cfg.heuristic_epsilon,
                              cfg.kind_codes, cfg.reward == "win")
    randoms, heuristics = lineup.lanes(n, cfg.pool_size)
    teacher = None
    if cfg.kickstart > 0:
        from formosa_envs.jax.flowers.heuristic import FlowersHeuristicJax
        teacher = lineup.heuristic or FlowersHeuristicJax(vec.engine)

    def teacher_actions(games: Any, key: jax.Array) -> jax.Array:
        if teacher is None:
            return jnp.zeros(n, jnp.int32)
        return jax.vmap(teacher.act)(games, jax.random.split(key, n))

    def init(key: jax.Array) -> Carry:
        k_params, k_games, k_next = jax.random.split(key, 3)
        params = init_params(k_params, vec.observation_size, vec.num_actions, cfg.hidden)
        pool = jax.tree_util.tree_map(lambda leaf: jnp.stack([leaf] * cfg.pool_size), params)
        games, seats = play.new_games(vec, pool, lineup, k_games, act)
        return Carry(params, optimizer.init(params), pool, jnp.int32(1), games, seats,
                     k_next, jnp.int32(0), jnp.float32(1.0), jnp.float32(cfg.kickstart),
                     jnp.zeros(vec.num_envs, jnp.float32))

    def rollout(carry: Carry) -> tuple[Carry, Trajectory, jax.Array]:
        def env_step(c: tuple, _: Any) -> tuple[tuple, Trajectory]:
            games, seats, key = c
            key, k_act, k_env, k_teacher = jax.random.split(key, 4)
            obs, mask = games.observation, games.legal_action_mask
            taught = teacher_actions(games, k_teacher)
            valid = play.learner_turn(lineup, games, seats)
            logits = masked_logits(carry.params, obs, mask, act)
            action = sample_logits(k_act, logits, mask)
            logp = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], 1)[:, 0]
            value = value_of(carry.params, obs, act)
            games, seats, reward, done = play.learner_step(
                vec, carry.pool, lineup, games, seats, action, k_env, act,
                cfg.opponent_moves)
            record = Trajectory(obs, mask, action, logp, value, reward,
                                done.astype(jnp.float32), randoms, heuristics, taught,
                                valid.astype(jnp.float32))
            return (games, seats, key), record

        start = (carry.games, carry.seats, carry.key)
        (games, seats, key), traj = jax.lax.scan(env_step, start, None,
                                                 length=cfg.rollout_steps)
        key, k_last = jax.random.split(key)
        games, seats, reward, done = play.play_opponents(  # every lane to its learner
            vec, carry.pool, lineup, games, seats, k_last, act)
        traj = traj._replace(reward=traj.reward.at[-1].add(reward),
                             done=traj.done.at[-1].max(done.astype(jnp.float32)))
        last_value = value_of(carry.params, games.observation, act)
        return carry._replace(games=games, seats=seats, key=key), traj, last_value

    def learn(carry: Carry, traj: Trajectory, last_value: jax.Array
              ) -> tuple[Carry, dict[str, jax.Array]]:
        advantages, targets = gae(traj, last_value, cfg.gae_lambda)
        flat = Batch(*(x.reshape((-1,) + x.shape[2:]) for x in (
            traj.obs, traj.mask, traj.action, traj.logp, advantages, targets, traj.valid,
            traj.teacher)))
        size = flat.action.shape[0] // cfg.minibatches
        key, k_perm = jax.random.split(carry.key)

        def epoch(c: tuple, k: jax.Array) -> tuple[tuple, dict[str, jax.Array]]:
            order = jax.random.permutation(k, flat.action.shape[0])[:size * cfg.minibatches]
            shuffled = jax.tree_util.tree_map(
                lambda x: x[order].reshape((cfg.minibatches, size) + x.shape[1:]), flat)

            def minibatch(c2: tuple, batch: Batch) -> tuple[tuple, dict[str, jax.Array]]:
                params, opt_state = c2
                (_, parts), grads = jax.value_and_grad(ppo_loss, has_aux=True)(
                    params, batch, cfg, carry.teacher_scale)
                updates, opt_state = optimizer.update(grads, opt_state, params)
                updates = jax.tree_util.tree_map(lambda u: u * carry.lr_scale, updates)
                return (optax.apply_updates(params, updates), opt_state), parts

            return jax.lax.scan(minibatch, c, shuffled)

        (params, opt_state), parts = jax.lax.scan(
            epoch, (carry.params, carry.opt_state), jax.random.split(k_perm, cfg.epochs))
        carry = carry._replace(params=params, opt_state=opt_state, key=key)
        parts = jax.tree_util.tree_map(jnp.mean, parts)
        if teacher is None:  # no teacher: its loss (to action 0, weight 0) means nothing
            parts["teacher_loss"] = jnp.float32(0.0)
        return carry, parts

    def snapshot(carry: Carry) -> Carry:
        take = (carry.update + 1) % cfg.snapshot_every == 0
        played = cfg.pool_size - lineup.fixed_blocks  # the snapshot slots (the last ones)
        slot = cfg.pool_size - 1 - carry.snapshots % max(played, 1)
        pool = jax.tree_util.tree_map(
            lambda p, q: jnp.where(take, p.at[slot].set(q), p), carry.pool, carry.params)
        return carry._replace(pool=pool, snapshots=carry.snapshots + take.astype(jnp.int32),
                              update=carry.update + 1)

    def one_update(carry: Carry, _: Any) -> tuple[Carry, dict[str, jax.Array]]:
        carry, traj, last_value = rollout(carry)
        carry, metrics = learn(carry, traj, last_value)
        game_returns, running = finished_returns(traj, carry.returns)
        return (snapshot(carry._replace(returns=running)),
                {**metrics, **episode_metrics(traj, game_returns)})

    def train(carry: Carry, updates: int) -> tuple[Carry, dict[str, jax.Array]]:
        return jax.lax.scan(one_update, carry, None, length=updates)

    return init, train


def finished_returns(traj: Trajectory, running: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Each game's whole return where it finished in this rollout (float32[step, game],
    0 elsewhere: the rewards of every rollout it spanned, ``running`` holding those of the
    earlier ones) and the running sums handed to the next rollout."""
    def step(total: jax.Array, t: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        reward, done = t
        total = total + reward
        return total * (1.0 - done), total * done

    running, returns = jax.lax.scan(step, running, (traj.reward, traj.done))
    return returns, running


def episode_metrics(traj: Trajectory, game_returns: jax.Array) -> dict[str, jax.Array]:
    """Games finished in a rollout and the learner's results in them, overall, against
    the random player and against the heuristic itself (epsilon 0). ``return`` is a
    finished game's whole return (the rank reward; with the margin reward the final margin
    over the scale; with the win reward the win share); a game is won where it is above
    0."""
    done, won = traj.done, (game_returns > 0).astype(jnp.float32)
    vs_random = done * traj.random_opponent
    vs_heuristic = done * traj.heuristic_opponent
    return {"games_vs_heuristic": vs_heuristic.sum(),
            "win_rate_vs_heuristic": (won * vs_heuristic).sum()
            / jnp.maximum(vs_heuristic.sum(), 1),
            "games": done.sum(), "learner_steps": traj.valid.sum(),
            "win_rate": (won * done).sum() / jnp.maximum(done.sum(), 1),
            "return": (game_returns * done).sum() / jnp.maximum(done.sum(), 1),
            "games_vs_random": vs_random.sum(),
            "win_rate_vs_random": (won * vs_random).sum() / jnp.maximum(vs_random.sum(), 1)}
