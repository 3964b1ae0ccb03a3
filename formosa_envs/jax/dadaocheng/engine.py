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

from formosa_envs.core.config import build_config
from formosa_envs.core.engine import AUTO, CHANCE, TERMINAL
from formosa_envs.games.dadaocheng.config import DadaochengConfig
from formosa_envs.games.dadaocheng.game import DadaochengGame

from . import scoring
from .cascade import HISTORY_DTYPE, HISTORY_SIZE
from .legal import legal_mask
from .observe import SIZE, obs_tables, observe
from .settle import run_batch, sample_chance
from .state import DEPTH, FRAME, KINDS, MAX_EVENTS, State, frame, push, top
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
            history=jnp.zeros(HISTORY_SIZE, HISTORY_DTYPE), history_len=i32(0), round=i32(1),
            start_player=i32(0), turn=i32(0), frames=jnp.zeros((DEPTH, FRAME), i32),
            depth=i32(0), over=jnp.bool_(False), decisions=i32(0), overflow=jnp.bool_(False),
            illegal=jnp.bool_(False))
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
        ``apply_action`` and ``settle``). An illegal action (or an outcome of no
        probability) leaves the state as it was, with ``illegal`` set."""
        return _one(self.advance_batch, s, action, key)

    def init(self, key: jax.Array) -> State:
        """A new game after its setup, chance drawn from ``key``: the first decision."""
        return _one(lambda s, a, k: self.init_batch(k), self.new_state(), 0, key)

    def step(self, s: State, action: jnp.ndarray, key: jax.Array) -> State:
        """Apply the pending player decision, then every chance event up to the next
        decision or the end, outcomes drawn from ``key`` (a finished game stays as it is;
        an illegal action leaves the state as it was, with ``illegal`` set)."""
        return _one(self.step_batch, s, action, key)

    def advance_batch(self, s: State, actions: jnp.ndarray, keys: jax.Array) -> State:
        """:meth:`advance` for a batch of games (leading axis), one action and key each."""
        return run_batch(self.tables, s, jnp.asarray(actions, jnp.int32), keys, False,
                         self._sizes(actions))[0]

    def step_batch(self, s: State, actions: jnp.ndarray, keys: jax.Array) -> State:
        """:meth:`step` for a batch of games (leading axis), one action and key each."""
        return self.step_batch_masked(s, actions, keys)[0]

    def step_batch_masked(self, s: State, actions: jnp.ndarray,
                          keys: jax.Array) -> tuple[State, jnp.ndarray]:
        """:meth:`step_batch`, and the new states' legal masks (``bool[B, 96]``, as
        :meth:`legal_mask` gives them; the settle loop has them already)."""
        return run_batch(self.tables, s, jnp.asarray(actions, jnp.int32), keys, True,
                         self._sizes(actions))

    def init_batch(self, keys: jax.Array) -> State:
        """:meth:`init` for ``len(keys)`` games."""
        return self.init_batch_masked(keys)[0]

    def init_batch_masked(self, keys: jax.Array) -> tuple[State, jnp.ndarray]:
        """:meth:`init_batch`, and the games' legal masks."""
        size = keys.shape[0]
        fresh = jax.tree.map(lambda leaf: jnp.broadcast_to(leaf, (size, *leaf.shape)),
                             self.new_state())
        return self.step_batch_masked(fresh, jnp.zeros(size, jnp.int32), keys)

    def _sizes(self, actions: jnp.ndarray) -> tuple[int, ...]:
        """The batch size, then the smaller batches the games still settling move to
        (``settle.settle``): each :attr:`batch_shrink` times smaller, while at least
        :attr:`smallest_batch`."""
        sizes = [int(jnp.shape(actions)[0])]
        while (sizes[-1] // self.batch_shrink >= self.smallest_batch
               and len(sizes) < self.batch_levels):
            sizes.append(sizes[-1] // self.batch_shrink)
        return tuple(sizes)

    smallest_batch = 64
    """The smallest batch the settling games move to."""
    batch_levels = 3
    """Batch sizes at most, the full batch included."""
    batch_shrink = 2
    """Each batch size is this many times smaller than the one before."""

    def sample_chance(self, s: State, key: jax.Array) -> jnp.ndarray:
        """An outcome of the pending chance frame, drawn with the Python engine's odds (the
        layout's outcome is unused: :meth:`apply_chance` deals it from its key)."""
        return sample_chance(self.tables, s, key)


def _one(batched: Any, s: State, action: Any, key: jax.Array) -> State:
    """A batched method applied to one game."""
    out = batched(jax.tree.map(lambda leaf: jnp.asarray(leaf)[None], s),
                  jnp.asarray(action, jnp.int32)[None], key[None])
    return jax.tree.map(lambda leaf: leaf[0], out)


__all__ = ["KINDS", "DadaochengJax"]
