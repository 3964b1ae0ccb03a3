"""Reference transcripts of heuristic games: fixed seeds, every action, for the identity test.

A transcript case names a game, its options and its seats (``heuristic`` or ``random``);
:func:`play_transcript` plays it on the raw engine (chance from ``seed``, each seat with its
own seeded agent) and returns the actions taken, chance outcomes included, up to ``limit``.
Run this module to (re)write ``data/heuristic_transcripts.json`` from the current code:
only do that when a heuristic's decisions are *meant* to change.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from formosa_envs.agents.heuristics import HeuristicAgent
from formosa_envs.agents.random_agent import RandomAgent

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game

DATA = Path(__file__).parent / "data" / "heuristic_transcripts.json"
LIMIT = 1500
"""Actions kept per game (chance outcomes count too): every recorded game is whole."""


def _cases() -> list[dict[str, Any]]:
    """The recorded games: heuristic self-play and heuristic against random."""
    out: list[dict[str, Any]] = []
    tables = {"dadaocheng": ((1, 3), (2, 2), (4, 2)), "tea": ((2, 2), (3, 1), (4, 2))}
    for game, counts in tables.items():
        for players, games in counts:
            for seed in range(games):
                seats = ["heuristic"] * players
                if seed % 2 and players > 1:
                    seats[seed % players] = "random"
                out.append({"game": game, "options": {"num_players": players},
                            "seats": seats, "seed": 100 + seed})
    for challenge in ("ships", "buildings", "hand2"):
        out.append({"game": "dadaocheng",
                    "options": {"num_players": 1, "solo_challenge": challenge},
                    "seats": ["heuristic"], "seed": 7})
    return out


CASES = _cases()


def play_transcript(case: dict[str, Any], limit: int = LIMIT) -> list[int]:
    """Every action of the game of ``case`` (chance outcomes included), at most ``limit``."""
    game = make_game(case["game"], **case["options"])
    seed = case["seed"]
    agents = [HeuristicAgent(case["game"], seed=10 * seed + p) if kind == "heuristic"
              else RandomAgent(seed=10 * seed + p) for p, kind in enumerate(case["seats"])]
    rng, state = np.random.default_rng(seed), game.new_initial_state()
    actions: list[int] = []
    while not game.is_terminal(state) and len(actions) < limit:
        player = game.current_player(state)
        if player == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = agents[player].act_on_state(game, state)
        actions.append(int(action))
        game.apply_action(state, action)
    return actions


def record(path: Path = DATA) -> None:
    """Play every case and write the transcripts (one line per game)."""
    rows = [{**case, "actions": play_transcript(case)} for case in CASES]
    lines = ",\n".join(json.dumps(row, separators=(",", ":")) for row in rows)
    path.write_text(f"[\n{lines}\n]\n")


if __name__ == "__main__":
    record(Path(sys.argv[1]) if len(sys.argv) > 1 else DATA)
