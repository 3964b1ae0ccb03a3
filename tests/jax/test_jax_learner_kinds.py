"""The jitted PPO restricted to some decision kinds (``learner_kinds``: the JAX heuristic
makes the learner seat's other decisions) and its win-share reward (``reward = "win"``)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from formosa_envs.agents import AgentSpecError, make_agent
from formosa_envs.agents.residual import ResidualAgent
from formosa_envs.training.jax import selfplay as play
from formosa_envs.training.jax.config import load_jax_config
from formosa_envs.training.jax.nets import init_params
from formosa_envs.training.train import main as train_main

from formosa_envs.core.errors import ConfigError
from formosa_envs.jax.flowers.heuristic import FlowersHeuristicJax
from formosa_envs.jax.flowers.state import KEEP_OR_CASH
from formosa_envs.jax.flowers.vec_env import FlowersVecEnv

from .configs import write_jax_config

CASH_ONLY = {"num_players": 4, "num_envs": 16, "pool_size": 4, "rollout_steps": 4,
             "epochs": 1, "minibatches": 2, "hidden_size": 16, "updates": 2,
             "updates_per_call": 2, "minutes": 0.0, "eval_games": 4, "export_every": 0,
             "random_fraction": 0.25, "heuristic_fraction": 0.75, "opponent_moves": 8,
             "learner_kinds": ["keep_or_cash"], "reward": "win", "eval_seed": 8_000_000}


def _pool(vec: FlowersVecEnv, blocks: int) -> dict:
    params = init_params(jax.random.PRNGKey(0), vec.observation_size, vec.num_actions, (8,))
    return jax.tree_util.tree_map(lambda leaf: jnp.stack([leaf] * blocks), params)


def test_the_learner_is_asked_only_at_its_kinds() -> None:
    vec = FlowersVecEnv(16, num_players=4)
    lineup = play.make_lineup(vec, 4, 0.25, 0.75, 0.3, learner_kinds=(KEEP_OR_CASH,))
    pool = _pool(vec, 4)
    games, seats = play.new_games(vec, pool, lineup, jax.random.PRNGKey(1), "relu")
    step = jax.jit(lambda g, s, a, k: play.learner_step(vec, pool, lineup, g, s, a, k,
                                                        "relu"))
    for i in range(12):  # after every learner step each lane waits at the learner's cash
        ready = np.asarray(play.learner_turn(lineup, games, seats))
        assert ready.all() and (np.asarray(games.kind) == KEEP_OR_CASH).all()
        assert (np.asarray(games.current_player) == np.asarray(seats)).all()
        mask = np.asarray(games.legal_action_mask)
        actions = jnp.asarray([np.flatnonzero(m)[i % 2 - 1] for m in mask])
        games, seats, _, _ = step(games, seats, actions, jax.random.PRNGKey(2 + i))
    states = vec.reset(jax.random.PRNGKey(3)).state
    seats = states.current_player  # the learner's seat is to play a card: not its kind
    assert not np.asarray(play.learner_turn(lineup, states, seats)).any()
    assert np.asarray(play.learner_turn(play.Lineup(random_blocks=1), states, seats)).all()


def test_the_heuristic_makes_the_learner_seats_other_decisions() -> None:
    """Even in the random and epsilon blocks (only the opponents play those)."""
    vec = FlowersVecEnv(16, num_players=4)
    ours = play.make_lineup(vec, 4, 0.25, 0.75, 1.0, learner_kinds=(KEEP_OR_CASH,))
    every_kind = play.make_lineup(vec, 4, 0.25, 0.75, 1.0)
    pool = _pool(vec, 4)
    values_of = jax.vmap(FlowersHeuristicJax(vec.engine).option_values)
    agree = {id(ours): np.zeros(16), id(every_kind): np.zeros(16)}
    for i in range(10):
        states = vec.reset(jax.random.PRNGKey(20 + i)).state  # first plays of new games
        seats = states.current_player
        values = np.asarray(values_of(states))
        for lineup in (ours, every_kind):
            moves = np.asarray(play._other_actions(pool, states, seats, lineup,
                                                   jax.random.PRNGKey(i), "relu"))
            agree[id(lineup)] += values[np.arange(16), moves] >= values.max(axis=1) - 1e-4
    assert (agree[id(ours)] == 10).all()
    assert agree[id(every_kind)][:4].mean() < 8 and agree[id(every_kind)][12:].mean() < 8


def _finished(rewards: list[list[float]], terminated: list[bool]) -> SimpleNamespace:
    return SimpleNamespace(rewards=jnp.asarray(rewards, jnp.float32),
                           terminated=jnp.asarray(terminated))


def test_the_win_reward_is_the_learners_share_of_the_victory() -> None:
    third = 1.0 / 3.0
    out = _finished([[1.0, third, -third, -1.0],          # seat 0 alone on top
                     [2 * third, 2 * third, -2 * third, -2 * third],   # seats 0, 1 tied
                     [1.0, third, -third, -1.0],          # seat 1 second
                     [0.0, 0.0, 0.0, 0.0],                # stopped by the length guard
                     [0.0, 0.0, 0.0, 0.0]], [True, True, True, False, False])
    seats = jnp.asarray([0, 1, 1, 0, 2])
    win = play.Lineup(win_reward=True)
    assert np.asarray(play.learner_reward(win, out, seats)).tolist() == [1.0, 0.5, 0.0,
                                                                         0.0, 0.0]
    rank = np.asarray(play.learner_reward(play.Lineup(), out, seats))
    np.testing.assert_allclose(rank, [1.0, 2 * third, third, 0.0, 0.0], atol=1e-6)


@pytest.mark.parametrize(("overrides", "message"), [
    ({"learner_kinds": ["cash"]}, "learner_kinds must be a list of"),
    ({"learner_kinds": "keep_or_cash"}, "learner_kinds must be a list of"),
    ({"learner_kinds": ["keep_or_cash"], "random_fraction": 0.25,
      "heuristic_fraction": 0.25}, "every opponent block"),
    ({"learner_kinds": ["play"], "game": "dadaocheng", "heuristic_fraction": 0.0,
      "kickstart": 0.0, "random_fraction": 1.0}, "JAX heuristic of flowers"),
    ({"reward": "win", "game": "dadaocheng", "num_players": 1, "heuristic_fraction": 0.0,
      "kickstart": 0.0}, "needs opponents"),
    ({"reward": "score"}, "reward must be one of"),
])
def test_bad_learner_settings_fail_before_compiling(overrides, message) -> None:
    with pytest.raises(ConfigError, match=message):
        load_jax_config(**overrides)


def test_a_cash_only_run_exports_a_network_that_plays_as_residual(tmp_path) -> None:
    config = write_jax_config(tmp_path / "cash.toml", CASH_ONLY)
    assert load_jax_config(config).kind_codes == (KEEP_OR_CASH,)
    assert train_main(["flowers", "--backend", "jax", "--config", str(config),
                       "--out", str(tmp_path / "run"), "--quiet"]) == 0
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert 0 < summary["learner_steps"] <= 2 * 16 * 4
    assert all(v["games"] == 4 for v in summary["vs"].values())
    network = str(tmp_path / "run" / "network.npz")
    agent = make_agent(f"residual:{network}:0", "flowers", 1)
    assert isinstance(agent, ResidualAgent) and agent.policy.kinds == ("keep_or_cash",)
    with pytest.raises(AgentSpecError, match="residual:"):
        make_agent(f"policy:{network}", "flowers")
