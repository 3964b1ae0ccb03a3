"""Networks trained at some decision kinds only: ``imitation.data --kinds``, the ``kinds``
array of an exported file, and the residual agent that asks such a network only there."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from formosa_envs.agents import AgentSpecError, make_agent
from formosa_envs.agents.heuristics import HeuristicAgent
from formosa_envs.agents.policy import PolicyAgent, PolicyFileError, PolicyMismatchError
from formosa_envs.agents.residual import ResidualAgent
from formosa_envs.training.common.network_export import save_network_npz
from formosa_envs.training.imitation.data import DataSettings, generate, load_data

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import ConfigError, DataError
from formosa_envs.games import make_game
from formosa_envs.games.flowers.actions import CASH, KEEP

KC = "keep_or_cash"


@pytest.fixture(scope="module")
def cash_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four 4-player Flowers games: the heuristic plays, flat:2 values its cash choices."""
    out = tmp_path_factory.mktemp("kinds")
    settings = DataSettings("flowers", 4, teacher="flat:2", opponents=["heuristic"],
                            num_players=4, seed=5, chunk=2, learner="heuristic",
                            value_temperature=0.1, kinds=[KC])
    generate(settings, out, workers=1, show_progress=False)
    return out


def test_only_decisions_of_the_named_kinds_are_recorded(cash_data: Path) -> None:
    data = load_data(cash_data)
    assert data.manifest["kinds"] == [KC] and len(data) > 0
    legal = {tuple(np.flatnonzero(row)) for row in data.mask}
    assert legal == {(KEEP, CASH)}
    assert set(data.action.tolist()) <= {KEEP, CASH}
    np.testing.assert_allclose(data.target[:, [KEEP, CASH]].astype(np.float32).sum(1), 1,
                               atol=3e-3)


@pytest.mark.parametrize("kinds, match", [(["keep_or_kash"], "unknown decision kind "
                                           "'keep_or_kash' for flowers; its kinds: "),
                                          ("keep_or_cash", "list of decision kinds"),
                                          ([3], "list of decision kinds")])
