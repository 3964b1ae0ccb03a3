"""Differential parity of the JAX engine with the Python engine (see ``parity.py``).

The default run plays a few hundred games over 2, 3 and 4 players, with and without the
Current Month variant, through both drivers; the ``slow`` test plays over 10,000.
"""

from __future__ import annotations

import pytest

from .parity import run

CONFIGS = [(2, None), (2, 3), (3, None), (3, 10), (4, None), (4, 2)]


@pytest.mark.parametrize(("num_players", "current_month"), CONFIGS)
def test_vec_env_matches_python_engine(num_players: int, current_month: int | None) -> None:
    tally = run(num_players, current_month, games=48, batch=48, seed=num_players * 13 + 1,
                mode="vec")
    assert tally.games >= 48 and tally.decisions > 48 * 50


def test_step_matches_python_engine_to_the_terminal_state() -> None:
    tally = run(2, 12, games=24, batch=24, seed=7, mode="step")
    assert tally.games == 24


def test_truncation_matches_the_env_guard() -> None:
    """With a short decision limit, games are cut where the AEC env would truncate them."""
    tally = run(3, None, games=16, batch=16, seed=3, mode="vec", max_game_length=40)
    assert tally.truncated > 0 and tally.games >= 16


@pytest.mark.slow
@pytest.mark.parametrize(("num_players", "current_month"), CONFIGS)
def test_ten_thousand_games(num_players: int, current_month: int | None) -> None:
    tally = run(num_players, current_month, games=1700, batch=256, seed=num_players + 100,
                mode="vec")
    assert tally.games >= 1700
