"""A batch of Dadaocheng games on JAX with auto-reset, and a numpy adapter.

:class:`DadaochengVecEnv` steps ``num_envs`` games with one jitted call: each applies its
current player's action and every chance event up to its next decision; a game that ends
(or reaches ``max_game_length`` decisions: truncated) reports its final rewards in that
step's output and is replaced in the same step by a new game. An output carries the current
player's observation (the Python observer's vector), the legal mask, the current player,
the rewards and the end flags. An action of ``-1`` (or any illegal one) leaves its game as
it was: the jitted self-play PPO (:mod:`formosa_envs.training.jax.ppo`) uses it for the
lanes that wait. :class:`NumpyDadaochengVecEnv` takes and gives numpy arrays and refuses
illegal actions.

Rewards: ``"rank"`` (default) is the game's own returns, when the game ends (rank against
the others; solo: +1 when the objective is met, else -1). ``"margin"`` (solo only) is a
score-margin reward that keeps telling better games from worse ones where the objective is
rarely met: at every step the change in prestige (the prestige if the game ended now), and
at the end minus the objective's target, all divided by :data:`MARGIN_SCALE`. A game's
rewards add up to its final prestige minus the target, over the scale (the change in a
potential: the best policies are those of the final margin).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from formosa_envs.games.dadaocheng.game import MAX_DECISIONS

from ..vec import check_actions, done_flag, state_field
from .engine import DadaochengJax
from .state import State

REWARDS = ("rank", "margin")
MARGIN_SCALE = 20.0
"""Prestige points per unit of the ``margin`` reward."""


class Games(NamedTuple):
    """A batch of games and what the current players see (leading batch axis)."""

    game: State                    # the engine states
    observation: jnp.ndarray       # float32[B, 660]: the current player's view
    legal_action_mask: jnp.ndarray  # bool[B, 96]
    current_player: jnp.ndarray    # int32[B]


class VecStep(NamedTuple):
    """One batched step's output (a leading batch axis on every field)."""

    state: Games                   # the games after the step (new ones where one ended)
    rewards: jnp.ndarray           # float32[B, n]: the ended games' rewards, else 0
    terminated: jnp.ndarray        # bool[B]: a game ended by the rules in this step
    truncated: jnp.ndarray         # bool[B]: a game reached max_game_length first

    observation = state_field("observation",
                              "float32[B, observation_size]: the current player's view.")
    legal_action_mask = state_field("legal_action_mask",
                                    "bool[B, 96]: the current player's legal actions.")
    current_player = state_field("current_player", "int32[B]: the seat to decide.")
    done = property(done_flag, doc="bool[B]: the game ended in this step (and was replaced).")


