"""SuperSuit recipe: observation and reward wrappers on the flat view, vector envs."""

from __future__ import annotations

import numpy as np
import pytest
import supersuit

from examples.ecosystem.supersuit_recipe import play_wrapped_game, run_vector_env, wrapped_flat_env
from formosa_envs.envs import env, flat_env


def _plain_final_rewards(game: str, players: int, seed: int) -> dict[str, float]:
    aec = flat_env(game, num_players=players)
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = {}
    for agent in aec.agent_iter():
        _, reward, termination, truncation, info = aec.last()
        if termination or truncation:
            final[agent] = float(reward)
            aec.step(None)
        else:
            aec.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    return final


def test_observations_are_rescaled_and_rewards_clipped() -> None:
    space = wrapped_flat_env("tea", 3).observation_space("player_0")
    assert (space.low == -1).all() and (space.high == 1).all() and space.dtype == np.float32
    seen, final = play_wrapped_game("tea", 3, seed=0)
    stacked = np.stack(seen)
    assert stacked.min() >= -1 and stacked.max() <= 1 and (stacked > 0).any()
    plain = _plain_final_rewards("tea", 3, seed=0)
    assert max(abs(r) for r in plain.values()) == 1.0
    assert final == {a: float(np.clip(r, -0.5, 0.5)) for a, r in plain.items()}


def test_observation_wrappers_need_the_flat_view() -> None:
    with pytest.raises((AttributeError, AssertionError)):
        supersuit.normalize_obs_v0(env("tea", num_players=3), env_min=-1.0, env_max=1.0)


def test_vector_env_has_one_slot_per_seat_and_one_decider_per_copy() -> None:
    result = run_vector_env("tea", 3, copies=2, steps=400, seed=0)
    assert result["shape"] == (6, 979)
    for slots in result["deciding"]:
        assert sorted(slot // 3 for slot in slots) == [0, 1]
    assert len(result["endings"]) >= 2
    for rewards in result["endings"]:
        for copy in range(2):
            paid = rewards[3 * copy:3 * copy + 3]
            assert paid.sum() == pytest.approx(0.0)
        assert np.abs(rewards).sum() > 0


def test_the_learner_view_is_rescaled_like_the_policy_input() -> None:
    from examples.ecosystem.supersuit_recipe import rescale, wrapped_learner_env
    from formosa_envs.envs import learner_env
    wrapped, plain = wrapped_learner_env(), learner_env()
    observation, info = wrapped.reset(seed=3)
    raw, raw_info = plain.reset(seed=3)
    np.testing.assert_allclose(observation, rescale(raw), atol=1e-6)
    assert np.array_equal(info["action_mask"], raw_info["action_mask"])
    assert np.array_equal(wrapped.get_wrapper_attr("action_masks")(), raw_info["action_mask"])


def test_untrained_policy_is_legal_reproducible_and_leaves_global_random_state() -> None:
    import random

    import torch

    from examples.ecosystem.supersuit_recipe import train_agent
    from formosa_envs.envs import evaluate_learner
    before = (torch.random.get_rng_state(), np.random.get_state()[1].copy(), random.getstate())
    first = evaluate_learner(train_agent(seed=1, cpu_seconds=0), games=4, seed=8_000_000)
    second = evaluate_learner(train_agent(seed=1, cpu_seconds=0), games=4, seed=8_000_000)
    assert first == second
    assert torch.equal(torch.random.get_rng_state(), before[0])
    assert np.array_equal(np.random.get_state()[1], before[1]) and random.getstate() == before[2]


@pytest.mark.slow
def test_maskable_ppo_on_the_wrapped_view_beats_random() -> None:
    from examples.ecosystem.supersuit_recipe import train_agent
    from formosa_envs.envs import evaluate_learner
    score = evaluate_learner(train_agent(seed=0, cpu_seconds=180, progress=False), games=100,
                             seed=7_000_000)
    assert score.win_rate >= 0.70, score