def test_unknown_kinds_are_refused_before_any_game(tmp_path: Path, kinds: object,
                                                   match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        generate(DataSettings("flowers", 1, num_players=4, kinds=kinds), tmp_path / "x",
                 show_progress=False)
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").iterdir())


def _cash_network(path: Path, kinds: tuple[str, ...] = (KC,), favourite: int = CASH) -> Path:
    """A small Flowers network that prefers ``favourite`` by far, trained at ``kinds``."""
    game = make_game("flowers", num_players=4)
    rng = np.random.default_rng(0)
    w0 = rng.normal(0, 0.05, (8, game.observation_size)).astype(np.float32)
    w_out = rng.normal(0, 0.05, (game.num_actions, 8)).astype(np.float32)
    b_out = np.zeros(game.num_actions, np.float32)
    b_out[favourite] = 50.0
    value = [(np.zeros((1, game.observation_size), np.float32), np.zeros(1, np.float32))]
    return save_network_npz([(w0, np.zeros(8, np.float32)), (w_out, b_out)], value, "relu",
                            path, kinds)


def test_the_file_carries_its_kinds_and_plays_only_as_residual(tmp_path: Path) -> None:
    path = _cash_network(tmp_path / "cash.npz")
    assert PolicyAgent.load(path).kinds == (KC,)
    assert PolicyAgent.load(_cash_network(tmp_path / "all.npz", ())).kinds == ()
    with pytest.raises(AgentSpecError, match=f"only at {KC} decisions; play it as residual:"):
        make_agent(f"policy:{path}", "flowers")
    with pytest.raises(AgentSpecError, match="cannot guide a search"):
        make_agent(f"az:{path}", "flowers")
    assert isinstance(make_agent(f"residual:{path}:0", "flowers"), ResidualAgent)


@pytest.mark.parametrize("kinds", [np.array([1, 2]), np.array([["a"]]), np.array(["no kind"]),
                                   np.array([], dtype=str)])
def test_a_bad_kinds_array_is_refused(tmp_path: Path, kinds: np.ndarray) -> None:
    path = _cash_network(tmp_path / "p.npz")
    arrays = dict(np.load(path))
    np.savez(path, **{**arrays, "kinds": kinds})
    with pytest.raises(PolicyFileError, match="kinds must be a 1-D array"):
        PolicyAgent.load(path)


def test_residual_asks_the_network_only_at_its_kinds(tmp_path: Path) -> None:
    """A network that always cashes out: the agent cashes at every keep-or-cash choice
    and plays the heuristic's move (same seed, same tie-breaks) everywhere else."""
    game = make_game("flowers", num_players=4)
    agent = make_agent(f"residual:{_cash_network(tmp_path / 'cash.npz')}:0", "flowers", 3)
    twin = HeuristicAgent("flowers", seed=3)
    others = [HeuristicAgent("flowers", seed=s) for s in (1, 2, 4)]
    rng, state, cash_choices = np.random.default_rng(8), game.new_initial_state(), 0
    while not game.is_terminal(state):
        seat = game.current_player(state)
        if seat == CHANCE:
            game.resolve_chance(state, rng)
            continue
        if seat == 0 and state.stack[-1].kind == KC:
            cash_choices += 1
            move = agent.act_on_state(game, state)
            assert move == CASH
        elif seat == 0:
            move = agent.act_on_state(game, state)
            assert move == twin.act_on_state(game, state)
        else:
            move = others[seat - 1].act_on_state(game, state)
        game.apply_action(state, move)
    assert cash_choices > 0 and agent.deviations == cash_choices


def test_kinds_the_game_lacks_and_seat_count_parts_are_refused(tmp_path: Path) -> None:
    odd = PolicyAgent.load(_cash_network(tmp_path / "odd.npz", ("bid",)))
    agent = ResidualAgent("flowers", odd, 0.0, seed=0)
    game, rng = make_game("flowers", num_players=4), np.random.default_rng(0)
    state = game.new_initial_state()
    while game.current_player(state) == CHANCE or len(game.legal_actions(state)) < 2:
        game.resolve_chance(state, rng)
    with pytest.raises(PolicyMismatchError, match="decisions bid that flowers does not have"):
        agent.act_on_state(game, state)
    cash = PolicyAgent.load(_cash_network(tmp_path / "cash.npz"))
    with pytest.raises(ValueError, match="cannot play alone at other seat counts"):
        ResidualAgent("flowers", cash, 0.0, at_players={4: 0.0})


def test_data_of_other_kinds_is_not_joined(cash_data: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from formosa_envs.training.imitation.bc import load_datasets
    every = tmp_path / "every"
    generate(DataSettings("flowers", 1, num_players=4, seed=1), every, workers=1,
             show_progress=False)
    with pytest.raises(DataError, match=r"kinds \[\] differs .*kinds \['keep_or_cash'\]"):
        load_datasets([cash_data, every])
    manifest = json.loads((every / "manifest.json").read_text())
    del manifest["kinds"]  # a folder written before --kinds existed: every decision
    older = tmp_path / "older"
    shutil.copytree(every, older)
    (older / "manifest.json").write_text(json.dumps(manifest))
    assert len(load_datasets([every, older])) == 2 * len(load_data(every))


def test_a_network_cloned_from_such_data_carries_its_kinds(cash_data: Path,
                                                           tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from formosa_envs.training.imitation.bc import train_bc
    from formosa_envs.training.imitation.config import BCConfig

    config = BCConfig(hidden=[8], value_hidden=[4], epochs=2, batch_size=16, threads=1)
    report = train_bc(cash_data, tmp_path / "run", config)
    assert report["kinds"] == [KC]
    for name in ("best.npz", "final.npz"):
        assert PolicyAgent.load(tmp_path / "run" / name).kinds == (KC,)
