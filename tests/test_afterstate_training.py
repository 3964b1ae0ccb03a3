"""Play-out labels, the evaluator's fit and the ``--backend afterstate`` run
(training/afterstate/)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from formosa_envs.agents import make_agent
from formosa_envs.agents.heuristics import HeuristicAgent
from formosa_envs.training.afterstate import data as labels_module
from formosa_envs.training.afterstate.config import AfterstateConfig, load_afterstate_config
from formosa_envs.training.afterstate.data import label_game, merge, play_out

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import ConfigError
from formosa_envs.games import make_game

TINY = AfterstateConfig(games=3, label_rate=0.08, top_k=3, chunk=2, workers=1, hidden=[16],
                        epochs=3, patience=2, eval_games=2, holdout=0.34, threads=1)


@pytest.fixture(scope="module")
def tiny_labels() -> dict[str, np.ndarray]:
    """Three labelled Tea games (a few decisions each)."""
    return merge([labels_module.label_chunk(TINY, "tea", [g]) for g in range(3)])


def test_labels_are_siblings_in_the_heuristic_order(tiny_labels: dict[str, np.ndarray]) -> None:
    rows = tiny_labels
    assert len(rows["margin"]) > 6 and rows["x"].dtype == np.float16
    for d in np.unique(rows["decision"]):
        ranks = rows["rank"][rows["decision"] == d]
        assert list(ranks) == list(range(len(ranks))) and 1 < len(ranks) <= TINY.top_k
    assert set(np.unique(rows["win"])) <= {0.0, 0.5, 1.0}
    assert np.all(np.diff(rows["decision"]) >= 0)


def test_labels_reproduce_from_the_seed() -> None:
    one, two = label_game(TINY, "tea", 1), label_game(TINY, "tea", 1)
    assert one["margin"] == two["margin"] and one["rank"] == two["rank"]
    other = label_game(AfterstateConfig(**{**TINY.__dict__, "seed": 5}), "tea", 1)
    assert other["margin"] != one["margin"]


def test_a_play_out_is_fixed_by_its_seed() -> None:
    game = make_game("tea", num_players=2)
    state = game.new_initial_state()
    first = play_out(game, "tea", state, 0, seed=9, playouts=1)
    assert play_out(game, "tea", state, 0, seed=9, playouts=1) == first
    assert state.decisions == 0  # the state itself is not played


def test_a_truncated_play_out_stops_at_the_horizon() -> None:
    """horizon 1: the play-out ends at the decider's second turn, long before the game
    ends, and the margin is the heuristic's value difference there."""
    game = make_game("tea", num_players=2)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while game.current_player(state) == CHANCE or not labels_module.is_turn(state):
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
        else:
            game.apply_action(state, game.legal_actions(state)[0])
    me = game.current_player(state)
    agents = [HeuristicAgent("tea", seed=i) for i in range(2)]
    end = labels_module._play(game, state.clone(), me, np.random.default_rng(1), agents, 1)
    assert not game.is_terminal(end) and game.current_player(end) == me
    assert labels_module.is_turn(end) and end.decisions > state.decisions
    margin, win = play_out(game, "tea", state, me, seed=3, playouts=2, horizon=1)
    assert play_out(game, "tea", state, me, seed=3, playouts=2, horizon=1) == (margin, win)
    assert abs(margin) < 60 and win in (0.0, 0.5, 1.0)
    moved = state.clone()               # horizon -1 after a move: the others' replies only
    game.apply_action(moved, agents[me].act_on_state(game, moved))
    replies = labels_module._play(game, moved.clone(), me, np.random.default_rng(1), agents, -1)
    assert game.current_player(replies) == me and labels_module.is_turn(replies)
    assert moved.decisions < replies.decisions


