"""``formosa serve``: run the web app with uvicorn, on this machine only by default."""

from __future__ import annotations

import ipaddress
import socket
import sys
from pathlib import Path
from typing import TextIO

from formosa_envs.tools.usage import UsageError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_GAMES_DIR = "formosa-games"
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]", "::1"]
"""The Host headers a server bound to this machine answers (others: 400)."""


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          games_dir: str | Path = DEFAULT_GAMES_DIR, out: TextIO | None = None) -> int:
    """Serve the app until interrupted; say where, and which games were resumed."""
    import uvicorn

    from .app import create_app
    out = out or sys.stdout
    check_port(host, port)
    app = create_app(games_dir, allowed_hosts=LOOPBACK_NAMES if _loopback(host) else None)
    store = app.state.store
    resumed = sum(s.status == "playing" for s in store.all())
    out.write(f"formosa serve: open http://{_url_host(host)}:{port}/ - listening on "
              f"{host}:{port} ({_reach(host)}); games saved in {Path(games_dir)}/ "
              f"({resumed} in progress resumed)\n")
    for problem in store.skipped:
        out.write(f"formosa serve: warning: not resumed: {problem}\n")
    out.flush()
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return 0


def check_port(host: str, port: int) -> None:
    """Refuse, in one line, an address this machine cannot listen on (taken, unknown),
    and port 0 (the system would pick a port, and the address to open is unknown)."""
    if port == 0:
        raise UsageError("--port 0: give a port from 1 to 65535 (with 0 the system picks one "
                         "and the address to open could not be told)")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.create_server((host, port), family=family):
            pass
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _reach(host: str) -> str:
    return "this machine only" if _loopback(host) else \
        "reachable from other machines: anyone who can reach it can join the games"


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", "::"):
        return "127.0.0.1" if host == "0.0.0.0" else "[::1]"
    return f"[{host}]" if ":" in host else host
