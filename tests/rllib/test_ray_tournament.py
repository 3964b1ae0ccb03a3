"""The ray tournament backend plays the same games as the serial one."""

from __future__ import annotations

from pathlib import Path

import pytest

from formosa_envs.evaluation.evaluate import run_tournament
from tests.test_tournament_backends import assert_same_result

pytestmark = pytest.mark.rllib


@pytest.mark.parametrize(("game", "agents", "players", "games"), [
    ("flowers", ["random", "heuristic"], 2, 4),
    ("dadaocheng", ["random", "heuristic"], 3, 3),
])
def test_ray_backend_equals_serial(ray_session: Path, game: str, agents: list[str],
                                   players: int, games: int) -> None:
    kwargs = {"seed": 11, "show_progress": False}
    serial = run_tournament(game, agents, players, games, **kwargs)
    on_ray = run_tournament(game, agents, players, games, workers=2, backend="ray", **kwargs)
    assert_same_result(serial, on_ray)
    assert on_ray.backend == "ray" and on_ray.to_dict()["runtime"]["workers"] == 2
    assert len(on_ray.records) == len(serial.records) > 0
