"""The Taiwan Formosa heuristic: legal everywhere, clearly better than random, deterministic."""

from __future__ import annotations

import pytest

from agents import make_agent
from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_heuristic_finishes_games_legally(players: int) -> None:
    """apply_action raises on an illegal action: finishing the games proves legality."""
    game = make_game("taiwan", num_players=players)
    agents = [make_agent("heuristic", "taiwan", seed=s) for s in range(players)]
    for seed in range(3):
        assert not play_game(game, agents, seed).truncated


def test_heuristic_beats_random() -> None:
    game = make_game("taiwan", num_players=2)
    wins = 0.0
    for g in range(20):
        seat = g % 2
        agents = [make_agent("random", "taiwan", seed=100 + g) for _ in range(2)]
        agents[seat] = make_agent("heuristic", "taiwan", seed=g)
        scores = play_game(game, agents, seed=g).scores
        wins += 1.0 if scores[seat] > scores[1 - seat] else 0.5 if scores[0] == scores[1] else 0
    assert wins / 20 >= 0.8


def test_heuristic_is_deterministic() -> None:
    game = make_game("taiwan", num_players=3)
    runs = [play_game(game, [make_agent("heuristic", "taiwan", seed=s) for s in range(3)],
                      seed=4).scores for _ in range(2)]
    assert runs[0] == runs[1]
