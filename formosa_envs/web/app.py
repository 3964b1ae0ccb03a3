"""The HTTP API and the play page (Starlette).

=======  ==============================  =============================================
GET      ``/``, ``/play/{id}``           the page (lobby, or the table of game ``id``)
GET      ``/static/...``                 its script and style sheet
GET      ``/api/catalogue``              games, player counts, options, seat examples
GET      ``/api/games``                  every game of this server (public facts only)
POST     ``/api/games``                  a new game: ``{game, num_players, options,
                                         seats, seed}`` -> 201 and the first view
GET      ``/api/games/{id}?seat=k``      the view of human seat ``k`` (default: the
                                         deciding person's)
POST     ``/api/games/{id}/moves``       ``{version, action, seat}`` -> the new view
POST     ``/api/games/{id}/undo``        ``{version, seat}``: back to a person's last
                                         decision
POST     ``/api/games/{id}/abandon``     ``{version, seat}``: stop and save the game
GET      ``/api/games/{id}/record``      the game record, once the game is over
GET      ``/api/games/{id}/replay``      its replay page (HTML), once the game is over
=======  ==============================  =============================================

Errors are JSON ``{"error": message}`` with a 4xx status: 400 a malformed request
(body, missing or unknown field, game, option, seat spec), 403 the view of an agent's
seat or a post from another site's page, 404 an unknown game or path, 405 a wrong
method, 409 a request the game's state refuses (a stale version, out of turn, the game
over), 413 a body too large, 415 a body sent as something other than JSON, 422 an
illegal move, 503 a new game past the server's cap of games in progress. Session work
(drawing, replaying, building agents) runs in the thread pool.

What a request may seat, and the thinking budgets, are the server's
:class:`~.seats.ServeLimits`; every answer carries the headers of
:mod:`.security` (no framing, no sniffing, a content security policy).

A post must come from this server's own page (an ``Origin`` header, which browsers
send, must name this host), so that a page of another site open in the same browser
cannot make moves or start games here.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .errors import (
    CONFLICT,
    FORBIDDEN,
    TOO_LARGE,
    UNSUPPORTED_TYPE,
    WebError,
    bad_request,
    clip,
)
from .newgame import catalogue, parse_new_game
from .seats import ServeLimits
from .security import SecurityHeaders
from .store import GameStore
from .views import game_view, replay_endpoint, resolve_viewer

STATIC = Path(__file__).with_name("static")
MAX_BODY = 64 * 1024
MAX_INT = 10**18 - 1
MOVE_KEYS, UNDO_KEYS = ("version", "action", "seat"), ("version", "seat")


def create_app(games_dir: str | Path, allowed_hosts: list[str] | None = None,
               limits: ServeLimits | None = None) -> Starlette:
    """The web app; its games are kept in ``games_dir`` (games in progress resumed).
    ``allowed_hosts``: the only ``Host`` headers answered (None: any), so that a page on
    another site cannot reach a server bound to this machine by rebinding a name to it.
    ``limits``: the agents folder, thinking budgets and games in progress allowed."""
    store = GameStore(games_dir, limits)
    store.load()
    api = Api(store)
    routes = [
        Route("/", page), Route("/play/{game_id}", page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/catalogue", api.catalogue),
        Route("/api/games", api.list_games, methods=["GET"]),
        Route("/api/games", api.new_game, methods=["POST"]),
        Route("/api/games/{game_id}", api.view),
        Route("/api/games/{game_id}/moves", api.move, methods=["POST"]),
        Route("/api/games/{game_id}/undo", api.undo, methods=["POST"]),
        Route("/api/games/{game_id}/abandon", api.abandon, methods=["POST"]),
        Route("/api/games/{game_id}/record", api.record),
        Route("/api/games/{game_id}/replay", replay_endpoint),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(routes=routes, exception_handlers={
        WebError: _web_error, HTTPException: _http_error, Exception: _server_error},
        lifespan=_lifespan, middleware=middleware)
    app.state.store = store
    return app


@asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    """On shutdown, stop the thinking agents (a move not yet made is dropped)."""
    yield
    await run_in_threadpool(app.state.store.close)


async def page(request: Request) -> Response:
    """The single page: the lobby at ``/``, a table at ``/play/{id}``."""
    return FileResponse(STATIC / "play.html", headers={"Cache-Control": "no-store"})


class Api:
    """The JSON endpoints over one :class:`GameStore`."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def catalogue(self, request: Request) -> Response:
        """Games, their player counts and options, seat examples and the limits."""
        return JSONResponse(await run_in_threadpool(catalogue, self.store.limits))

    async def list_games(self, request: Request) -> Response:
        """Every game's public facts, newest first."""
        return JSONResponse({"games": self.store.summaries()})

    async def new_game(self, request: Request) -> Response:
        """Check the request, start the game, answer with the first view (201)."""
        body = await read_json(request)
        limits = self.store.limits
        session = await run_in_threadpool(
            lambda: self.store.create(parse_new_game(body, limits)))
        view = await run_in_threadpool(game_view, session, None)
        return JSONResponse(view, status_code=201)

    async def view(self, request: Request) -> Response:
        """The view of one seat (``?seat=k``; default the deciding person's)."""
        session = self.store.get(request.path_params["game_id"])
        seat = _seat_query(request)
        return JSONResponse(await run_in_threadpool(game_view, session, seat))

    async def move(self, request: Request) -> Response:
        """A person's move, naming the version it answers."""
        session = self.store.get(request.path_params["game_id"])
        body = await read_json(request, MOVE_KEYS)
        version, seat = _int_field(body, "version"), _seat_field(session, body)
        action = _int_field(body, "action")
        await run_in_threadpool(session.play, action, version, seat)
        return JSONResponse(await run_in_threadpool(game_view, session, seat))

    async def undo(self, request: Request) -> Response:
        """Back to the last decision a person made."""
        session = self.store.get(request.path_params["game_id"])
        body = await read_json(request, UNDO_KEYS)
        version, seat = _int_field(body, "version"), _seat_field(session, body)
        await run_in_threadpool(session.undo, version)
        return JSONResponse(await run_in_threadpool(game_view, session, seat))

    async def abandon(self, request: Request) -> Response:
        """Stop the game; its record is saved and may be downloaded."""
        session = self.store.get(request.path_params["game_id"])
        body = await read_json(request, UNDO_KEYS)
        version = _int_field(body, "version", optional=True)
        seat = _seat_field(session, body)
        await run_in_threadpool(session.abandon, version)
        return JSONResponse(await run_in_threadpool(game_view, session, seat))

    async def record(self, request: Request) -> Response:
        """The whole record (every draw): only once the game is over."""
        game_id = request.path_params["game_id"]
        if game_id not in self.store.over:
            self.store.get(game_id)  # a 404 when there is no such game
            raise WebError(CONFLICT, "the record holds every card drawn; it is given once the "
                                     "game is finished or abandoned")
        record = await run_in_threadpool(self.store.record_of, game_id)
        name = f"formosa-{record['game']}-{game_id}.json"
        return JSONResponse(record, headers={
            "Content-Disposition": f'attachment; filename="{name}"'})


