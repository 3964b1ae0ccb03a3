"""The JAX Dadaocheng vec env (formosa_envs.jax.dadaocheng.vec_env): auto-reset, rewards on
the finishing step, truncation, and the numpy adapter's errors."""

from __future__ import annotations

from functools import cache

import jax
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


def test_the_masks_from_the_settle_loop_are_the_states_legal_masks() -> None:
    """The vec env reads the legal masks the settle loop computed (and the new games'
    from their setup); they are what ``legal_mask`` gives for the states, also on the
    steps where a game ended and restarted."""
    env = solo()
    masks_of = jax.jit(jax.vmap(env.vec.engine.legal_mask))
    rng, out, restarts = np.random.default_rng(4), env.reset(seed=4), 0
    for _ in range(150):
        assert (np.asarray(masks_of(env.out.state.game)) == out["legal_action_mask"]).all()
        actions = [rng.choice(np.flatnonzero(mask)) for mask in out["legal_action_mask"]]
        out = env.step(np.array(actions))
        restarts += int(out["terminated"].sum() + out["truncated"].sum())
    assert restarts >= 1


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
    with pytest.raises(ValueError, match=r"illegal action\(s\) in environment\(s\) \[0\]"):
        env.step(np.array([illegal, legal]))
    with pytest.raises(ValueError, match=r"integers of shape \(2,\)"):
        env.step(np.zeros(3, int))
    with pytest.raises(ValueError, match="integers"):
        env.step(np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="illegal"):
        env.step(np.array([-1, legal]))


def test_an_illegal_action_leaves_the_game_as_it_was() -> None:
    """The engine refuses an illegal action (and ``-1``, the self-play's "wait") with the
    ``illegal`` flag, changing nothing; a legal action in the same step moves its game."""
    from formosa_envs.jax.dadaocheng.state import differences

    env = solo()
    out = env.vec.reset(jax.random.key(4))
    masks = np.asarray(out.legal_action_mask)
    one = lambda x: jax.tree.map(lambda leaf: np.asarray(leaf)[0], x)  # noqa: E731
    for bad in (int(np.flatnonzero(~masks[0])[0]), -1, 96):
        moved = env.vec.step(out.state, np.array([bad, np.flatnonzero(masks[1])[0]]),
                             jax.random.key(5))
        assert np.asarray(moved.state.game.illegal).tolist() == [True, False]
        refused = one(moved.state.game)
        assert differences(one(out.state.game), refused._replace(illegal=False)) == []
        assert int(moved.state.game.decisions[1]) == int(out.state.game.decisions[1]) + 1


def test_the_observation_is_the_current_players() -> None:
    out = solo().reset(seed=5)
    assert out["observation"].shape == (2, solo().vec.observation_size)
    assert out["observation"].dtype == np.float32
    assert ((out["observation"] >= 0) & (out["observation"] <= 1)).all()


def test_the_margin_reward_is_for_the_solo_game() -> None:
    from formosa_envs.jax.dadaocheng.vec_env import DadaochengVecEnv
    with pytest.raises(ValueError, match="'margin': solo only"):
        DadaochengVecEnv(2, num_players=2, reward="margin")
    with pytest.raises(ValueError, match="reward must be one of"):
        DadaochengVecEnv(2, num_players=1, reward="score")
    vec = DadaochengVecEnv(1, num_players=1, reward="margin", solo_target=60)
    before = jax.tree.map(lambda x: np.asarray(x)[None], vec.engine.new_state())
    after = before._replace(credit=np.array([[45]], np.int32))  # 9 prestige
    gained = vec._margin(before, after, np.array([False]))
    assert float(gained[0, 0]) == pytest.approx(9 / 20)
    ended = vec._margin(before, after, np.array([True]))
    assert float(ended[0, 0]) == pytest.approx((9 - 60) / 20)


@pytest.mark.slow
def test_the_margin_rewards_of_a_game_add_up_to_its_final_margin() -> None:
    from formosa_envs.jax.dadaocheng.vec_env import DadaochengVecEnv
    from formosa_envs.jax.sample import sample_legal

    vec = DadaochengVecEnv(2, num_players=1, reward="margin")
    engine = vec.engine
    step, masks = jax.jit(engine.step_batch), jax.jit(jax.vmap(engine.legal_mask))
    s = jax.jit(engine.init_batch)(jax.random.split(jax.random.key(7), 2))
    total, key = np.zeros(2), jax.random.key(8)
    while not np.asarray(s.over).all():
        key, k_act, k_step = jax.random.split(key, 3)
        moved = step(s, sample_legal(k_act, masks(s)), jax.random.split(k_step, 2))
        total += np.asarray(vec._margin(s, moved, moved.over & ~s.over))[:, 0]
        s = moved
    final = np.asarray(jax.vmap(engine.scores)(s))[:, 0]
    np.testing.assert_allclose(total, (final - 50) / 20, rtol=0, atol=1e-5)
