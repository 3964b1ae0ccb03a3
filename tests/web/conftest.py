"""Fixtures of the web app's tests: the app through Starlette's TestClient, a real
``formosa serve`` in a subprocess, and headless Chromium.

The tests that need the ``[web]`` extra (Starlette, uvicorn, and httpx2 for the test
client) are not collected when it is absent, as tests/conftest.py does for the other
extras; ``make test`` installs it (the dev setup) and runs them. The click-target tests
(``test_targets.py``) need only the engines and always run.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import headless_chrome

CORE_ONLY = ("test_targets.py", "test_page_labels.py", "test_web_optional.py")
"""The files of this folder that run without the [web] extra; every other one needs it."""
NEEDS_EXTRA = sorted(p.name for p in Path(__file__).parent.glob("test_*.py")
                     if p.name not in CORE_ONLY)
collect_ignore = NEEDS_EXTRA if any(importlib.util.find_spec(m) is None
                                    for m in ("starlette", "uvicorn", "httpx2")) else []
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[Any]:
    """A TestClient over a fresh app whose games live in ``tmp_path / "games"``."""
    from starlette.testclient import TestClient

    from formosa_envs.web.app import create_app
    with TestClient(create_app(tmp_path / "games")) as test_client:
        yield test_client


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Served:
    """A ``formosa serve`` subprocess: its URL, first line of output, and a stop."""

    def __init__(self, games_dir: Path, *flags: str) -> None:
        self.games_dir = games_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-c", "from formosa_envs.cli import main; "
                   "raise SystemExit(main())", "serve", "--port", str(self.port),
                   "--games-dir", str(games_dir), *flags]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.first_line = self.process.stdout.readline()
        self._wait_until_up()

    def _wait_until_up(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"formosa serve ended: {self.first_line}"
                                   f"{self.process.stdout.read()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("formosa serve did not start listening")

    def stop(self) -> None:
        """Interrupt the server (as Ctrl-C does) and wait for it to end."""
        if self.process.poll() is None:
            self.process.send_signal(2)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[Served]:
    """A real server on a free port (games in ``tmp_path / "games"``), stopped afterwards."""
    server = Served(tmp_path / "games")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def chrome() -> Iterator[Any]:
    """Headless Chromium (fails, naming the fix, when it is not installed)."""
    with headless_chrome(1500, 1100) as driver:
        yield driver
