"""Tournament backends without Ray: serial and process agree, bad choices fail clearly."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from formosa_envs.core.errors import ConfigError
from formosa_envs.evaluation.backends import chunk_tasks, resolve_backend
from formosa_envs.evaluation.evaluate import TournamentResult, main, run_tournament


def _play(game: str, agents: list[str], players: int, games: int, **kwargs: Any
          ) -> TournamentResult:
    return run_tournament(game, agents, players, games, seed=5, show_progress=False, **kwargs)


def assert_same_result(one: TournamentResult, two: TournamentResult) -> None:
    """Same schedule, same games, same statistics (only the runtime may differ)."""
    assert one.config == two.config
    assert one.tables == two.tables
    assert [r.index for r in two.records] == list(range(len(two.records)))
    assert one.records == two.records  # seats, specs, seeds, scores, ranks, wins
    assert one.agents == two.agents
    assert one.head_to_head == two.head_to_head
    assert one.seat_win_rates == two.seat_win_rates


@pytest.mark.parametrize(("game", "agents", "players", "games"), [
    ("flowers", ["random", "heuristic"], 2, 4),
    ("taiwan", ["random", "heuristic"], 3, 3),
])
def test_serial_and_process_give_the_same_result(game: str, agents: list[str], players: int,
                                                 games: int) -> None:
    serial = _play(game, agents, players, games, backend="serial")
    process = _play(game, agents, players, games, workers=2, backend="process")
    assert_same_result(serial, process)
    assert serial.records[0].scores and serial.records[-1].seats
    assert (serial.backend, serial.workers) == ("serial", 1)
    assert (process.backend, process.workers) == ("process", 2)
    assert process.to_dict()["runtime"]["backend"] == "process"
    assert "backend" not in process.config


def test_default_backend_follows_workers() -> None:
    assert resolve_backend(None, 1) == "serial"
    assert resolve_backend(None, 3) == "process"
    assert resolve_backend("process", 1) == "process"
    assert resolve_backend("ray", 4, "auto") == "ray"
    assert _play("flowers", ["random", "random"], 2, 2, workers=2).backend == "process"


def test_chunks_cover_every_task_in_order() -> None:
    tasks = list(range(100))
    chunks = chunk_tasks(tasks, 2)  # type: ignore[arg-type]
    assert [t for c in chunks for t in c] == tasks
    assert len(chunks) == 15 and {len(c) for c in chunks[:-1]} == {7}
    assert chunk_tasks([], 4) == []


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"backend": "threads"}, "unknown backend 'threads'; choose one of serial, process, ray"),
    ({"backend": "serial", "workers": 2}, "backend 'serial' runs one worker; got workers=2"),
    ({"address": "auto"}, "needs backend 'ray', got 'serial'"),
    ({"backend": "process", "workers": 2, "address": "ray://h:10001"}, "got 'process'"),
])
def test_bad_backend_choices(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        _play("flowers", ["random", "random"], 2, 2, **kwargs)


def test_ray_backend_without_ray_gives_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(ConfigError, match=r"needs the \[rllib\] extra: pip install"):
        _play("flowers", ["random", "random"], 2, 2, backend="ray")


def test_cli_backend(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["flowers", "--agents", "random,heuristic", "--games", "2", "--quiet"]
    assert main([*base, "--backend", "process", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "flowers, 2 players" in out and "heuristic" in out and "head-to-head" in out
    assert main([*base, "--backend", "serial"]) == 0
    assert main([*base, "--workers", "2", "--backend", "serial"]) == 2
    assert "backend 'serial' runs one worker" in capsys.readouterr().err
    assert main([*base, "--address", "auto"]) == 2
    assert "needs backend 'ray'" in capsys.readouterr().err
    assert main([*base, "--backend", "threads"]) == 2  # argparse's error, on one line
    assert "invalid choice: 'threads'" in capsys.readouterr().err
