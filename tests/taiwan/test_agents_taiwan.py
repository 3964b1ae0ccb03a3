"""Taiwan Formosa joins the shared agents, tournaments and training view."""

from __future__ import annotations

from formosa_envs.agents import make_agent

from formosa_envs.evaluation.evaluate import run_tournament
from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game
from tests.view_checks import play_training_view


def test_mcts_plays_taiwan_legally() -> None:
    game = make_game("taiwan", num_players=2)
    agents = [make_agent("mcts:3", "taiwan", seed=0), make_agent("random", "taiwan", seed=1)]
    record = play_game(game, agents, seed=0)
    assert not record.truncated and record.decisions > 0


def test_taiwan_in_a_tournament_and_the_training_view() -> None:
    result = run_tournament("taiwan", ["heuristic", "random"], 2, games=4, seed=0,
                            show_progress=False)
    assert result.agents["heuristic"].games == 4
    env, reward = play_training_view("taiwan", 3)
    assert reward == env.game.returns(env.state)[env.seat]
