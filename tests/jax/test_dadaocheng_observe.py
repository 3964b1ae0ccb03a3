"""The JAX Dadaocheng observation vector against the Python observer on positions of Python
games (read with ``from_python``), and the harness's observation check failing when they
differ. Whole games in both engines compare observations too (``dadaocheng_parity``)."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from formosa_envs.jax.dadaocheng.engine import DadaochengJax
from formosa_envs.jax.dadaocheng.state import from_python
from tests.jax.dadaocheng_parity import Mismatch, check_views


def positions(env: DadaochengJax, games: int, seed: int) -> list:
    """Every player decision of ``games`` random Python games (and their ends)."""
    game, rng, found = env.game, np.random.default_rng(seed), []
    for _ in range(games):
        s = game.new_initial_state()
        while not s.over:
            if s.stack[-1].player < 0:
                outcomes, odds = zip(*game.chance_outcomes(s), strict=True)
                game.apply_action(s, int(rng.choice(outcomes, p=np.array(odds) / sum(odds))))
                continue
            found.append(s.clone())
            game.apply_action(s, int(rng.choice(sorted(game.legal_actions(s)))))
        found.append(s)
    return found


@pytest.mark.parametrize(("players", "options"), [
    (1, {"solo_challenge": "buildings"}), (2, {}), (3, {}), (4, {})])
def test_observations_match_the_python_observer(players: int, options: dict) -> None:
    env = DadaochengJax(players, **options)
    views = jax.jit(jax.vmap(env.observe, in_axes=(None, 0)))
    seen = positions(env, games=3, seed=players)
    for s in seen:
        check_views(env.game, s, np.asarray(views(from_python(env.game, s),
                                                  np.arange(players))), slot=0)
    assert len(seen) > 3 * 20


def test_a_wrong_observation_is_caught() -> None:
    env = DadaochengJax(2)
    s = positions(env, games=1, seed=0)[10]
    views = np.stack([env.game.observer.observe(env.game, s, p) for p in range(2)])
    check_views(env.game, s, views, slot=0)
    views[1, 40] += 0.5
    with pytest.raises(Mismatch, match="seat 1: observation differs at \\[40\\]"):
        check_views(env.game, s, views, slot=0)
