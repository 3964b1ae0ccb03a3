"""The generic PettingZoo adapter: construction, registry, rewards, errors, truncation."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest

import formosa_envs
from formosa_envs import IllegalActionError
from formosa_envs.envs import FormosaAECEnv


def play_out(env, seed: int = 0, rng_seed: int = 0) -> None:
    """Masked random play until every agent has left."""
    rng = np.random.default_rng(rng_seed)
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_registry_make_and_factories_accept_every_option() -> None:
    opts = {"num_players": 3, "current_month": 4, "target_vp": 30}
    made = pettingzoo.make("aec", "formosa/flowers-v1", **opts)
    wrapped = formosa_envs.env("flowers", **opts)
    raw = formosa_envs.raw_env("flowers", **opts)
    assert isinstance(raw, FormosaAECEnv)
    for env in (made, wrapped, raw):
        env.reset(seed=1)
        assert env.unwrapped.game.config.current_month == 4
        assert env.unwrapped.game.config.target_vp == 30
        assert env.possible_agents == ["player_0", "player_1", "player_2"]


@pytest.mark.parametrize(("kwargs", "needle"), [
    ({"num_players": 7}, "2-4 players"),
    ({"num_players": 2, "colour": "red"}, "unknown option"),
    ({"num_players": 2, "current_month": 13}, "current_month"),
    ({"num_players": 2, "reward_mode": "elo"}, "reward_mode"),
    ({"num_players": 2, "render_mode": "rgb"}, "render_mode"),
    ({"num_players": 2, "max_game_length": 0}, "max_game_length"),
])
def test_bad_config_raises_clear_value_error(kwargs: dict, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        formosa_envs.raw_env("flowers", **kwargs)
    with pytest.raises(ValueError, match=needle):
        pettingzoo.make("aec", "formosa/flowers-v1", **kwargs)


def test_unknown_game_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        formosa_envs.raw_env("chess")


def test_observation_dict_and_masks() -> None:
    env = formosa_envs.raw_env("flowers", num_players=3)
    env.reset(seed=3)
    actor = env.agent_selection
    for agent in env.agents:
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32
        assert obs["action_mask"].dtype == np.int8
        assert obs["observation"].shape == env.observation_space(agent)["observation"].shape
        assert env.observation_space(agent).contains(obs)
        if agent == actor:
            legal = env.game.legal_actions(env.engine_state)
            assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(legal)
        else:
            assert not obs["action_mask"].any(), "non-deciding agents get an all-zero mask"


def test_illegal_action_error_names_action_and_decision() -> None:
    env = formosa_envs.raw_env("flowers", num_players=2)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError) as info:
        env.step(bad)
    text = str(info.value)
    assert f"action {bad}" in text and "choosing a card to play" in text
    assert f"{int(mask.sum())} action(s) are legal" in text
    assert isinstance(info.value, ValueError)
    with pytest.raises(IllegalActionError, match="got None"):
        env.step(None)


def test_wrapped_env_terminates_an_illegal_move_with_minus_one() -> None:
    env = formosa_envs.env("flowers", num_players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1


@pytest.mark.parametrize("mode", ["rank", "win", "score"])
def test_reward_modes(mode: str) -> None:
    env = formosa_envs.raw_env("flowers", num_players=3, reward_mode=mode)
    totals = {a: 0.0 for a in env.possible_agents}
    rng = np.random.default_rng(5)
    env.reset(seed=5)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    scores = env.game.scores(env.engine_state)
    values = [totals[a] for a in env.possible_agents]
    if mode == "score":
        assert values == scores
    elif mode == "win":
        winners = [i for i, s in enumerate(scores) if s == max(scores)]
        assert values == [1 / len(winners) if i in winners else 0.0 for i in range(3)]
    else:
        assert abs(sum(values)) < 1e-9
        best = int(np.argmax(scores))
        assert values[best] == max(values) > 0


def test_two_player_rank_rewards_are_plus_minus_one() -> None:
    for seed in range(5):
        env = formosa_envs.raw_env("flowers", num_players=2)
        totals = {a: 0.0 for a in env.possible_agents}
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            env.step(None if term or trunc
                     else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_truncation_at_max_game_length() -> None:
    env = formosa_envs.raw_env("flowers", num_players=2, max_game_length=10)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps == 10 and env.agents == []


def test_same_seed_same_history_and_state() -> None:
    a = formosa_envs.raw_env("flowers", num_players=4)
    b = formosa_envs.raw_env("flowers", num_players=4)
    play_out(a, seed=11, rng_seed=2)
    play_out(b, seed=11, rng_seed=2)
    assert a.history == b.history
    assert a.game.to_json(a.engine_state) == b.game.to_json(b.engine_state)


def test_state_render_and_labels() -> None:
    env = formosa_envs.raw_env("flowers", num_players=2, render_mode="ansi")
    env.reset(seed=4)
    state = env.state()
    assert state.shape == env.state_space.shape and state.dtype == np.float32
    text = env.render()
    assert "Formosa Flowers" in text and "Field:" in text and "Now: player" in text
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    assert env.action_label(int(legal[0])).startswith("play ")


def test_human_render_prints(capsys: pytest.CaptureFixture[str]) -> None:
    env = formosa_envs.raw_env("flowers", num_players=2, render_mode="human")
    env.reset(seed=4)
    assert env.render() is None
    assert "Formosa Flowers" in capsys.readouterr().out


def test_final_infos_report_scores_and_the_solo_objective() -> None:
    env = formosa_envs.raw_env("dadaocheng", num_players=1, solo_target=60)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    info = env.infos["player_0"]
    assert info["target"] == 60 and info["tier"] in ("none", "apprentice", "experienced",
                                                      "master")
    assert info["won"] == (info["score"] >= 60) and reward == (1.0 if info["won"] else -1.0)
    env = formosa_envs.raw_env("flowers", num_players=2)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            seat = env.possible_agents.index(agent)
            assert info["score"] == env.game.scores(env.engine_state)[seat]
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("game", ["taiwan", "tea", "dadaocheng"])
def test_an_observed_mask_speeds_legal_steps_but_illegal_ones_still_raise(game: str) -> None:
    env = formosa_envs.raw_env(game, num_players=2)
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(illegal)
    legal = int(np.flatnonzero(mask)[0])
    before = env.game.to_json(env.engine_state)
    env.step(legal)  # the fast path: checked by the cached mask
    reference = env.game.from_json(before)
    env.game.apply_action(reference, legal)
    env.game.resolve_chance(reference, np.random.default_rng(0))
    assert len(env.history) >= 1 and reference.decisions == env.engine_state.decisions
