"""Dadaocheng joins the shared agents, tournaments, CLI and training view (solo included)."""

from __future__ import annotations

from formosa_envs.agents import make_agent

from formosa_envs.cli import main
from formosa_envs.evaluation.evaluate import run_tournament
from formosa_envs.evaluation.solo import solo_share
from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game
from tests.view_checks import play_training_view


def test_mcts_plays_dadaocheng_legally_solo_and_with_others() -> None:
    for players in (1, 2):
        game = make_game("dadaocheng", num_players=players)
        agents = [make_agent("mcts:3", "dadaocheng", seed=0)] + [
            make_agent("random", "dadaocheng", seed=i) for i in range(1, players)]
        record = play_game(game, agents, seed=players)
        assert not record.truncated and record.decisions > 0


def test_dadaocheng_tournament_and_solo_evaluation() -> None:
    result = run_tournament("dadaocheng", ["heuristic", "random"], 2, games=4, seed=0,
                            show_progress=False)
    assert result.agents["heuristic"].games == 4
    solo = solo_share("dadaocheng", "heuristic", games=2, seed=0)
    assert solo["games"] == 2 and sum(solo["tiers"].values()) == 2
    assert solo["mean_score"] > solo_share("dadaocheng", "random", games=2, seed=0)["mean_score"]


def test_solo_training_view_rewards_the_objective() -> None:
    env, reward = play_training_view("dadaocheng", 1)
    assert reward == env.game.returns(env.state)[0] == -1.0  # random play misses 50 PP


def test_dadaocheng_on_the_command_line(capsys) -> None:
    assert main(["info", "dadaocheng", "--players", "1"]) == 0
    assert "dadaocheng" in capsys.readouterr().out
    assert main(["simulate", "dadaocheng", "--players", "1", "--games", "3", "--seed", "0",
                 "-o", "solo_challenge=hand2"]) == 0
