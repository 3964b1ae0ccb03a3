"""Formosa Tea joins the shared agents, tournaments, CLI and training view."""

from __future__ import annotations

from formosa_envs.agents import make_agent

from formosa_envs.cli import main
from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game
from tests.view_checks import play_training_view


def test_mcts_plays_tea_legally_for_every_player_count() -> None:
    for players in (2, 3):
        game = make_game("tea", num_players=players, advanced=players == 3)
        agents = [make_agent("mcts:3", "tea", seed=0)] + [
            make_agent("random", "tea", seed=i) for i in range(1, players)]
        record = play_game(game, agents, seed=players)
        assert not record.truncated and record.decisions > 0


def test_tea_training_view_gives_the_learner_its_own_reward() -> None:
    env, reward = play_training_view("tea", 3)
    assert reward == env.game.returns(env.state)[env.seat]


def test_tea_on_the_command_line(capsys) -> None:
    assert main(["info", "tea", "--players", "3"]) == 0
    assert "tea" in capsys.readouterr().out
    assert main(["simulate", "tea", "--players", "2", "--games", "5", "--seed", "0",
                 "-o", "advanced=true"]) == 0
