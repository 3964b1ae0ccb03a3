"""Differential harness: the JAX engine against the Python engine, decision by decision.

Both engines play the same games: the same random legal actions, and the Python engine's
chance nodes take exactly the cards the JAX engine drew (``state.drawn``), in order. At
every player decision the harness compares the current player, the legal mask, every
seat's observation (exact float32 equality), the scores and the terminal flag; at the end
of a game, the final rewards (the env's ``rank`` rewards, ``Game.returns``).

Two drivers: ``mode="step"`` runs ``vmap(FlowersJax.step)`` over a batch of games (and
checks terminal states, then that stepping them is a no-op), ``mode="vec"`` runs
:class:`FlowersVecEnv` (auto-reset streams: a finished game is followed in the same
step by a new one, whose deal the harness feeds to a fresh Python game).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from formosa_envs.core.engine import CHANCE, TERMINAL
from formosa_envs.games import make_game
from formosa_envs.jax import FlowersJax, FlowersVecEnv


@dataclass
class Tally:
    """What a run compared."""

    games: int = 0
    decisions: int = 0
    truncated: int = 0
    problems: list[str] = field(default_factory=list)


class Mismatch(AssertionError):
    """The engines disagree (the message names the game, the decision and the field)."""


def _check(ok: bool, what: str | Callable[[], str]) -> None:
    """Raise :class:`Mismatch` unless ``ok`` (``what``: the message, or a function making
    it, so that passing checks format nothing)."""
    if not ok:
        raise Mismatch(what if isinstance(what, str) else what())


class Stream:
    """One Python game mirroring one JAX batch slot."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.state = game.new_initial_state()
        self.index = 0  # games this slot has started

    def feed(self, cards: np.ndarray) -> None:
        """Apply the JAX draws to the Python chance nodes, in order."""
        for card in cards.tolist():
            _check(self.game.current_player(self.state) == CHANCE,
                   f"JAX drew card {card} but the Python game is not at a chance node")
            self.game.apply_action(self.state, int(card))  # validates: card in the deck
        _check(self.game.current_player(self.state) != CHANCE,
               "the Python game still waits for chance after the JAX draws")


def compare(slot: int, stream: Stream, view: dict[str, np.ndarray], seats: np.ndarray) -> None:
    """Compare one live decision point of slot ``slot``."""
    g, ps = stream.game, stream.state
    where = f"slot {slot} game {stream.index} decision {ps.decisions}"  # cheap: no arrays
    player = g.current_player(ps)
    _check(player == int(view["current_player"][slot]),
           lambda: f"{where}: current player {view['current_player'][slot]} != {player}")
    _check(bool(view["terminated"][slot]) == (player == TERMINAL), f"{where}: terminal flag")
    _check(view["scores"][slot].tolist() == ps.scores,
           lambda: f"{where}: scores {view['scores'][slot].tolist()} != {ps.scores}")
    if player == TERMINAL:
        return
    mask = g.legal_mask(ps).astype(bool)
    _check(np.array_equal(view["legal_action_mask"][slot], mask), lambda: f"{where}: legal "
           f"mask {np.flatnonzero(view['legal_action_mask'][slot])} != {np.flatnonzero(mask)}")
    _check(np.array_equal(view["observation"][slot], g.observe(ps, player)),
           f"{where}: observation of the current player")
    for seat in range(g.num_players):
        obs = g.observe(ps, seat)
        if not np.array_equal(seats[slot, seat], obs):
            diff = np.flatnonzero(seats[slot, seat] != obs)[:8]
            raise Mismatch(f"{where}: observation of seat {seat} differs at {diff}")


def _fields(s: Any) -> dict[str, np.ndarray]:
    names = ("current_player", "terminated", "scores", "legal_action_mask", "observation",
             "drawn", "num_drawn", "rewards")
    return dict(zip(names, jax.device_get(tuple(getattr(s, n) for n in names)), strict=True))


def run(num_players: int, current_month: int | None, games: int, batch: int, seed: int,
        mode: str = "vec", **options: Any) -> Tally:
    """Play ``games`` games in both engines (``batch`` at a time) and compare them."""
    game = make_game("flowers", num_players=num_players, current_month=current_month,
                     **{k: v for k, v in options.items() if k != "max_game_length"})
    limit = options.get("max_game_length", game.max_game_length)
    config = (num_players, current_month, tuple(sorted(options.items())))
    if mode == "vec":
        return _run_vec(vec_env(batch, *config), game, games, seed, limit)
    return _run_step(engine(*config), game, games, batch, seed)


@cache
def engine(num_players: int, current_month: int | None, options: tuple = ()) -> FlowersJax:
    """One engine per configuration for the whole session (its jitted code is reused)."""
    return FlowersJax(num_players=num_players, current_month=current_month, **dict(options))


@cache
def vec_env(batch: int, num_players: int, current_month: int | None,
            options: tuple = ()) -> FlowersVecEnv:
    """One vec env per batch size and configuration for the whole session."""
    return FlowersVecEnv(batch, num_players, current_month=current_month, **dict(options))


@cache
def jitted(env: FlowersJax) -> tuple[Any, Any, Any]:
    """``jit(vmap(init))``, ``jit(vmap(step))`` and every seat's observation, batched."""
    per_game = jax.vmap(env.observe, in_axes=(None, 0))
    views = jax.jit(lambda s: jax.vmap(per_game, in_axes=(0, None))(
        s, jnp.arange(env.num_players)))
    return jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step)), views


