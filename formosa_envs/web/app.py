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
=======  ==============================  =============================================

Errors are JSON ``{"error": message}`` with a 4xx status: 400 a malformed request
(body, field, game, option, seat spec), 403 the view of an agent's seat, 404 an
unknown game or path, 405 a wrong method, 409 a request the game's state refuses
(a stale version, out of turn, the game over), 413 a body too large, 422 an illegal
move. Session work (drawing, replaying, building agents) runs in the thread pool.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .errors import CONFLICT, WebError, bad_request
from .newgame import catalogue, parse_new_game
from .session import PLAYING
from .store import GameStore
from .views import game_view, resolve_viewer, summary

STATIC = Path(__file__).with_name("static")
MAX_BODY = 64 * 1024


def create_app(games_dir: str | Path) -> Starlette:
    """The web app; its games are kept in ``games_dir`` (games in progress resumed)."""
    store = GameStore(games_dir)
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
    ]
    app = Starlette(routes=routes, exception_handlers={
        WebError: _web_error, HTTPException: _http_error, Exception: _server_error},
        lifespan=_lifespan)
    app.state.store = store
    return app


@asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    """On shutdown, let thinking agents finish their move (it is saved)."""
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
        """Games, their player counts and options, and seat examples."""
        return JSONResponse(await run_in_threadpool(catalogue))

    async def list_games(self, request: Request) -> Response:
        """Every game's public facts, newest first."""
        return JSONResponse({"games": [summary(s) for s in self.store.all()]})

    async def new_game(self, request: Request) -> Response:
        """Check the request, start the game, answer with the first view (201)."""
        body = await read_json(request)
        session = await run_in_threadpool(lambda: self.store.create(parse_new_game(body)))
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
        body = await read_json(request)
        version, seat = _int_field(body, "version"), _seat_field(session, body)
        action = _int_field(body, "action")
        await run_in_threadpool(session.play, action, version, seat)
        return JSONResponse(await run_in_threadpool(game_view, session, seat))

    async def undo(self, request: Request) -> Response:
        """Back to the last decision a person made."""
        session = self.store.get(request.path_params["game_id"])
        body = await read_json(request)
        version, seat = _int_field(body, "version"), _seat_field(session, body)
        await run_in_threadpool(session.undo, version)
        return JSONResponse(await run_in_threadpool(game_view, session, seat))

    async def abandon(self, request: Request) -> Response:
        """Stop the game; its record is saved and may be downloaded."""
        session = self.store.get(request.path_params["game_id"])
        body = await read_json(request)
        version = _int_field(body, "version", optional=True)
        seat = _seat_field(session, body)
        await run_in_threadpool(session.abandon, version)
        return JSONResponse(await run_in_threadpool(game_view, session, seat))

    async def record(self, request: Request) -> Response:
        """The whole record (every draw): only once the game is over."""
        session = self.store.get(request.path_params["game_id"])
        if session.status == PLAYING:
            raise WebError(CONFLICT, "the record holds every card drawn; it is given once the "
                                     "game is finished or abandoned")
        record = await run_in_threadpool(session.record)
        name = f"formosa-{session.spec.game}-{session.id}.json"
        return JSONResponse(record, headers={
            "Content-Disposition": f'attachment; filename="{name}"'})


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object body; a 400 (413 when too large) names the fault."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise WebError(413, f"the request body is {len(raw)} bytes; at most {MAX_BODY}")
    try:
        body = json.loads(raw or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise bad_request(f"the request body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise bad_request(f"the request body must be a JSON object, got {type(body).__name__}")
    return body


def _int_field(body: dict[str, Any], key: str, optional: bool = False) -> int | None:
    value = body.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_request(f"field {key!r} must be an integer, got {value!r:.40}")
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
        return int(raw)
    except ValueError:
        raise bad_request(f"seat must be an integer, got {raw!r:.20}") from None


async def _web_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, WebError)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = {404: f"no such path: {request.url.path}",
               405: f"{request.method} is not allowed on {request.url.path}"}.get(
        exc.status_code, str(exc.detail))
    return JSONResponse({"error": message}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"},
                        status_code=500)

