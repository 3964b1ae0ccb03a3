"""Regenerate the documentation's game pictures: ``python scripts/make_pictures.py``.

Each picture is a seeded mid-game state reached by random legal moves (chance
from the same generator) or by heuristic players, drawn by the game's
``render_svg`` and rasterised to ``docs/images/<game>_picture.png`` (needs the
``[render]`` extra).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.tools.picture import picture
from formosa_envs.tools.simulate import random_position

OUT = Path(__file__).resolve().parents[1] / "docs" / "images"

# game -> (game options, seed, player moves, viewer); random moves unless in HEURISTIC
PICTURES: dict[str, tuple[dict[str, Any], int, int, int | None]] = {
    "flowers": ({"num_players": 3, "current_month": None}, 63, 54, None),
    "taiwan": ({"num_players": 4}, 2, 170, 0),
    "tea": ({"num_players": 3, "advanced": True}, 184, 150, 0),
    "dadaocheng": ({"num_players": 3}, 7, 400, None),
}
# random play buys almost nothing in these games: their pictures follow heuristic players
HEURISTIC = {"taiwan": 20, "tea": 30, "dadaocheng": 70}  # game -> first agent seed


def play_heuristics(game: Any, name: str, seed: int, moves: int) -> Any:
    """The state after ``moves`` heuristic decisions (agent seeds from HEURISTIC)."""
    from formosa_envs.agents import make_agent
    agents = [make_agent("heuristic", name, seed=HEURISTIC[name] + p)
              for p in range(game.num_players)]
    rng, state, done = np.random.default_rng(seed), game.new_initial_state(), 0
    while not game.is_terminal(state) and done < moves:
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
            continue
        game.apply_action(state, agents[game.current_player(state)].act_on_state(game, state))
        done += 1
    return state


def main() -> None:
    """Write every picture and print its path."""
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (options, seed, moves, viewer) in PICTURES.items():
        game = make_game(name, **options)
        state = play_heuristics(game, name, seed, moves) if name in HEURISTIC \
            else random_position(game, seed, moves)
        path = picture(game, state, viewer).save(OUT / f"{name}_picture.png")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
