"""The Taiwan Formosa heuristic: legal for 2-5 players, far stronger than random, seeded."""

from __future__ import annotations

import numpy as np
import pytest
from formosa_envs.agents import make_agent
from formosa_envs.agents.heuristics import HEURISTIC_GAMES, heuristic_module
from formosa_envs.agents.heuristics.taiwan import DEFAULT_WEIGHTS, _View, choose, rounds_left

from formosa_envs.core.decisions import Decision
from formosa_envs.core.engine import CHANCE
from formosa_envs.games.taiwan import actions as A
from formosa_envs.games.taiwan import make_game
from formosa_envs.tools.simulate import play_game


def test_taiwan_has_a_heuristic() -> None:
    """The dispatcher knows the game and its module exposes ``choose``."""
    assert "taiwan" in HEURISTIC_GAMES
    assert callable(heuristic_module("taiwan").choose)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_self_play_is_legal_and_ends(players: int) -> None:
    """apply_action raises on an illegal action, so finished games prove legal play."""
    game = make_game(num_players=players)
    for seed in range(8):
        agents = [make_agent("heuristic", "taiwan", seed=10 * seed + p) for p in range(players)]
        record = play_game(game, agents, seed)
        assert not record.truncated
        assert record.rounds >= 2


@pytest.mark.parametrize("players", [3, 5])
def test_mixed_tables_are_legal(players: int) -> None:
    """Heuristic and random seats together (the random seats reach odd positions)."""
    game = make_game(num_players=players)
    for seed in range(3):
        agents = [make_agent("heuristic" if p % 2 == seed % 2 else "random", "taiwan",
                             seed=seed * 7 + p) for p in range(players)]
        assert not play_game(game, agents, 100 + seed).truncated


def test_beats_random_in_two_player_games() -> None:
    """At least 80% of 40 fixed-seed games (seats alternate; ties count half)."""
    game = make_game(num_players=2)
    wins = 0.0
    for seed in range(40):
        seat = seed % 2
        agents = [make_agent("random", "taiwan", seed=1000 + seed) for _ in range(2)]
        agents[seat] = make_agent("heuristic", "taiwan", seed=seed)
        scores = play_game(game, agents, seed).scores
        mine, theirs = scores[seat], scores[1 - seat]
        wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    assert wins / 40 >= 0.8


def test_deterministic_per_seed() -> None:
    """The same agent seeds and game seed give the same game."""
    game = make_game(num_players=3)

    def run() -> tuple[list[float], int]:
        agents = [make_agent("heuristic", "taiwan", seed=s) for s in range(3)]
        record = play_game(game, agents, 7)
        return record.scores, record.decisions

    assert run() == run()


def test_rounds_left_estimate() -> None:
    """One round left in the final round; more early in the game; never below one."""
    game = make_game(num_players=3)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while game.current_player(state) < 0:
        game.resolve_chance(state, rng)
    assert rounds_left(state) >= 3
    state.final_round = True
    assert rounds_left(state) == 1


def _mid_game(players: int, rounds: int) -> tuple[object, object]:
    """A heuristic self-play position at the first action turn of round ``rounds``."""
    game, rng = make_game(num_players=players), np.random.default_rng(3)
    state = game.new_initial_state()
    while not (state.round == rounds and state.stack[-1].kind == "act"):
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
        else:
            game.apply_action(state, choose(game, state, rng))
    return game, state


@pytest.mark.parametrize("kind", ["warehouse", "judicial", "cleanup", "region"])
def test_rare_decisions_are_answered_legally(kind: str) -> None:
    """Warehouse, Court and cleanup discards and region choices (rare in self-play)."""
    game, state = _mid_game(3, 3)
    p = state.stack[-1].player
    state.res[p] = [3, 0, 2, 2]
    ctx = (1,) if kind == "region" else ()
    state.stack.append(Decision(kind, p, count=2 if kind == "cleanup" else 1, ctx=ctx))
    action = choose(game, state, np.random.default_rng(0))
    assert action in game.legal_actions(state)
    game.apply_action(state, action)


def test_discards_the_resource_needed_least() -> None:
    """With only one resource type wanted by nothing, that type is discarded."""
    game, state = _mid_game(2, 2)
    p = state.stack[-1].player
    state.res[p] = [1, 1, 1, 1]
    state.stack.append(Decision("cleanup", p))
    wanted = _View(game, state, p, DEFAULT_WEIGHTS).needs()
    action = choose(game, state, np.random.default_rng(0))
    surplus = [state.res[p][r] + state.warehouse[p][r] - wanted[r] for r in range(4)]
    assert surplus[action - A.DISCARD0] == max(surplus)
