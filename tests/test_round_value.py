"""The round-start value table of 2-player Flowers (agents/round_value.py, learned by
training/round_value.py) and MCTS's ``horizon_value`` that reads it."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from formosa_envs.agents.belief import FlowersPlayBelief
from formosa_envs.agents.mcts import MCTSAgent, _resolve_chance
from formosa_envs.agents.policy import PolicyFileError
from formosa_envs.agents.round_value import FORMAT, RoundValue
from formosa_envs.training import round_value as learn_table

from formosa_envs.games import make_game

TARGET = 60


def always(gains: tuple[int, int], starter_gains: tuple[int, int] | None = None
           ) -> learn_table.Outcomes:
    """Outcomes in which every round gives (own, other) ``gains`` when the other seat
    starts and ``starter_gains`` (default the same) when the own seat starts."""
    keys = [(a, b) for a in range(4) for b in range(4)]
    return {(a, b, s): Counter({(starter_gains or gains) if s else gains: 1})
            for a, b in keys for s in (0, 1)}


def test_a_seat_that_gains_every_round_wins_from_everywhere() -> None:
    values = learn_table.solve(always((10, 0)), TARGET)
    assert values.shape == (TARGET, TARGET, 2) and np.all(values == 1.0)


def test_the_seat_that_reaches_the_target_first_wins() -> None:
    """Each round only the starter gains 10 and the start alternates: from 0-0 the seat
    that starts first reaches 60 first (after its sixth round)."""
    values = learn_table.solve(always((0, 10), starter_gains=(10, 0)), TARGET)
    assert values[0, 0, 1] == 1.0 and values[0, 0, 0] == -1.0
    assert values[55, 0, 0] == 1.0  # the other seat gains 10, then this one reaches 65


def test_rounds_without_gains_pass_the_start_on() -> None:
    """A round scores nothing half the time, else the starter gains 30: the cell's two
    entries depend on each other and are solved together (a finite, exact value)."""
    outcomes = {(a, b, s): Counter({(0, 0): 1, (30, 0) if s else (0, 30): 1})
                for a in range(4) for b in range(4) for s in (0, 1)}
    values = learn_table.solve(outcomes, TARGET)
    assert np.all(np.abs(values) <= 1.0) and values[0, 0, 1] > 0 > values[0, 0, 0]
    assert values[0, 0, 1] == pytest.approx(-values[0, 0, 0])


def test_a_missing_bucket_is_named() -> None:
    outcomes = always((10, 0))
    del outcomes[(3, 3, 1)]
    with pytest.raises(ValueError, match=r"bucket \(3, 3, 1\) .*play more games"):
        learn_table.solve(outcomes, TARGET)


def test_the_games_replay_from_their_seed_and_add_up() -> None:
    rounds, returns = learn_table.play_rounds(5)
    assert learn_table.play_rounds(5) == (rounds, returns)
    assert rounds[0][0] == [0, 0] and sorted(returns) == [-1.0, 1.0]
    final = np.sum([gains for _, _, gains in rounds], axis=0)
    assert max(final) >= TARGET and returns[int(np.argmax(final))] == 1.0


@pytest.fixture(scope="module")
def table_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    values, report = learn_table.learn(300, seed=30_000_000, workers=1, show_progress=False)
    assert report["holdout_games"] == 60 and 0 < report["holdout_mse"] < 2
    path = tmp_path_factory.mktemp("table") / "t.npz"
    learn_table.save(values, report, path)
    return path


def test_a_learned_table_loads_and_values_both_seats_zero_sum(table_file: Path) -> None:
    table = RoundValue.load(table_file)
    game = make_game("flowers", num_players=2)
    table.check_game(game)
    state = game.new_initial_state()
    state.scores, state.round_start = [50, 10], 1
    first, second = table(game, state)
    assert first == -second and first > 0.5  # 50-10 is a likely win


@pytest.mark.parametrize("options", [{"num_players": 3}, {"target_vp": 50},
                                     {"current_month": 4}])
def test_the_table_refuses_other_games(table_file: Path, options: dict) -> None:
    with pytest.raises(ValueError, match="2-player Formosa Flowers to 60 VP"):
        RoundValue.load(table_file).check_game(make_game("flowers", **options))


def test_bad_table_files_are_named(tmp_path: Path) -> None:
    other = tmp_path / "other.npz"
    np.savez(other, values=np.zeros((60, 60, 2)), target_vp=60, format=np.str_("x"))
    with pytest.raises(PolicyFileError, match="not a round-value table"):
        RoundValue.load(other)
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, values=np.full((60, 60, 2), 2.0), target_vp=60, format=np.str_(FORMAT))
    with pytest.raises(PolicyFileError, match=r"a \(60, 60, 2\) table in \[-1, 1\]"):
        RoundValue.load(wrong)
    for name, arrays in {"list": {"target_vp": np.array([60, 60])},
                         "text": {"target_vp": 60, "values": np.array(["x"])},
                         "missing": {}}.items():
        bad = tmp_path / f"{name}.npz"
        np.savez(bad, format=np.str_(FORMAT), **arrays)
        with pytest.raises(PolicyFileError, match="needs an integer target_vp"):
            RoundValue.load(bad)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a table\n")
    with pytest.raises(PolicyFileError, match="not an exported formosa round-value table: "
                                              "not an .npz round-value table archive$"):
        RoundValue.load(notes)


def test_mcts_values_a_cut_by_its_horizon_value() -> None:
    game = make_game("flowers", num_players=2)
    state = game.new_initial_state()
    _resolve_chance(game, state, np.random.default_rng(3))
    seen = []

    def value(g: object, s: object) -> list[float]:
        seen.append(s.round)
        return [0.25, -0.25]

    agent = MCTSAgent(rollout="heuristic", horizon_value=value, seed=1)
    reward = agent._rollout(game, game.clone(state), (game.scores(state), state.round))
    assert reward == [0.25, -0.25] and seen == [state.round + 1]  # cut at the next round
    assert agent.act_on_state(game, game.clone(state)) in game.legal_actions(state)


def test_horizon_value_is_refused_with_a_value_mix_or_when_not_callable() -> None:
    with pytest.raises(ValueError, match="horizon_value must be a function"):
        MCTSAgent(horizon_value=0.5)  # type: ignore[arg-type]

    class Head:
        has_value = True

    with pytest.raises(ValueError, match="give one of the two"):
        MCTSAgent(value_network=Head(), value_mix=0.5, horizon_value=lambda g, s: [0.0, 0.0])


def test_the_benchmark_plays_the_table_inside_mcts(table_file: Path) -> None:
    """benchmarks/flowers_round_value.py: ``round-value:N`` is MCTS reading the table;
    other specs are built as usual; both seats are timed."""
    script = Path(__file__).parent.parent / "benchmarks" / "flowers_round_value.py"
    spec = importlib.util.spec_from_file_location("flowers_round_value", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    agent = module.agent_factory(str(table_file), "round-value:12", "flowers", 1)
    assert isinstance(agent, MCTSAgent) and agent.simulations == 12
    assert isinstance(agent.horizon_value, RoundValue)
    assert agent.belief is None
    believing = module.agent_factory(str(table_file), "round-value:12:belief", "flowers", 1)
    assert isinstance(believing.belief, FlowersPlayBelief)
    with pytest.raises(ValueError, match="the only mode is 'belief'"):
        module.agent_factory(str(table_file), "round-value:12:trust", "flowers", 1)
    other = module.agent_factory(str(table_file), "mcts:5:heuristic", "flowers", 1)
    assert other.horizon_value is None
    factory = lambda s, g, seed: module.agent_factory(str(table_file), s, g, seed)  # noqa: E731
    times = module.think_times("flowers", "round-value:4:belief", 1, 9_900_000,
                               opponent="mcts:4:heuristic", agent_factory=factory)
    assert times["agent_ms_per_decision"] > 0 and times["mcts:4:heuristic_ms_per_decision"] > 0


def test_the_command_writes_a_table_and_refuses_bad_flags(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "table.npz"
    assert learn_table.cli(["--games", "300", "--workers", "1", "--quiet",
                            "--out", str(out)]) == 0
    assert RoundValue.load(out).target_vp == TARGET and '"games": 300' in capsys.readouterr().out
    assert learn_table.cli(["--games", "5"]) == 2
    assert "--games" in capsys.readouterr().err
    assert learn_table.cli(["--games", "100", "--workers", "1", "--quiet",
                            "--out", str(tmp_path / "few.npz")]) == 2  # too few games
    assert "play more games (--games)" in capsys.readouterr().err
