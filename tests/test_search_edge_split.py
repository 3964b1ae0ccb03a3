"""benchmarks/flowers_search_edge.py ``split``: which deviations from the heuristic the
seat plays at a keep-or-cash choice (the network's, kept or rejected by ``flat:64``, or
the search's the network misses)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from formosa_envs.agents.heuristics import HeuristicAgent

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.games.flowers.actions import CASH, KEEP

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "flowers_search_edge.py"


def _script() -> object:
    spec = importlib.util.spec_from_file_location("flowers_search_edge", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cash_state() -> tuple[object, object]:
    game = make_game("flowers", num_players=4)
    heuristic, rng = HeuristicAgent("flowers", seed=1), np.random.default_rng(1)
    state = game.new_initial_state()
    while game.is_terminal(state) or state.stack[-1].kind != "keep_or_cash":
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
        else:
            game.apply_action(state, heuristic.act_on_state(game, state))
    return game, state


class _Says:
    """A stand-in agent or network that always prefers ``move``."""

    def __init__(self, move: int) -> None:
        self.move = move

    def act_on_state(self, game: object, state: object) -> int:
        return self.move

    def logits(self, obs: np.ndarray) -> np.ndarray:
        out = np.zeros(111, np.float32)
        out[self.move] = 1.0
        return out


@pytest.mark.parametrize(("heuristic", "network", "search", "expected"), [
    # part -> the move, when the heuristic, the network and flat:64 say these
    (CASH, KEEP, KEEP, {"agreed": KEEP, "rejected": CASH, "missed": CASH}),
    (CASH, KEEP, CASH, {"agreed": CASH, "rejected": KEEP, "missed": CASH}),
    (CASH, CASH, KEEP, {"agreed": CASH, "rejected": CASH, "missed": KEEP}),
    (KEEP, KEEP, KEEP, {"agreed": KEEP, "rejected": KEEP, "missed": KEEP}),
])
def test_each_part_plays_only_its_deviations(heuristic, network, search, expected) -> None:
    edge, (game, state) = _script(), _cash_state()
    for part, move in expected.items():
        agent = edge.SplitOn(part, _Says(network), seed=0)
        agent.heuristic, agent.search = _Says(heuristic), _Says(search)
        assert agent.act_on_state(game, state) == move, part


def test_split_needs_a_network(capsys) -> None:
    with pytest.raises(SystemExit):
        _script().main(["split", "--games", "1"])
    assert "split needs --network" in capsys.readouterr().err
