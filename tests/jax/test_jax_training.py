"""The jitted self-play PPO (``formosa train flowers --backend jax``): a tiny run trains,
exports a numpy network that plays legally in the Python engine, and bad settings fail
before anything compiles."""

from __future__ import annotations

import json
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from formosa_envs.agents.network import Network
from formosa_envs.training.jax import selfplay as play
from formosa_envs.training.jax.config import JaxTrainConfig, load_jax_config
from formosa_envs.training.jax.nets import init_params
from formosa_envs.training.jax.ppo import gae, make_train
from formosa_envs.training.train import main as train_main

from formosa_envs.core.errors import ConfigError
from formosa_envs.jax.flowers.vec_env import FlowersVecEnv

from .configs import write_jax_config

TINY = {"num_envs": 16, "pool_size": 4, "rollout_steps": 4, "epochs": 1, "minibatches": 2,
        "hidden_size": 16, "updates": 3, "updates_per_call": 3, "minutes": 0.0,
        "eval_games": 4, "export_every": 2}


def test_a_tiny_run_exports_a_network_that_plays(tmp_path) -> None:
    config = write_jax_config(tmp_path / "tiny.toml", TINY)
    assert train_main(["flowers", "--backend", "jax", "--config", str(config),
                       "--out", str(tmp_path / "run"), "--quiet"]) == 0
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    # learner steps count the steps where the learner moved (a lane whose opponents were
    # still to move skips one), at most one per game and rollout step
    assert summary["updates"] == 3 and 0 < summary["learner_steps"] <= 3 * 16 * 4
    assert set(summary["vs"]) == {"random", "heuristic"}
    assert all(v["games"] == 4 for v in summary["vs"].values())   # played to the end
    network = Network.load(str(tmp_path / "run" / "network.npz"))
    assert network.has_value
    assert sorted(p.name for p in (tmp_path / "run" / "networks").iterdir()) == [
        "update-000003.npz"]   # the end of the call that crossed update 2
    rows = (tmp_path / "run" / "metrics.csv").read_text().splitlines()
    assert len(rows) == 4 and "win_rate_vs_random" in rows[0]
    column = rows[0].split(",").index("learner_steps")
    assert sum(int(r.split(",")[column]) for r in rows[1:]) == summary["learner_steps"]


def test_learner_steps_always_leave_the_learner_to_move() -> None:
    """After every learner step each game waits for the learner's seat (or is new)."""
    vec = FlowersVecEnv(8, num_players=3)
    params = init_params(jax.random.PRNGKey(0), vec.observation_size, vec.num_actions, (8,))
    pool = jax.tree_util.tree_map(lambda leaf: jnp.stack([leaf] * 2), params)
    lineup = play.make_lineup(vec, 2, 0.5)
    randoms, heuristics = lineup.lanes(8, 2)
    assert randoms.tolist() == [True] * 4 + [False] * 4 and not heuristics.any()
    assert lineup.random_blocks == 1 and lineup.heuristic is None
    games, seats = play.new_games(vec, pool, lineup, jax.random.PRNGKey(1), "relu")
    step = jax.jit(lambda g, s, a, k: play.learner_step(vec, pool, lineup, g, s, a, k, "relu"))
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


def test_capped_opponent_rounds_make_at_most_that_many_moves() -> None:
    vec = FlowersVecEnv(32, num_players=4)
    params = init_params(jax.random.PRNGKey(0), vec.observation_size, vec.num_actions, (8,))
    pool = jax.tree_util.tree_map(lambda leaf: jnp.stack([leaf] * 2), params)
    games = vec.reset(jax.random.PRNGKey(1)).state
    seats = jnp.full(32, 3)  # seat 0 starts: three opponents' turns before the learner's
    after, _, _, done = jax.jit(lambda g, s, k: play.play_opponents(
        vec, pool, play.Lineup(random_blocks=1), g, s, k, "relu", max_moves=2))(
        games, seats, jax.random.PRNGKey(2))
    moved = np.asarray(after.decisions - games.decisions)
    assert not np.asarray(done).any() and (moved >= 1).all() and (moved <= 2).all()
    assert (np.asarray(after.current_player) != 3).all()  # not ready: the next step skips


