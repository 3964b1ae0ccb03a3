"""The server's games: in memory by id, and on disk as game records in ``--games-dir``.

Each game's record (the ``formosa-game-record`` format, which ``formosa replay``
reads, with a ``web`` section: id, status, creation time, version, undo count) is
written to ``GAMES_DIR/<id>.json`` after every change, through a temporary file and
an atomic rename, so a crash never leaves half a record. A record of a game in
progress holds every draw to come, so the folder is made owner-only (0700) and every
record is written owner-only (0600), whatever the umask. On start the folder is read
back: games still in progress are replayed step by step (chance included) to the very
position they had, finished and abandoned ones are listed.

Only games in progress are held in memory (at most ``max_games``; one more is a 503),
and a few games over, the last ones seen; the others are listed by their summary and
read back from their record when they are viewed or downloaded.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from formosa_envs.core.errors import FormosaError
from formosa_envs.tools.record import RecordError, load_record

from .errors import NOT_FOUND, WebError, clip
from .newgame import GameSpec
from .seats import ServeLimits
from .session import PLAYING, GameSession
from .views import summary

log = logging.getLogger("formosa.web")
GAME_ID = re.compile(r"^[0-9a-f]{12}$")
STATUSES = ("playing", "finished", "abandoned")
MAX_VERSION = 2**53 - 1  # the largest integer a browser's JSON reads exactly
UNAVAILABLE = 503
KEPT_OVER = 8
"""Games over kept in memory (the last ones seen), besides the games in progress."""
CLOSE_SECONDS = 2.0
"""How long stopping the server waits, in all, for agents to stop thinking."""


class GameStore:
    """Every game of this server, by id; records kept in ``folder``."""

    def __init__(self, folder: str | Path, limits: ServeLimits | None = None) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(self.folder, 0o700)  # also a folder an older server made readable
        self.limits = limits or ServeLimits()
        self.sessions: dict[str, GameSession] = {}
        """The games in memory: every game in progress, and the last few games over."""
        self.over: dict[str, dict[str, Any]] = {}
        """The summary of every game over (listed; read back from disk when asked)."""
        self.skipped: list[str] = []
        self._recent: OrderedDict[str, None] = OrderedDict()
        self._starting = 0
        self._lock = threading.Lock()

    def create(self, spec: GameSpec) -> GameSession:
        """Start a new game (agents that move first start thinking at once); a 503 when
        the server already holds ``max_games`` games in progress."""
        self._reserve()
        try:
            session = GameSession(self._new_id(), spec, saver=self.save, limits=self.limits)
            with self._lock:
                self.sessions[session.id] = session
        finally:
            with self._lock:
                self._starting -= 1
        session.start()
        return session

    def _reserve(self) -> None:
        cap = self.limits.max_games
        with self._lock:
            if len(self.live()) + self._starting >= cap:
                raise WebError(UNAVAILABLE, f"this server already holds {cap} games in "
                                            f"progress (its --max-games {cap}); finish or "
                                            "abandon one first")
            self._starting += 1

    def _new_id(self) -> str:
        while True:
            game_id = secrets.token_hex(6)
            if game_id not in self.sessions and not self.path(game_id).exists():
                return game_id

    def live(self) -> dict[str, GameSession]:
        """The games in progress, by id."""
        return {k: s for k, s in list(self.sessions.items()) if s.status == PLAYING}

    def get(self, game_id: str) -> GameSession:
        """The game ``game_id`` (a game over is read back from its record when it is not
        in memory); a 404 :class:`WebError` when there is none."""
        session = self.sessions.get(game_id) if isinstance(game_id, str) else None
        if session is None and isinstance(game_id, str) and game_id in self.over:
            session = self._reload(game_id)
        if session is None:
            raise WebError(NOT_FOUND, f"no game with id {game_id!r:.40} on this server")
        return session

    def _reload(self, game_id: str) -> GameSession | None:
        try:
            session = self._resume(self.path(game_id))
        except Exception as exc:  # the file changed under the server
            raise WebError(NOT_FOUND, f"the record of game {game_id} cannot be read back: "
                                      f"{clip(_reason(exc), 120)}") from None
        if session is not None:
            self._keep_over(session)
        return session

    def record_of(self, game_id: str) -> dict[str, Any]:
        """The record of a game over, as saved (a 404 when it is not one)."""
        if game_id not in self.over:
            raise WebError(NOT_FOUND, f"no game over with id {game_id!r:.40} on this server")
        try:
            return json.loads(self.path(game_id).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:
            raise WebError(NOT_FOUND, f"the record of game {game_id} cannot be read: "
                                      f"{clip(_reason(exc), 120)}") from None

    def summaries(self) -> list[dict[str, Any]]:
        """The public facts of every game, newest first."""
        with self._lock:
            rows = dict(self.over)
            live = list(self.live().values())
        rows.update({s.id: summary(s) for s in live})
        return sorted(rows.values(), key=lambda row: row["created"], reverse=True)

    def all(self) -> list[GameSession]:
        """Every game in memory, newest first."""
        with self._lock:
            sessions = list(self.sessions.values())
        return sorted(sessions, key=lambda s: s.created, reverse=True)

    def path(self, game_id: str) -> Path:
        """Where the record of ``game_id`` lives."""
        return self.folder / f"{game_id}.json"

    def save(self, session: GameSession) -> None:
        """Write the game's record, owner-only (0600), atomically (a temporary file, then
        a rename); a game over leaves the games in progress."""
        target = self.path(session.id)
        scratch = target.with_suffix(".json.tmp")
        data = (json.dumps(session.record(), separators=(",", ":")) + "\n").encode("utf-8")
        descriptor = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(descriptor, 0o600)  # whatever the umask, and an older scratch file
            os.write(descriptor, data)
        finally:
            os.close(descriptor)
        os.replace(scratch, target)
        if session.status != PLAYING:
            self._keep_over(session)

    def _keep_over(self, session: GameSession) -> None:
        """List a game over by its summary; keep only the last few games over in memory."""
        with self._lock:
            self.over[session.id] = summary(session)
            self.sessions[session.id] = session
            self._recent[session.id] = None
            self._recent.move_to_end(session.id)
            while len(self._recent) > KEPT_OVER:
                dropped, _ = self._recent.popitem(last=False)
                self.sessions.pop(dropped, None)

    def load(self) -> int:
        """Read every web game record of the folder back; returns the games in progress.

        A record of another tool is left alone; any other file that cannot be resumed
        (not a record, corrupt, it no longer replays, an agent spec no longer builds or
        may not be seated) is skipped with a warning and named in :attr:`skipped`:
        whatever the folder holds, the server starts. Records are made owner-only.
        """
        for path in sorted(self.folder.glob("*.json")):
            try:
                session = self._resume(path)
            except Exception as exc:  # whatever is wrong with one file, the server starts
                self.skipped.append(f"{path.name}: {_reason(exc)}")
                log.warning("formosa serve: not resuming %s: %s", path, _reason(exc))
                continue
            if session is None:
                continue
            os.chmod(path, 0o600)
            if session.status == PLAYING:
                self.sessions[session.id] = session
            else:
                self.over[session.id] = summary(session)
        return len(self.live())

    def _resume(self, path: Path) -> GameSession | None:
        record = load_record(path)
        web = record.get("web")
        if not isinstance(web, dict) or not GAME_ID.match(str(web.get("id"))):
            return None  # a record of another tool (formosa simulate --record ...)
        if web.get("status") not in STATUSES or web["id"] != path.stem:
            raise RecordError(f"its web section is not this server's: {web!r:.80}")
        spec = _spec_of(record)
        created = web.get("created")
        playing = web["status"] == PLAYING  # a game over is not written again
        session = GameSession(web["id"], spec, saver=self.save if playing else None,
                              created=created if isinstance(created, str) else None,
                              limits=self.limits, with_agents=playing)
        session.start(record["steps"], status=web["status"],
                      version=_counter(web.get("version")), undos=_counter(web.get("undos")))
        return session

    def close(self, timeout: float = CLOSE_SECONDS) -> None:
        """Tell every thinking agent to stop (moves not yet made are dropped), then wait
        for them ``timeout`` seconds in all (agent threads that cannot be interrupted are
        daemons: they do not keep the server from exiting)."""
        sessions = self.all()
        for session in sessions:
            session.stop()
        deadline = time.monotonic() + timeout
        for session in sessions:
            session.wait_idle(max(0.0, deadline - time.monotonic()))


def _counter(value: Any) -> int:
    """A saved version or undo count (0 when it is missing or not one)."""
    fits = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_VERSION
    return value if fits else 0


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
