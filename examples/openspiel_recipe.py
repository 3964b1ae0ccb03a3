"""OpenSpiel recipe: load a formosa game in pyspiel, check it, and play OpenSpiel's MCTS bot
against the formosa heuristic (needs the ``[spiel]`` extra; docs/openspiel.md quotes this file and
``tests/spiel/test_recipe.py`` runs it)."""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

import formosa_envs.spiel as formosa_spiel  # registers formosa_flowers, formosa_tea, ...


def check_game(name: str = "formosa_tea", params: dict | None = None) -> pyspiel.Game:
    """Load a game with parameters and run OpenSpiel's random simulation test on it."""
    game = pyspiel.load_game(name, params or {"players": 3, "advanced": True})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    return game


def mcts_against_heuristic(games: int = 2, simulations: int = 20,
                           seed: int = 0) -> list[list[float]]:
    """Returns of OpenSpiel's MCTSBot (random rollouts) against our heuristic in Flowers,
    seats alternating; chance is drawn by ``evaluate_bots`` from its own generator."""
    game = pyspiel.load_game("formosa_flowers", {"players": 2})
    results = []
    for g in range(games):
        rng = np.random.RandomState(seed + g)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        searcher = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                                evaluator=evaluator, random_state=rng, solve=False)
        heuristic = formosa_spiel.bot_from_spec("heuristic", game, seed=seed + g)
        bots = [searcher, heuristic] if g % 2 == 0 else [heuristic, searcher]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        results.append(returns if g % 2 == 0 else returns[::-1])   # MCTS first
    return results


def env_game_through_pyspiel(seed: int = 7) -> str:
    """The env's game for ``reset(seed=seed)``: chance drawn with the env's generator."""
    state = pyspiel.load_game("formosa_flowers").new_initial_state()
    chance, pick = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(formosa_spiel.sample_chance(state, chance))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(pick.integers(len(legal)))])
    return state.engine.to_json(state.engine_state)


if __name__ == "__main__":
    print(check_game())
    print(mcts_against_heuristic())
