"""Baseline agents: legal play everywhere, strength against random, determinism, honesty."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from agents.heuristics import HeuristicAgent
from agents.mcts import MCTSAgent
from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game


def win_share(spec: str, games: int, players: int = 2, budget_seed: int = 0) -> float:
    """``spec``'s share of wins against random players, seats rotated, fixed seeds."""
    game = make_game("flowers", num_players=players)
    total = 0.0
    for g in range(games):
        seat = g % players
        agents = [make_agent("random", "flowers", seed=1000 + 10 * g + s) for s in range(players)]
        agents[seat] = make_agent(spec, "flowers", seed=budget_seed + g)
        scores = play_game(game, agents, seed=g).scores
        best = max(scores)
        if scores[seat] == best:
            total += 1 / scores.count(best)
    return total / games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_always_acts_legally(players: int) -> None:
    """apply_action raises on an illegal action, so finishing 30 games proves legality."""
    game = make_game("flowers", num_players=players)
    agents = [make_agent("heuristic", "flowers", seed=s) for s in range(players)]
    for seed in range(30):
        record = play_game(game, agents, seed)
        assert not record.truncated and max(record.scores) >= 60


@pytest.mark.parametrize("players", [2, 3])
def test_mcts_always_acts_legally(players: int) -> None:
    game = make_game("flowers", num_players=players)
    agents = [make_agent("mcts:8", "flowers", seed=s) for s in range(players)]
    for seed in range(2):
        assert not play_game(game, agents, seed).truncated


def test_heuristic_beats_random() -> None:
    assert win_share("heuristic", games=100) >= 0.85
    assert win_share("heuristic", games=60, players=3) >= 0.6


def test_mcts_beats_random() -> None:
    assert win_share("mcts:25", games=20) >= 0.7


def test_agents_are_deterministic_for_a_seed() -> None:
    game = make_game("flowers", num_players=2)
    for spec in ("heuristic", "mcts:10"):
        runs = [play_game(game, [make_agent(spec, "flowers", seed=3),
                                 make_agent("random", "flowers", seed=4)], seed=5).scores
                for _ in range(2)]
        assert runs[0] == runs[1], spec


def test_search_and_heuristic_ignore_hidden_information() -> None:
    """Reshuffling what the acting seat cannot see never changes its choice."""
    game = make_game("flowers", num_players=3)
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    checked = 0
    while not game.is_terminal(state) and checked < 12:
        player = game.current_player(state)
        if player == CHANCE:
            game.apply_chance(state, rng)
            continue
        other = game.determinize(state, player, rng)
        for spec in ("heuristic", "mcts:10"):
            a = make_agent(spec, "flowers", seed=7).act_on_state(game, state)
            b = make_agent(spec, "flowers", seed=7).act_on_state(game, other)
            assert a == b, (spec, game.decision_description(state))
        checked += 1
        legal = game.legal_actions(state)
        game.apply_action(state, legal[int(rng.integers(len(legal)))])
    assert checked == 12


def test_unknown_game_and_bad_options() -> None:
    with pytest.raises(ValueError, match="flowers"):
        HeuristicAgent("chess")
    with pytest.raises(ValueError):
        MCTSAgent(simulations=0)


def test_mcts_spec_options_and_heuristic_rollouts() -> None:
    from agents import AgentSpecError
    agent = make_agent("mcts:6:heuristic", "flowers", seed=0)
    assert isinstance(agent, MCTSAgent) and agent.rollout == "heuristic"
    assert agent.simulations == 6
    game = make_game("flowers", num_players=2)
    assert not play_game(game, [agent, make_agent("random", "flowers", seed=1)], 0).truncated
    game_horizon = MCTSAgent(simulations=4, seed=0, horizon="game")
    assert not play_game(game, [game_horizon, make_agent("random", seed=2)], 1).truncated
    with pytest.raises(AgentSpecError, match="rollout"):
        make_agent("mcts:5:smart")
