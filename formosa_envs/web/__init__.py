"""Play against the agents in a browser: ``formosa serve`` (the ``[web]`` extra).

A small local web app (Starlette, served by uvicorn) where people sit at a table
with agents: choose a game, its player count and options, and a spec for every
seat (``human`` or an agent that reads no file: random, heuristic, mcts:N,
pretrained...; ``policy:NAME`` and ``az:NAME`` only from a server's ``--agents-dir``),
then play on the game's SVG picture, drawn from the human seat's chair.

Modules: :mod:`.newgame` checks a new game's request, :mod:`.seats` says which agents
a request may seat and within which limits, :mod:`.session` plays one game (agents
think in a background thread, stopped when their thought is no longer wanted),
:mod:`.views` says what one seat may see, :mod:`.store` keeps the games and their
records on disk (owner-only), :mod:`.app` is the HTTP API, :mod:`.security` its
response headers and header deadline, and :mod:`.server` runs it. Only :mod:`.app`,
:mod:`.security` and :mod:`.server` import the web libraries; nothing outside this
package imports them.
"""

from __future__ import annotations

import importlib.util

WEB_MODULES = ("starlette", "uvicorn")
WEB_HINT = "formosa serve needs the [web] extra (Starlette and uvicorn): pip install -e '.[web]'"


def missing_web_modules() -> list[str]:
    """The web libraries that are not installed (empty when the ``[web]`` extra is)."""
    return [name for name in WEB_MODULES if importlib.util.find_spec(name) is None]
