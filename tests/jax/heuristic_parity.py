"""Differential harness: the JAX Flowers heuristic against the Python heuristic.

Heuristic-played games run in both engines in lockstep (the Python chance nodes take the
JAX engine's draws, as in :mod:`.parity`). At every decision the Python heuristic chooses
with its seeded generator; the JAX heuristic is given the same draws as its tie-break
noise (``rng.random(len(legal))`` spread over the legal actions, when the Python side
draws any) and must choose the same action. Both engines then apply it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from formosa_envs.agents.heuristics import flowers as python_heuristic

from formosa_envs.core.engine import TERMINAL
from formosa_envs.games import make_game
from formosa_envs.games.flowers.rules import KEEP_OR_CASH
from formosa_envs.jax.flowers.heuristic import FlowersHeuristicJax

from .parity import Mismatch, Stream, engine, jitted


@dataclass
class HeuristicTally:
    """What a run compared."""

    games: int = 0
    decisions: int = 0
    tie_breaks: int = 0  # decisions where the Python side drew noise among exact ties


@cache
def chooser(num_players: int, current_month: int | None) -> Any:
    """``jit(vmap(FlowersHeuristicJax.choose))`` for one configuration (kept per session)."""
    return jax.jit(jax.vmap(FlowersHeuristicJax(engine(num_players, current_month)).choose))


def python_choice(game: Any, state: Any, rng: np.random.Generator
                  ) -> tuple[int, np.ndarray, bool]:
    """The Python heuristic's action, the noise it drew (over the 111 actions, zero when it
    drew none) and whether the best value was an exact tie."""
    noise = np.zeros(game.num_actions, np.float32)
    legal = game.legal_actions(state)
    tie = False
    if len(legal) > 1 and state.stack[-1].kind != KEEP_OR_CASH:
        noise[legal] = copy.deepcopy(rng).random(len(legal))
        view = python_heuristic._View(game, state, state.stack[-1].player,
                                      python_heuristic.DEFAULT_WEIGHTS)
        values = _python_values(view, state, legal)
        tie = int((values >= values.max() - 1e-9).sum()) > 1
    return python_heuristic.choose(game, state, rng), noise, tie


def _python_values(view: Any, state: Any, legal: list[int]) -> np.ndarray:
    from formosa_envs.games.flowers.actions import PLAY0
    from formosa_envs.games.flowers.rules import PLAY
    d = state.stack[-1]
    if d.kind == PLAY:
        return np.array([view.play_value(a - PLAY0) for a in legal])
    return np.array([view.capture_value(d.ctx[0], a) for a in legal])


def run_heuristic(num_players: int, current_month: int | None, games: int, batch: int,
                  seed: int) -> HeuristicTally:
    """Play ``games`` heuristic games (``batch`` at a time) in both engines and compare
    every decision."""
    game = make_game("flowers", num_players=num_players, current_month=current_month)
    init, step, _ = jitted(engine(num_players, current_month))
    choose = chooser(num_players, current_month)
    tally, rng, key = HeuristicTally(), np.random.default_rng(seed), jax.random.PRNGKey(seed)
    while tally.games < games:
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, batch))
        streams = [Stream(game) for _ in range(batch)]
        live = np.ones(batch, bool)
        while live.any():
            drawn, num_drawn, player = jax.device_get(
                (state.drawn, state.num_drawn, state.current_player))
            actions = np.zeros(batch, np.int32)
            noise = np.zeros((batch, game.num_actions), np.float32)
            for i in np.flatnonzero(live):
                st = streams[i]
                st.feed(drawn[i, :num_drawn[i]])
                if game.current_player(st.state) == TERMINAL:
                    live[i] = False
                    tally.games += 1
                    continue
                _same(game.current_player(st.state) == int(player[i]), lambda: "player")
                actions[i], noise[i], tie = python_choice(game, st.state, rng)
                tally.tie_breaks += tie
            if not live.any():
                break
            mine = np.asarray(choose(state, jnp.asarray(noise)))
            for i in np.flatnonzero(live):
                if mine[i] != actions[i]:
                    raise Mismatch(_report(game, streams[i], mine[i], actions[i]))
                game.apply_action(streams[i].state, int(actions[i]))
                tally.decisions += 1
            key, sub = jax.random.split(key)
            state = step(state, jnp.asarray(np.where(live, actions, -1)),
                         jax.random.split(sub, batch))
    return tally


def _same(ok: bool, what: Any) -> None:
    if not ok:
        raise Mismatch(what())


def _report(game: Any, stream: Stream, mine: int, theirs: int) -> str:
    state = stream.state
    return (f"game {stream.index} decision {state.decisions}: JAX heuristic chose "
            f"{game.action_label(state, mine)} ({mine}), Python "
            f"{game.action_label(state, theirs)} ({theirs})")
