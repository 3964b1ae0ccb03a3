"""``formosa serve`` for real under attack: SIGTERM while agents think, connections that
never finish their headers or their body, and a server opened to the network."""

from __future__ import annotations

import io
import signal
import socket
import time
from pathlib import Path
from typing import Any

import httpx2

from .conftest import Served, free_port


def test_sigterm_stops_the_server_while_agents_think(tmp_path: Path) -> None:
    server = Served(tmp_path / "games", "--max-think-seconds", "600",
                    "--max-simulations", "1000000")
    try:
        with httpx2.Client(base_url=server.url, timeout=30) as http:
            for seed in range(3):
                reply = http.post("/api/games", json={
                    "game": "tea", "num_players": 3, "seed": seed,
                    "seats": ["mcts:1000000:heuristic", "human", "random"]})
                assert reply.status_code == 201, reply.text
            time.sleep(0.5)
            assert http.get(f"/api/games/{reply.json()['id']}").json()["thinking"]
        start = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(8)
        assert time.monotonic() - start < 5
    finally:
        server.stop()


def closed_within(port: int, data: bytes, seconds: float) -> float:
    """Send ``data`` and wait until the server closes the connection; its delay."""
    with socket.create_connection(("127.0.0.1", port), timeout=seconds + 5) as sock:
        start = time.monotonic()
        if data:
            sock.sendall(data)
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                return time.monotonic() - start


def test_a_connection_that_never_ends_its_headers_is_dropped(tmp_path: Path) -> None:
    server = Served(tmp_path / "games", "--header-timeout", "1")
    try:
        for data in (b"GET /api/catalogue HTTP/1.1\r\nHost: 127.0.0.1", b"GE", b""):
            assert closed_within(server.port, data, 1) < 3, data
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            time.sleep(0.2)
            assert sock.recv(65536).startswith(b"HTTP/1.1 200")
            sock.sendall(b"GET /api/games HTTP/1.1\r\n")  # a second, never finished
            start = time.monotonic()
            while sock.recv(4096):
                pass
            assert time.monotonic() - start < 3
        with httpx2.Client(base_url=server.url, timeout=10) as http:
            assert http.get("/api/games").status_code == 200
    finally:
        server.stop()


def test_a_slow_dribble_of_header_bytes_is_dropped(tmp_path: Path) -> None:
    server = Served(tmp_path / "games", "--header-timeout", "1")
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            start = time.monotonic()
            try:
                for byte in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: " + b"a" * 40:
                    sock.sendall(bytes([byte]))
                    time.sleep(0.1)
                    if time.monotonic() - start > 3:
                        break
            except OSError:
                pass
            assert time.monotonic() - start < 3
    finally:
        server.stop()


def test_a_body_sent_a_byte_at_a_time_is_dropped(tmp_path: Path) -> None:
    """Whole headers, then a declared body dribbled slowly: the request's deadline covers
    the body too; a body sent in time still gets its answer."""
    server = Served(tmp_path / "games", "--header-timeout", "1")
    body = b'{"game": "flowers", "num_players": 2, "seats": ["human", "random"]}'
    head = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(head)
            start, answer = time.monotonic(), b""
            try:
                for byte in body:
                    sock.sendall(bytes([byte]))
                    time.sleep(0.1)
                    if time.monotonic() - start > 4:
                        break
                answer = sock.recv(4096)
            except OSError:
                pass
            assert time.monotonic() - start < 3 and not answer.startswith(b"HTTP/1.1 201")
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(head + body[:10])
            time.sleep(0.3)
            sock.sendall(body[10:])
            assert sock.recv(65536).startswith(b"HTTP/1.1 201")
    finally:
        server.stop()


def run_serve(monkeypatch: Any, host: str) -> str:
    import uvicorn

    from formosa_envs.web.server import serve
    started: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: started.append(self))
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: started.append(a))
    out = io.StringIO()
    assert serve(host, free_port(), Path(monkeypatch.tmp_path) / "games", out=out) == 0
    assert started
    return out.getvalue()


def test_serving_on_every_address_warns_in_words(monkeypatch: Any, tmp_path: Path) -> None:
    monkeypatch.tmp_path = tmp_path
    text = run_serve(monkeypatch, "0.0.0.0")
    assert "warning" in text.lower()
    for words in ("anyone who can reach", "start games", "Host check is off"):
        assert words in text, text
    assert "warning" not in run_serve(monkeypatch, "127.0.0.1").lower()


def test_serve_help_states_the_limits_and_the_pickle_risk(capsys: Any) -> None:
    from formosa_envs.cli import main
    assert main(["serve", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for flag in ("--agents-dir", "--max-simulations", "--max-think-seconds", "--max-games",
                 "--header-timeout", "0600", "pickle"):
        assert flag in out, flag
