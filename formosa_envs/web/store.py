"""The server's games: in memory by id, and on disk as game records in ``--games-dir``.

Each game's record (the ``formosa-game-record`` format, which ``formosa replay``
reads, with a ``web`` section: id, status, creation time) is written to
``GAMES_DIR/<id>.json`` after every change, through a temporary file and an atomic
rename, so a crash never leaves half a record. On start the folder is read back:
games still in progress are replayed step by step (chance included) to the very
position they had, finished and abandoned ones are listed.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import threading
from pathlib import Path
from typing import Any

from formosa_envs.core.errors import FormosaError
from formosa_envs.tools.record import RecordError, load_record

from .errors import NOT_FOUND, WebError
from .newgame import GameSpec
from .session import PLAYING, GameSession

log = logging.getLogger("formosa.web")
GAME_ID = re.compile(r"^[0-9a-f]{12}$")
STATUSES = ("playing", "finished", "abandoned")
MAX_VERSION = 2**53 - 1  # the largest integer a browser's JSON reads exactly


class GameStore:
    """Every game of this server, by id; records kept in ``folder``."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.sessions: dict[str, GameSession] = {}
        self.skipped: list[str] = []
        self._lock = threading.Lock()

    def create(self, spec: GameSpec) -> GameSession:
        """Start a new game (agents that move first start thinking at once)."""
        session = GameSession(self._new_id(), spec, saver=self.save)
        with self._lock:
            self.sessions[session.id] = session
        session.start()
        return session

    def _new_id(self) -> str:
        while True:
            game_id = secrets.token_hex(6)
            if game_id not in self.sessions and not self.path(game_id).exists():
                return game_id

    def get(self, game_id: str) -> GameSession:
        """The game ``game_id``; a 404 :class:`WebError` when there is none."""
        session = self.sessions.get(game_id) if isinstance(game_id, str) else None
        if session is None:
            raise WebError(NOT_FOUND, f"no game with id {game_id!r:.40} on this server")
        return session

    def all(self) -> list[GameSession]:
        """Every game, newest first."""
        with self._lock:
            sessions = list(self.sessions.values())
        return sorted(sessions, key=lambda s: s.created, reverse=True)

    def path(self, game_id: str) -> Path:
        """Where the record of ``game_id`` lives."""
        return self.folder / f"{game_id}.json"

    def save(self, session: GameSession) -> None:
        """Write the game's record (atomically: a temporary file, then a rename)."""
        target = self.path(session.id)
        scratch = target.with_suffix(".json.tmp")
        scratch.write_text(json.dumps(session.record(), separators=(",", ":")) + "\n",
                           encoding="utf-8")
        os.replace(scratch, target)

    def load(self) -> int:
        """Read every web game record of the folder back; returns the games in progress.

        A record of another tool is left alone; any other file that cannot be resumed
        (not a record, corrupt, it no longer replays, an agent spec no longer builds) is
        skipped with a warning and named in :attr:`skipped`: whatever the folder holds,
        the server starts.
        """
        for path in sorted(self.folder.glob("*.json")):
            try:
                session = self._resume(path)
            except Exception as exc:  # whatever is wrong with one file, the server starts
                self.skipped.append(f"{path.name}: {_reason(exc)}")
                log.warning("formosa serve: not resuming %s: %s", path, _reason(exc))
                continue
            if session is not None:
                self.sessions[session.id] = session
        return sum(s.status == PLAYING for s in self.sessions.values())

    def _resume(self, path: Path) -> GameSession | None:
        record = load_record(path)
        web = record.get("web")
        if not isinstance(web, dict) or not GAME_ID.match(str(web.get("id"))):
            return None  # a record of another tool (formosa simulate --record ...)
        if web.get("status") not in STATUSES or web["id"] != path.stem:
            raise RecordError(f"its web section is not this server's: {web!r:.80}")
        spec = _spec_of(record)
        created = web.get("created")
        session = GameSession(web["id"], spec, saver=self.save,
                              created=created if isinstance(created, str) else None)
        version = web.get("version", 0)
        fits = isinstance(version, int) and not isinstance(version, bool) and \
            0 <= version <= MAX_VERSION
        session.start(record["steps"], status=web["status"], version=version if fits else 0)
        return session

    def close(self, timeout: float = 5.0) -> None:
        """Let thinking agents finish (their move is saved) before the server stops."""
        for session in self.all():
            session.wait_idle(timeout)


def _spec_of(record: dict[str, Any]) -> GameSpec:
    """The :class:`GameSpec` a web record was started with."""
    seats = record.get("agents", [])
    if len(seats) != record["num_players"]:
        raise RecordError(f"it names {len(seats)} seats for {record['num_players']} players")
    seed = record.get("seed")
    if not isinstance(seed, int):
        raise RecordError(f"its seed is {seed!r}, not an integer")
    return GameSpec(record["game"], record["num_players"], dict(record["options"]),
                    tuple(seats), seed)


def _reason(exc: Exception) -> str:
    """Why a file was not resumed, in words (the exception's kind when it is no
    :class:`FormosaError` or file error, whose messages already say it)."""
    if isinstance(exc, RecursionError):
        return "its JSON is nested too deeply to read"
    if isinstance(exc, (FormosaError, OSError)):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"
