"""The jitted self-play PPO (``formosa train flowers --backend jax``): a tiny run trains,
exports a numpy network that plays legally in the Python engine, and bad settings fail
before anything compiles."""

from __future__ import annotations

import json

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from agents.network import Network
from formosa_envs.core.errors import ConfigError
from formosa_envs.jax.vec_env import FlowersVecEnv
from training import jax_selfplay as play
from training.jax_config import JaxTrainConfig, load_jax_config
from training.jax_nets import init_params
from training.jax_ppo import gae, make_train
from training.train import main as train_main

TINY = {"num_envs": 16, "pool_size": 4, "rollout_steps": 4, "epochs": 1, "minibatches": 2,
        "hidden_size": 16, "updates": 3, "updates_per_call": 3, "minutes": 0.0,
        "eval_games": 4, "export_every": 2}


def test_a_tiny_run_exports_a_network_that_plays(tmp_path) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text("[jax]\n" + "".join(f"{k} = {v!r}\n".replace("'", '"')
                                           for k, v in TINY.items()))
    assert train_main(["flowers", "--backend", "jax", "--config", str(config),
                       "--out", str(tmp_path / "run"), "--quiet"]) == 0
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["updates"] == 3 and summary["learner_steps"] == 3 * 16 * 4
    assert set(summary["vs"]) == {"random", "heuristic"}
    assert all(v["games"] == 4 for v in summary["vs"].values())   # played to the end
    network = Network.load(str(tmp_path / "run" / "network.npz"))
    assert network.has_value
    assert sorted(p.name for p in (tmp_path / "run" / "networks").iterdir()) == [
        "update-000003.npz"]   # the end of the call that crossed update 2
    rows = (tmp_path / "run" / "metrics.csv").read_text().splitlines()
    assert len(rows) == 4 and "win_rate_vs_random" in rows[0]


def test_learner_steps_always_leave_the_learner_to_move() -> None:
    """After every learner step each game waits for the learner's seat (or is new)."""
    vec = FlowersVecEnv(8, num_players=3)
    params = init_params(jax.random.PRNGKey(0), vec.observation_size, vec.num_actions, (8,))
    pool = jax.tree_util.tree_map(lambda leaf: jnp.stack([leaf] * 2), params)
    randoms = play.random_lanes(8, 2, 0.5)
    assert randoms.tolist() == [True] * 4 + [False] * 4
    games, seats = play.new_games(vec, pool, randoms, jax.random.PRNGKey(1), "relu")
    step = jax.jit(lambda g, s, a, k: play.learner_step(vec, pool, randoms, g, s, a, k, "relu"))
    finished = 0
    for i in range(60):
        assert np.array_equal(np.asarray(games.current_player), np.asarray(seats))
        mask = np.asarray(games.legal_action_mask)
        assert mask.any(axis=1).all()
        actions = jnp.asarray([np.flatnonzero(m)[0] for m in mask])
        games, seats, reward, done = step(games, seats, actions, jax.random.PRNGKey(2 + i))
        finished += int(np.asarray(done).sum())
        assert np.all(np.asarray(reward)[~np.asarray(done)] == 0.0)
    assert finished > 0


def test_gae_carries_the_final_reward_back_and_stops_at_game_ends() -> None:
    from training.jax_ppo import Trajectory
    zeros = jnp.zeros((3, 1))
    traj = Trajectory(obs=zeros, mask=zeros, action=zeros, logp=zeros, value=zeros,
                      reward=jnp.asarray([[0.0], [1.0], [0.0]]),
                      done=jnp.asarray([[0.0], [1.0], [0.0]]), random_opponent=zeros)
    advantages, targets = gae(traj, jnp.asarray([0.5]), lam=1.0)
    assert advantages[:, 0].tolist() == [1.0, 1.0, 0.5]      # no leak across the game end
    assert np.allclose(targets, advantages)


@pytest.mark.parametrize(("overrides", "message"), [
    ({"num_envs": 10}, "multiple of pool_size"),
    ({"activation": "gelu"}, "activation must be one of"),
    ({"learning_rate": 0.0}, "learning_rate"),
    ({"colour": 1}, "unknown jax training option 'colour'"),
])
def test_bad_settings_fail_before_compiling(overrides, message) -> None:
    with pytest.raises(ConfigError, match=message):
        load_jax_config(**overrides)


def test_make_train_refuses_a_batch_the_pool_does_not_divide() -> None:
    with pytest.raises(ValueError, match="multiple of pool_size"):
        make_train(FlowersVecEnv(10), JaxTrainConfig(num_envs=10, pool_size=4))
