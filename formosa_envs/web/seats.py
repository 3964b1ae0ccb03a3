"""Which agents a request may seat, and the server's limits on them.

A seat spec comes from the network, so it may name only agent kinds that read no file
on the server: ``human``, ``random``, ``heuristic``, ``mcts[...]`` and
``pretrained[...]`` (networks shipped as package data). The file-backed kinds are
refused by their kind alone, before anything touches the disk (the message is the same
whatever the path is, so it tells nothing of the server's files), unless the server
was started with ``--agents-dir DIR``: then ``policy:NAME`` and ``az:NAME[:N]`` play
the regular file ``NAME`` inside ``DIR``, chosen by name (no ``/``, no ``..``, no
hidden name; after resolving links it must still be a regular file inside ``DIR``).
``rllib:`` is never seated from the web: loading an RLlib checkpoint unpickles files,
which runs whatever code they hold.

Every search is bounded by the server: at most :attr:`ServeLimits.max_simulations`
per move (a larger budget is refused, stating the cap) and
:attr:`ServeLimits.max_think_seconds` of wall-clock time per move, enforced by the
search itself (``max_seconds`` and ``should_stop``, read between simulations; see
:func:`formosa_envs.agents.mcts.stop_check`). ``random``, ``heuristic`` and ``pretrained`` (without
search) answer at once.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from formosa_envs.agents import make_agent

from .errors import bad_request, clip

HUMAN = "human"
WEB_KINDS = {"random", "heuristic", "mcts", "pretrained"}
"""Agent kinds a request may name (they read no file but package data)."""
DIR_KINDS = ("policy", "az")
"""Kinds that play a file of ``--agents-dir``, chosen by name."""
FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,127}$")
RULE = ("the web app seats only agent kinds that read no file: human, random, heuristic, "
        "mcts[:N[:R]], pretrained[...]")


@dataclass(frozen=True)
class ServeLimits:
    """What the server allows: the agents folder, thinking budgets, games in progress."""

    agents_dir: Path | None = None
    max_simulations: int = 2000
    max_think_seconds: float = 10.0
    max_games: int = 100

    def public(self) -> dict[str, Any]:
        """The limits a client may know (for the catalogue)."""
        return {"max_simulations": self.max_simulations,
                "max_think_seconds": self.max_think_seconds, "max_games": self.max_games}


def allow_web_kind(kind: str) -> None:
    """Let requests name agent kind ``kind`` (one that reads no file of the server)."""
    WEB_KINDS.add(kind)


def agent_files(limits: ServeLimits) -> list[str]:
    """The names of the agent files the server offers (empty without ``--agents-dir``)."""
    folder = limits.agents_dir
    if folder is None or not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if _offered(folder, p.name) is not None)


def _offered(folder: Path, name: str) -> Path | None:
    """The file ``name`` of ``folder`` if it may be served: a plain name, a regular file
    inside the folder once links are resolved; else None."""
    if not FILE_NAME.match(name):
        return None
    root = folder.resolve()
    try:
        target = (folder / name).resolve(strict=True)
        regular = stat.S_ISREG(os.stat(target).st_mode)
    except (OSError, RuntimeError):
        return None
    return target if regular and target.parent == root else None


def checked_spec(spec: str, seat: int, limits: ServeLimits) -> str:
    """The spec to build for a request's seat spec (an agents-folder name becomes its
    path); a 400 naming the rule for any other kind that reads a file. Reads no file
    but the agents folder's listing."""
    kind, _, arg = spec.partition(":")
    if kind in WEB_KINDS:
        return spec
    where = f"seat {seat} {clip(repr(spec), 60)}"
    if kind == "rllib":
        raise bad_request(f"{where}: rllib checkpoints are never loaded from the web (loading "
                          "one unpickles its files, which can run any code); " + RULE)
    if kind not in DIR_KINDS:
        raise bad_request(f"{where}: unknown agent kind {clip(repr(kind), 40)}; {RULE}, "
                          "or 'human'")
    if limits.agents_dir is None:
        raise bad_request(f"{where}: {kind!r} reads a file of the server; {RULE} (a server "
                          "started with --agents-dir DIR also offers policy:NAME and "
                          "az:NAME[:N], NAME a file of DIR)")
    name, budget = (arg.partition(":")[::2]) if kind == "az" else (arg, "")
    path = _offered(limits.agents_dir, name)
    if path is None:
        raise bad_request(f"{where}: agent files are chosen by name from the server's agents "
                          f"folder, one of {clip(repr(agent_files(limits)), 200)}")
    return f"{kind}:{path}" + (f":{budget}" if budget else "")


def build_agent(spec: str, game: str, seat: int, seed: int, limits: ServeLimits) -> Any:
    """The agent of a seat spec (seeded ``seed + 1 + seat``), within the server's limits;
    a 400 names the seat and the fault."""
    target = checked_spec(spec, seat, limits)
    where = f"seat {seat} {clip(repr(spec), 60)}"
    if spec.partition(":")[0] == "az":
        _check_budget(where, _az_budget(target), limits)
    try:
        agent = make_agent(target, game, seed=seed + 1 + seat)
    except (ValueError, OSError) as exc:  # AgentSpecError, or a file that is no network
        text = str(exc)
        if limits.agents_dir is not None:  # name the file as the client did
            text = text.replace(f"{limits.agents_dir.resolve()}{os.sep}", "")
        raise bad_request(f"{where}: {clip(text)}; a seat may also be {HUMAN!r}") from None
    _check_budget(where, getattr(agent, "simulations", 0), limits)
    agent.max_seconds = limits.max_think_seconds
    return agent


def _az_budget(target: str) -> int:
    from formosa_envs.agents.az import split_spec
    try:
        return split_spec(target, target.partition(":")[2])[1]
    except ValueError:
        return 0  # make_agent names the fault


def _check_budget(where: str, simulations: Any, limits: ServeLimits) -> None:
    cap = limits.max_simulations
    if isinstance(simulations, int) and simulations > cap:
        raise bad_request(f"{where}: at most {cap:,} simulations per move on this server "
                          f"(its --max-simulations), got {simulations:,}")
