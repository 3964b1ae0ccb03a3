"""Game records: a seeded game written down move by move (chance included).

A record holds the game, its options, the seeds, every step as
``[player, action, label]`` (player -1 = chance) and the final scores. The
golden-game tests replay records to catch any unintended rule change.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents import RandomAgent
from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game


def record_random_game(game_name: str, num_players: int, seed: int,
                       **options: Any) -> dict[str, Any]:
    """Play a random game (chance seed ``seed``, agent seeds ``seed + 1 + seat``)."""
    game = make_game(game_name, num_players=num_players, **options)
    rng = np.random.default_rng(seed)
    agents = [RandomAgent(seed + 1 + seat) for seat in range(num_players)]
    state = game.new_initial_state()
    steps: list[list[Any]] = []
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        player = game.current_player(state)
        if player == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = agents[player].act_on_state(game, state)
        steps.append([player, action, game.action_label(state, action)])
        game.apply_action(state, action)
    return {"game": game_name, "num_players": num_players, "options": options, "seed": seed,
            "steps": steps, "scores": game.scores(state)}


def replay_record(record: dict[str, Any]) -> tuple[list[str], list[float]]:
    """Re-apply a record's actions; return the labels seen and the final scores."""
    game = make_game(record["game"], num_players=record["num_players"], **record["options"])
    state = game.new_initial_state()
    labels = []
    for player, action, _label in record["steps"]:
        if game.current_player(state) != player:
            raise ValueError(f"record expects player {player} to move, engine says "
                             f"{game.current_player(state)}")
        labels.append(game.action_label(state, action))
        game.apply_action(state, action)
    return labels, game.scores(state)
