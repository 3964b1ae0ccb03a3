"""The learner's view of a batch of Flowers games on JAX (used by
:mod:`formosa_envs.training.jax.ppo`).

The batch of ``num_envs`` games (lanes) is split into ``pool_size`` equal blocks; block
``k`` plays against opponent ``k`` (a :class:`Lineup`): the first blocks against a
uniformly random legal player, the next against the JAX Flowers heuristic
(:class:`~formosa_envs.jax.flowers.heuristic.FlowersHeuristicJax`), each with its own epsilon
(a random legal move with that probability, else the heuristic's: a curriculum from an
easier opponent to the heuristic itself), the rest against snapshot ``k`` of the learner's
pool. A fixed lane-to-opponent map lets every snapshot run once per move on its own block
(a ``vmap`` over the snapshots) instead of gathering a parameter set for every game, and
the random and heuristic blocks run no network at all. Every other seat of a lane is
played by that lane's opponent.

One learner step: the learner's action in every lane where its seat is to move, then up
to ``max_moves`` rounds of opponent moves in the lanes where another seat is to move. A
lane where the opponents still have a decision after that is not *ready*: at the next
learner step its learner action is skipped (the step is recorded as invalid) and its
opponents move on. (Waiting for every lane each time would cost the batch's longest
run of opponent decisions, about five rounds of a 512-game batch, where most lanes need
one or two.) The games run in :class:`~formosa_envs.jax.flowers.vec_env.FlowersVecEnv`, whose
auto-reset restarts a finished game in the same step (deals computed only where needed);
the lane then gets a new learner seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
from formosa_envs.training.jax.nets import Layers, masked_logits

from formosa_envs.jax.flowers.heuristic import FlowersHeuristicJax, epsilon_actions
from formosa_envs.jax.flowers.vec_env import FlowersVecEnv
from formosa_envs.jax.sample import sample_legal, sample_logits


@dataclass(frozen=True, eq=False)
class Lineup:
    """Which opponent each block of lanes meets (static: fixed when the update compiles).

    Blocks in order: ``random_blocks`` random players, then one heuristic block per entry
    of ``epsilons`` (its probability of a random move), then snapshots of the learner."""

    random_blocks: int = 0
    epsilons: tuple[float, ...] = ()
    heuristic: FlowersHeuristicJax | None = None
    learner_kinds: tuple[int, ...] = ()
    """The engine's decision kinds the learner makes (empty: all); ``heuristic`` makes
    the learner seat's other decisions."""
    win_reward: bool = False
    """The learner's reward is its win share, not its rank return."""

    @property
    def fixed_blocks(self) -> int:
        """Blocks that play no snapshot (random and heuristic)."""
        return self.random_blocks + len(self.epsilons)

    def lanes(self, num_envs: int, pool_size: int) -> tuple[jax.Array, jax.Array]:
        """bool[num_envs] twice: the lanes against the random player, and against the
        heuristic itself (epsilon 0)."""
        width = num_envs // pool_size
        block = jnp.arange(num_envs) // width
        first = self.random_blocks
        pure = jnp.asarray([e == 0.0 for e in self.epsilons] + [False])
        heuristic = (block >= first) & (block < self.fixed_blocks)
        return block < first, heuristic & pure[jnp.clip(block - first, 0, len(self.epsilons))]


def make_lineup(vec: FlowersVecEnv, pool_size: int, random_fraction: float,
                heuristic_fraction: float = 0.0, heuristic_epsilon: float = 0.0,
                learner_kinds: tuple[int, ...] = (), win_reward: bool = False) -> Lineup:
    """The blocks for these shares of ``pool_size``: heuristic blocks get epsilons spread
    evenly from 0 (the heuristic itself) to ``heuristic_epsilon``; ``learner_kinds`` and
    ``win_reward`` as :class:`Lineup`'s."""
    randoms = round(random_fraction * pool_size)
    count = min(round(heuristic_fraction * pool_size), pool_size - randoms)
    epsilons = tuple(float(heuristic_epsilon * i / max(count - 1, 1)) for i in range(count))
    heuristic = FlowersHeuristicJax(vec.engine) if count or learner_kinds else None
    return Lineup(randoms, epsilons, heuristic, tuple(learner_kinds), win_reward)


def learner_turn(lineup: Lineup, states: Any, seats: jax.Array) -> jax.Array:
    """bool[B]: the learner is to decide (its seat moves, at one of its kinds)."""
    mine = states.current_player == seats
    if not lineup.learner_kinds:
        return mine
    return mine & jnp.isin(states.kind, jnp.asarray(lineup.learner_kinds, jnp.int32))


def learner_reward(lineup: Lineup, out: Any, seats: jax.Array) -> jax.Array:
    """float32[B]: the learner's reward from a step's games that finished: its rank
    return, or with ``win_reward`` its win share (tied leaders have equal, highest rank
    returns; a game stopped by the length guard pays 0)."""
    rewards = out.rewards
    own = rewards[jnp.arange(rewards.shape[0]), seats]
    if not lineup.win_reward:
        return own
    top = rewards.max(axis=1)
    leaders = (rewards >= top[:, None] - 1e-6).sum(axis=1)
    return jnp.where(out.terminated & (own >= top - 1e-6), 1.0 / leaders, 0.0)


