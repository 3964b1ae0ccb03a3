"""The docs' OpenSpiel recipe (``examples/openspiel_recipe.py``, docs/openspiel.md) runs, and
its learning part (``train_agent``: OpenSpiel's RL loop and A2C agent) learns (``slow``)."""

from __future__ import annotations

import numpy as np
import pytest

from examples import openspiel_recipe as recipe
from formosa_envs.envs import raw_env


def test_check_game_loads_with_parameters() -> None:
    game = recipe.check_game()
    assert game.num_players() == 3 and game.engine.config.advanced is True


def test_mcts_against_heuristic_returns_zero_sum_results() -> None:
    results = recipe.mcts_against_heuristic(games=2, simulations=4)
    assert len(results) == 2
    assert all(len(r) == 2 and sum(r) == 0.0 for r in results)


def test_the_pyspiel_game_is_the_env_game() -> None:
    env = raw_env("flowers")
    env.reset(seed=7)
    pick = np.random.default_rng(8)
    while env.agents and not any(env.terminations.values()):
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[int(pick.integers(len(legal)))]))
    assert recipe.env_game_through_pyspiel(7) == env.game.to_json(env.engine_state)


def test_the_docs_blocks_run() -> None:
    """The docs' OpenSpiel blocks (``# needs: spiel``, docs/openspiel.md), executed as written."""
    from tests.docs_blocks import run_block, tagged
    blocks = tagged("spiel")
    assert blocks, "no '# needs: spiel' block in the docs"
    scopes = [run_block(block) for block in blocks]
    assert any(scope["game"].num_players() == 2 for scope in scopes if "game" in scope)


def test_the_agents_info_state_is_the_learner_env_observation() -> None:
    """One game through OpenSpiel's ``rl_environment`` and through ``learner_env``: chance
    drawn as the env draws it, the env's opponent as an OpenSpiel bot. At every learner
    decision the agent's ``info_state`` is the env's observation and its legal actions the
    env's mask, so an agent trained on the first plays ``evaluate_learner`` as it learned."""
    import pyspiel
    from open_spiel.python import rl_environment

    import formosa_envs.spiel as fs
    from formosa_envs.envs import learner_env
    env = learner_env("flowers", "random", learner_seat=0)
    observation, info = env.reset(seed=5)
    rng = np.random.default_rng(5)                    # the env's generator, drawn in its order:
    game = pyspiel.load_game("formosa_flowers")
    opponent = fs.bot_from_spec("random", game, seed=int(rng.integers(2**31)))  # opponent seed
    spiel = rl_environment.Environment(
        game, chance_event_sampler=lambda state: fs.sample_chance(state, rng))
    step, pick, decisions = spiel.reset(), np.random.default_rng(0), 0
    while not step.last():
        if step.observations["current_player"] == 1:
            step = spiel.step([opponent.step(spiel.get_state)])
            continue
        assert np.array_equal(np.asarray(step.observations["info_state"][0], np.float32),
                              observation)
        assert step.observations["legal_actions"][0] == np.flatnonzero(info["action_mask"]).tolist()
        action = int(pick.choice(step.observations["legal_actions"][0]))
        observation, reward, terminated, _, info = env.step(action)
        step, decisions = spiel.step([action]), decisions + 1
    assert terminated and step.rewards[0] == reward and decisions > 10


def test_train_agent_is_seeded_and_leaves_global_rngs_alone() -> None:
    """The untrained policy (``cpu_seconds=0``) and a few episodes of training with each
    learner: legal greedy actions, the same for the same seed and episodes, numpy's and
    torch's global generators as they were."""
    import torch

    from formosa_envs.envs import learner_env
    env = learner_env("flowers", "random")
    probes = [env.reset(seed=seed) for seed in (8_000_000, 8_000_001, 8_000_002)]
    numpy_state, torch_state = np.random.get_state()[1].copy(), torch.get_rng_state()
    for learner, budget, episodes in (("a2c", 0.0, None), ("a2c", 60.0, 20), ("dqn", 60.0, 20)):
        first, second = (recipe.train_agent(seed=3, cpu_seconds=budget, progress=False,
                                            learner=learner, max_episodes=episodes)
                         for _ in range(2))
        for observation, info in probes:
            action = first(observation, info["action_mask"])
            assert info["action_mask"][action]
            assert action == second(observation, info["action_mask"])
    assert np.array_equal(np.random.get_state()[1], numpy_state)
    assert torch.equal(torch.get_rng_state(), torch_state)


@pytest.mark.slow
@pytest.mark.spiel
def test_train_agent_beats_random() -> None:
    """The learning recipe end to end: 180 CPU-seconds of OpenSpiel's A2C (seed 0) against
    OpenSpiel's random agent, then 100 games against the env's random opponent on the
    evaluation seeds (measured: 81.5% over 400 games; the bar leaves room for a slower
    machine, which plays fewer episodes in the same CPU time)."""
    from formosa_envs.envs import evaluate_learner
    act = recipe.train_agent(seed=0, cpu_seconds=180.0, progress=False)
    score = evaluate_learner(act, "flowers", "random", games=100, seed=7_000_000)
    assert score.win_rate >= 0.65, str(score)
