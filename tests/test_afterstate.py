"""The afterstate evaluator agent and its candidates (agents/afterstate.py,
agents/candidates.py): numpy only, no torch."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from formosa_envs.agents import AgentSpecError, afterstate, candidates, make_agent
from formosa_envs.agents.afterstate import (
    EXTRA_FEATURES,
    FORMAT,
    AfterstateAgent,
    afterstate_features,
    rowwise_forward,
    top_candidates,
)
from formosa_envs.agents.candidates import Candidate, candidate_generator, tea_candidates
from formosa_envs.agents.heuristics import HeuristicAgent
from formosa_envs.agents.network import Network
from formosa_envs.agents.policy import PolicyFileError

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game


def write_evaluator(path: Path, game_name: str = "tea", seed: int = 0, hidden: int = 8,
                    feature_size: int | None = None, activation: str = "relu",
                    two_layers: bool = False, **meta: object) -> Path:
    """A random evaluator file in the shipped format (what training exports)."""
    game = make_game(game_name, num_players=2)
    size = feature_size or afterstate.feature_size(game)
    rng = np.random.default_rng(seed)
    info = {"format": FORMAT, "game": game_name, "feature_size": size, "margin_scale": 20.0,
            "top_k": 4, "win_weight": 0.0, **meta}
    layers = {"w0": rng.normal(size=(hidden, size)), "b0": rng.normal(size=hidden) * 0.1}
    if two_layers:
        layers.update(w1=rng.normal(size=(hidden, hidden)) * 0.2, b1=rng.normal(size=hidden))
    layers.update(w_out=rng.normal(size=(2, hidden)), b_out=np.zeros(2))
    np.savez(path, **{k: v.astype(np.float32) for k, v in layers.items()},
             activation=np.array(activation), evaluator=np.array(json.dumps(info)))
    return path


def _turn_states(num: int = 12, players: int = 2, seed: int = 3, game_name: str = "tea",
                 at_turn: Callable[[object, object, int], object] | None = None
                 ) -> tuple[object, list[object]]:
    """States where ``at_turn(game, state, seat)`` holds (default: a Tea turn with a
    choice), reached by heuristic self-play."""
    at_turn = at_turn or tea_candidates
    game = make_game(game_name, num_players=players)
    agents = [HeuristicAgent(game_name, seed=i) for i in range(players)]
    rng, state, found = np.random.default_rng(seed), game.new_initial_state(), []
    while not game.is_terminal(state) and len(found) < num:
        seat = game.current_player(state)
        if seat == CHANCE:
            game.resolve_chance(state, rng)
            continue
        if at_turn(game, state, seat):
            found.append(state.clone())
        game.apply_action(state, agents[seat].act_on_state(game, state))
    return game, found


def test_candidates_are_the_heuristics_own_moves_and_values() -> None:
    """One candidate per legal move; the best by value is the heuristic's own choice."""
    game, states = _turn_states()
    assert len(states) == 12
    for state in states:
        me = game.current_player(state)
        rows = tea_candidates(game, state, me)
        assert [c.action for c in rows] == game.legal_actions(state)
        choice = HeuristicAgent("tea", seed=0).act_on_state(game, state)
        best = max(c.value for c in rows)
        assert next(c.value for c in rows if c.action == choice) == pytest.approx(best, abs=1e-5)
        for c in rows:  # an afterstate stops before another seat's decision or a draw
            assert c.after.over or game.current_player(c.after) != me \
                or c.after.stack[-1].kind == "turn"


@pytest.mark.parametrize("keep", [1, 3, 5])
def test_keep_leaves_the_afterstates_top_candidates_picks(keep: int) -> None:
    """With ``keep``, the rows are the same moves and values; the afterstates of exactly
    the ``keep`` rows ``top_candidates`` picks survive (ties included), unchanged."""
    game, states = _turn_states(20)
    for state in states:
        me = game.current_player(state)
        full, kept = tea_candidates(game, state, me), tea_candidates(game, state, me, keep)
        assert [(c.action, c.value) for c in kept] == [(c.action, c.value) for c in full]
        picked = {c.action for c in top_candidates(full, keep)}
        assert {c.action for c in kept if c.after is not None} == picked
        for a, b in zip(full, kept, strict=True):
            if b.after is not None:
                assert game.observe(b.after, me).tobytes() == game.observe(a.after, me).tobytes()
    ties = [Candidate(i, object(), v) for i, v in enumerate([2.0, 5.0, 2.0, 5.0, 2.0])]
    keeper = candidates.KeptBest(ties, 3)
    for i in range(len(ties)):
        keeper.offer(i)
    assert [c.after is not None for c in ties] == [True, True, False, True, False]


