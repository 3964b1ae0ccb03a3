"""``formosa serve`` for real: uvicorn in a subprocess, on this machine only by default,
games resumed after a restart, one-line errors for an address or folder it cannot use."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import httpx2

from .conftest import ROOT, Served


def test_serve_says_where_it_listens_and_serves_the_page(served: Served) -> None:
    line = served.first_line
    assert line.startswith(f"formosa serve: open http://127.0.0.1:{served.port}/")
    assert "this machine only" in line and str(served.games_dir) in line
    assert "(0 in progress resumed)" in line
    with httpx2.Client(base_url=served.url, timeout=10) as http:
        assert "play.js" in http.get("/").text
        assert http.get("/api/games/0123456789ab").status_code == 404


def test_a_game_survives_a_server_restart(tmp_path: Path) -> None:
    body = {"game": "taiwan", "num_players": 2, "seats": ["random", "human"], "seed": 4}
    first = Served(tmp_path / "games")
    try:
        with httpx2.Client(base_url=first.url, timeout=30) as http:
            game = http.post("/api/games", json=body).json()
            view = http.get(f"/api/games/{game['id']}").json()
            while view["to_move_kind"] != "human":
                view = http.get(f"/api/games/{game['id']}").json()
    finally:
        first.stop()
    second = Served(tmp_path / "games")
    try:
        assert "(1 in progress resumed)" in second.first_line
        with httpx2.Client(base_url=second.url, timeout=30) as http:
            again = http.get(f"/api/games/{game['id']}").json()
        assert (again["svg"], again["moves"]) == (view["svg"], view["moves"])
    finally:
        second.stop()


def _serve(*flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from formosa_envs.cli import main; "
                           "raise SystemExit(main())", "serve", *flags], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_a_taken_port_or_a_file_for_a_folder_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        done = _serve("--port", str(busy.getsockname()[1]), "--games-dir",
                      str(tmp_path / "g"))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith("formosa serve: error: cannot listen on 127.0.0.1:")
    (tmp_path / "file").write_text("x")
    done = _serve("--games-dir", str(tmp_path / "file"))
    assert done.returncode == 2 and "--games-dir" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
