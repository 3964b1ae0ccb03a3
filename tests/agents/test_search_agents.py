"""The heuristic and MCTS baselines: legal play, strength against random, determinism,
and no use of hidden information."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import RandomAgent, make_agent
from formosa_envs.agents.base import Agent
from formosa_envs.agents.heuristics import HEURISTIC_GAMES, HeuristicAgent
from formosa_envs.agents.mcts import MCTSAgent

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.games.flowers.scenario import cid, scenario
from formosa_envs.tools.simulate import play_game
from tests import toy_game


def play_checked(game: Any, agents: list[Agent], seed: int,
                 check_untouched: bool = False) -> tuple[Any, list[int]]:
    """Play one game on the engine (chance from ``seed``), asserting every action is legal.

    With ``check_untouched`` also assert that deciding never changes the state.
    Returns the final state and the players' actions.
    """
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    actions: list[int] = []
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        if game.current_player(state) == CHANCE:
            game.apply_action(state, game.sample_chance(state, rng))
            continue
        before = game.to_json(state) if check_untouched else None
        legal = game.legal_actions(state)
        action = agents[game.current_player(state)].act_on_state(game, state)
        assert action in legal, f"{action} is not legal: {game.decision_description(state)}"
        assert before is None or game.to_json(state) == before, "the agent changed the state"
        actions.append(action)
        game.apply_action(state, action)
    assert game.is_terminal(state), "the game was truncated"
    return state, actions


def win_share(game: Any, make: Any, games: int, seed0: int) -> float:
    """Share of games won (ties split) by ``make(seed)`` against random agents, seats rotating."""
    total = 0.0
    n = game.num_players
    for k in range(games):
        seat = k % n
        agents: list[Agent] = [RandomAgent(seed=seed0 + 100 * k + i) for i in range(n)]
        agents[seat] = make(seed0 + k)
        scores = np.array(play_game(game, agents, seed0 + k).scores)
        if scores[seat] == scores.max():
            total += 1.0 / int((scores == scores.max()).sum())
    return total / games


def decision_states(game: Any, seed: int, count: int) -> list[Any]:
    """Up to ``count`` states at player decisions with a choice, from a random game."""
    rng = np.random.default_rng(seed)
    state, found = game.new_initial_state(), []
    while not game.is_terminal(state) and len(found) < count:
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
            continue
        legal = game.legal_actions(state)
        if len(legal) > 1 and rng.random() < 0.3:
            found.append(game.clone(state))
        game.apply_action(state, legal[int(rng.integers(len(legal)))])
    return found


# ----- (a) legal play ------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_always_acts_legally(players: int) -> None:
    game = make_game("flowers", num_players=players)
    for k in range(30):
        agents: list[Agent] = [HeuristicAgent("flowers", seed=k * 10 + i) for i in range(players)]
        if k % 3 == 0:
            agents[k % players] = RandomAgent(seed=k)
        play_checked(game, agents, seed=k)


@pytest.mark.parametrize(("players", "options"), [
    (2, {}), (3, {}), (2, {"rollout": "heuristic", "horizon": "game"})])
def test_mcts_acts_legally_and_leaves_the_state_alone(players: int,
                                                     options: dict[str, Any]) -> None:
    game = make_game("flowers", num_players=players, target_vp=25)
    agents: list[Agent] = [MCTSAgent(simulations=8, seed=i, **options) for i in range(players)]
    play_checked(game, agents, seed=players, check_untouched=True)


def test_mcts_is_game_generic() -> None:
    """MCTS uses only the engine contract: it plays the core's toy game too."""
    for players in (2, 3):
        game = toy_game.make_game(num_players=players)
        agents: list[Agent] = [MCTSAgent(simulations=10, seed=i) for i in range(players)]
        play_checked(game, agents, seed=players, check_untouched=True)


