"""PettingZoo parallel recipe: ``turn_based_aec_to_parallel`` (``aec_to_parallel`` refused)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.utils.conversions import aec_to_parallel

from examples.ecosystem.parallel_recipe import (
    agent_mask,
    make_parallel_env,
    play_parallel_game,
    random_actions,
)
from formosa_envs.envs import env


def test_aec_to_parallel_refuses_the_turn_based_envs() -> None:
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env("tea", num_players=3))


@pytest.mark.parametrize("flat", [False, True], ids=["dict", "flat"])
def test_one_agent_decides_per_parallel_step_and_its_action_is_legal(flat: bool) -> None:
    par_env = make_parallel_env("dadaocheng", 3, flat=flat)
    observations, infos = par_env.reset(seed=2)
    rng = np.random.default_rng(2)
    steps = 0
    while par_env.agents:
        masks = {a: agent_mask(observations, infos, a) for a in par_env.agents}
        deciding = [a for a, mask in masks.items() if mask.any()]
        assert deciding == [par_env.unwrapped.agent_selection]
        actions = random_actions(observations, infos, par_env.agents, rng)
        assert masks[deciding[0]][actions[deciding[0]]]
        observations, _, _, _, infos = par_env.step(actions)
        if par_env.agents:
            active = {info["active_agent"] for info in infos.values()}
            assert active == {par_env.unwrapped.agent_selection}
        steps += 1
    assert steps > 3


def test_every_seat_is_paid_in_the_last_step_and_flat_and_dict_agree() -> None:
    dict_game, flat_game = (play_parallel_game("tea", 3, seed=9, flat=f) for f in (False, True))
    assert dict_game == flat_game
    steps, totals = dict_game
    assert steps > 10 and sorted(totals) == ["player_0", "player_1", "player_2"]
    assert sum(totals.values()) == pytest.approx(0.0) and any(totals.values())
