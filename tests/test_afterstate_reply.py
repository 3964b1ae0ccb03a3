"""The reply feature of the Dadaocheng evaluator: the next seat's best single-movement gain
on each candidate afterstate (agents/heuristics/dadaocheng.reply_gain), in the input when
the evaluator file says ``reply``, and the board-free fit (``observation_inputs = 0``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import afterstate, candidates, make_agent
from formosa_envs.agents.afterstate import (
    afterstate_positions,
    candidate_features,
    stack_features,
    top_candidates,
)
from formosa_envs.agents.candidates import dadaocheng_candidates, reply_value
from formosa_envs.agents.heuristics import dadaocheng as heuristic
from formosa_envs.agents.heuristics.dadaocheng_plan import MOVES, rank_movements
from formosa_envs.agents.heuristics.dadaocheng_value import Valuer
from formosa_envs.training.afterstate.config import AfterstateConfig
from formosa_envs.training.afterstate.run import run_afterstate

from formosa_envs.core.errors import ConfigError
from formosa_envs.games import make_game

from .test_afterstate import write_evaluator
from .test_afterstate_dadaocheng import _turn_states


def _own_best_single_movement(game: Any, state: Any, seat: int) -> float:
    """The heuristic's own ranking of single movements at ``seat``'s turn start, less the
    hand's plan value (what :func:`reply_gain` must give at such a state)."""
    view = Valuer(game, state, seat)
    grid, scorer = heuristic._grid(game, state), heuristic._scorer(game, state, view)
    ranked = rank_movements(grid[0], grid[1], scorer, heuristic._rerank(state, view),
                            list(MOVES), (), view.w.deep, view.w.wide)
    return ranked[0][0] - view.value(tuple(state.hand[seat])) if ranked else 0.0


def test_reply_gain_is_the_heuristics_own_single_movement_value_at_a_turn_start() -> None:
    game, states = _turn_states(8)
    gains = []
    for state in states:
        seat = game.current_player(state)
        before = (game.observe(state, seat).tobytes(), state.turn, list(state.used))
        gains.append(heuristic.reply_gain(game, state, seat))
        assert gains[-1] == pytest.approx(_own_best_single_movement(game, state, seat))
        assert (game.observe(state, seat).tobytes(), state.turn, list(state.used)) == before
    assert any(g > 0 for g in gains)


def test_the_reply_is_the_next_seats_and_leaves_the_afterstate_alone() -> None:
    game, states = _turn_states(6)
    for state in states:
        me = game.current_player(state)
        for row in dadaocheng_candidates(game, state, me, 3):
            turn, used = row.after.turn, list(row.after.used)
            value = reply_value("dadaocheng", game, row.after, me)
            assert value == heuristic.reply_gain(game, row.after, 1 - me)
            assert (row.after.turn, row.after.used) == (turn, used)
    with pytest.raises(ValueError, match="no reply feature for game 'tea'"):
        reply_value("tea", make_game("tea"), None, 0)


def _reply_evaluator(tmp_path: Path, **meta: object) -> Path:
    game = make_game("dadaocheng", num_players=2)
    return write_evaluator(tmp_path / "r.npz", game_name="dadaocheng", hidden=16,
                           two_layers=True, feature_size=afterstate.feature_size(game, True),
                           reply=True, **meta)


def test_a_reply_evaluator_scores_the_rows_training_builds(tmp_path: Path) -> None:
    agent = make_agent(f"afterstate:{_reply_evaluator(tmp_path)}", "dadaocheng", 0)
    assert agent.evaluator.info.reply
    game, states = _turn_states(6)
    for state in states:
        me = game.current_player(state)
        top = top_candidates(dadaocheng_candidates(game, state, me, 3), agent.top_k)
        positions = afterstate_positions(game, "dadaocheng", [c.after for c in top], me,
                                         [c.value for c in top], reply=True)
        assert positions.shape[1] == game.observation_size + afterstate.EXTRA_FEATURES + 1
        assert positions[0, -1] == pytest.approx(
            reply_value("dadaocheng", game, top[0].after, me) / 10.0)
        rows = stack_features(positions, np.array([c.action for c in top]),
                              np.array([c.value for c in top]), game.num_actions)
        margin, _ = agent.evaluator.predict(rows)
        assert agent.choose(game, top, me) is top[int(np.argmax(margin))]
        assert candidate_features([c.value for c in top]).shape == (len(top), 2)