def test_no_candidates_where_the_heuristic_answers_by_rule() -> None:
    """Decisions other than a turn (a harvest take, a lowering...) get None."""
    game = make_game("tea", num_players=2)
    agents = [HeuristicAgent("tea", seed=i) for i in range(2)]
    rng, state, kinds = np.random.default_rng(0), game.new_initial_state(), set()
    while not game.is_terminal(state) and len(kinds) < 4:
        seat = game.current_player(state)
        if seat == CHANCE:
            game.resolve_chance(state, rng)
            continue
        kind = state.stack[-1].kind
        if kind != "turn":
            assert tea_candidates(game, state, seat) is None
            kinds.add(kind)
        game.apply_action(state, agents[seat].act_on_state(game, state))
    assert len(kinds) == 4
    with pytest.raises(ValueError, match="no afterstate candidates for game 'taiwan'"):
        candidate_generator("taiwan")


def test_top_candidates_keep_the_heuristic_order() -> None:
    rows = [Candidate(a, None, v) for a, v in [(1, 0.5), (2, 3.0), (3, 3.0), (4, -1.0)]]
    assert [c.action for c in top_candidates(rows, 3)] == [2, 3, 1]


def test_features_are_the_seat_view_and_the_values() -> None:
    game, states = _turn_states(2)
    state, me = states[0], game.current_player(states[0])
    x = afterstate_features(game, "tea", state, me)
    assert x.shape == (game.observation_size + EXTRA_FEATURES,)
    np.testing.assert_array_equal(x[:game.observation_size], game.observe(state, me))
    assert x[-1] == pytest.approx(0.5)
    rows = afterstate.stack_features(np.stack([x, x]), np.array([7, 3]), np.array([4.0, 2.0]),
                                     game.num_actions)
    assert rows.shape == (2, afterstate.feature_size(game))
    onehot = rows[:, x.size:x.size + game.num_actions]
    assert onehot[0, 7] == onehot[1, 3] == 1.0 and onehot.sum() == 2.0
    np.testing.assert_allclose(rows[:, -2:], [[0.0, 0.0], [-0.4, 0.125]])


def test_rowwise_forward_matches_the_network(tmp_path: Path) -> None:
    path = write_evaluator(tmp_path / "e.npz", hidden=16)
    with np.load(path, allow_pickle=False) as npz:
        arrays = {k: npz[k] for k in npz.files if k != "evaluator"}
    net = Network.from_arrays(arrays)
    x = np.random.default_rng(1).random((5, arrays["w0"].shape[1]), dtype=np.float32)
    np.testing.assert_allclose(rowwise_forward(net.layers, x), net.logits(x), rtol=1e-4,
                               atol=1e-4)


def _assembled_scores(agent: AfterstateAgent, game: object, top: list[Candidate], me: int
                      ) -> np.ndarray:
    """The scores of the assembled rows (features as training builds them, then predict)."""
    positions = np.stack([afterstate_features(game, "tea", c.after, me, c.value) for c in top])
    rows = afterstate.stack_features(positions, np.array([c.action for c in top]),
                                     np.array([c.value for c in top]), game.num_actions)
    margin, win = agent.evaluator.predict(rows)
    return margin + agent.evaluator.info.win_weight * win


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("which", ["random", "shipped"])
def test_play_time_scores_are_the_assembled_rows_scores(tmp_path: Path, players: int,
                                                        which: str) -> None:
    """The scorer (pieces, never the assembled row) scores and chooses as the network on
    the rows training builds; a random two-layer net with a win weight, and the shipped one."""
    path = (Path(afterstate.__file__).parent / "pretrained" / "tea_afterstate.npz"
            if which == "shipped" else write_evaluator(tmp_path / "e.npz", hidden=32,
                                                       win_weight=1.5, two_layers=True))
    agent = make_agent(f"afterstate:{path}", "tea", 0)
    game, states = _turn_states(10, players)
    for state in states:
        me = game.current_player(state)
        candidates = tea_candidates(game, state, me)
        top = top_candidates(candidates, agent.top_k)
        expected = _assembled_scores(agent, game, top, me)
        chosen = agent.choose(game, candidates, me)
        assert chosen is top[int(np.argmax(expected))]
        observations = game.observe_many([c.after for c in top], me)
        extras = np.concatenate([np.array([afterstate.value_features(
            game, "tea", c.after, me, c.value) for c in top], dtype=np.float32),
            afterstate.candidate_features([c.value for c in top])], axis=1)
        got = agent.scorer.scores(observations, extras, np.array([c.action for c in top]))
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_an_evaluator_other_than_relu_is_refused(tmp_path: Path) -> None:
    path = write_evaluator(tmp_path / "e.npz", activation="tanh")
    with pytest.raises(PolicyFileError, match="ReLU"):
        afterstate.AfterstateEvaluator.load(path)