def test_mcts_returns_a_forced_action_without_searching() -> None:
    game = make_game("flowers", num_players=2)
    state = scenario(game, hands=[[cid(game, 3)], [cid(game, 5), cid(game, 6)]],
                     field=[cid(game, 1)])
    agent = MCTSAgent(simulations=1000, seed=0)
    probe = np.random.default_rng(0).random()
    assert agent.act_on_state(game, state) == game.legal_actions(state)[0]
    assert agent.rng.random() == probe, "a forced move consumed search randomness"


# ----- (b), (c) strength ---------------------------------------------------------------

def test_heuristic_beats_random() -> None:
    game = make_game("flowers", num_players=2)
    share = win_share(game, lambda s: HeuristicAgent("flowers", seed=s), games=100, seed0=0)
    assert share >= 0.8, f"heuristic won only {share:.0%} of 100 games against random"


def test_mcts_beats_random() -> None:
    game = make_game("flowers", num_players=2)
    share = win_share(game, lambda s: MCTSAgent(simulations=50, seed=s), games=20, seed0=0)
    assert share >= 0.75, f"MCTS(50) won only {share:.0%} of 20 games against random"


# ----- (d) determinism ---------------------------------------------------------------

@pytest.mark.parametrize("spec", ["heuristic", "mcts:10"])
def test_same_seed_same_actions(spec: str) -> None:
    game = make_game("flowers", num_players=2, target_vp=30)
    runs = [play_checked(game, [make_agent(spec, seed=5), make_agent(spec, seed=6)], seed=3)[1]
            for _ in range(2)]
    assert runs[0] == runs[1]
    other = play_checked(game, [make_agent(spec, seed=7), make_agent(spec, seed=8)], seed=3)[1]
    assert spec == "heuristic" or other != runs[0], "the agent seed changes nothing"


# ----- (e) unknown game ----------------------------------------------------------------

def test_heuristic_for_an_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="chess") as info:
        HeuristicAgent("chess")
    assert all(name in str(info.value) for name in HEURISTIC_GAMES)


def test_mcts_rejects_bad_options() -> None:
    for bad in ({"simulations": 0}, {"rollout": "greedy"}, {"horizon": "turn"}):
        with pytest.raises(ValueError):
            MCTSAgent(**{"simulations": 5, **bad})


# ----- (f) no hidden information ----------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3])
def test_agents_ignore_what_the_acting_seat_cannot_see(players: int) -> None:
    """Reshuffling other hands and the deck changes neither a choice nor MCTS's statistics.

    Exact because the engine's determinize depends only on the viewer's information
    set and the generator (it sorts the hidden cards before shuffling them).
    """
    game = make_game("flowers", num_players=players)
    rng = np.random.default_rng(11)
    changed = 0
    for k, state in enumerate(decision_states(game, seed=players, count=6)):
        other = game.determinize(state, game.current_player(state), rng)
        changed += game.to_json(other) != game.to_json(state)
        assert search(game, state, k) == search(game, other, k)
        heuristic = [HeuristicAgent("flowers", seed=k).act_on_state(game, s)
                     for s in (state, other)]
        assert heuristic[0] == heuristic[1]
    assert changed > 0, "the reshuffles never changed the hidden cards"


def test_the_no_peeking_check_catches_a_peeking_search() -> None:
    """Negative control: a search that skips determinization fails the check above."""
    game = make_game("flowers", num_players=2)
    peeking = make_game("flowers", num_players=2)
    peeking.determinize = lambda state, viewer, rng: state.clone()  # type: ignore[method-assign]
    rng = np.random.default_rng(11)
    differs = 0
    for k, state in enumerate(decision_states(game, seed=2, count=6)):
        other = game.determinize(state, game.current_player(state), rng)
        differs += search(peeking, state, k) != search(peeking, other, k)
    assert differs > 0


def search(game: Any, state: Any, seed: int) -> tuple[int, dict[int, tuple[int, float]]]:
    """MCTS's action at ``state`` and its root statistics (visits and mean value per action)."""
    agent = MCTSAgent(simulations=30, seed=seed)
    return agent.act_on_state(game, state), agent.last_search