def test_an_evaluator_without_the_reply_never_computes_it(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    path = write_evaluator(tmp_path / "e.npz", game_name="dadaocheng", hidden=8)
    agent = make_agent(f"afterstate:{path}", "dadaocheng", 0)
    assert not agent.evaluator.info.reply

    def refuse(*_: object) -> float:
        raise AssertionError("the reply was computed")
    monkeypatch.setitem(candidates.REPLY_VALUES, "dadaocheng", refuse)
    game, states = _turn_states(3)
    assert all(agent.act_on_state(game, s) in game.legal_actions(s) for s in states)


def test_a_reply_file_is_refused_by_a_game_whose_size_differs(tmp_path: Path) -> None:
    from formosa_envs.agents.policy import PolicyFileError
    game = make_game("dadaocheng", num_players=2)
    path = write_evaluator(tmp_path / "e.npz", game_name="dadaocheng", hidden=8,
                           feature_size=afterstate.feature_size(game, False), reply=True)
    agent = make_agent(f"afterstate:{path}", "dadaocheng", 0)
    _, states = _turn_states(1)
    with pytest.raises(PolicyFileError, match="features.*cannot play dadaocheng"):
        agent.act_on_state(game, states[0])


def test_reply_is_refused_for_a_game_without_it(tmp_path: Path) -> None:
    config = AfterstateConfig(games=1, reply=1, workers=1, eval_games=0)
    with pytest.raises(ConfigError, match="reply = 1 needs a game with a reply feature"):
        run_afterstate("tea", tmp_path / "run", config, show_progress=False)
    assert not (tmp_path / "run").exists()
    with pytest.raises(ConfigError, match="reply"):
        AfterstateConfig(reply=2).validate()


def test_a_board_free_evaluator_skips_the_observations(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """With zero observation weights the agent never encodes an afterstate and chooses as
    the network on the assembled rows does."""
    game = make_game("dadaocheng", num_players=2)
    path = _reply_evaluator(tmp_path)
    with np.load(path) as npz:
        arrays = dict(npz)
    arrays["w0"][:, :game.observation_size] = 0.0
    np.savez(tmp_path / "free.npz", **arrays)
    agent = make_agent(f"afterstate:{tmp_path / 'free.npz'}", "dadaocheng", 0)
    _, states = _turn_states(4)
    expected = []
    for state in states:
        me = game.current_player(state)
        top = top_candidates(dadaocheng_candidates(game, state, me, 3), agent.top_k)
        positions = afterstate_positions(game, "dadaocheng", [c.after for c in top], me,
                                         [c.value for c in top], reply=True)
        rows = stack_features(positions, np.array([c.action for c in top]),
                              np.array([c.value for c in top]), game.num_actions)
        expected.append(top[int(np.argmax(agent.evaluator.predict(rows)[0]))].action)

    def refuse(*_: object) -> None:
        raise AssertionError("an afterstate was encoded")
    monkeypatch.setattr(type(game), "observe_many", refuse)
    got = []
    for state in states:
        me = game.current_player(state)
        got.append(agent.choose(game, dadaocheng_candidates(game, state, me, 3), me).action)
    assert not agent.scorer.reads_observation and got == expected


def test_a_bad_reply_flag_or_a_reply_file_for_another_game_is_refused(tmp_path: Path) -> None:
    from formosa_envs.agents.policy import PolicyFileError
    game = make_game("dadaocheng", num_players=2)
    bad = write_evaluator(tmp_path / "bad.npz", game_name="dadaocheng", hidden=8,
                          feature_size=afterstate.feature_size(game, True), reply="yes")
    with pytest.raises(PolicyFileError, match="reply must be true or false, got 'yes'"):
        make_agent(f"afterstate:{bad}", "dadaocheng", 0)
    tea = make_game("tea", num_players=2)
    path = write_evaluator(tmp_path / "tea.npz", game_name="tea", hidden=8,
                           feature_size=afterstate.feature_size(tea, True), reply=True)
    agent = make_agent(f"afterstate:{path}", "tea", 0)
    with pytest.raises(PolicyFileError, match="reads the next seat's reply.*not tea"):
        agent.evaluator.check_game("tea", tea)


def test_solo_timing_has_no_opponent_ratio() -> None:
    """A solo table has no opponent: its ratio is None (valid JSON), the control's is not."""
    import json

    from formosa_envs.evaluation.timing import think_times
    t = think_times("dadaocheng", "heuristic", 1, seed=3, num_players=1)
    assert t["opponent_decisions"] == 0 and t["ratio"] is None
    assert t["ratio_to_control"] > 0
    json.loads(json.dumps(t, allow_nan=False))