def opponent_actions(pool: dict[str, Layers], states: Any, lineup: Lineup,
                     key: jax.Array, activation: str) -> jax.Array:
    """Every lane's move for its seat to act: a random block's lanes uniformly among the
    legal actions, a heuristic block's by the (epsilon-)heuristic, a snapshot block's
    from the policy of its snapshot."""
    obs, mask = states.observation, states.legal_action_mask
    k = jax.tree_util.tree_leaves(pool)[0].shape[0]
    width = obs.shape[0] // k
    split, fixed = lineup.random_blocks * width, lineup.fixed_blocks * width
    k_random, k_heuristic, k_policy = jax.random.split(key, 3)
    parts = []
    if split:
        parts.append(sample_legal(k_random, mask[:split]))
    if fixed > split:
        part = jax.tree_util.tree_map(lambda leaf: leaf[split:fixed], states)
        epsilon = jnp.repeat(jnp.asarray(lineup.epsilons, jnp.float32), width)
        parts.append(epsilon_actions(lineup.heuristic, part, epsilon, k_heuristic))
    if lineup.fixed_blocks < k:
        snapshots = jax.tree_util.tree_map(lambda leaf: leaf[lineup.fixed_blocks:], pool)
        shape = (k - lineup.fixed_blocks, width)
        logits = jax.vmap(masked_logits, in_axes=(0, 0, 0, None))(
            snapshots, obs[fixed:].reshape(shape + obs.shape[1:]),
            mask[fixed:].reshape(shape + mask.shape[1:]), activation)
        parts.append(sample_logits(k_policy, logits.reshape(mask[fixed:].shape),
                                   mask[fixed:]))
    return jnp.concatenate(parts)


def _new_seats(vec: FlowersVecEnv, key: jax.Array) -> jax.Array:
    return jax.random.randint(key, (vec.num_envs,), 0, vec.num_players)


def play_opponents(vec: FlowersVecEnv, pool: dict[str, Layers], lineup: Lineup,
                   states: Any, seats: jax.Array, key: jax.Array, activation: str,
                   max_moves: int | None = None) -> tuple[Any, jax.Array, jax.Array, jax.Array]:
    """Opponents move in every lane where the learner is not to move, for at most
    ``max_moves`` rounds (None: until every lane waits for its learner). A game that ends
    meanwhile restarts at once (the vector env's auto-reset) with a new learner seat.
    Returns ``(states, seats, reward, done)``: the learner's reward from the games that
    ended, and which lanes ended one."""
    zeros = jnp.zeros(vec.num_envs, jnp.float32)
    limit = jnp.iinfo(jnp.int32).max if max_moves is None else max_moves

    def waiting(carry: tuple) -> jax.Array:
        return (~learner_turn(lineup, carry[0], carry[1])).any() & (carry[-1] < limit)

    def move(carry: tuple) -> tuple:
        s, seat, k, reward, done, rounds = carry
        k, k_act, k_env, k_seat = jax.random.split(k, 4)
        live = ~learner_turn(lineup, s, seat)
        actions = _other_actions(pool, s, seat, lineup, k_act, activation)
        out = vec._step(s, jnp.where(live, actions, -1), k_env)  # -1: that lane stays put
        ended = out.done & live
        reward = reward + jnp.where(live, learner_reward(lineup, out, seat), 0.0)
        seat = jnp.where(ended, _new_seats(vec, k_seat), seat)
        return out.state, seat, k, reward, done | ended, rounds + 1

    start = (states, seats, key, zeros, jnp.zeros(vec.num_envs, bool), jnp.int32(0))
    states, seats, _, reward, done, _ = jax.lax.while_loop(waiting, move, start)
    return states, seats, reward, done


def _other_actions(pool: dict[str, Layers], states: Any, seats: jax.Array, lineup: Lineup,
                   key: jax.Array, activation: str) -> jax.Array:
    """The opponents' moves, and with ``learner_kinds`` the heuristic's at the learner
    seat's other decisions."""
    k_opponents, k_own = jax.random.split(key)
    actions = opponent_actions(pool, states, lineup, k_opponents, activation)
    blocks = jax.tree_util.tree_leaves(pool)[0].shape[0]
    if not lineup.learner_kinds or (lineup.random_blocks == 0 and blocks == len(
            lineup.epsilons) and not any(lineup.epsilons)):  # every lane: the heuristic
        return actions
    own = jax.vmap(lineup.heuristic.act)(states, jax.random.split(k_own, seats.shape[0]))
    return jnp.where(states.current_player == seats, own, actions)


def new_games(vec: FlowersVecEnv, pool: dict[str, Layers], lineup: Lineup,
              key: jax.Array, activation: str) -> tuple[Any, jax.Array]:
    """A new game in every lane, played up to the learner's first decision, and the
    learner's seat in it."""
    k_init, k_seat, k_play = jax.random.split(key, 3)
    seats = _new_seats(vec, k_seat)
    states, seats, _, _ = play_opponents(vec, pool, lineup, vec._reset(k_init).state,
                                         seats, k_play, activation)
    return states, seats


def learner_step(vec: FlowersVecEnv, pool: dict[str, Layers], lineup: Lineup,
                 states: Any, seats: jax.Array, actions: jax.Array, key: jax.Array,
                 activation: str, max_moves: int | None = None
                 ) -> tuple[Any, jax.Array, jax.Array, jax.Array]:
    """Apply the learners' ``actions`` in the ready lanes (the others skip it) and let the
    opponents play on (:func:`play_opponents`): ``(states, seats, reward, done)``, new games
    (auto-reset, new seats) already in place of the finished ones."""
    k_env, k_seat, k_play = jax.random.split(key, 3)
    ready = learner_turn(lineup, states, seats)
    out = vec._step(states, jnp.where(ready, actions, -1), k_env)  # -1: no move, no change
    reward = jnp.where(ready, learner_reward(lineup, out, seats), 0.0)
    done = out.done & ready
    seats = jnp.where(done, _new_seats(vec, k_seat), seats)
    states, seats, more, ended = play_opponents(vec, pool, lineup, out.state, seats,
                                                k_play, activation, max_moves)
    return states, seats, reward + more, done | ended
