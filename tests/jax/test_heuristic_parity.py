"""The JAX Flowers heuristic decides as the Python heuristic does (``heuristic_parity.py``).

The default run compares every decision of heuristic-played games at 2, 3 and 4 players,
with and without the Current Month (thousands of decisions, ties included); the ``slow``
soak plays 400 games per configuration.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from formosa_envs.jax import FlowersVecEnv
from formosa_envs.jax.flowers.heuristic import FlowersHeuristicJax, epsilon_actions

from .heuristic_parity import run_heuristic

CONFIGS = [(2, None), (2, 3), (3, None), (3, 10), (4, None), (4, 2)]


@pytest.mark.parametrize(("num_players", "current_month"), CONFIGS)
def test_every_decision_matches_the_python_heuristic(num_players: int,
                                                     current_month: int | None) -> None:
    tally = run_heuristic(num_players, current_month, games=16, batch=16,
                          seed=num_players * 7 + (current_month or 0))
    assert tally.games == 16 and tally.decisions > 16 * 40
    assert tally.tie_breaks > 0  # exact ties occurred and were broken the same way


@pytest.mark.slow
@pytest.mark.parametrize(("num_players", "current_month"), CONFIGS)
def test_four_hundred_games(num_players: int, current_month: int | None) -> None:
    tally = run_heuristic(num_players, current_month, games=400, batch=100,
                          seed=1000 + num_players)
    assert tally.games == 400


def _states(players: int, batch: int = 64) -> object:
    vec = FlowersVecEnv(batch, players)
    return vec, vec._reset(jax.random.PRNGKey(3)).state


def test_epsilon_zero_is_the_heuristic_and_one_is_random_legal_play() -> None:
    vec, states = _states(3)
    heuristic = FlowersHeuristicJax(vec.engine)
    key = jax.random.PRNGKey(0)
    greedy = epsilon_actions(heuristic, states, jnp.float32(0.0), key)
    noise_key = jax.random.split(key, 3)[0]
    direct = jax.vmap(heuristic.act)(states, jax.random.split(noise_key, 64))
    assert np.array_equal(np.asarray(greedy), np.asarray(direct))
    wild = np.asarray(epsilon_actions(heuristic, states, jnp.float32(1.0), key))
    mask = np.asarray(states.legal_action_mask)
    assert mask[np.arange(64), wild].all()
    assert (wild != np.asarray(greedy)).any()


def test_values_are_finite_on_exactly_the_offered_options() -> None:
    vec, states = _states(2, 16)
    values = np.asarray(jax.vmap(FlowersHeuristicJax(vec.engine).option_values)(states))
    mask = np.asarray(states.legal_action_mask)
    assert np.isfinite(values[mask]).all()  # every legal play has a value (first decisions)
