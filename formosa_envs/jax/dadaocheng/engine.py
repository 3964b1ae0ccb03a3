"""``DadaochengJax``: the Dadaocheng rules on JAX, frame by frame (in progress, issue #29).

One object per configuration (player count and options are static) holds the tables; its
methods are pure and jittable:

* :meth:`DadaochengJax.init` is a new game at its first decision, and
  :meth:`DadaochengJax.step` applies a decision and every chance event up to the next one
  (outcomes drawn from the key): the PGX-style pair;
* :meth:`DadaochengJax.new_state` is a game before its setup's chance events;
* :meth:`DadaochengJax.apply_action` applies the pending player decision, then settles;
* :meth:`DadaochengJax.apply_chance` applies a chance outcome (the ``place_disc`` frame deals
  a whole layout from the key), then settles; :meth:`DadaochengJax.advance` is either;
* :meth:`DadaochengJax.sample_chance` draws the pending chance frame's outcome from a key;
* :meth:`DadaochengJax.legal_mask` and :meth:`DadaochengJax.current_player` read a state.

* :meth:`DadaochengJax.observe` is a seat's observation vector (the Python observer's).

Each call settles as the Python ``settle`` does (:meth:`DadaochengJax.advance`).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from formosa_envs.core.config import build_config
from formosa_envs.core.engine import AUTO, CHANCE, TERMINAL
from formosa_envs.games.dadaocheng.config import DadaochengConfig
from formosa_envs.games.dadaocheng.game import DadaochengGame

from . import flow, scoring, shop
from .cascade import HISTORY_SIZE
from .legal import legal_mask
from .observe import SIZE, obs_tables, observe
from .state import DEPTH, FRAME, KIND, KINDS, MAX_EVENTS, State, frame, pop, push, top
from .tables import Tables, build_tables


class DadaochengJax:
    """Dadaocheng for a fixed configuration (options: those of
    :class:`~formosa_envs.games.dadaocheng.config.DadaochengConfig`)."""

    def __init__(self, num_players: int = 2, **options: Any) -> None:
        self.config = build_config(DadaochengConfig, "dadaocheng", num_players=num_players,
                                   **options)
        self.game = DadaochengGame(self.config)
        self.tables: Tables = build_tables(self.game)
        self.num_players = self.config.num_players
        self.obs_tables = obs_tables(self.game)
        self.observation_size = SIZE
        self.num_actions = 96

    def new_state(self) -> State:
        """A game before setup: the layout, the start player and the three face-up ships
        are pending chance frames (in the Python engine's order), then turn 1."""
        t, n, i32 = self.tables, self.num_players, jnp.int32
        ships = len(self.game.ships)
        piles = [b.piles[n - 1] for b in self.game.buildings]
        events = len(self.game.events)
        s = State(
            cell_disc=jnp.full(16, -1, i32), sides=i32(0), storehouse=jnp.zeros((16, 5), i32),
            remodelled=jnp.zeros(16, bool),
            covered=jnp.asarray([side not in self.game.sides for side in range(4)]),
            hand=jnp.zeros((n, 5), i32), ship_owner=jnp.full(ships, -1, i32),
            buildings=jnp.zeros((n, 5), i32), credit=jnp.zeros(n, i32),
            opium=jnp.zeros(n, i32), sign=jnp.zeros(n, i32), piles=jnp.asarray(piles, i32),
            in_pool=jnp.ones(ships, bool), ship_up=jnp.full(3, -1, i32),
            revealed=jnp.zeros(3, i32), events=jnp.full(MAX_EVENTS, -1, i32),
            event_pool=jnp.full(events, n > 1), used=jnp.zeros(9, i32),
            history=jnp.full(HISTORY_SIZE, -1, i32), history_len=i32(0), round=i32(1),
            start_player=i32(0), turn=i32(0), frames=jnp.zeros((DEPTH, FRAME), i32),
            depth=i32(0), over=jnp.bool_(False), decisions=i32(0), overflow=jnp.bool_(False))
        s = push(s, frame("begin", AUTO))
        for level in reversed(range(3)):
            s = push(s, frame("ship_reveal", CHANCE, 1, level))
        if n > 1:
            s = push(s, frame("start_player", CHANCE))
        del t
        return push(s, frame("place_disc", CHANCE))

    def current_player(self, s: State) -> jnp.ndarray:
        """The seat to decide, ``CHANCE``, or ``TERMINAL`` once the game is over."""
        return jnp.where(s.over, TERMINAL, top(s)[1])

    def scores(self, s: State) -> jnp.ndarray:
        """int32[n]: each player's prestige if the game ended now."""
        return scoring.prestige(self.tables, s)

    def returns(self, s: State) -> jnp.ndarray:
        """float32[n]: the rank returns of a finished game, zero before the end (the Python
        ``Game.returns``)."""
        return scoring.returns(self.tables, s, self.config.solo_target,
                               self.config.solo_challenge)

    def legal_mask(self, s: State) -> jnp.ndarray:
        """bool[96]: the pending decision's legal actions."""
        return legal_mask(self.tables, s)

    def observe(self, s: State, viewer: jnp.ndarray) -> jnp.ndarray:
        """float32[observation_size]: seat ``viewer``'s observation vector (the Python
        observer's, bit for bit)."""
        return observe(self.tables, self.obs_tables, s, jnp.asarray(viewer, jnp.int32))

    def apply_action(self, s: State, action: jnp.ndarray) -> State:
        """Apply a legal ``action`` of the pending player decision, then settle."""
        return self.advance(s, action, jax.random.key(0))

    def apply_chance(self, s: State, outcome: jnp.ndarray, key: jax.Array) -> State:
        """Apply the pending chance frame's ``outcome`` (a layout is dealt from ``key``),
        then settle."""
        return self.advance(s, outcome, key)

    def advance(self, s: State, action: jnp.ndarray, key: jax.Array) -> State:
        """Apply the pending node (a player's ``action``, or at a chance frame the outcome
        ``action``, a layout being dealt from ``key``), then settle: automatic frames run,
        and a player decision with a single legal action is applied without counting as a
        decision, until a real decision, a chance event or the end (the Python
        ``apply_action`` and ``settle``)."""
        return self._run(s, jnp.asarray(action, jnp.int32), key, draw=False)

    def init(self, key: jax.Array) -> State:
        """A new game after its setup, chance drawn from ``key``: the first decision."""
        return self._run(self.new_state(), jnp.int32(0), key, draw=True)

    def step(self, s: State, action: jnp.ndarray, key: jax.Array) -> State:
        """Apply the pending player decision, then every chance event up to the next
        decision or the end, outcomes drawn from ``key`` (a finished game stays as it is)."""
        return self._run(s, jnp.asarray(action, jnp.int32), key, draw=True)

    def _run(self, s: State, action: jnp.ndarray, key: jax.Array, draw: bool) -> State:
        """The one loop that applies every frame (so the rules are traced once): the
        pending node with ``action``, then automatic frames, forced decisions and, with
        ``draw``, chance frames (outcomes from ``key``), until a decision it may not take.
        The legal mask of the state reached is computed once an iteration and carried."""
        t = self.tables

        def going(carry: tuple[State, jnp.ndarray, jnp.ndarray]) -> jnp.ndarray:
            s, count, mask = carry
            f = top(s)
            forced = (f[1] >= 0) & (mask.sum() == 1)
            automatic = (f[1] == AUTO) | forced | ((f[1] == CHANCE) & draw)
            return ~s.over & (s.depth > 0) & ((count == 0) | automatic)

        def step(carry: tuple[State, jnp.ndarray, jnp.ndarray]) -> tuple:
            s, count, mask = carry
            f, first = top(s), count == 0
            draw_key, deal_key = jax.random.split(jax.random.fold_in(key, count))
            outcome = self.sample_chance(s, draw_key) if draw else action
            chosen = jnp.where(f[1] == CHANCE, jnp.where(first & ~draw, action, outcome),
                               jnp.where(first, action, jnp.argmax(mask).astype(jnp.int32)))
            s = jax.lax.cond(f[1] == CHANCE,
                             lambda x: flow.chance(t, pop(x), f, chosen, deal_key),
                             lambda x: apply_frame(t, pop(x), f, chosen), s)
            counted = jnp.where(first & (f[1] >= 0), 1, 0)
            s = s._replace(decisions=s.decisions + counted)
            return s, count + 1, legal_mask(t, s)

        start = (s, jnp.int32(0), legal_mask(t, s))
        return jax.lax.while_loop(going, step, start)[0]

    def sample_chance(self, s: State, key: jax.Array) -> jnp.ndarray:
        """An outcome of the pending chance frame, drawn with the Python engine's odds (the
        layout's outcome is unused: :meth:`apply_chance` deals it from its key)."""
        f = top(s)
        level_ships = s.in_pool & (self.tables.ship_level == f[3])
        odds = jnp.select(
            [f[0] == KIND["ship_reveal"], f[0] == KIND["event_draw"],
             f[0] == KIND["start_player"], f[0] == KIND["die"]],
            [pad(level_ships), pad(s.event_pool), pad(jnp.arange(self.num_players) >= 0),
             pad(jnp.ones(6, bool))], pad(jnp.ones(1, bool)))
        return jax.random.choice(key, odds.shape[0], p=odds / odds.sum()).astype(jnp.int32)


def pad(mask: jnp.ndarray, size: int = 64) -> jnp.ndarray:
    """float32[size]: ``mask`` as weights, zero-padded."""
    return jnp.zeros(size, jnp.float32).at[:mask.shape[0]].set(mask.astype(jnp.float32))


def apply_frame(t: Tables, s: State, f: jnp.ndarray, action: jnp.ndarray) -> State:
    """Apply frame ``f`` (already popped) with ``action``: the Python handler of its kind
    (``cascade`` and ``line`` share one cascade run: under ``vmap`` every branch runs)."""
    handlers = {
        "move": lambda x: flow.move(x, f, action),
        "swap_to": lambda x: flow.swap_to(x, f, action),
        "after_planning": flow.after_planning,
        "loop_any": lambda x: shop.gain_one(x, f, action),
        "loop_gift": lambda x: shop.gain_one(x, f, action),
        "full_house_check": lambda x: shop.full_house_check(t, x, f),
        "full_house": lambda x: shop.full_house(t, x, f, action),
        "discard": lambda x: shop.lose_one(x, f, action),
        "lose": lambda x: shop.lose_one(x, f, action),
        "stage4": lambda x: shop.stage4(t, x, f),
        "purchase": lambda x: shop.purchase(t, x, f, action),
        "store_space": lambda x: shop.store_space(t, x, f, action),
        "give": lambda x: shop.give(x, f, action),
        "take": lambda x: shop.gain_one(x, f, action),
        "end_turn": lambda x: shop.end_turn(t, x),
        "convert": lambda x: shop.convert(x, f, action),
        "convert_check": lambda x: shop.convert_check(x, f),
        "exchange_more": lambda x: shop.exchange_more(x, f, action),
        "next_turn": lambda x: flow.next_turn(t, x),
        "start_round": lambda x: flow.start_turn(x, x.start_player),
        "pay": lambda x: shop.pay(t, x, f, action),
        "begin": lambda x: begin(t, x)}
    names = list(handlers)
    codes = np.array([KIND[name] for name in names])
    which = jnp.argmax(jnp.asarray(codes) == f[0])
    handled = jax.lax.switch(which, [handlers[name] for name in names], s)
    cascading = (f[0] == KIND["cascade"]) | (f[0] == KIND["line"])
    return jax.tree.map(lambda a, b: jnp.where(cascading, a, b),
                        flow.cascade(t, s, jnp.where(f[0] == KIND["line"], action, -1)), handled)


def begin(t: Tables, s: State) -> State:
    """The end of setup: 1851 revealed with 2+ players, then turn 1 (DDC-2)."""
    if t.num_players > 1:
        s = s._replace(events=s.events.at[0].set(t.first_event),
                       event_pool=s.event_pool.at[t.first_event].set(False))
    return flow.start_turn(s, s.start_player)


__all__ = ["KINDS", "DadaochengJax"]
