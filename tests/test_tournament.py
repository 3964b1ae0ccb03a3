"""Tournaments: rating and CI helpers, seat rotation, reproducibility, reports and errors."""

from __future__ import annotations

import csv
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from formosa_envs.agents import Agent, AgentSpecError, make_agent
from formosa_envs.agents.base import StateAgent

from formosa_envs.core.errors import ConfigError
from formosa_envs.evaluation.evaluate import (
    entrant_names,
    format_table,
    main,
    make_tables,
    run_tournament,
    save_result,
    win_share,
)
from formosa_envs.evaluation.ratings import (
    head_to_head,
    mean_ci,
    openskill_ratings,
    rank_of,
    wilson_interval,
    win_shares,
)


class LowestAgent(StateAgent):
    """A deliberately weak stand-in: always the lowest legal action id."""

    def act_on_state(self, game: Any, state: Any) -> int:
        """The smallest legal action."""
        return min(game.legal_actions(state))


class GreedyAgent(StateAgent):
    """A strong stand-in: the action that most raises its own score right away."""

    def act_on_state(self, game: Any, state: Any) -> int:
        """One-step lookahead on the acting seat's score (first best action)."""
        seat = game.current_player(state)
        best, best_value = -1, float("-inf")
        for action in game.legal_actions(state):
            child = game.clone(state)
            game.apply_action(child, action)
            value = game.scores(child)[seat]
            if value > best_value:
                best, best_value = action, value
        return best


def stand_in_factory(spec: str, game: str, seed: int) -> Agent:
    """``lowest`` and ``greedy`` stand-ins, anything else through make_agent (picklable)."""
    if spec == "lowest":
        return LowestAgent()
    if spec == "greedy":
        return GreedyAgent()
    return make_agent(spec, game, seed)


def _quick(agents: list[str], players: int = 2, games: int = 4, **kw: Any) -> Any:
    kw.setdefault("show_progress", False)
    return run_tournament("flowers", agents, players, games, **kw)


# ---------------------------------------------------------------- ratings.py


