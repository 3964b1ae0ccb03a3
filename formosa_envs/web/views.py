"""What one seat may see of a web game: the table from its chair, its moves, the log.

A view for a human seat holds only what that seat sees: the game's SVG drawn with
``viewer=seat`` (other hands as card backs), the legal moves when the seat decides
(labels of its own moves), and the log narrated to that seat
(``game.public_label``: deals into other hands are not told). Never the state, the
seed (which, with the step number, fixes every draw to come) or the record's raw
chance steps. Agent seats have no view; a game without people is watched from the
spectator's chair (everything shown).

The question asked is the terminal's (``decision_prompt``), the log is told as the
terminal tells it (:mod:`.log`). Once the game is over nothing is secret any more (the
record, every draw included, is handed out): the final view shows every hand, the
final scores with their breakdown (:mod:`.final`), and links to the record and to the
replay page (:func:`replay_page`).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from formosa_envs.games import GAMES
from formosa_envs.tools.narrate import decision_prompt, wording_of

from .errors import CONFLICT, FORBIDDEN, WebError, bad_request
from .final import breakdown
from .log import narrated_log, seat_name
from .session import PLAYING, GameSession

LOG_CACHE_SIZE = 64
_logs: OrderedDict[tuple[str, int, int, int | None], list[dict[str, Any]]] = OrderedDict()
"""Told logs by (game id, version, steps, viewer): polls replay nothing."""


def resolve_viewer(session: GameSession, seat: int | None) -> int | None:
    """The seat to draw for: ``seat`` if it is a person's, else the natural default.

    The default is the deciding human seat, else the person who moved last, else the
    first human seat; ``None`` (the spectator) when no seat is a person's.
    """
    n = session.spec.num_players
    if seat is not None:
        if not 0 <= seat < n:
            raise bad_request(f"seat must be 0-{n - 1}, got {seat}")
        if seat not in session.humans:
            raise WebError(FORBIDDEN, f"seat {seat} is played by {session.spec.seats[seat]}; "
                                      "only a person's seat has a view")
        return seat
    if not session.humans:
        return None
    player = session.game.current_player(session.state)
    if player in session.humans and session.status == PLAYING:
        return player
    movers = [step[0] for step in session.steps if step[0] in session.humans]
    return movers[-1] if movers else session.humans[0]


def game_view(session: GameSession, seat: int | None = None) -> dict[str, Any]:
    """The view of ``seat`` (see :func:`resolve_viewer`), as a JSON-ready dict."""
    with session.lock:
        viewer = resolve_viewer(session, seat)
        game, state, spec = session.game, session.state, session.spec
        playing = session.status == PLAYING
        player = game.current_player(state) if playing else None
        turn = _whose_turn(game, state) if playing else None
        shown = viewer if playing else None  # the game is over: nothing is secret now
        view = summary(session)
        view.update(
            viewer=viewer, to_move=player, turn=turn,
            to_move_kind=None if player is None else
            "human" if player in session.humans else "agent",
            thinking=playing and session.thinking is not None and session.thinking == player,
            prompt=decision_prompt(game, state) if playing else _final_text(session),
            svg=game.render_svg(state, shown), moves=_moves(session, viewer, player),
            log=_log(session, shown), can_undo=playing and any(
                step[0] in session.humans for step in session.steps),
            error=session.error, result=_result(session))
        view["out_of_turn"] = player is not None and turn is not None and player != turn
        if not playing:
            view["record_url"] = f"/api/games/{session.id}/record"
            view["replay_url"] = f"/api/games/{session.id}/replay"
        view["seats_named"] = [seat_name(spec.seats, s) for s in range(spec.num_players)]
        return view


def _whose_turn(game: Any, state: Any) -> int | None:
    """The seat whose turn it is (None outside turns: setup, a preparation phase)."""
    words = wording_of(game)
    if words is None:
        return int(state.turn) if hasattr(state, "turn") else None
    turn = words.whose_turn(game, state)
    return None if turn is None else int(turn)


def summary(session: GameSession) -> dict[str, Any]:
    """The public facts of a game (for the games list): no state, no seed."""
    spec = session.spec
    return {"id": session.id, "game": spec.game, "title": GAMES[spec.game].title,
            "num_players": spec.num_players, "options": dict(spec.options),
            "seats": list(spec.seats), "humans": list(session.humans),
            "status": session.status, "version": session.version,
            "moves_made": len(session.steps), "created": session.created}


def _moves(session: GameSession, viewer: int | None, player: int | None) -> list[dict]:
    """The deciding person's legal moves with their labels (only in that seat's view)."""
    if player is None or player != viewer or player not in session.humans:
        return []
    game, state = session.game, session.state
    return [{"action": int(a), "label": game.action_label(state, a)}
            for a in game.legal_actions(state)]


def _log(session: GameSession, viewer: int | None) -> list[dict[str, Any]]:
    """The steps as ``viewer`` heard them, told as the terminal tells them (cached per
    game version and viewer: a poll while an agent thinks replays nothing)."""
    key = (session.id, session.version, len(session.steps), viewer)
    rows = _logs.get(key)
    if rows is None:
        rows = narrated_log(session.game, session.steps, viewer, session.spec.seats)
        _logs[key] = rows
        while len(_logs) > LOG_CACHE_SIZE:
            _logs.popitem(last=False)
    _logs.move_to_end(key)
    return [dict(row) for row in rows]


def _result(session: GameSession) -> dict[str, Any] | None:
    """Scores and winners once the game is over (finished or abandoned)."""
    if session.status == PLAYING:
        return None
    game, state = session.game, session.state
    finished = game.is_terminal(state)
    return {"scores": [float(x) for x in game.scores(state)],
            "winners": [int(w) for w in game.winners(state)] if finished else [],
            "truncated": session.truncated, "breakdown": breakdown(game, state)}


def _final_text(session: GameSession) -> str:
    result = _result(session) or {}
    scores = ", ".join(f"P{i} {s:g}" for i, s in enumerate(result.get("scores", [])))
    if session.status != "finished":
        return f"The game was {session.status}; scores then: {scores}"
    winners = " and ".join(f"Player {w}" for w in result.get("winners", []))
    return f"Game over - final scores: {scores}" + (f" - won by {winners}" if winners else "")


def replay_page(session: GameSession) -> str:
    """The replay page (``formosa replay``'s self-contained HTML) of a game that is over;
    a 409 while it runs (the record holds every draw to come)."""
    from formosa_envs.tools.replay import replay_html
    with session.lock:
        if session.status == PLAYING:
            raise WebError(CONFLICT, "the replay shows every card drawn; it is given once "
                                     "the game is finished or abandoned")
        record = session.record()
    title = f"{GAMES[session.spec.game].title} - game {session.id} - replay"
    return replay_html(record, None, title)


async def replay_endpoint(request: Any) -> Any:
    """``GET /api/games/{id}/replay``: the replay page of a game that is over (HTML)."""
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import HTMLResponse
    session = request.app.state.store.get(request.path_params["game_id"])
    page = await run_in_threadpool(replay_page, session)
    return HTMLResponse(page, headers={"Cache-Control": "no-store",
                                       "Content-Security-Policy": REPLAY_POLICY})


REPLAY_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                 "img-src data:; frame-ancestors 'none'; sandbox allow-scripts")
"""The replay page is one self-contained file (its script and style inline), so it gets a
policy of its own: inline code only, nothing fetched, and a sandbox (an origin of its own)
so that its script could not call this server's API even if a label smuggled markup in."""