def test_the_agent_plays_whole_games_the_same_way_twice(tmp_path: Path) -> None:
    path = write_evaluator(tmp_path / "e.npz")
    from formosa_envs.tools.simulate import play_game
    game = make_game("tea", num_players=2)
    runs = []
    for _ in range(2):
        agents = [make_agent(f"afterstate:{path}", "tea", 5), make_agent("heuristic", "tea", 6)]
        runs.append(play_game(game, agents, seed=11))
    assert runs[0] == runs[1]


def test_the_evaluator_changes_the_choice(tmp_path: Path) -> None:
    """Two random evaluators disagree with the heuristic somewhere: the net decides."""
    game, states = _turn_states(12)
    heuristic = HeuristicAgent("tea", seed=0)
    moves = {seed: [make_agent(f"afterstate:{write_evaluator(tmp_path / f'{seed}.npz', seed=seed)}",
                               "tea", 0).act_on_state(game, s) for s in states]
             for seed in (1, 2)}
    plain = [heuristic.act_on_state(game, s) for s in states]
    assert moves[1] != plain or moves[2] != plain


def test_spec_width_and_refusals(tmp_path: Path) -> None:
    path = write_evaluator(tmp_path / "e.npz")
    agent = make_agent(f"afterstate:{path}:2", "tea", 0)
    assert isinstance(agent, AfterstateAgent) and agent.top_k == 2
    assert make_agent(f"afterstate:{path}", "tea", 0).top_k == 4
    with pytest.raises(AgentSpecError, match="needs a path"):
        make_agent("afterstate:", "tea", 0)
    with pytest.raises(AgentSpecError, match="no afterstate candidates for game 'taiwan'"):
        make_agent(f"afterstate:{path}", "taiwan", 0)
    with pytest.raises(PolicyFileError, match="no 'evaluator' array"):
        np.savez(tmp_path / "p.npz", w0=np.ones((2, 3), np.float32), b0=np.zeros(2, np.float32),
                 w_out=np.ones((2, 2), np.float32), b_out=np.zeros(2, np.float32),
                 activation=np.array("relu"))
        make_agent(f"afterstate:{tmp_path / 'p.npz'}", "tea", 0)
    with pytest.raises(PolicyFileError, match="not an afterstate evaluator file"):
        make_agent(f"afterstate:{write_evaluator(tmp_path / 'f.npz', format='x/1')}", "tea", 0)
    with pytest.raises(AgentSpecError, match="no file|not found|does not exist"):
        make_agent(f"afterstate:{tmp_path / 'missing.npz'}", "tea", 0)


def test_a_file_for_other_features_is_refused_before_the_first_move(tmp_path: Path) -> None:
    path = write_evaluator(tmp_path / "e.npz", feature_size=50)
    game, states = _turn_states(1)
    agent = make_agent(f"afterstate:{path}", "tea", 0)
    with pytest.raises(PolicyFileError, match="50 features.*cannot play tea"):
        agent.act_on_state(game, states[0])


def test_think_times_reports_both_seats_and_the_control() -> None:
    from formosa_envs.evaluation.timing import think_times
    t = think_times("flowers", "random", 2, seed=3)
    assert t["games"] == 2 and t["agent_decisions"] > 0 and t["opponent_decisions"] > 0
    assert t["agent_ms_per_decision"] > 0 and t["heuristic_ms_per_decision"] > 0
    assert t["ratio"] == pytest.approx(t["agent_ms_per_decision"]
                                       / t["heuristic_ms_per_decision"])
    assert t["ratio_to_control"] == pytest.approx(t["agent_ms_per_decision"]
                                                  / t["control_ms_per_decision"])


def test_an_evaluator_for_a_seat_count_plays_at_that_count_only(tmp_path: Path) -> None:
    """by_players: the evaluator of a table's seat count replaces the default there (its
    top_k too), and the default plays every other count; the agent switches back and forth."""
    from formosa_envs.agents.afterstate import AfterstateEvaluator
    default = AfterstateEvaluator.load(write_evaluator(tmp_path / "a.npz", seed=1))
    three = AfterstateEvaluator.load(write_evaluator(tmp_path / "b.npz", seed=2, top_k=3))
    agent = AfterstateAgent("tea", default, seed=0, by_players={3: three})
    for players, evaluator in ((2, default), (3, three), (2, default)):
        game, states = _turn_states(4, players=players)
        moves = [agent.act_on_state(game, s) for s in states]
        assert agent.seats == players and agent.top_k == evaluator.info.top_k
        alone = AfterstateAgent("tea", evaluator, seed=0)
        assert moves == [alone.act_on_state(game, s) for s in states]
    assert agent.evaluator_for(3) is three and agent.evaluator_for(4) is default
