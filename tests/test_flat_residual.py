"""Flat Monte Carlo (agents/flat_mc.py), its value targets (training/imitation/targets.py,
``--value-targets``) and the residual agent that plays them (agents/residual.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from formosa_envs.agents import AgentSpecError, make_agent
from formosa_envs.agents.flat_mc import FlatMonteCarloAgent
from formosa_envs.agents.heuristics import HeuristicAgent
from formosa_envs.agents.policy import PolicyAgent
from formosa_envs.agents.residual import ResidualAgent
from formosa_envs.training.imitation.data import DataSettings, generate, load_data
from formosa_envs.training.imitation.targets import value_shares

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import ConfigError
from formosa_envs.games import make_game


def _decisions(num: int, players: int = 4, seed: int = 2) -> tuple[object, list[object]]:
    """States of a heuristic Flowers game where the deciding seat has a choice."""
    game = make_game("flowers", num_players=players)
    heuristic = HeuristicAgent("flowers", seed=seed)
    rng, state, found = np.random.default_rng(seed), game.new_initial_state(), []
    while len(found) < num and not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
            continue
        if len(game.legal_actions(state)) > 1:
            found.append(state.clone())
        game.apply_action(state, heuristic.act_on_state(game, state))
    return game, found


def test_flat_values_every_legal_move_alike_and_plays_the_best() -> None:
    game, states = _decisions(6)
    for state in states:
        agent = FlatMonteCarloAgent(playouts=3, seed=1)
        move = agent.act_on_state(game, state)
        legal = game.legal_actions(state)
        assert sorted(agent.last_search) == sorted(legal)
        assert {visits for visits, _ in agent.last_search.values()} == {3}
        means = {a: v for a, (_, v) in agent.last_search.items()}
        assert means[move] == max(means.values())
        assert all(-1.0 <= v <= 1.0 for v in means.values())


def test_flat_reads_only_what_the_seat_sees() -> None:
    """Resample the hidden cards: the same seed gives the same values and move."""
    game, states = _decisions(5, seed=4)
    for k, state in enumerate(states):
        me = game.current_player(state)
        other = game.determinize(state, me, np.random.default_rng(100 + k))
        runs = []
        for s in (state, other):
            agent = FlatMonteCarloAgent(playouts=2, seed=7)
            runs.append((agent.act_on_state(game, s), agent.last_search))
        assert runs[0] == runs[1]


def test_flat_siblings_share_their_play_outs() -> None:
    """Common random numbers: two moves with the same afterstate get the same value."""
    game, states = _decisions(30, seed=5)
    agent = FlatMonteCarloAgent(playouts=2, seed=3)
    ties = 0
    for state in states:
        agent.act_on_state(game, state)
        values = [v for _, v in agent.last_search.values()]
        ties += len(values) - len(set(values))
    assert ties > 0  # e.g. two cards of one flower that capture alike


def test_flat_spec_and_forced_moves() -> None:
    game, states = _decisions(1)
    agent = make_agent("flat:4", "flowers", 0)
    assert isinstance(agent, FlatMonteCarloAgent) and agent.simulations == 4
    for bad in ("flat:0", "flat:x", "flat:-2"):
        with pytest.raises(AgentSpecError):
            make_agent(bad, "flowers")
    with pytest.raises(ValueError, match="playouts"):
        FlatMonteCarloAgent(playouts=0)


def test_value_shares_are_a_softmax_over_the_temperature() -> None:
    class Searched:
        last_search = {2: (4, 0.2), 5: (4, 0.1), 6: (4, 0.1)}

    target = value_shares(Searched(), 2, 8, temperature=0.1).astype(np.float64)
    want = np.exp([1.0, 0.0, 0.0]) / np.exp([1.0, 0.0, 0.0]).sum()
    np.testing.assert_allclose(target[[2, 5, 6]], want, atol=1e-3)
    assert target.sum() == pytest.approx(1.0, abs=2e-3) and not target[[0, 1, 3, 4, 7]].any()
    sharper = value_shares(Searched(), 2, 8, temperature=0.01)
    assert sharper[2] > target[2]

    class NotSearched:
        last_search: dict = {}

    assert value_shares(NotSearched(), 3, 5, 0.1).tolist() == [0, 0, 0, 1, 0]


@pytest.fixture(scope="module")
def values(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two 4-player Flowers games: the heuristic plays, flat:2 labels its states."""
    out = tmp_path_factory.mktemp("values")
    settings = DataSettings("flowers", 2, teacher="flat:2", opponents=["heuristic"],
                            num_players=4, seed=3, chunk=1, learner="heuristic",
                            value_temperature=0.1)
    generate(settings, out, workers=1, show_progress=False)
    return out