def _pick(rng: np.random.Generator, masks: np.ndarray, live: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per live slot (0 elsewhere)."""
    noise = rng.random(masks.shape) * masks
    return np.where(live, noise.argmax(axis=1), 0).astype(np.int32)


def _run_vec(vec: FlowersVecEnv, game: Any, games: int, seed: int, limit: int) -> Tally:
    tally, rng = Tally(), np.random.default_rng(seed)
    views = jitted(vec.engine)[2]
    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    out = vec.reset(sub)
    view = _fields(out.state)
    streams = [Stream(game) for _ in range(vec.num_envs)]
    for i, st in enumerate(streams):
        st.feed(view["drawn"][i, :view["num_drawn"][i]])
    live = np.ones(vec.num_envs, bool)
    quota = -(-games // vec.num_envs)  # games each slot plays
    while live.any():
        seat_obs = np.asarray(views(out.state))
        for i in np.flatnonzero(live):
            compare(i, streams[i], view, seat_obs)
        actions = _pick(rng, view["legal_action_mask"], live)
        for i in np.flatnonzero(live):
            game.apply_action(streams[i].state, int(actions[i]))
            tally.decisions += 1
        key, sub = jax.random.split(key)
        out = vec.step(out.state, jnp.asarray(actions), sub)
        view = _fields(out.state)
        done = np.asarray(out.terminated) | np.asarray(out.truncated)
        for i in np.flatnonzero(live):
            drawn = view["drawn"][i, :view["num_drawn"][i]]
            if done[i]:
                _finish_vec(i, streams[i], out, view, drawn, limit, tally)
            else:
                streams[i].feed(drawn)
                _check(not view["rewards"][i].any(), f"slot {i}: rewards mid-game")
        live &= ~(done & (np.array([st.index for st in streams]) >= quota))
    return tally


def _finish_vec(slot: int, st: Stream, out: Any, view: dict[str, np.ndarray],
                drawn: np.ndarray, limit: int, tally: Tally) -> None:
    """Check a game that finished on this step, then start its successor."""
    game, old = st.game, len(drawn) - (view["drawn"].shape[1] - 1)  # the new deal comes last
    for card in drawn[:old].tolist():  # the old game's last reveal, if any
        game.apply_action(st.state, int(card))
    rest = drawn[old:]
    where, rewards = f"slot {slot} game {st.index}", view["rewards"][slot]
    if bool(out.terminated[slot]):
        _check(game.is_terminal(st.state), f"{where}: JAX ended a live game")
        want = np.float32(game.returns(st.state))
        _check(np.array_equal(rewards, want), lambda: f"{where}: rewards {rewards} != {want}")
    else:
        _check(not game.is_terminal(st.state) and st.state.decisions >= limit,
               f"{where}: truncated at {st.state.decisions} decisions (limit {limit})")
        _check(not rewards.any(), f"{where}: rewards on truncation")
        tally.truncated += 1
    st.state, st.index = game.new_initial_state(), st.index + 1
    st.feed(rest)
    tally.games += 1


def _run_step(env: FlowersJax, game: Any, games: int, batch: int, seed: int) -> Tally:
    tally, rng = Tally(), np.random.default_rng(seed)
    init, step, views = jitted(env)
    key = jax.random.PRNGKey(seed)
    while tally.games < games:
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, batch))
        streams = [Stream(game) for _ in range(batch)]
        live = np.ones(batch, bool)
        while live.any():
            view = _fields(state)
            seat_obs = np.asarray(views(state))
            for i in np.flatnonzero(live):
                streams[i].feed(view["drawn"][i, :view["num_drawn"][i]])
                compare(i, streams[i], view, seat_obs)
                if view["terminated"][i]:
                    _terminal(i, streams[i], view, seat_obs)
                    live[i] = False
                    tally.games += 1
            actions = _pick(rng, view["legal_action_mask"], live)
            for i in np.flatnonzero(live):
                game.apply_action(streams[i].state, int(actions[i]))
                tally.decisions += 1
            key, sub = jax.random.split(key)
            before = state
            state = step(state, jnp.asarray(actions), jax.random.split(sub, batch))
            _check_frozen(before, state, ~live)
    return tally


def _terminal(slot: int, stream: Stream, view: dict[str, np.ndarray], seats: np.ndarray) -> None:
    g, ps = stream.game, stream.state
    want = np.float32(g.returns(ps))
    _check(np.array_equal(view["rewards"][slot], want),
           lambda: f"slot {slot}: final rewards {view['rewards'][slot]} != {want}")
    _check(not view["legal_action_mask"][slot].any(), f"slot {slot}: legal actions at the end")
    for seat in range(g.num_players):
        _check(np.array_equal(seats[slot, seat], g.observe(ps, seat)),
               f"slot {slot}: terminal observation of seat {seat}")
    _check(np.array_equal(view["observation"][slot], g.observe(ps, ps.turn)),
           f"slot {slot}: terminal observation (last player's view)")


def _check_frozen(before: Any, after: Any, finished: np.ndarray) -> None:
    """Stepping a finished game changes nothing but zeroes its rewards and draws."""
    idx = np.flatnonzero(finished)
    if not idx.size:
        return
    for name in ("scores", "hands", "field", "piles", "deck_order", "deck_next", "round",
                 "current_player"):
        a, b = np.asarray(getattr(before, name))[idx], np.asarray(getattr(after, name))[idx]
        _check(np.array_equal(a, b), f"stepping a finished game changed {name}")
    _check(not np.asarray(after.rewards)[idx].any(), "a finished game kept paying rewards")