def test_wilson_interval_known_values() -> None:
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.27754), abs=1e-5)
    assert wilson_interval(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-5)
    assert wilson_interval(10, 10) == pytest.approx((0.72246, 1.0), abs=1e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(2.5, 5)  # shared wins are fractional
    assert low < 0.5 < high
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_mean_ci_known_values() -> None:
    assert mean_ci([1, 2, 3, 4, 5]) == pytest.approx((3.0, 1.614070, 4.385930), abs=1e-5)
    assert mean_ci([7.0]) == (7.0, 7.0, 7.0)
    with pytest.raises(ValueError):
        mean_ci([])


def test_rank_of_and_win_shares_with_ties() -> None:
    assert rank_of([10, 20, 20, 5]) == [3.0, 1.5, 1.5, 4.0]
    assert rank_of([7, 7, 7]) == [2.0, 2.0, 2.0]
    assert rank_of([1, 2]) == [2.0, 1.0]
    assert win_shares([10, 20, 20, 5]) == [0.0, 0.5, 0.5, 0.0]
    assert win_shares([3, 1]) == [1.0, 0.0]


def test_head_to_head_counts() -> None:
    h2h = head_to_head([(["a", "b"], [1.0, 0.0]), (["b", "a"], [0.5, 0.5])])
    assert h2h["a"]["b"] == {"games": 2, "wins": 1.5, "win_rate": 0.75}
    assert h2h["b"]["a"]["win_rate"] == 0.25


def test_openskill_winner_gets_higher_mu() -> None:
    games = [(["w", "l"], [10.0, 3.0]) if k % 2 else (["l", "w"], [1.0, 8.0]) for k in range(20)]
    ratings = openskill_ratings(games)
    assert ratings["w"][0] > 25.0 > ratings["l"][0]
    assert ratings["w"][1] < 25 / 3  # sigma shrinks with evidence
    assert openskill_ratings(games) == ratings  # deterministic


def test_openskill_copies_and_ties() -> None:
    ratings = openskill_ratings([(["a", "a", "b"], [5.0, 5.0, 1.0])] * 5)
    assert ratings["a"][0] > ratings["b"][0]
    tied = openskill_ratings([(["x", "y"], [4.0, 4.0])])
    assert tied["x"] == pytest.approx(tied["y"])


def test_openskill_missing_gives_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    with pytest.raises(ImportError, match=r"a dependency of formosa_envs: pip install 'openskill"):
        openskill_ratings([(["a", "b"], [1.0, 0.0])])


def test_a_tournament_error_without_a_backend_names_no_backend(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --backend the message is the cause alone (it said '--backend None')."""
    from formosa_envs.evaluation.evaluate import main
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    assert main(["flowers", "--agents", "random,heuristic", "--games", "2", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "openskill" in err and "--backend" not in err, err


# ------------------------------------------------------------ table rules


def test_tables_and_names() -> None:
    assert make_tables(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert make_tables(4, 4) == [(0, 1, 2, 3)]
    assert make_tables(2, 3) == [(0, 0, 1), (0, 1, 1)]  # copies fill the spare seats
    assert make_tables(3, 4) == [(0, 0, 1, 2), (0, 1, 1, 2), (0, 1, 2, 2)]
    assert entrant_names(["random", "random", "mcts:5"]) == ["random", "random#2", "mcts:5"]


# ------------------------------------------------------------ tournaments


def test_same_seed_same_result_and_workers_do_not_matter() -> None:
    agents = ["random", "random", "random"]
    one = _quick(agents, games=6, seed=3)
    again = _quick(agents, games=6, seed=3)
    two = _quick(agents, games=6, seed=3, workers=2)
    assert one.records == again.records == two.records
    assert one.agents == two.agents
    assert one.head_to_head == two.head_to_head
    other = _quick(agents, games=6, seed=4)
    assert [r.scores for r in other.records] != [r.scores for r in one.records]


def test_seats_rotate_evenly_and_identical_agents_split_wins() -> None:
    result = _quick(["random", "random"], games=160, seed=1)
    assert result.config["total_games"] == 160
    for stats in result.agents.values():
        assert stats.games == 160
        assert stats.seat_games == [80, 80]
        assert 0.35 < stats.win_rate < 0.65  # > 3.5 standard errors from 50%
        assert stats.win_low < stats.win_rate < stats.win_high
    deals = Counter(r.chance_seed for r in result.records)
    assert set(deals.values()) == {2}  # each deal is played from both sides


def test_games_round_up_to_full_rotations_and_copies_balance_seats() -> None:
    result = _quick(["greedy", "random"], players=3, games=4, agent_factory=stand_in_factory)
    assert result.config["games_per_table"] == 6
    assert result.tables == [["greedy", "greedy", "random"], ["greedy", "random", "random"]]
    assert result.agents["greedy"].seat_games == [6, 6, 6]  # 3 appearances per rotation cycle
    assert result.agents["random"].seat_games == [6, 6, 6]
    assert result.head_to_head == {}
    for table in range(2):
        seatings = Counter(tuple(r.seats) for r in result.records if r.table == table)
        assert len(seatings) == 3 and set(seatings.values()) == {2}


def test_strong_beats_weak() -> None:
    result = _quick(["lowest", "random", "greedy"], games=16, seed=0,
                    agent_factory=stand_in_factory)
    greedy, rand, lowest = (result.agents[n] for n in ("greedy", "random", "lowest"))
    assert greedy.win_rate > rand.win_rate > lowest.win_rate
    assert greedy.mu > rand.mu > lowest.mu
    assert [a.name for a in result.ranking()] == ["greedy", "random", "lowest"]
    assert result.head_to_head["greedy"]["lowest"]["win_rate"] > 0.8
    assert greedy.mean_rank < lowest.mean_rank
    vs_lowest = win_share(result, "greedy", against="lowest")
    assert vs_lowest["games"] == 16 and vs_lowest["win_rate"] > 0.8
    overall = win_share(result, "greedy")
    assert overall["games"] == greedy.games and overall["win_rate"] == greedy.win_rate
    text = format_table(result)
    assert text.index("greedy") < text.index("lowest") and "head-to-head" in text


def test_save_result_writes_csv_json_png(tmp_path: Path) -> None:
    result = _quick(["random", "lowest"], games=4, agent_factory=stand_in_factory)
    paths = save_result(result, tmp_path / "out")
    with paths["csv"].open() as fh:
        rows = list(csv.DictReader(fh))
    assert [r["name"] for r in rows] == [a.name for a in result.ranking()]
    assert float(rows[0]["win_rate"]) == pytest.approx(result.ranking()[0].win_rate)
    data = json.loads(paths["json"].read_text())
    assert data["config"]["seed"] == 0 and len(data["records"]) == 4
    assert data["records"][0]["seats"] and "mu" in data["agents"][0]
    png = paths["png"].read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 1000


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"agents": ["random", "nonsense"]}, AgentSpecError, "unknown agent 'nonsense'"),
    ({"num_players": 1}, ConfigError, "2-4 players"),
    ({"num_players": 5}, ConfigError, "2-4 players"),
    ({"games": 0}, ConfigError, "at least 1"),
    ({"agents": ["random"]}, ConfigError, "at least two agents"),
    ({"workers": 0}, ConfigError, "workers"),
    ({"game": "chess"}, ConfigError, "unknown game"),
])
def test_bad_input(kwargs: dict[str, Any], error: type, match: str) -> None:
    args = {"game": "flowers", "agents": ["random", "random"], "num_players": 2, "games": 2,
            "show_progress": False, **kwargs}
    with pytest.raises(error, match=match):
        run_tournament(**args)


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["flowers", "--agents", "random,random", "--games", "2", "--quiet",
            "--out", str(tmp_path)]
    assert main(argv) == 0
    assert "random#2" in capsys.readouterr().out
    assert (tmp_path / "tournament.json").exists()
    assert main(["flowers", "--agents", "random,bogus", "--quiet"]) == 2
    assert "unknown agent 'bogus'" in capsys.readouterr().err
    assert main(["flowers", "--agents", "random,random", "--players", "9", "--quiet"]) == 2
    assert "2-4 players" in capsys.readouterr().err
    assert main(["flowers", "--agents", "random,random", "--games", "0"]) == 2


def test_heuristic_plays_in_a_tournament() -> None:
    result = _quick(["heuristic", "random"], games=4)
    assert result.agents["heuristic"].games == 4


def test_wilson_interval_contains_the_rate_at_the_edges() -> None:
    from formosa_envs.evaluation.ratings import wilson_interval
    for n in range(1, 60):
        low, high = wilson_interval(n, n)
        assert high == 1.0 and low < 1.0
        low, high = wilson_interval(0, n)
        assert low == 0.0 and high > 0.0


def test_all_wins_plot_and_record(tmp_path) -> None:
    """6 of 6 wins used to give negative error bars (the plot failed) before records
    were written; now both are written."""
    from formosa_envs.evaluation.evaluate import main
    assert main(["flowers", "--agents", "random,heuristic", "--games", "6", "--quiet",
                 "--out", str(tmp_path / "out"), "--record", str(tmp_path / "rec")]) == 0
    assert (tmp_path / "out" / "tournament.png").exists()
    assert len(list((tmp_path / "rec").glob("game_*.json"))) == 6


def test_the_cli_names_itself_formosa_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    """Usage and errors of ``formosa tournament`` carry that name, not the module's."""
    from formosa_envs.cli import main as formosa_main
    assert formosa_main(["tournament", "--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: formosa tournament ")
    assert formosa_main(["tournament", "flowers", "--agents", "random,random", "--bogus"]) == 2
    assert "formosa tournament: error: unrecognized arguments: --bogus" in \
        capsys.readouterr().err
    assert main(["flowers", "--bogus"]) == 2
    assert "python -m formosa_envs.evaluation.evaluate: error" in capsys.readouterr().err


def test_save_result_without_matplotlib_writes_csv_and_json(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """A core install (no [train] extra) saves the tables and skips the chart."""
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    result = _quick(["random", "lowest"], games=4, agent_factory=stand_in_factory)
    paths = save_result(result, tmp_path / "out")
    assert sorted(paths) == ["csv", "json"] and all(p.exists() for p in paths.values())
    assert not (tmp_path / "out" / "tournament.png").exists()