def test_value_targets_are_recorded(values: Path) -> None:
    data = load_data(values)
    assert data.manifest["value_temperature"] == 0.1 and data.target is not None
    np.testing.assert_allclose(data.target.astype(np.float32).sum(axis=1), 1.0, atol=3e-3)
    assert not data.target[~data.mask].any()
    chosen = data.mask.sum(axis=1) > 1
    assert chosen.any()
    # every legal move was valued, and the label is the teacher's best (ties aside)
    assert (data.target[chosen][data.mask[chosen]] > 0).mean() > 0.95
    top = data.target[chosen].max(axis=1)
    label = data.target[chosen][np.arange(int(chosen.sum())), data.action[chosen]]
    assert (label == top).all()


@pytest.mark.parametrize("settings, match", [
    (dict(value_temperature=0.1, visit_targets=True, teacher="flat:2"), "not both"),
    (dict(value_temperature=-1.0, teacher="flat:2"), "value_temperature"),
    (dict(value_temperature=float("nan"), teacher="flat:2"), "value_temperature"),
    (dict(value_temperature=0.1), "root statistics"),
])
def test_value_target_settings_are_checked(tmp_path: Path, settings: dict, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        generate(DataSettings("flowers", 1, **settings), tmp_path / "x", show_progress=False)
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").iterdir())


def _write_policy(path: Path, favourite: int | None = None) -> Path:
    """A one-hidden-layer policy for Flowers: random, or preferring one action by far."""
    game = make_game("flowers", num_players=4)
    rng = np.random.default_rng(0)
    w0 = rng.normal(0, 0.05, (8, game.observation_size)).astype(np.float32)
    w_out = rng.normal(0, 0.05, (game.num_actions, 8)).astype(np.float32)
    b_out = np.zeros(game.num_actions, np.float32)
    if favourite is not None:
        b_out[favourite] = 50.0
    np.savez(path, w0=w0, b0=np.zeros(8, np.float32), w_out=w_out, b_out=b_out,
             activation=np.array("relu"))
    return path


def _play(game: object, agents: list[object], seed: int) -> list[int]:
    rng, state, moves = np.random.default_rng(seed), game.new_initial_state(), []
    while not game.is_terminal(state):
        seat = game.current_player(state)
        if seat == CHANCE:
            game.resolve_chance(state, rng)
            continue
        moves.append(agents[seat].act_on_state(game, state))
        game.apply_action(state, moves[-1])
    return moves


def test_residual_with_a_large_margin_is_the_heuristic(tmp_path: Path) -> None:
    game = make_game("flowers", num_players=4)
    path = _write_policy(tmp_path / "p.npz")
    residual = make_agent(f"residual:{path}:1000", "flowers", 11)
    assert isinstance(residual, ResidualAgent) and residual.margin == 1000
    others = [HeuristicAgent("flowers", seed=s) for s in (1, 2, 3)]
    ours = _play(game, [residual, *others], seed=5)
    others = [HeuristicAgent("flowers", seed=s) for s in (1, 2, 3)]
    theirs = _play(game, [HeuristicAgent("flowers", seed=11), *others], seed=5)
    assert ours == theirs and residual.choices > 0 and residual.deviations == 0


def test_residual_follows_the_network_only_past_the_margin(tmp_path: Path) -> None:
    game, states = _decisions(40)
    favourite = next(a for s in states for a in game.legal_actions(s)
                     if a != HeuristicAgent("flowers", seed=0).act_on_state(game, s))
    policy = PolicyAgent.load(_write_policy(tmp_path / "p.npz", favourite))
    eager, shy = ResidualAgent("flowers", policy, 1.0, 0), ResidualAgent("flowers", policy, 80, 1)
    # the same seeds tie-break alike: each residual agent's heuristic beside a copy
    copies = HeuristicAgent("flowers", seed=0), HeuristicAgent("flowers", seed=1)
    asked = []
    ask = eager.heuristic.act_on_state
    eager.heuristic.act_on_state = lambda g, s: asked.append(1) or ask(g, s)
    for state in states:
        legal = game.legal_actions(state)
        # the favourite leads every move by far: the heuristic is not even asked
        want = favourite if favourite in legal else copies[0].act_on_state(game, state)
        assert eager.act_on_state(game, state) == want
        assert shy.act_on_state(game, state) == copies[1].act_on_state(game, state)
    assert eager.deviations > 0 and shy.deviations == 0
    assert len(asked) == sum(favourite not in game.legal_actions(s) for s in states) > 0


def test_residual_spec_refusals(tmp_path: Path) -> None:
    path = _write_policy(tmp_path / "p.npz")
    for bad, match in ((f"residual:{path}:-1", "margin"), ("residual:", "needs a path"),
                       (f"residual:{tmp_path / 'none.npz'}", "not found")):
        with pytest.raises(AgentSpecError, match=match):
            make_agent(bad, "flowers")
    agent = make_agent(f"residual:{path}", "tea", 0)  # a Flowers network at a Tea table
    game, state = make_game("tea"), None
    state, rng = game.new_initial_state(), np.random.default_rng(0)
    while game.current_player(state) == CHANCE or len(game.legal_actions(state)) < 2:
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
        else:
            game.apply_action(state, game.legal_actions(state)[0])
    with pytest.raises(AgentSpecError, match="p.npz"):
        agent.act_on_state(game, state)


def test_filtered_value_data_loads(values: Path, tmp_path: Path, script: Callable) -> None:
    script = script("filter_imitation")
    assert script.main([str(tmp_path / "soft"), str(values), "--actions", "0:54"]) == 0
    assert script.main([str(tmp_path / "hard"), str(values), "--hard"]) == 0
    soft, hard = load_data(tmp_path / "soft"), load_data(tmp_path / "hard")
    assert soft.manifest["value_temperature"] == 0.1 and soft.target is not None
    assert hard.target is None and hard.manifest["value_temperature"] == 0.0
    assert len(hard) == len(load_data(values)) > len(soft) > 0


def test_flat_with_a_margin_keeps_the_heuristic_move_unless_beaten() -> None:
    from formosa_envs.agents.heuristics import heuristic_module
    choose = heuristic_module("flowers").choose
    game, states = _decisions(8, seed=6)
    deviated = 0
    for state in states:
        assert FlatMonteCarloAgent(2, seed=1, margin=10.0).act_on_state(game, state) == \
            choose(game, state, np.random.default_rng(0))
        agent = FlatMonteCarloAgent(2, seed=1, margin=0.0)
        move = agent.act_on_state(game, state)
        means = {a: v for a, (_, v) in agent.last_search.items()}
        heuristic = choose(game, state, np.random.default_rng(0))
        assert move in (heuristic, max(means, key=means.__getitem__))
        assert means[move] >= means[heuristic]
        deviated += move != heuristic
    assert deviated > 0
    assert make_agent("flat:4:0.05", "flowers").margin == 0.05
    for bad in ("flat:4:-1", "flat:4:x", "flat:4:inf"):
        with pytest.raises(AgentSpecError, match="margin"):
            make_agent(bad, "flowers")


def test_flat_win_values_are_win_shares_at_the_end_of_the_game() -> None:
    """``flat:M:win`` plays every play-out to the end: each value is a mean of win shares
    (multiples of 1/(M*k) in [0, 1]), and the siblings of one state are not all alike."""
    game, states = _decisions(12, seed=8)
    agent = make_agent("flat:3:win", "flowers", 2)
    assert (agent.value, agent.horizon, agent.simulations) == ("win", "game", 3)
    spread = 0
    for state in states:
        agent.act_on_state(game, state)
        values = [v for _, v in agent.last_search.values()]
        assert all(0.0 <= v <= 1.0 for v in values)
        assert all(abs(v * 3 * 12 - round(v * 3 * 12)) < 1e-9 for v in values)  # k <= 4
        spread += len(set(values)) > 1
    assert spread > 0
    lead = make_agent("flat:3", "flowers", 2)
    assert (lead.value, lead.horizon) == ("lead", "round")
    assert make_agent("flat:4:0.05:win", "flowers").margin == 0.05
    assert make_agent("flat:win", "flowers").simulations == 16
    for bad in ("flat:4:wins", "flat:4:win:win", "flat:4:0.1:win:x"):
        with pytest.raises(AgentSpecError):
            make_agent(bad, "flowers")
    with pytest.raises(ValueError, match="value"):
        FlatMonteCarloAgent(2, value="rank")


def test_flat_win_play_outs_reach_the_end_of_the_game() -> None:
    """Every ``win`` play-out ends in a finished game (not at the round's end), valued by
    the engine's own win shares; the ``lead`` play-outs stop at the round's end."""
    game, states = _decisions(3, seed=9)
    ended = []
    shares = game.win_shares

    def spy(state: object) -> list[float]:
        ended.append(game.is_terminal(state))
        return shares(state)

    game.win_shares = spy
    agent = FlatMonteCarloAgent(2, seed=0, value="win")
    for state in states:
        agent.act_on_state(game, state)
    assert len(ended) == 2 * sum(len(game.legal_actions(s)) for s in states) and all(ended)
    ended.clear()
    FlatMonteCarloAgent(2, seed=0).act_on_state(game, states[0])
    assert not ended