def test_heuristic_blocks_play_the_heuristic_with_their_epsilon() -> None:
    """Blocks: random, heuristic (epsilon 0), heuristic (epsilon 1), snapshot."""
    from formosa_envs.jax.flowers.heuristic import FlowersHeuristicJax
    vec = FlowersVecEnv(16, num_players=2)
    lineup = play.make_lineup(vec, 4, 0.25, heuristic_fraction=0.5, heuristic_epsilon=1.0)
    assert lineup.random_blocks == 1 and lineup.epsilons == (0.0, 1.0)
    randoms, heuristics = lineup.lanes(16, 4)
    assert randoms.tolist() == [True] * 4 + [False] * 12
    assert heuristics.tolist() == [False] * 4 + [True] * 4 + [False] * 8
    params = init_params(jax.random.PRNGKey(0), vec.observation_size, vec.num_actions, (8,))
    pool = jax.tree_util.tree_map(lambda leaf: jnp.stack([leaf] * 4), params)
    values_of = jax.vmap(FlowersHeuristicJax(vec.engine).option_values)
    agree = np.zeros(16)
    for i in range(20):
        states = vec.reset(jax.random.PRNGKey(10 + i)).state  # first plays of new games
        moves = np.asarray(play.opponent_actions(pool, states, lineup,
                                                 jax.random.PRNGKey(i), "relu"))
        assert np.asarray(states.legal_action_mask)[np.arange(16), moves].all()
        values = np.asarray(values_of(states))
        agree += values[np.arange(16), moves] >= values.max(axis=1) - 1e-4
    assert (agree[4:8] == 20).all()        # epsilon 0: always a best move of the heuristic
    assert agree[8:12].mean() < 15         # epsilon 1: random legal moves


def test_too_many_fixed_blocks_are_refused() -> None:
    with pytest.raises(ConfigError, match="heuristic_fraction"):
        load_jax_config(None, pool_size=4, random_fraction=0.5, heuristic_fraction=0.75)


def test_a_skipped_lane_stays_put() -> None:
    vec = FlowersVecEnv(8, num_players=2)
    before = vec.reset(jax.random.PRNGKey(4)).state
    after = vec.step(before, jnp.full(8, -1), jax.random.PRNGKey(5)).state
    for name in ("hands", "field", "piles", "deck_order", "deck_next", "scores", "decisions",
                 "current_player", "observation", "legal_action_mask", "round", "kind"):
        assert np.array_equal(getattr(after, name), getattr(before, name)), name
    assert not np.asarray(after.rewards).any()


def _trajectory(reward: list[float], done: list[float], value: list[float],
                valid: list[float]) -> Any:
    from formosa_envs.training.jax.ppo import Trajectory
    zeros = jnp.zeros((len(reward), 1))

    def column(values: list[float]) -> jax.Array:
        return jnp.asarray(values)[:, None]
    return Trajectory(obs=zeros, mask=zeros, action=zeros, logp=zeros, value=column(value),
                      reward=column(reward), done=column(done), random_opponent=zeros,
                      heuristic_opponent=zeros, teacher=zeros, valid=column(valid))


def test_gae_carries_the_final_reward_back_and_stops_at_game_ends() -> None:
    traj = _trajectory([0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0] * 3, [1.0] * 3)
    advantages, targets = gae(traj, jnp.asarray([0.5]), lam=1.0)
    assert advantages[:, 0].tolist() == [1.0, 1.0, 0.5]      # no leak across the game end
    assert np.allclose(targets, advantages)


