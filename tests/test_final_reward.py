"""Crediting each seat's final reward to its own last transition (``envs.final_reward``).

Pure logic, no Tianshou: the Tianshou collection itself is tested under
``tests/ecosystem`` (marker ``ecosystem``).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from formosa_envs.core.errors import ArgumentError
from formosa_envs.envs import FinalRewardHook, credit_rewards, env

AGENTS = ["p0", "p1", "p2"]


def test_final_rewards_move_to_each_seats_last_transition() -> None:
    ids = ["p0", "p1", "p2", "p0", "p1", "p1"]
    rewards = np.zeros((6, 3))
    rewards[-1] = [-1.0, 1.0, 0.5]  # paid on the last step, a transition of p1
    credited = credit_rewards(ids, rewards, AGENTS)
    expected = np.zeros((6, 3))
    expected[3, 0], expected[5, 1], expected[2, 2] = -1.0, 1.0, 0.5
    np.testing.assert_array_equal(credited, expected)
    np.testing.assert_array_equal(credited.sum(axis=0), rewards.sum(axis=0))
    np.testing.assert_array_equal(rewards[-1], [-1.0, 1.0, 0.5])  # input left alone


def test_rewards_go_to_the_latest_own_transition_at_or_before_them() -> None:
    ids = ["p1", "p0", "p1", "p0"]
    rewards = np.array([[0.2, 0, 0], [0, 0.3, 0], [0.4, 0, 0], [0, 0, 0]], dtype=float)
    credited = credit_rewards(ids, rewards, AGENTS)
    # p0: 0.2 came before its first decision (row 1), 0.4 after it; p1: 0.3 after row 0
    np.testing.assert_allclose(credited[:, 0], [0, 0.6, 0, 0])
    np.testing.assert_allclose(credited[:, 1], [0.3, 0, 0, 0])
    np.testing.assert_array_equal(credited[:, 2], rewards[:, 2])  # p2 never acted


def _tianshou_like_episode(game: str, players: int, seed: int) -> tuple[list, np.ndarray,
                                                                      list[str]]:
    """A seeded random game recorded as Tianshou's PettingZooEnv records it: one row per
    env step, the acting agent and ``env.rewards`` after the step, ending at the first
    step after which ``last()`` reports the end."""
    game_env = env(game, num_players=players)
    game_env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ids, rows = [], []
    while True:
        agent = game_env.agent_selection
        mask = game_env.observe(agent)["action_mask"]
        game_env.step(int(rng.choice(np.flatnonzero(mask))))
        ids.append(agent)
        rows.append([game_env.rewards[a] for a in game_env.possible_agents])
        _, _, term, trunc, _ = game_env.last()
        if term or trunc:
            return ids, np.array(rows), list(game_env.possible_agents)


def _own_returns(ids: list, rewards: np.ndarray, agents: list[str]) -> np.ndarray:
    """What each seat learns from: its reward column on its own transitions."""
    owner = np.array(ids)
    return np.array([rewards[owner == a, s].sum() for s, a in enumerate(agents)])


@pytest.mark.parametrize(("game", "players", "seed"), [("flowers", 3, 0), ("tea", 2, 1)])
def test_without_credit_a_seat_loses_its_final_reward_and_with_it_none_does(
        game: str, players: int, seed: int) -> None:
    ids, rewards, agents = _tianshou_like_episode(game, players, seed)
    final = rewards[-1]
    assert np.abs(final).sum() > 0
    lost = _own_returns(ids, rewards, agents) != final
    assert lost.any()  # the seats that did not move last see 0 instead
    assert not lost[agents.index(ids[-1])]
    credited = credit_rewards(ids, rewards, agents)
    np.testing.assert_allclose(_own_returns(ids, credited, agents), final)
    for seat, agent in enumerate(agents):
        last_own = max(t for t, a in enumerate(ids) if a == agent)
        assert credited[last_own, seat] == final[seat]


def test_hook_rewrites_the_episode_reward_as_tianshou_expects() -> None:
    batch = SimpleNamespace(obs=SimpleNamespace(agent_id=np.array(["p0", "p1", "p1"])),
                            rew=np.array([[0, 0, 0], [0, 0, 0], [-1.0, 1.0, 0.0]]))
    out = FinalRewardHook(AGENTS)(batch)
    assert set(out) == {"rew"}
    np.testing.assert_array_equal(out["rew"], [[-1, 0, 0], [0, 0, 0], [0, 1, 0]])


@pytest.mark.parametrize(("ids", "rewards", "agents", "message"), [
    (["p0"], np.zeros((2, 3)), AGENTS, "shape"),
    (["p0", "p1"], np.zeros((2, 2)), AGENTS, "shape"),
    (["p0", "x"], np.zeros((2, 3)), AGENTS, "not among"),
    (["p0"], np.zeros((1, 1)), "p0", "distinct agent names"),
    (["p0"], np.zeros((1, 2)), ["p0", "p0"], "distinct agent names"),
    (["p0"], np.zeros((1, 0)), [], "distinct agent names"),
])
def test_bad_input_is_refused(ids: list, rewards: np.ndarray, agents: object,
                              message: str) -> None:
    with pytest.raises(ArgumentError, match=message):
        credit_rewards(ids, rewards, agents)  # type: ignore[arg-type]


def test_hook_refuses_a_batch_without_agent_ids() -> None:
    with pytest.raises(ArgumentError, match="agent_id"):
        FinalRewardHook(AGENTS)(SimpleNamespace(obs=np.zeros(3), rew=np.zeros((1, 3))))
