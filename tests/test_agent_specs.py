"""Agent specs: ``mcts:N:heuristic`` builds MCTS with heuristic rollouts (see agents/__init__)."""

from __future__ import annotations

import pytest
from formosa_envs.agents import AgentSpecError, make_agent
from formosa_envs.agents.mcts import MCTSAgent

from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game


def test_mcts_spec_options_and_heuristic_rollouts() -> None:
    from formosa_envs.agents import AgentSpecError
    agent = make_agent("mcts:6:heuristic", "flowers", seed=0)
    assert isinstance(agent, MCTSAgent) and agent.rollout == "heuristic"
    assert agent.simulations == 6
    game = make_game("flowers", num_players=2)
    assert not play_game(game, [agent, make_agent("random", "flowers", seed=1)], 0).truncated
    game_horizon = MCTSAgent(simulations=4, seed=0, horizon="game")
    assert not play_game(game, [game_horizon, make_agent("random", seed=2)], 1).truncated
    with pytest.raises(AgentSpecError, match="rollout"):
        make_agent("mcts:5:smart")


def test_rllib_spec_splits_the_module_off_the_path() -> None:
    from formosa_envs.agents import agent_label, split_module
    assert split_module("runs/a@b/ckpt") == ("runs/a@b/ckpt", "")
    assert split_module("runs/a@b/ckpt@learner") == ("runs/a@b/ckpt", "learner")
    assert agent_label("rllib:runs/x/latest@seat_1") == "rllib:latest@seat_1"


@pytest.mark.parametrize("spec", ["mcts:99999999999999999999", "mcts:1000001", "mcts:²",
                                  "mcts:١٠"])
def test_a_search_budget_is_a_plain_bounded_number(spec: str) -> None:
    with pytest.raises(AgentSpecError, match="positive integer|at most 1,000,000"):
        make_agent(spec, "flowers")


def test_agent_usage_gives_each_kinds_syntax() -> None:
    from formosa_envs.agents import AgentSpecError, agent_kinds, agent_usage
    assert agent_usage("mcts") == "mcts[:N[:R]]"
    assert all(agent_usage(kind).startswith(kind) for kind in agent_kinds())
    with pytest.raises(AgentSpecError, match="unknown agent kind 'nope'"):
        agent_usage("nope")
