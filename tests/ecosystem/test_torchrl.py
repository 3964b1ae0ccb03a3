"""TorchRL recipe (``examples/ecosystem/torchrl_recipe.py``)."""

from __future__ import annotations

import pytest
import torch
from torchrl.envs.utils import check_env_specs

from examples.ecosystem.torchrl_recipe import make_torchrl_env, observation_key, torchrl_rollout
from formosa_envs.games import GAMES


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_passes_check_env_specs(game: str) -> None:
    players = min(max(2, GAMES[game].min_players), GAMES[game].max_players)
    for flat in (False, True):
        torchrl_env = make_torchrl_env(game, players, seed=1, flat=flat)
        assert list(torchrl_env.group_map) == [f"player_{i}" for i in range(players)]
        check_env_specs(torchrl_env, seed=1)


@pytest.mark.parametrize("flat", [False, True], ids=["dict", "flat"])
def test_rollout_plays_a_whole_game_with_legal_masked_actions(flat: bool) -> None:
    rollout = torchrl_rollout("tea", 3, seed=0, flat=flat)
    groups = ["player_0", "player_1", "player_2"]
    steps = rollout.batch_size[0]
    assert steps > 30
    acting = torch.stack([rollout[g, "mask"].reshape(steps) for g in groups], dim=1)
    assert (acting.sum(dim=1) == 1).all()  # one seat decides on every env step
    for seat, group in enumerate(groups):
        legal = rollout[group, "action_mask"].reshape(steps, -1)
        actions = rollout[group, "action"].reshape(steps)
        chosen = legal[torch.arange(steps), actions]
        assert chosen[acting[:, seat]].all()
    assert bool(rollout["next", "done"][-1]) and not rollout["next", "done"][:-1].any()
    rewards = torch.stack([rollout["next", g, "reward"].reshape(steps) for g in groups], dim=1)
    assert not rewards[:-1].any() and rewards[-1].abs().sum() > 0
    assert float(rewards[-1].sum()) == pytest.approx(0.0)  # rank rewards are zero-sum


def test_rollouts_are_reproducible_and_dict_and_flat_agree() -> None:
    runs = [torchrl_rollout("flowers", 2, seed=5, flat=flat) for flat in (False, True, False)]
    for other in runs[1:]:
        assert other.batch_size == runs[0].batch_size
        for group in ("player_0", "player_1"):
            assert torch.equal(other[group, "action"], runs[0][group, "action"])
    dict_env, flat_env = (make_torchrl_env("flowers", 2, flat=f) for f in (False, True))
    assert observation_key(dict_env, "player_0") == ("player_0", "observation", "observation")
    assert observation_key(flat_env, "player_0") == ("player_0", "observation")
    assert torch.equal(runs[0][observation_key(dict_env, "player_1")],
                       runs[1][observation_key(flat_env, "player_1")])