def test_config_refuses_unknown_and_out_of_range_keys(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[afterstate]\ntop_kk = 3\n")
    with pytest.raises(ConfigError, match="unknown afterstate option 'top_kk'"):
        load_afterstate_config(bad)
    bad.write_text("top_k = 1\n")
    with pytest.raises(ConfigError, match="top_k must be a whole number from 2"):
        load_afterstate_config(bad)
    with pytest.raises(ConfigError, match="hidden must be a list"):
        load_afterstate_config(None, hidden=[0])
    configs = sorted((Path(__file__).parent.parent / "training" / "configs")
                     .glob("*_afterstate.toml"))
    assert {p.stem for p in configs} >= {"tea_afterstate", "flowers_afterstate"}
    for path in configs:  # every recorded run's settings still load
        assert load_afterstate_config(path).games >= 100, path


torch = pytest.importorskip("torch")  # the [train] extra: fitting needs it
from formosa_envs.training.afterstate import fit  # noqa: E402
from formosa_envs.training.afterstate.run import main, run_afterstate  # noqa: E402


def test_the_centred_loss_ignores_luck_shared_by_siblings(tiny_labels: dict[str, np.ndarray]
                                                          ) -> None:
    """Adding a constant to every sibling's label leaves the centred part unchanged."""
    features = fit.assemble(tiny_labels, make_game("tea").num_actions)
    data = fit.Subset(tiny_labels, np.ones(len(tiny_labels["margin"]), bool), 20.0, features)
    net = fit.Evaluator(data.x.shape[1], [8], 0.0)
    rows = np.arange(len(data.margin))
    config = AfterstateConfig(absolute_weight=0.0, win_loss_weight=0.0)
    base = float(fit.losses(net, data, rows, config).detach())
    shift = data.group.numpy().astype(np.float32) * 3.0
    data.margin = data.margin + torch.from_numpy(shift)
    assert float(fit.losses(net, data, rows, config).detach()) == pytest.approx(base, rel=1e-4)


def test_fit_export_and_play(tiny_labels: dict[str, np.ndarray], tmp_path: Path) -> None:
    num_actions = make_game("tea").num_actions
    net, report = fit.fit_evaluator(tiny_labels, num_actions, TINY, log=lambda *_: None)
    assert 1 <= report["best_epoch"] <= TINY.epochs and report["held_out_decisions"] >= 1
    path = fit.export_evaluator(net, "tea", TINY, tmp_path / "e.npz")
    agent = make_agent(f"afterstate:{path}", "tea", 0)
    features = fit.assemble(tiny_labels, num_actions)[:4]
    net.eval()
    expected = net(torch.from_numpy(features)).detach().numpy()
    margin, win = agent.evaluator.predict(features)
    np.testing.assert_allclose(margin, expected[:, 0] * TINY.margin_scale, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(win, 1 / (1 + np.exp(-expected[:, 1])), rtol=1e-4, atol=1e-5)


def test_the_run_writes_its_folder_and_reuses_its_labels(tmp_path: Path) -> None:
    out = tmp_path / "run"
    report = run_afterstate("tea", out, AfterstateConfig(**TINY.__dict__), show_progress=False,
                            log=lambda *_: None)
    assert {p.name for p in out.iterdir()} >= {"config.json", "labels.npz", "labels.json",
                                               "evaluator.npz", "report.json"}
    assert report["evaluation"]["games"] == 2 and report["label_s"] > 0
    timing = report["evaluation"]["timing"]
    assert timing["agent_ms_per_decision"] > 0 < timing["ratio"]
    lines: list[str] = []
    again = run_afterstate("tea", out, AfterstateConfig(**{**TINY.__dict__, "eval_games": 0}),
                           show_progress=False, log=lines.append)
    assert again["label_s"] == 0.0 and any("reusing" in line for line in lines)
    assert json.loads((out / "report.json").read_text())["fit"]["rows"] == report["fit"]["rows"]
    (out / "labels.npz").write_bytes(b"not an npz")  # a damaged file is labelled again
    third = run_afterstate("tea", out, AfterstateConfig(**{**TINY.__dict__, "eval_games": 0}),
                           show_progress=False, log=lines.append)
    assert third["label_s"] > 0 and third["fit"]["rows"] == report["fit"]["rows"]


def test_the_command_refuses_a_game_without_candidates(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no afterstate candidates for game 'taiwan'"):
        run_afterstate("taiwan", tmp_path / "f", AfterstateConfig(**TINY.__dict__),
                       show_progress=False)
    assert not (tmp_path / "f").exists()
    with pytest.raises(SystemExit):
        main(["tea", "--backend", "sb3"])


def test_more_games_label_only_the_new_ones(tmp_path: Path) -> None:
    """A run with more games of otherwise the same settings keeps the saved games' labels
    and labels the rest: the result is the labels of one run over all the games."""
    from formosa_envs.training.afterstate.run import load_or_label
    fewer = AfterstateConfig(**{**TINY.__dict__, "games": 2})
    lines: list[str] = []
    load_or_label(tmp_path, "tea", fewer, lines.append, False)
    extended, _ = load_or_label(tmp_path, "tea", TINY, lines.append, False)
    assert any("labelling the rest" in line for line in lines)
    at_once = labels_module.generate_labels(TINY, "tea", show_progress=False)
    for key in at_once:
        np.testing.assert_array_equal(extended[key], at_once[key], err_msg=key)
    assert json.loads((tmp_path / "labels.json").read_text())["games"] == TINY.games
    other = AfterstateConfig(**{**TINY.__dict__, "games": 4, "top_k": 2})
    lines.clear()
    load_or_label(tmp_path, "tea", other, lines.append, False)  # other settings: all again
    assert not any("reusing" in line for line in lines)


def test_a_board_free_fit_ignores_the_observation_and_the_action(
        tiny_labels: dict[str, np.ndarray], tmp_path: Path) -> None:
    """observation_inputs = 0: the exported first layer has zero weights on the observation
    and the action one-hot, so two rows differing only there score the same, and the value
    and candidate features still move the score."""
    game = make_game("tea")
    config = AfterstateConfig(**{**TINY.__dict__, "observation_inputs": 0})
    net, _ = fit.fit_evaluator(tiny_labels, game.num_actions, config, log=lambda *_: None)
    path = fit.export_evaluator(net, "tea", config, tmp_path / "e.npz")
    evaluator = make_agent(f"afterstate:{path}", "tea", 0).evaluator
    board = fit.board_columns(evaluator.info.feature_size, game.num_actions, False)
    assert board.sum() == game.observation_size + game.num_actions
    w0 = evaluator.network.layers[0][0]
    assert not w0[:, board].any() and w0[:, ~board].any()
    rows = fit.assemble(tiny_labels, game.num_actions)[:3]
    noisy = rows.copy()
    noisy[:, board] = np.random.default_rng(0).random((3, int(board.sum())))
    np.testing.assert_allclose(evaluator.predict(noisy)[0], evaluator.predict(rows)[0],
                               rtol=1e-5, atol=1e-5)
    assert not np.allclose(evaluator.predict(rows)[0], evaluator.predict(rows * 2)[0])
