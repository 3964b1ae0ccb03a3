"""The batched env: auto-reset, masks, compacted deals, and the numpy adapter."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from formosa_envs.jax import NumpyFlowersVecEnv
from formosa_envs.jax.flowers.deal import lay_out, shuffle_rows
from formosa_envs.jax.flowers.vec_env import compact_deals

from .parity import vec_env


def _random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def test_finished_games_restart_in_the_same_step() -> None:
    vec = vec_env(48, 4, None)  # shared with the 4-player parity test
    out = vec.reset(jax.random.PRNGKey(0))
    rng, finished = np.random.default_rng(0), 0
    for k in range(250):
        masks = np.asarray(out.legal_action_mask)
        assert masks.any(axis=1).all()
        out = vec.step(out.state, jnp.asarray(_random_actions(rng, masks)),
                       jax.random.PRNGKey(k))
        done, rewards = np.asarray(out.done), np.asarray(out.rewards)
        assert not rewards[~done].any()
        if done.any():
            s = jax.device_get(out.state)
            assert (s.round[done] == 1).all() and not s.scores[done].any()
            assert (s.decisions[done] == 0).all() and (s.current_player[done] == 0).all()
            assert (s.num_drawn[done] >= 30).all()  # the new game's deal (after a reveal)
            assert np.allclose(rewards[done].sum(axis=1), 0.0, atol=1e-6)  # zero-sum
            assert (np.abs(rewards[done]) > 0).any()
            finished += int(done.sum())
    assert finished >= 10


def test_compacted_deals_are_fresh_deals_in_the_right_lanes() -> None:
    ctx = vec_env(48, 4, None).engine.ctx
    starts = jnp.arange(10) % 4
    need = np.array([1, 0, 1, 1, 1, 0, 1, 1, 0, 1], bool)  # 7 deals, passes of 3
    hands, field, order = jax.device_get(jax.jit(
        lambda s, n, k: compact_deals(ctx, s, n, k, 3))(starts, need, jax.random.PRNGKey(1)))
    assert not hands[~need].any() and not field[~need].any() and (order[~need] == -1).all()
    for lane in np.flatnonzero(need):
        assert sorted(order[lane].tolist()) == list(range(54)), lane  # a whole shuffle
        want_hands, want_field = lay_out(ctx, starts[lane], jnp.asarray(order[lane]))
        assert np.array_equal(hands[lane], want_hands) and np.array_equal(field[lane],
                                                                          want_field)
    dealt = {tuple(order[lane].tolist()) for lane in np.flatnonzero(need)}
    assert len(dealt) == need.sum()  # every pass and every row its own shuffle


def test_shuffles_are_uniform_over_positions() -> None:
    orders = np.asarray(jax.jit(lambda k: shuffle_rows(k, 20_000))(jax.random.PRNGKey(3)))
    assert (np.sort(orders, axis=1) == np.arange(54)).all()
    counts = np.zeros((54, 54))
    np.add.at(counts, (np.arange(54)[None, :].repeat(len(orders), 0), orders), 1)
    expected = len(orders) / 54
    chi2 = ((counts - expected) ** 2 / expected).sum()  # 53 x 53 = 2,809 degrees of freedom
    assert 2_500 < chi2 < 3_150, chi2  # about 4 standard deviations either side


def test_the_numpy_adapter() -> None:
    env = NumpyFlowersVecEnv(48, num_players=3, seed=5, vec=vec_env(48, 3, None))
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(48, int))
    out = env.reset()
    assert out["observation"].shape == (48, 442) and out["observation"].dtype == np.float32
    assert out["legal_action_mask"].shape == (48, 111) and out["rewards"].shape == (48, 3)
    assert all(isinstance(v, np.ndarray) for v in out.values())
    rng = np.random.default_rng(0)
    for _ in range(60):
        out = env.step(_random_actions(rng, out["legal_action_mask"]))
    bad = _random_actions(rng, out["legal_action_mask"])
    bad[2] = np.flatnonzero(~out["legal_action_mask"][2])[0]
    with pytest.raises(ValueError, match=r"illegal action\(s\) in environment\(s\) \[2\]"):
        env.step(bad)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(5, int))
    again = env.reset(seed=5)["observation"]
    other = NumpyFlowersVecEnv(48, num_players=3, vec=env.vec)
    assert np.array_equal(again, other.reset(seed=5)["observation"])
    with pytest.raises(ValueError, match="different"):
        NumpyFlowersVecEnv(8, num_players=3, vec=env.vec)