class DadaochengVecEnv:
    """``num_envs`` games of one configuration (options: those of
    :class:`~formosa_envs.games.dadaocheng.config.DadaochengConfig`); ``reset_chunk``: new
    games made at once when games finish."""

    def __init__(self, num_envs: int, num_players: int = 2,
                 max_game_length: int = MAX_DECISIONS, reset_chunk: int = 32,
                 reward: str = "rank", **options: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if reward not in REWARDS or (reward == "margin" and num_players != 1):
            raise ValueError(f"reward must be one of {REWARDS} ('margin': solo only), got "
                             f"{reward!r} with {num_players} players")
        self.num_envs = int(num_envs)
        self.reward = reward
        self.engine = DadaochengJax(num_players, **options)
        self.num_players = self.engine.num_players
        self.num_actions = self.engine.num_actions
        self.observation_size = self.engine.observation_size
        self.max_game_length = int(max_game_length)
        if reset_chunk < 1:
            raise ValueError(f"reset_chunk must be at least 1, got {reset_chunk}")
        self.reset_chunk = min(self.num_envs, int(reset_chunk))
        """New games made at once when games finish (see :meth:`_restart`)."""
        self.reset = jax.jit(self._reset)
        self.step = jax.jit(self._step)

    def _out(self, s: State, masks: jnp.ndarray, rewards: jnp.ndarray,
             terminated: jnp.ndarray, truncated: jnp.ndarray) -> VecStep:
        engine = self.engine
        player = jax.vmap(engine.current_player)(s)
        seen = jax.vmap(engine.observe)(s, jnp.maximum(player, 0))
        return VecStep(Games(s, seen, masks, player), rewards, terminated, truncated)

    def _reset(self, key: jax.Array) -> VecStep:
        s, masks = self.engine.init_batch_masked(jax.random.split(key, self.num_envs))
        zeros = jnp.zeros(self.num_envs, bool)
        return self._out(s, masks, jnp.zeros((self.num_envs, self.num_players)), zeros, zeros)

    def _step(self, games: Games, actions: jnp.ndarray, key: jax.Array) -> VecStep:
        step_key, reset_key = jax.random.split(key)
        keys = jax.random.split(step_key, self.num_envs)
        s, masks = self.engine.step_batch_masked(games.game, jnp.asarray(actions, jnp.int32),
                                                 keys)
        terminated = s.over
        truncated = ~terminated & (s.decisions >= self.max_game_length)
        if self.reward == "margin":
            rewards = self._margin(games.game, s, terminated)
        else:
            rewards = jnp.where(terminated[:, None], jax.vmap(self.engine.returns)(s), 0.0)
        s, masks = self._restart(s, masks, terminated | truncated, reset_key)
        return self._out(s, masks, rewards, terminated, truncated)

    def _margin(self, before: State, after: State, ended: jnp.ndarray) -> jnp.ndarray:
        """float32[B, n]: the ``margin`` rewards of a step (see the module docstring)."""
        scores = jax.vmap(self.engine.scores)
        change = scores(after) - scores(before)
        target = jnp.where(ended[:, None], self.engine.config.solo_target, 0)
        return (change - target).astype(jnp.float32) / MARGIN_SCALE

    def _restart(self, s: State, masks: jnp.ndarray, done: jnp.ndarray,
                 key: jax.Array) -> tuple[State, jnp.ndarray]:
        """New games (and their legal masks) in the ``done`` slots. A new game costs a
        whole setup, so they are made :attr:`reset_chunk` at a time (as many chunks as
        there are finished games) and scattered into their slots, not made for every slot
        and selected."""
        chunk = self.reset_chunk

        def more(carry: tuple) -> jnp.ndarray:
            return carry[1].any()

        def fill(carry: tuple) -> tuple:
            games, waiting, count = carry
            rank = jnp.cumsum(waiting) - 1
            slot_of = jnp.full(chunk, self.num_envs, jnp.int32).at[
                jnp.where(waiting & (rank < chunk), rank, chunk)].set(
                jnp.arange(self.num_envs, dtype=jnp.int32), mode="drop")
            fresh = self.engine.init_batch_masked(
                jax.random.split(jax.random.fold_in(key, count), chunk))
            games = jax.tree.map(lambda old, new: old.at[slot_of].set(new, mode="drop"),
                                 games, fresh)
            return games, waiting & (rank >= chunk), count + 1

        return jax.lax.while_loop(more, fill, ((s, masks), done, jnp.int32(0)))[0]


class NumpyDadaochengVecEnv:
    """:class:`DadaochengVecEnv` with numpy in and out; the batch's JAX state stays
    inside (``seed`` seeds the reset key; each step splits it)."""

    def __init__(self, num_envs: int, num_players: int = 2, seed: int = 0,
                 **options: Any) -> None:
        self.vec = DadaochengVecEnv(num_envs, num_players, **options)
        self.key = jax.random.key(seed)
        self.out: VecStep | None = None

    def reset(self, seed: int | None = None) -> dict[str, np.ndarray]:
        """New games; the legal masks and current players."""
        if seed is not None:
            self.key = jax.random.key(seed)
        self.key, sub = jax.random.split(self.key)
        self.out = self.vec.reset(sub)
        return self._numpy(self.out)

    def step(self, actions: np.ndarray) -> dict[str, np.ndarray]:
        """Apply one action per game (illegal actions are refused with a ValueError)."""
        if self.out is None:
            raise RuntimeError("call reset() before step()")
        actions = check_actions(actions, np.asarray(self.out.legal_action_mask))
        self.key, sub = jax.random.split(self.key)
        self.out = self.vec.step(self.out.state, actions, sub)
        return self._numpy(self.out)

    @staticmethod
    def _numpy(out: VecStep) -> dict[str, np.ndarray]:
        return {"observation": np.asarray(out.observation),
                "legal_action_mask": np.asarray(out.legal_action_mask),
                "current_player": np.asarray(out.current_player),
                "rewards": np.asarray(out.rewards), "terminated": np.asarray(out.terminated),
                "truncated": np.asarray(out.truncated)}
