"""Batched Formosa Flowers on JAX: ``FlowersVecEnv`` (JAX arrays) and a numpy adapter.

Every environment of the batch is an independent game. ``step`` applies one action
per environment (for its ``current_player``), resolves chance, and restarts at once a
game that ended or hit the decision limit: the returned observation and mask are then
the new game's, while ``rewards`` / ``terminated`` / ``truncated`` describe the game
that just finished (the "same-step" auto-reset of Gymnasium's vector envs).
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from formosa_envs.games.flowers.state import NUM_CARDS

from ..vec import check_actions, done_flag, state_field
from . import rules
from .bits import WORDS
from .deal import apply_deal, lay_out, shuffle_rows
from .engine import FlowersJax
from .state import State


class VecStep(NamedTuple):
    """What a batched reset or step returns (leading axis: the environments)."""

    state: State                    # the batch of states to pass to the next step
    terminated: jnp.ndarray         # bool[B]: the game ended by the rules on this step
    truncated: jnp.ndarray          # bool[B]: the game hit max_game_length on this step

    # The rest is read from the states, so that a jitted step returns each array once.
    observation = state_field("observation", "float32[B, 442]: the current player's view.")
    legal_action_mask = state_field("legal_action_mask",
                                    "bool[B, 111]: the current player's legal actions.")
    current_player = state_field("current_player", "int32[B]: the seat to decide.")
    rewards = state_field("rewards", "float32[B, n]: final rank rewards of the games that "
                                     "finished on this step.")
    done = property(done_flag, doc="bool[B]: the game of this environment finished on "
                                   "this step (then restarted).")


class FlowersVecEnv:
    """``num_envs`` Formosa Flowers games stepped together; ``reset``/``step`` are jitted.

    ``deal_chunk``: how many deals one pass computes (default: an eighth of the batch;
    a step with more deals makes more passes). Other keyword options go to
    :class:`~formosa_envs.jax.flowers.engine.FlowersJax`.
    """

    def __init__(self, num_envs: int, num_players: int = 2, deal_chunk: int | None = None,
                 **options: Any) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.num_envs = num_envs
        self.chunk = deal_chunk or max(1, min(num_envs, -(-num_envs // 8)))
        self.engine = FlowersJax(num_players=num_players, **options)
        self.num_players = self.engine.num_players
        self.num_actions = self.engine.num_actions
        self.observation_size = self.engine.observation_size
        self.reset = jax.jit(self._reset)
        self.step = jax.jit(self._step)

    def _reset(self, key: jax.Array) -> VecStep:
        """New games in every environment, dealt from ``key``."""
        state = jax.vmap(self.engine.init)(jax.random.split(key, self.num_envs))
        false = jnp.zeros(self.num_envs, bool)
        return _out(state, false, false)

    def _step(self, state: State, actions: jnp.ndarray, key: jax.Array) -> VecStep:
        """One action per environment (int[B]); chance from ``key``; finished games restart.

        The same transition as ``vmap(FlowersJax.step_autoreset)``, but the deals (a
        shuffle each) are computed only for the environments that need one this step,
        gathered ``chunk`` at a time, instead of for the whole batch (so the random
        streams differ from that of ``vmap``: the same distribution)."""
        eng = self.engine
        actions = jnp.asarray(actions, jnp.int32)
        ok = jax.vmap(eng.accepts)(state, actions)
        pre = partial(rules.before_deal, eng.ctx, autoreset=True,
                      max_decisions=eng.max_game_length)
        s, revealed, dealt, over, scores = jax.vmap(pre)(state, actions, ok)
        hands, field, order = compact_deals(eng.ctx, s.round_start, dealt, key, self.chunk)
        s = jax.vmap(partial(apply_deal, eng.ctx))(s, dealt, hands, field, order)
        s, terminated, truncated = jax.vmap(eng.after_deal)(
            state, ok, s, revealed, dealt, order[:, :eng.ctx.deal_total], over, scores)
        return _out(s, terminated, truncated)


def compact_deals(ctx: rules.Ctx, round_start: jnp.ndarray, need: jnp.ndarray,
                  key: jax.Array, chunk: int
                  ) -> tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]:
    """``(hands, field, order)`` of a fresh deal (:func:`.deal.lay_out`) for each
    environment where ``need`` holds (empty sets and -1 elsewhere): ``chunk`` shuffles
    per pass from one draw of random bits (pass ``c`` uses ``fold_in(key, c)``), as many
    passes as needed."""
    b, n = need.shape[0], ctx.num_players
    chunks = -(-b // chunk)
    slots = jnp.nonzero(need, size=chunks * chunk, fill_value=b)[0]
    out = (jnp.zeros((b, n, WORDS), jnp.uint32), jnp.zeros((b, WORDS), jnp.uint32),
           jnp.full((b, NUM_CARDS), -1, jnp.int32))
    lay = jax.vmap(partial(lay_out, ctx))

    def one_pass(c: jnp.ndarray, acc: tuple) -> tuple:
        idx = jax.lax.dynamic_slice(slots, (c * chunk,), (chunk,))
        orders = shuffle_rows(jax.random.fold_in(key, c), chunk)
        made = (*lay(round_start[jnp.minimum(idx, b - 1)], orders), orders)
        return tuple(a.at[idx].set(m, mode="drop") for a, m in zip(acc, made, strict=True))

    passes = (need.sum() + chunk - 1) // chunk
    return jax.lax.fori_loop(0, passes, one_pass, out)


def _out(state: State, terminated: jnp.ndarray, truncated: jnp.ndarray) -> VecStep:
    return VecStep(state, terminated, truncated)


class NumpyFlowersVecEnv:
    """:class:`FlowersVecEnv` with numpy in and out, for clients that do not use JAX.

    ``reset(seed)`` and ``step(actions)`` return a dict of numpy arrays: ``observation``,
    ``legal_action_mask``, ``current_player``, ``rewards``, ``terminated``,
    ``truncated``. The batch of states and the random key stay inside; ``step`` checks
    the actions against the last legal masks and raises ``ValueError`` before stepping.
    ``vec`` wraps an existing :class:`FlowersVecEnv` (and its compiled functions).
    """

    def __init__(self, num_envs: int, num_players: int = 2, seed: int = 0,
                 vec: FlowersVecEnv | None = None, **options: Any) -> None:
        self.vec = vec or FlowersVecEnv(num_envs, num_players, **options)
        if self.vec.num_envs != num_envs or self.vec.num_players != num_players:
            raise ValueError("vec has a different num_envs or num_players")
        self.num_envs, self.num_players = num_envs, self.vec.num_players
        self._key = jax.random.PRNGKey(seed)
        self._state: State | None = None
        self._mask = np.zeros((num_envs, self.vec.num_actions), bool)

    def reset(self, seed: int | None = None) -> dict[str, np.ndarray]:
        """Start every game again (a new seed, if given, fixes all later chance)."""
        if seed is not None:
            self._key = jax.random.PRNGKey(seed)
        self._key, sub = jax.random.split(self._key)
        return self._keep(self.vec.reset(sub))

    def step(self, actions: np.ndarray) -> dict[str, np.ndarray]:
        """One action per environment (ints of shape ``(num_envs,)``)."""
        if self._state is None:
            raise RuntimeError("call reset() before step()")
        actions = check_actions(actions, self._mask)
        self._key, sub = jax.random.split(self._key)
        return self._keep(self.vec.step(self._state, jnp.asarray(actions), sub))

    def _keep(self, out: VecStep) -> dict[str, np.ndarray]:
        self._state = out.state
        fields = ("observation", "legal_action_mask", "current_player", "rewards",
                  "terminated", "truncated")
        got = dict(zip(fields, jax.device_get(tuple(getattr(out, f) for f in fields)),
                       strict=True))
        self._mask = got["legal_action_mask"]
        return got