def test_gae_gives_a_skipped_steps_reward_to_the_learners_last_move() -> None:
    # step 1 is skipped (the opponents were still to move) and a game ended during it:
    # its reward and end belong to step 0; step 2 starts the next game
    traj = _trajectory([0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.2, 0.9, 0.5], [1.0, 0.0, 1.0])
    advantages, targets = gae(traj, jnp.asarray([0.3]), lam=1.0)
    assert np.allclose(advantages[:, 0], [0.8, 0.0, -0.2])
    assert np.allclose(targets[[0, 2], 0], [1.0, 0.3])


def test_the_return_metric_adds_a_games_rewards_across_rollouts() -> None:
    """Per-step rewards (the margin reward) add up over a game, also a game started in an
    earlier rollout; a game ending below 0 is lost, above 0 won."""
    from formosa_envs.training.jax.ppo import episode_metrics, finished_returns
    traj = _trajectory([0.5, 0.25, -1.0, 0.5], [0.0, 1.0, 0.0, 1.0], [0.0] * 4, [1.0] * 4)
    returns, running = finished_returns(traj, jnp.asarray([0.5]))
    assert returns[:, 0].tolist() == [0.0, 1.25, 0.0, -0.5] and running.tolist() == [0.0]
    metrics = episode_metrics(traj, returns)
    assert float(metrics["return"]) == 0.375 and float(metrics["win_rate"]) == 0.5
    _, running = finished_returns(_trajectory([0.5, 0.25], [0.0, 0.0], [0.0] * 2,
                                              [1.0] * 2), jnp.asarray([1.0]))
    assert running.tolist() == [1.75]   # carried into the next rollout


def test_the_loss_ignores_skipped_steps() -> None:
    from formosa_envs.training.jax.ppo import Batch, ppo_loss
    rng = np.random.default_rng(0)
    n, valid = 12, np.array([1.0] * 8 + [0.0] * 4, np.float32)

    def batch(noise: float) -> Batch:
        obs = rng.random((n, 442)).astype(np.float32)
        obs[8:] += noise  # the skipped rows' contents must not matter
        return Batch(obs=jnp.asarray(obs), mask=jnp.ones((n, 111), bool),
                     action=jnp.asarray(rng.integers(0, 111, n)),
                     logp=jnp.full(n, -4.7), advantage=jnp.asarray(rng.normal(size=n)),
                     target=jnp.asarray(rng.normal(size=n)), valid=jnp.asarray(valid),
                     teacher=jnp.zeros(n, jnp.int32))
    params = init_params(jax.random.PRNGKey(0), 442, 111, (16,))
    cfg = JaxTrainConfig()
    rng = np.random.default_rng(1)
    first = ppo_loss(params, batch(0.0), cfg)[0]
    rng = np.random.default_rng(1)
    second = ppo_loss(params, batch(100.0), cfg)[0]
    assert float(first) == pytest.approx(float(second), rel=1e-6)


@pytest.mark.parametrize(("overrides", "message"), [
    ({"num_envs": 10}, "multiple of pool_size"),
    ({"activation": "gelu"}, "activation must be one of"),
    ({"learning_rate": 0.0}, "learning_rate"),
    ({"colour": 1}, "unknown jax training option 'colour'"),
    ({"opponent_moves": 0}, "opponent_moves"),
    ({"anneal_lr": "yes"}, "anneal_lr must be true or false"),
])
def test_bad_settings_fail_before_compiling(overrides, message) -> None:
    with pytest.raises(ConfigError, match=message):
        load_jax_config(**overrides)


def test_make_train_refuses_a_batch_the_pool_does_not_divide() -> None:
    with pytest.raises(ValueError, match="multiple of pool_size"):
        make_train(FlowersVecEnv(10), JaxTrainConfig(num_envs=10, pool_size=4))


