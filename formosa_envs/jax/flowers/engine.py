"""``FlowersJax``: a pure functional Formosa Flowers engine on JAX (PGX style).

Build one object per configuration (player count and variant are static), then call
its pure methods, alone or under ``jax.jit`` / ``jax.vmap``::

    env = FlowersJax(num_players=3, current_month=5)
    state = jax.jit(env.init)(key)
    state = jax.jit(env.step)(state, action, key)

``init`` deals the first round; ``step`` applies the current player's decision and
resolves every chance event (reveal, next deal) from ``key`` up to the next player
decision, as the AEC env's ``resolve_chance`` does. ``state.drawn[:state.num_drawn]``
lists the cards drawn, in the order the Python engine's chance nodes take them.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from formosa_envs.core.config import build_config
from formosa_envs.games.flowers import observer
from formosa_envs.games.flowers.actions import NUM_ACTIONS
from formosa_envs.games.flowers.cards import load_cards
from formosa_envs.games.flowers.config import FlowersConfig
from formosa_envs.games.flowers.game import MAX_DECISIONS

from . import rules
from .deal import deal
from .observe import legal_mask, observe
from .score_tables import build_score_tables
from .scoring import make_scorer
from .state import OVER, TERMINAL, State, blank_state
from .tables import card_tables, obs_tables, rank_reward_table


class FlowersJax:
    """Formosa Flowers for a fixed configuration; ``init`` and ``step`` are pure.

    Options are those of :class:`~formosa_envs.games.flowers.config.FlowersConfig`
    (validated the same way), plus ``max_game_length``: the number of player decisions
    after which ``state.truncated`` is set (the Python engine's guard, 4000).
    """

    def __init__(self, num_players: int = 2, current_month: int | None = None,
                 card_file: str | None = None, target_vp: int = 60,
                 max_game_length: int = MAX_DECISIONS) -> None:
        self.config: FlowersConfig = build_config(
            FlowersConfig, "flowers", num_players=num_players, current_month=current_month,
            card_file=card_file, target_vp=target_vp)
        cfg = self.config
        self.num_players = cfg.num_players
        self.num_actions = NUM_ACTIONS
        self.observation_size = observer.LAYOUT.size
        self.max_game_length = int(max_game_length)
        cards = load_cards(cfg.card_file)
        deal_total = cfg.hand_size * cfg.num_players + cfg.field_size
        self.max_draws = deal_total + 1  # a reveal, then the next round's deal
        self.ctx = rules.Ctx(cfg.num_players, cfg.hand_size, deal_total, cfg.vp_threshold,
                             cfg.target_vp, card_tables(cards),
                             make_scorer(build_score_tables(cards, cfg.num_players,
                                                            cfg.current_month)))
        self._obs = obs_tables(cfg)
        self._template = jax.eval_shape(lambda: blank_state(
            self.num_players, self.max_draws, self.observation_size, self.num_actions))
        self._rank = rank_reward_table(cfg.num_players)

    def init(self, key: jax.Array) -> State:
        """A new game, its first round dealt from ``key``; seat 0 to play."""
        s = blank_state(self.num_players, self.max_draws, self.observation_size,
                        self.num_actions)
        s, order = deal(self.ctx, s, jnp.ones((), bool), key)
        drawn = s.drawn.at[:order.shape[0]].set(order)
        s = s._replace(drawn=drawn, num_drawn=jnp.int32(order.shape[0]))
        return self._finish(s, jnp.zeros(self.num_players, jnp.float32))

    def step(self, state: State, action: Any, key: jax.Array) -> State:
        """Apply ``action`` for ``state.current_player`` and play on to the next decision.

        A finished game is returned unchanged with zero rewards. An illegal action
        leaves the state as it was, with ``illegal`` set and zero rewards.
        """
        return self._step(state, action, key, autoreset=False)[0]

    def step_autoreset(self, state: State, action: Any, key: jax.Array
                       ) -> tuple[State, jnp.ndarray, jnp.ndarray]:
        """:meth:`step`, but a game that ends or is truncated is replaced at once by a new
        game (dealt in the same call). Returns ``(state, terminated, truncated)`` of the
        finished game; ``state.rewards`` holds its final rewards (zero on truncation)."""
        return self._step(state, action, key, autoreset=True)

    def observe(self, state: State, seat: Any) -> jnp.ndarray:
        """The observation of ``seat`` (``FlowersGame.observe`` of the same position)."""
        return observe(self.ctx, self._obs, state, jnp.asarray(seat, jnp.int32))

    def _step(self, state: State, action: Any, key: jax.Array, autoreset: bool
              ) -> tuple[State, jnp.ndarray, jnp.ndarray]:
        action = jnp.asarray(action, jnp.int32)
        ok = self.accepts(state, action)
        s, revealed, dealt, over, scores = rules.before_deal(
            self.ctx, state, action, ok, autoreset, self.max_game_length)
        s, order = deal(self.ctx, s, dealt, key)
        return self.after_deal(state, ok, s, revealed, dealt, order, over, scores)

    def after_deal(self, state: State, ok: jnp.ndarray, s: State, revealed: jnp.ndarray,
                   dealt: jnp.ndarray, order: jnp.ndarray, over: jnp.ndarray,
                   scores: jnp.ndarray) -> tuple[State, jnp.ndarray, jnp.ndarray]:
        """The end of a step: record the draws and fill the public fields (``state``: the
        position before the step; ``ok``: whether its action was applied)."""
        s = s._replace(drawn=self._drawn(revealed, dealt, order),
                       num_drawn=(revealed >= 0) + dealt * order.shape[0])
        s = self._finish(s, self._rewards(scores, over))
        truncated = ok & ~over & (state.decisions + 1 >= self.max_game_length)
        return s._replace(illegal=~ok & ~state.terminated), over, truncated

    def accepts(self, state: State, action: jnp.ndarray) -> jnp.ndarray:
        """Whether ``step`` would apply ``action`` (legal, and the game not over)."""
        legal = state.legal_action_mask[jnp.clip(action, 0, self.num_actions - 1)]
        return legal & (action >= 0) & (action < self.num_actions) & ~state.terminated

    def _drawn(self, revealed: jnp.ndarray, dealt: jnp.ndarray,
               order: jnp.ndarray) -> jnp.ndarray:
        """The draw record of a step: the revealed card, then the new round's deal."""
        pad = jnp.full((1,), -1, jnp.int32)
        deal = jnp.where(dealt, order, -1)
        after_reveal = jnp.concatenate([revealed[None], deal])
        return jnp.where(revealed >= 0, after_reveal, jnp.concatenate([deal, pad]))

    def _finish(self, s: State, rewards: jnp.ndarray) -> State:
        """Fill the public fields (player, mask, observation, rewards) from the position."""
        over = s.kind == OVER
        player = jnp.where(over, TERMINAL, s.turn).astype(jnp.int32)
        s = s._replace(current_player=player, terminated=over, rewards=rewards,
                       truncated=~over & (s.decisions >= self.max_game_length),
                       illegal=jnp.zeros((), bool))
        s = s._replace(legal_action_mask=legal_mask(self.ctx, s),
                       observation=observe(self.ctx, self._obs, s, s.turn))
        return jax.tree_util.tree_map(_strong, s, self._template)

    def _rewards(self, scores: jnp.ndarray, over: jnp.ndarray) -> jnp.ndarray:
        """``Game.returns``: the mean over opponents of sign(own VP - their VP), at the end."""
        signs = jnp.sign(scores[:, None] - scores[None, :]).sum(axis=1)
        return jnp.where(over, self._rank[signs + self.num_players - 1], 0.0)


def _strong(x: jnp.ndarray, like: jax.ShapeDtypeStruct) -> jnp.ndarray:
    """``x`` with the dtype of the template field and no weak type, so that every state
    ``init`` and ``step`` return has the same avals (else jit would trace again)."""
    return jax.lax.convert_element_type(x, like.dtype)
