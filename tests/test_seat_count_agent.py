"""SeatCountAgent: one agent per table size, and the web's search limits reach every part."""

from __future__ import annotations

import numpy as np
from formosa_envs.agents.base import SeatCountAgent
from formosa_envs.agents.mcts import MCTSAgent, _resolve_chance
from formosa_envs.agents.random_agent import RandomAgent

from formosa_envs.games import make_game


def test_parts_play_at_their_table_size() -> None:
    searching, default = MCTSAgent(simulations=3, seed=1), RandomAgent(seed=2)
    agent = SeatCountAgent({4: searching}, default)
    assert agent.pick(4) is searching and agent.pick(2) is default
    game = make_game("flowers", num_players=4)
    state = game.new_initial_state()
    _resolve_chance(game, state, np.random.default_rng(5))
    assert game.legal_mask(state)[agent.act_on_state(game, state)]


def test_think_cap_stop_check_and_budget_reach_every_part() -> None:
    """What the web server sets on a seat's agent (``max_seconds``, ``should_stop``) is
    set on each part, and ``simulations`` is the largest part's, so the server's cap on
    simulations holds whichever part plays."""
    searching, default = MCTSAgent(simulations=300, seed=1), RandomAgent(seed=2)
    agent = SeatCountAgent({4: searching}, default)
    assert agent.simulations == 300
    assert SeatCountAgent({}, RandomAgent(seed=0)).simulations == 0
    agent.max_seconds = 0.25
    stop = lambda: True  # noqa: E731
    agent.should_stop = stop
    for part in (searching, default):
        assert part.max_seconds == 0.25 and part.should_stop is stop
    assert agent.max_seconds == 0.25 and agent.should_stop is stop


def test_a_stopped_search_part_answers_after_one_simulation() -> None:
    """With the stop check set through the seat-count agent, its MCTS part stops early
    (one simulation at least) and still answers a legal move."""
    searching = MCTSAgent(simulations=10_000, seed=1)
    agent = SeatCountAgent({2: searching}, RandomAgent(seed=2))
    agent.should_stop = lambda: True
    game = make_game("flowers", num_players=2)
    state = game.new_initial_state()
    _resolve_chance(game, state, np.random.default_rng(3))
    assert game.legal_mask(state)[agent.act_on_state(game, state)]
    assert sum(visits for visits, _ in searching.last_search.values()) == 1
