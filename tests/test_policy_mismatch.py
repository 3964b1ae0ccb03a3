"""A policy exported for one game (or player count) refuses, with a clear error, to
play another: before its first move, not deep inside numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from formosa_envs.agents import AgentSpecError, make_agent
from formosa_envs.agents.policy import PolicyAgent, PolicyFileError, PolicyMismatchError

from formosa_envs.cli import main
from formosa_envs.games import make_game


def export_for(path: Path, game: str, num_players: int = 2) -> Path:
    """A tiny random two-layer policy sized for ``game`` with ``num_players``."""
    engine = make_game(game, num_players=num_players)
    rng = np.random.default_rng(0)
    w0 = rng.normal(size=(8, engine.observation_size)).astype(np.float32)
    w_out = rng.normal(size=(engine.num_actions, 8)).astype(np.float32)
    np.savez(path, activation=np.array("tanh"), w0=w0, b0=np.zeros(8, np.float32),
             w_out=w_out, b_out=np.zeros(engine.num_actions, np.float32))
    return path


def play(agent: PolicyAgent, game: str, num_players: int = 2, seed: int = 0) -> int:
    """Play one game with ``agent`` in every seat; the number of decisions taken."""
    engine, rng = make_game(game, num_players=num_players), np.random.default_rng(seed)
    state, moves = engine.new_initial_state(), 0
    while not engine.is_terminal(state):
        if engine.current_player(state) < 0:  # chance
            engine.apply_action(state, engine.sample_chance(state, rng))
            continue
        engine.apply_action(state, agent.act_on_state(engine, state))
        moves += 1
    return moves


@pytest.fixture()
def flowers_policy(tmp_path: Path) -> Path:
    return export_for(tmp_path / "flowers.npz", "flowers")


def test_a_flowers_policy_plays_flowers(flowers_policy: Path) -> None:
    assert play(PolicyAgent.load(flowers_policy), "flowers") > 0


def test_a_flowers_policy_refuses_tea_naming_both_sizes(flowers_policy: Path) -> None:
    agent, flowers, tea = (PolicyAgent.load(flowers_policy), make_game("flowers", num_players=2),
                           make_game("tea", num_players=2))
    with pytest.raises(PolicyMismatchError) as exc:
        play(agent, "tea")
    message = str(exc.value)
    for needle in (str(flowers_policy), "tea with 2 players", f"{flowers.observation_size} values",
                   f"{flowers.num_actions} actions", f"{tea.observation_size} values",
                   f"{tea.num_actions} actions"):
        assert needle in message, (needle, message)
    assert isinstance(exc.value, PolicyFileError) and isinstance(exc.value, AgentSpecError)
    assert isinstance(exc.value, ValueError)


def test_the_observation_entry_point_checks_too(flowers_policy: Path) -> None:
    tea = make_game("tea", num_players=2)
    state = tea.new_initial_state()
    while tea.current_player(state) < 0:
        tea.apply_action(state, tea.sample_chance(state, np.random.default_rng(0)))
    obs = {"observation": tea.observe(state, tea.current_player(state)),
           "action_mask": tea.legal_mask(state)}
    with pytest.raises(PolicyMismatchError, match="does not fit"):
        PolicyAgent.load(flowers_policy).act(obs)


def test_bind_checks_the_engine_before_any_move(tmp_path: Path) -> None:
    """(Every game's sizes are the same for all player counts, so the game decides.)"""
    agent = PolicyAgent.load(export_for(tmp_path / "solo.npz", "dadaocheng", 1))
    assert agent.bind(make_game("dadaocheng", num_players=1)) is agent
    with pytest.raises(PolicyMismatchError, match="does not fit taiwan with 3 players"):
        agent.bind(make_game("taiwan", num_players=3))


def test_an_unbound_policy_is_named_generically() -> None:
    agent = PolicyAgent([(np.ones((2, 3), np.float32), np.zeros(2, np.float32))])
    with pytest.raises(PolicyMismatchError, match="the policy does not fit this game"):
        agent.act({"observation": np.ones(4, np.float32), "action_mask": np.ones(2, np.int8)})


def test_formosa_simulate_with_a_policy_of_another_game_is_one_line(
        flowers_policy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert make_agent(f"policy:{flowers_policy}").name == "policy:flowers"
    assert main(["simulate", "tea", "--games", "1", "--agents",
                 f"policy:{flowers_policy}"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("formosa simulate: error: policy ") and "does not fit tea" in err
