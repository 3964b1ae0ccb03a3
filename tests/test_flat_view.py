"""The flat view (``formosa_envs.envs.flat``): Box observations, the mask in ``infos``.

Needs nothing beyond numpy, gymnasium and pettingzoo.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from formosa_envs.core.errors import ArgumentError
from formosa_envs.envs import FlatObservation, env, flat_env, raw_env
from formosa_envs.games import GAMES

GAME_PLAYERS = [(name, min(max(3, info.min_players), info.max_players))
                for name, info in GAMES.items()]
IDS = [f"{g}-{n}p" for g, n in GAME_PLAYERS]


@pytest.mark.parametrize(("game", "players"), GAME_PLAYERS, ids=IDS)
def test_flat_view_passes_pettingzoo_api_and_seed_tests(game: str, players: int) -> None:
    api_test(flat_env(game, num_players=players), num_cycles=300)
    seed_test(lambda: flat_env(game, num_players=players), num_cycles=300)


@pytest.mark.parametrize(("game", "players"), GAME_PLAYERS, ids=IDS)
def test_spaces_are_the_dict_envs_observation_box_and_action_space(game: str,
                                                                   players: int) -> None:
    flat, full = flat_env(game, num_players=players), env(game, num_players=players)
    for agent in full.possible_agents:
        box = flat.observation_space(agent)
        assert isinstance(box, spaces.Box) and box.dtype == np.float32
        assert box == full.observation_space(agent)["observation"]
        assert flat.action_space(agent) == full.action_space(agent)


def _lockstep_game(game: str, players: int, seed: int) -> int:
    """Play one seeded random game in the flat and the Dict env side by side, checking
    every agent's observation and mask at every step; return the number of steps."""
    flat, full = flat_env(game, num_players=players), env(game, num_players=players)
    flat.reset(seed=seed)
    full.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in flat.agent_iter():
        assert agent == full.agent_selection
        obs, reward, term, trunc, info = flat.last()
        full_obs, full_reward, full_term, full_trunc, full_info = full.last()
        assert obs.dtype == np.float32 and obs in flat.observation_space(agent)
        np.testing.assert_array_equal(obs, full_obs["observation"])
        assert (reward, term, trunc) == (full_reward, full_term, full_trunc)
        assert {k: v for k, v in info.items() if k != "action_mask"} == full_info
        _check_every_mask(flat, full)
        action = None if term or trunc else int(rng.choice(np.flatnonzero(info["action_mask"])))
        flat.step(action)
        full.step(action)
        steps += 1
    assert flat.agents == full.agents == []
    return steps


def _check_every_mask(flat: Any, full: Any) -> None:
    assert set(flat.infos) == set(full.agents)
    deciding = 0
    for agent in full.agents:
        mask = flat.infos[agent]["action_mask"]
        assert mask.dtype == np.int8
        np.testing.assert_array_equal(mask, full.observe(agent)["action_mask"])
        np.testing.assert_array_equal(flat.observe(agent), full.observe(agent)["observation"])
        deciding += int(mask.any())
        if agent != full.agent_selection:
            assert not mask.any()
    assert deciding <= 1


@pytest.mark.parametrize(("game", "players"), GAME_PLAYERS, ids=IDS)
def test_observations_and_masks_equal_the_dict_envs_at_every_step(game: str,
                                                                  players: int) -> None:
    assert _lockstep_game(game, players, seed=7) > players


def test_masks_are_refreshed_after_reset() -> None:
    flat = flat_env("flowers", num_players=2)
    flat.reset(seed=1)
    first = flat.agent_selection
    assert flat.infos[first]["action_mask"].any()
    while flat.agents:  # play to the end, then reset: masks come back
        _, _, term, trunc, info = flat.last()
        flat.step(None if term or trunc else int(np.flatnonzero(info["action_mask"])[0]))
    flat.reset(seed=1)
    assert flat.agent_selection == first and flat.infos[first]["action_mask"].any()


def test_raw_env_can_be_wrapped_and_the_parallel_conversion_sees_boxes() -> None:
    flat = FlatObservation(raw_env("dadaocheng", num_players=2))
    flat.reset(seed=3)
    assert flat.observe(flat.agent_selection).shape == flat.observation_space("player_0").shape
    par = turn_based_aec_to_parallel(flat_env("tea", num_players=2))
    observations, infos = par.reset(seed=3)
    assert all(isinstance(o, np.ndarray) for o in observations.values())
    assert sum(int(i["action_mask"].any()) for i in infos.values()) == 1


class _OtherEnv(AECEnv):
    """A minimal AEC env that is not a formosa env."""

    metadata = {"name": "other_v0"}
    possible_agents = ["a"]

    def observation_space(self, agent: str) -> spaces.Space:
        return spaces.Box(0, 1, (2,))

    def action_space(self, agent: str) -> spaces.Space:
        return spaces.Discrete(2)


@pytest.mark.parametrize(("bad", "message"), [
    (object(), "wraps a PettingZoo AEC env"),
    (_OtherEnv(), "wraps a formosa env"),
    ("flowers", "wraps a PettingZoo AEC env"),
])
def test_bad_input_is_refused_with_a_clear_error(bad: Any, message: str) -> None:
    with pytest.raises(ArgumentError, match=message):
        FlatObservation(bad)


def test_a_parallel_env_and_a_second_flat_view_are_refused() -> None:
    with pytest.raises(ArgumentError, match="got a ParallelEnv"):
        FlatObservation(turn_based_aec_to_parallel(env("flowers", num_players=2)))
    with pytest.raises(ArgumentError, match="already a flat view"):
        FlatObservation(flat_env("flowers", num_players=2))
