"""Differential harness: the JAX Dadaocheng rules against the Python engine, node by node.

A batch of games runs in both engines. Every JAX slot moves with one ``jit(vmap(advance))``
call per node. At a chance node the JAX side draws the outcome
(:meth:`DadaochengJax.sample_chance`, or a whole layout), and the harness feeds it to the
Python chance nodes, checking that each has a positive probability there. At a player
decision it compares the whole state (:func:`~formosa_envs.jax.dadaocheng.state.from_python`
against the JAX state, field by field, frame stack included), the legal actions, every
seat's observation vector (bit for bit) and prestige; at the end, the observations, the
prestige and the returns. Both
engines then take the same action, drawn uniformly from the legal ones, or chosen by the
Python heuristic (``policy="heuristic"``). The run ends when every game has finished in
both engines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from formosa_envs.agents import make_agent

from formosa_envs.core.engine import CHANCE
from formosa_envs.jax.dadaocheng.engine import DadaochengJax
from formosa_envs.jax.dadaocheng.state import State, differences, from_python, top
from tests.jax.parity import Mismatch


@dataclass
class Tally:
    """What a run compared."""

    games: int = 0
    decisions: int = 0
    chance_events: int = 0
    kinds: set[str] = field(default_factory=set)


@cache
def engine(num_players: int, options: tuple[tuple[str, Any], ...] = (),
           levels: int = 2) -> DadaochengJax:
    """One engine per configuration (its jitted functions are cached with it). With
    ``levels`` 2 the games still settling move to a batch of half the size, as at batch
    1024 (which has one more level); each level compiles its own copy of the rules."""
    env = DadaochengJax(num_players, **dict(options))
    env.smallest_batch, env.batch_levels = 2, levels
    return env


@cache
def jitted(env: DadaochengJax) -> tuple[Any, Any]:
    """(``advance_batch`` with the chance outcomes drawn, ``vmap`` of (legal mask, scores,
    returns, every seat's observation)), jitted."""

    def advance(s: State, action: jnp.ndarray, keys: jax.Array) -> tuple[State, jnp.ndarray]:
        draw_keys, deal_keys = jax.vmap(jax.random.split, out_axes=1)(keys)
        outcome = jax.vmap(env.sample_chance)(s, draw_keys)
        chance = jax.vmap(top)(s)[:, 1] == CHANCE
        moved = env.advance_batch(s, jnp.where(chance, outcome, action), deal_keys)
        return moved, outcome

    def read(s: State) -> tuple[jnp.ndarray, ...]:
        seats = jnp.arange(env.num_players)
        views = jax.vmap(env.observe, in_axes=(None, 0))(s, seats)
        return env.legal_mask(s), env.scores(s), env.returns(s), views

    return jax.jit(advance), jax.jit(jax.vmap(read))


def run(num_players: int, games: int, seed: int, options: tuple = (),
        policy: str = "random", env: DadaochengJax | None = None, levels: int = 2) -> Tally:
    """Play ``games`` games in both engines at once (see the module docstring); ``env``
    replaces the configuration's engine (a test's altered one); ``levels``: see
    :func:`engine`."""
    env = env or engine(num_players, tuple(options), levels)
    game, (advance, masks) = env.game, jitted(env)
    rng, key = np.random.default_rng(seed), jax.random.key(seed)
    agents = [make_agent("heuristic", "dadaocheng", seed + i) for i in range(games)] \
        if policy == "heuristic" else None
    python = [game.new_initial_state() for _ in range(games)]
    state = jax.tree.map(lambda leaf: jnp.stack([leaf] * games), env.new_state())
    tally = Tally(games=games)
    while not all(s.over for s in python):
        legal_masks, scores, _, views = (np.asarray(x) for x in masks(state))
        actions = np.zeros(games, np.int32)
        for slot, s in enumerate(python):
            if not s.over and s.stack[-1].player != CHANCE:
                actions[slot] = check_decision(game, s, state, slot, legal_masks[slot], tally)
                check_views(game, s, views[slot], slot)
                if scores[slot].tolist() != game.prestige(s):
                    raise Mismatch(f"slot {slot}: prestige Python {game.prestige(s)}, JAX "
                                   f"{scores[slot].tolist()}")
                if agents is not None:
                    actions[slot] = agents[slot].act_on_state(game, s)
                else:
                    actions[slot] = rng.choice(np.flatnonzero(legal_masks[slot]))
        key, step_key = jax.random.split(key)
        state, outcomes = advance(state, jnp.asarray(actions), jax.random.split(step_key, games))
        feed(game, python, state, np.asarray(outcomes), actions, tally)
    finished = np.asarray(state.over)
    if not finished.all() or np.asarray(state.overflow).any():
        raise Mismatch(f"JAX games over {finished.tolist()}, overflow "
                       f"{np.asarray(state.overflow).tolist()} where Python finished")
    _, scores, returns, views = (np.asarray(x) for x in masks(state))
    for slot, s in enumerate(python):
        check_views(game, s, views[slot], slot)
        if scores[slot].tolist() != game.prestige(s) or not np.allclose(
                returns[slot], game.returns(s), rtol=0, atol=1e-6):  # float32 thirds
            raise Mismatch(f"slot {slot} at the end: Python {game.prestige(s)} "
                           f"{game.returns(s)}, JAX {scores[slot]} {returns[slot]}")
    return tally


def check_views(game: Any, s: Any, views: np.ndarray, slot: int) -> None:
    """Every seat's JAX observation against the Python observer's, bit for bit."""
    for seat in range(s.num_players):
        want = game.observer.observe(game, s, seat)
        if not np.array_equal(want, views[seat]):
            at = np.flatnonzero(want != views[seat])[:6].tolist()
            raise Mismatch(f"slot {slot}, decision {s.decisions}, seat {seat}: observation "
                           f"differs at {at}: Python {want[at].tolist()}, JAX "
                           f"{views[seat][at].tolist()}")


def check_decision(game: Any, s: Any, state: State, slot: int, mask: np.ndarray,
                   tally: Tally) -> int:
    """Compare a slot at a player decision; returns its first legal action."""
    mine = jax.tree.map(lambda leaf: np.asarray(leaf)[slot], state)
    problems = differences(from_python(game, s), mine)
    legal = sorted(game.legal_actions(s))
    if np.flatnonzero(mask).tolist() != legal:
        problems.append(f"legal: Python {legal}, JAX {np.flatnonzero(mask).tolist()}")
    if problems:
        raise Mismatch(f"slot {slot}, decision {s.decisions}, frame {s.stack[-1]}: "
                       + "; ".join(problems[:4]))
    tally.decisions += 1
    tally.kinds.add(s.stack[-1].kind)
    return legal[0]


def feed(game: Any, python: list[Any], state: State, outcomes: np.ndarray,
         actions: np.ndarray, tally: Tally) -> None:
    """Apply to each Python game what its JAX slot just did."""
    cells = np.asarray(state.cell_disc)
    for slot, s in enumerate(python):
        if s.over:
            continue
        d = s.stack[-1]
        if d.player != CHANCE:
            game.apply_action(s, int(actions[slot]))
            continue
        tally.chance_events += 1
        if d.kind == "place_disc":
            while not s.over and s.stack[-1].kind == "place_disc":
                chance_step(game, s, int(cells[slot][s.stack[-1].ctx[0]]), slot)
        else:
            chance_step(game, s, int(outcomes[slot]), slot)


def chance_step(game: Any, s: Any, outcome: int, slot: int) -> None:
    """Apply a JAX-drawn outcome to a Python chance node, where it must be possible."""
    odds = dict(game.chance_outcomes(s))
    if odds.get(outcome, 0.0) <= 0:
        raise Mismatch(f"slot {slot}: JAX drew {outcome} at {s.stack[-1]}, Python's odds "
                       f"{odds}")
    game.apply_action(s, outcome)