def test_the_learning_rate_anneals_over_the_budget() -> None:
    from formosa_envs.training.jax.train import _lr_scale
    timed = JaxTrainConfig(minutes=10.0)
    assert _lr_scale(timed, 5, elapsed=150.0, budget=600.0) == pytest.approx(0.75)
    assert _lr_scale(timed, 5, elapsed=700.0, budget=600.0) == 0.0
    counted = JaxTrainConfig(minutes=0.0, updates=40)
    assert _lr_scale(counted, 10, elapsed=1e6, budget=float("inf")) == pytest.approx(0.75)
    assert _lr_scale(JaxTrainConfig(anneal_lr=False), 39, 599.0, 600.0) == 1.0


def test_the_kickstarting_weight_falls_to_zero_at_its_share_of_the_budget() -> None:
    from formosa_envs.training.jax.train import _teacher_scale
    cfg = JaxTrainConfig(kickstart=2.0, kickstart_share=0.5, minutes=10.0)
    budget = 600.0
    assert _teacher_scale(cfg, 0, 0.0, budget) == 2.0
    assert _teacher_scale(cfg, 0, 150.0, budget) == pytest.approx(1.0)
    assert _teacher_scale(cfg, 0, 300.0, budget) == 0.0
    assert _teacher_scale(JaxTrainConfig(), 0, 0.0, budget) == 0.0   # off by default


def test_the_kickstarting_loss_is_the_cross_entropy_to_the_teachers_action() -> None:
    from formosa_envs.training.jax.ppo import Batch, ppo_loss
    n = 6
    params = init_params(jax.random.PRNGKey(0), 442, 111, (16,))
    obs = jnp.asarray(np.random.default_rng(0).random((n, 442)), jnp.float32)
    mask = jnp.zeros((n, 111), bool).at[:, :3].set(True)
    batch = Batch(obs=obs, mask=mask, action=jnp.zeros(n, jnp.int32), logp=jnp.zeros(n),
                  advantage=jnp.zeros(n), target=jnp.zeros(n), valid=jnp.ones(n),
                  teacher=jnp.full(n, 2, jnp.int32))
    cfg = JaxTrainConfig()
    plain, parts = ppo_loss(params, batch, cfg, 0.0)
    taught, _ = ppo_loss(params, batch, cfg, 0.5)
    from formosa_envs.training.jax.nets import masked_logits
    log_probs = jax.nn.log_softmax(masked_logits(params, obs, mask, cfg.activation))
    expected = -float(log_probs[:, 2].mean())
    assert float(parts["teacher_loss"]) == pytest.approx(expected, rel=1e-5)
    assert float(taught - plain) == pytest.approx(0.5 * expected, rel=1e-4)


def test_the_evaluation_seats_the_policy_against_copies_of_each_opponent(monkeypatch) -> None:
    from formosa_envs.training.jax import train as jax_train

    import formosa_envs.evaluation.evaluate as evaluate
    seen = []

    def fake_tournament(game: str, agents: list[str], players: int, games: int,
                        **kwargs: Any) -> list[str]:
        seen.append((agents, players, games, kwargs["seed"]))
        return agents

    monkeypatch.setattr(evaluate, "run_tournament", fake_tournament)
    monkeypatch.setattr(evaluate, "win_share", lambda result, spec, opponent: {"games": 1})
    config = JaxTrainConfig(num_players=4, eval_games=10, eval_seed=5)
    jax_train._evaluate(config, "net.npz", False)
    assert seen == [(["policy:net.npz"] + ["random"] * 3, 4, 10, 5),
                    (["policy:net.npz"] + ["heuristic"] * 3, 4, 10, 5)]


@pytest.mark.parametrize("name", ["flowers_jax.toml", "flowers_jax_4p.toml",
                                  "flowers_jax_4p_cash.toml", "flowers_jax_4p_play_cash.toml",
                                  "flowers_jax_long.toml"])
def test_the_shipped_jax_configs_load(name: str) -> None:
    from formosa_envs.training.jax.config import CONFIG_PATH
    config = load_jax_config(CONFIG_PATH.parent / name)
    assert config.kickstart > 0 and config.heuristic_fraction > 0
