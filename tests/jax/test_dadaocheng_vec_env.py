"""The JAX Dadaocheng vec env (formosa_envs.jax.dadaocheng.vec_env): auto-reset, rewards on
the finishing step, truncation, and the numpy adapter's errors."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from formosa_envs.jax.dadaocheng.vec_env import NumpyDadaochengVecEnv


@cache
def solo(max_game_length: int = 4000, reset_chunk: int = 32) -> NumpyDadaochengVecEnv:
    """Two solo games at once (one compile per setting)."""
    return NumpyDadaochengVecEnv(2, num_players=1, seed=0, max_game_length=max_game_length,
                                 reset_chunk=reset_chunk)


def play(env: NumpyDadaochengVecEnv, steps: int, seed: int) -> list[dict[str, np.ndarray]]:
    """Random legal play; every step's output."""
    rng, out, outs = np.random.default_rng(seed), env.reset(seed=seed), []
    for _ in range(steps):
        actions = [rng.choice(np.flatnonzero(mask)) for mask in out["legal_action_mask"]]
        out = env.step(np.array(actions))
        outs.append(out)
    return outs


def test_finished_games_report_their_result_and_restart() -> None:
    outs = play(solo(), 200, seed=1)
    ended = np.array([o["terminated"] for o in outs])
    rewards = np.array([o["rewards"][:, 0] for o in outs])
    assert ended.sum() >= 2  # solo games last about 60 decisions
    assert set(rewards[ended].tolist()) <= {-1.0, 1.0}
    assert (rewards[~ended] == 0).all()
    for o in outs:  # every game, restarted or not, waits for a decision of seat 0
        assert (o["current_player"] == 0).all() and o["legal_action_mask"].any(axis=1).all()


@pytest.mark.slow
def test_a_game_is_truncated_at_max_game_length() -> None:
    """Both games end on the same steps; new games are made one at a time here, so the
    second waits for a second round of the reset loop, within the same step."""
    outs = play(solo(max_game_length=8, reset_chunk=1), 20, seed=2)
    truncated = np.array([o["truncated"] for o in outs])
    assert truncated[7].all() and truncated[15].all() and truncated.sum() == 4


def test_the_numpy_adapter_refuses_bad_actions() -> None:
    env = NumpyDadaochengVecEnv(2, num_players=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, int))
    env = solo()
    out = env.reset(seed=3)
    illegal = int(np.flatnonzero(~out["legal_action_mask"][0])[0])
    legal = int(np.flatnonzero(out["legal_action_mask"][1])[0])
    with pytest.raises(ValueError, match="illegal actions in games \\[0\\]"):
        env.step(np.array([illegal, legal]))
    with pytest.raises(ValueError, match="expected 2 actions"):
        env.step(np.zeros(3, int))
    with pytest.raises(ValueError, match="illegal"):
        env.step(np.array([-1, legal]))
