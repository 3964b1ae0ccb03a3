"""The afterstate agent on Dadaocheng: candidates are the heuristic's two-movement plans,
each with the afterstate of the whole turn, and the agent plays a chosen plan through."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import make_agent
from formosa_envs.agents.candidates import (
    TURN_STARTS,
    candidate_generator,
    dadaocheng_candidates,
    dadaocheng_value,
)
from formosa_envs.agents.heuristics import HeuristicAgent
from formosa_envs.agents.heuristics import dadaocheng as heuristic
from formosa_envs.training.afterstate import data as labels_module

from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game

from .test_afterstate import _turn_states as turn_states
from .test_afterstate import write_evaluator


def _turn_states(num: int, players: int = 2, seed: int = 5) -> tuple[Any, list[Any]]:
    """Dadaocheng states at the first movement of a turn, by heuristic self-play."""
    return turn_states(num, players, seed, "dadaocheng",
                       lambda game, state, seat: TURN_STARTS["dadaocheng"](state))


def _replay(game: Any, state: Any, me: int, actions: list[int]) -> Any:
    """``actions``, then the heuristic's answers for ``me`` to the end of the turn."""
    s, rng = state.clone(), np.random.default_rng(0)
    for action in actions:
        game.apply_action(s, action)
    while not s.over and s.stack[-1].player == me and not TURN_STARTS["dadaocheng"](s):
        game.apply_action(s, heuristic.choose(game, s, rng))
    return s


def test_candidates_are_the_heuristics_plans_played_through_the_turn() -> None:
    game, states = _turn_states(6)
    assert len(states) == 6
    for state in states:
        me = game.current_player(state)
        rows = dadaocheng_candidates(game, state, me, 3)
        plans = heuristic.turn_plans(game, state)
        assert 2 <= len(rows) <= 3 and len(plans) >= len(rows)
        own = HeuristicAgent("dadaocheng", seed=0).act_on_state(game, state)
        assert rows[0].action == own          # the first plan is the heuristic's move
        for row, (_, plan) in zip(rows, plans, strict=False):
            actions = [a for move in plan for a in heuristic.movement_actions(move)]
            committed = [row.action, *row.then]
            assert committed[:len(actions)] == actions
            expected = _replay(game, state, me, actions)
            assert game.observe(row.after, me).tobytes() == game.observe(expected, me).tobytes()
            replayed = state.clone()       # the committed actions are the afterstate's turn
            for action in committed:
                game.apply_action(replayed, action)
            assert game.observe(replayed, me).tobytes() == game.observe(row.after, me).tobytes()
            assert row.value == pytest.approx(dadaocheng_value(game, row.after, me))
            assert row.after.over or row.after.stack[-1].player != me \
                or TURN_STARTS["dadaocheng"](row.after)


def test_no_candidates_away_from_a_turns_first_movement() -> None:
    game, states = _turn_states(3)
    state, rng = states[-1].clone(), np.random.default_rng(0)
    me = game.current_player(state)
    game.apply_action(state, heuristic.choose(game, state, rng))   # the first movement done
    while game.current_player(state) == me and not TURN_STARTS["dadaocheng"](state):
        assert dadaocheng_candidates(game, state, me, 3) is None
        game.apply_action(state, heuristic.choose(game, state, rng))
    assert candidate_generator("dadaocheng") is dadaocheng_candidates


class _Recording:
    """Wraps an agent; records (decision count, action) of each of its moves."""

    def __init__(self, agent: Any) -> None:
        self.agent, self.moves = agent, []

    def act_on_state(self, game: Any, state: Any) -> int:
        action = self.agent.act_on_state(game, state)
        self.moves.append((state.decisions, action, list(self.agent.pending)))
        return action

    def reset(self) -> None:
        self.agent.reset()


def test_the_agent_plays_its_chosen_plan_through(tmp_path: Path) -> None:
    """After a chosen plan's first movement, the next decisions are the plan's own (the
    committed actions), and the same seeds give the same game."""
    path = write_evaluator(tmp_path / "e.npz", game_name="dadaocheng", hidden=16,
                           two_layers=True)
    game = make_game("dadaocheng", num_players=2)
    runs = []
    for _ in range(2):
        agent = _Recording(make_agent(f"afterstate:{path}", "dadaocheng", 3))
        runs.append((play_game(game, [agent, make_agent("heuristic", "dadaocheng", 4)],
                               seed=21), agent.moves))
    assert runs[0] == runs[1]
    moves = runs[0][1]
    committed = 0
    for (at, _, pending), (next_at, action, _) in zip(moves, moves[1:], strict=False):
        if pending and next_at == at + 1:
            assert action == pending[0]
            committed += 1
    assert committed > 5


def test_a_truncated_play_out_stops_at_the_next_turn_start() -> None:
    game, states = _turn_states(2)
    state = states[-1]
    me = game.current_player(state)
    agents = [HeuristicAgent("dadaocheng", seed=i) for i in range(2)]
    end = labels_module._play(game, state.clone(), me, np.random.default_rng(1), agents, 1,
                              TURN_STARTS["dadaocheng"])
    assert not game.is_terminal(end) and game.current_player(end) == me
    assert TURN_STARTS["dadaocheng"](end) and end.decisions > state.decisions
