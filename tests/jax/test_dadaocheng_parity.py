"""The JAX Dadaocheng rules against the Python engine over whole games (the harness:
``tests/jax/dadaocheng_parity.py``): random and heuristic play at every player count, the
solo challenges and the options; a longer soak under ``slow``."""

from __future__ import annotations

import pytest

from formosa_envs.jax.dadaocheng.engine import DadaochengJax
from tests.jax.dadaocheng_parity import Mismatch, run

SLOW = pytest.mark.slow
CONFIGS = [  # each configuration compiles for 15-45 s: the default run takes four
    pytest.param(1, (("solo_challenge", "hand2"),), id="solo-hand2"),
    pytest.param(2, (("two_player_sides", "adjacent"),), id="2p-adjacent"),
    pytest.param(3, (("chronological_events", True),), id="3p-chronological"),
    pytest.param(4, (), id="4p"),
    pytest.param(1, (), id="solo", marks=SLOW), pytest.param(2, (), id="2p", marks=SLOW),
    pytest.param(3, (), id="3p", marks=SLOW),
    pytest.param(1, (("solo_challenge", "ships"),), id="solo-ships", marks=SLOW),
    pytest.param(1, (("solo_challenge", "buildings"),), id="solo-buildings", marks=SLOW)]


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_random_games_match_the_python_engine(players: int, options: tuple) -> None:
    """The even player counts also settle in the smaller batch (levels 2), the others in
    one batch, which compiles in a third of the time."""
    tally = run(players, games=8, seed=players, options=options, levels=2 - players % 2)
    assert tally.decisions > 8 * 30 and tally.chance_events > 8 * 4


@pytest.mark.parametrize("players", [2, pytest.param(1, marks=SLOW),
                                     pytest.param(3, marks=SLOW), pytest.param(4, marks=SLOW)])
def test_heuristic_games_match_the_python_engine(players: int) -> None:
    tally = run(players, games=4, seed=10 + players, policy="heuristic")
    assert {"purchase", "move", "pay", "line"} <= tally.kinds


def test_a_wrong_rule_is_caught() -> None:
    """The harness fails when the JAX rules differ (discs read back side up)."""
    env = DadaochengJax(3)
    env.tables = env.tables._replace(disc_faces=env.tables.disc_faces[:, ::-1])
    with pytest.raises(Mismatch):
        run(3, games=4, seed=3, env=env)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), [
    pytest.param(*p.values, id=p.id) for p in CONFIGS])
def test_soak(players: int, options: tuple) -> None:
    """1,000 random games per configuration, in batches of 250."""
    for batch in range(4):
        run(players, games=250, seed=1000 * players + batch, options=options)
