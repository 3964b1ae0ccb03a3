"""``formosa serve``: run the web app with uvicorn, on this machine only by default.

On this machine only (the default ``--host 127.0.0.1``) the server answers only the
``Host`` names of this machine, so a page of another site cannot reach it by
rebinding a name to it. Any other address opens it to whoever can reach the port
(they may start games and play them), and the ``Host`` check is off: a warning says
so. uvicorn runs with the header deadline of :mod:`.security` and a bounded graceful
shutdown (SIGTERM or Ctrl-C end it within a few seconds, whatever the agents do).
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from pathlib import Path
from typing import TextIO

from formosa_envs.tools.usage import UsageError

from .seats import ServeLimits

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_GAMES_DIR = "formosa-games"
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]", "::1"]
"""The Host headers a server bound to this machine answers (others: 400)."""
SHUTDOWN_SECONDS = 2
"""How long a stopping server waits for requests under way before it closes them."""
OPEN_WARNING = ("formosa serve: warning: listening on {host}, not on this machine only: "
                "anyone who can reach port {port} can start games, play them, and download "
                "the records of games over; the Host check is off (it guards only a server "
                "on 127.0.0.1). Use --host 127.0.0.1 unless you mean that.\n")


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          games_dir: str | Path = DEFAULT_GAMES_DIR, out: TextIO | None = None,
          limits: ServeLimits | None = None, header_timeout: float = 10.0) -> int:
    """Serve the app until interrupted (Ctrl-C, SIGTERM); say where, which games were
    resumed, and warn when the address is not this machine's only."""
    import uvicorn

    from .app import create_app
    from .security import header_timeout_protocol
    out = out or sys.stdout
    check_port(host, port)
    app = create_app(games_dir, allowed_hosts=LOOPBACK_NAMES if _loopback(host) else None,
                     limits=limits)
    store = app.state.store
    resumed = len(store.live())
    out.write(f"formosa serve: open http://{_url_host(host)}:{port}/ - listening on "
              f"{host}:{port} ({_reach(host)}); games saved in {Path(games_dir)}/ "
              f"({resumed} in progress resumed)\n")
    if not _loopback(host):
        out.write(OPEN_WARNING.format(host=host, port=port))
    for problem in store.skipped:
        out.write(f"formosa serve: warning: not resumed: {problem}\n")
    out.flush()
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            http=header_timeout_protocol(header_timeout),
                            timeout_graceful_shutdown=SHUTDOWN_SECONDS)
    uvicorn.Server(config).run()
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