async def read_json(request: Request, keys: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The request's JSON object body (only ``keys``, when given); a 4xx names the fault:
    403 another site's page, 415 not sent as JSON, 413 too large, else 400."""
    _check_origin(request)
    _check_content_type(request)
    raw = await _read_body(request)
    try:
        body = json.loads(raw or b"null")
    except RecursionError:
        raise bad_request("the request body is nested too deeply to read") from None
    except ValueError as exc:  # not JSON, not UTF-8, or a number of over 4300 digits
        reason = str(exc).split("; use sys.")[0]
        raise bad_request(f"the request body is not JSON: {reason}") from None
    if not isinstance(body, dict):
        raise bad_request(f"the request body must be a JSON object, got {type(body).__name__}")
    unknown = sorted(set(body) - set(keys)) if keys is not None else []
    if unknown:
        raise bad_request(f"unknown field(s) {unknown!r:.80}; this request takes {list(keys)}")
    return body


def _check_origin(request: Request) -> None:
    """Refuse a post a browser sends from another site's page (its ``Origin`` is not us)."""
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc.lower() != \
            request.headers.get("host", "").lower():
        raise WebError(FORBIDDEN, f"cross-site request refused: it comes from {origin!r:.60}, "
                                  "not from this server's own page")


def _check_content_type(request: Request) -> None:
    """A body labelled as anything but JSON is a 415 (an unlabelled one is read as JSON)."""
    given = request.headers.get("content-type")
    if given is None:
        return
    media = given.split(";")[0].strip().lower()
    if media != "application/json" and not media.endswith("+json"):
        raise WebError(UNSUPPORTED_TYPE, f"the request body must be sent as JSON "
                                         f"(Content-Type: application/json), got Content-Type "
                                         f"{given!r:.60}")


async def _read_body(request: Request) -> bytes:
    """The body, read only up to :data:`MAX_BODY` bytes (a 413 beyond)."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise WebError(TOO_LARGE, f"the request body is {declared:.20} bytes; at most {MAX_BODY}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise WebError(TOO_LARGE, f"the request body is over {MAX_BODY} bytes; at most "
                                      f"{MAX_BODY}")
        chunks.append(chunk)
    return b"".join(chunks)


def _int_field(body: dict[str, Any], key: str, optional: bool = False) -> int | None:
    value = body.get(key)
    if value is None and optional:
        return None
    if key not in body:
        raise bad_request(f"missing field {key!r} (an integer)")
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_request(f"field {key!r} must be an integer, got {value!r:.40}")
    return _bounded(f"field {key!r}", value)


def _bounded(what: str, value: int) -> int:
    """``value`` unless it is too long to be a version, seat or action (a 400)."""
    if not -MAX_INT <= value <= MAX_INT:
        raise bad_request(f"{what} must be an integer of at most 18 digits, got one of "
                          f"{len(str(abs(value)))} digits")
    return value


def _seat_field(session: Any, body: dict[str, Any]) -> int | None:
    """The optional ``seat`` of a body: a person's seat (checked before any change)."""
    seat = _int_field(body, "seat", optional=True)
    if seat is not None:
        resolve_viewer(session, seat)
    return seat


def _seat_query(request: Request) -> int | None:
    raw = request.query_params.get("seat")
    if raw is None or raw == "":
        return None
    try:
        value = int(raw) if raw.isascii() else None  # int() reads other scripts' digits too
    except ValueError:
        value = None
    if value is None:
        raise bad_request(f"seat must be an integer, got {raw!r:.20}")
    return _bounded("seat", value)


async def _web_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, WebError)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    path = clip(request.url.path, 120)
    message = {404: f"no such path: {path}",
               405: f"{clip(request.method, 20)} is not allowed on {path}"}.get(
        exc.status_code, str(exc.detail))
    return JSONResponse({"error": message}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"},
                        status_code=500)

