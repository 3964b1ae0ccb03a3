"""What one seat may see of a web game: the table from its chair, its moves, the log.

A view for a human seat holds only what that seat sees: the game's SVG drawn with
``viewer=seat`` (other hands as card backs), the legal moves when the seat decides
(labels of its own moves), and the log narrated to that seat
(``game.public_label``: deals into other hands are not told). Never the state, the
seed (which, with the step number, fixes every draw to come) or the record's raw
chance steps. Agent seats have no view; a game without people is watched from the
spectator's chair (everything shown).
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import GAMES

from .errors import FORBIDDEN, WebError, bad_request
from .session import PLAYING, GameSession


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
        view = summary(session)
        view.update(
            viewer=viewer, to_move=player, turn=int(state.turn),
            to_move_kind=None if player is None else
            "human" if player in session.humans else "agent",
            thinking=playing and session.thinking is not None and session.thinking == player,
            prompt=game.decision_description(state) if playing else _final_text(session),
            svg=game.render_svg(state, viewer), moves=_moves(session, viewer, player),
            log=_log(session, viewer), can_undo=playing and any(
                step[0] in session.humans for step in session.steps),
            error=session.error, result=_result(session))
        view["out_of_turn"] = player is not None and player >= 0 and player != view["turn"]
        if not playing:
            view["record_url"] = f"/api/games/{session.id}/record"
        view["seats_named"] = [_seat_name(spec.seats, s) for s in range(spec.num_players)]
        return view


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
    """The steps as ``viewer`` heard them (untold chance steps left out)."""
    rows = []
    for index, (step, note) in enumerate(zip(session.steps, session.notes, strict=True)):
        text = note.get(viewer)
        if text:
            who = "chance" if step[0] == CHANCE else \
                _seat_name(session.spec.seats, step[0])
            rows.append({"step": index, "player": step[0], "who": who, "text": text})
    return rows


def _seat_name(seats: tuple[str, ...], seat: int) -> str:
    return f"Player {seat} ({seats[seat]})"


def _result(session: GameSession) -> dict[str, Any] | None:
    """Scores and winners once the game is over (finished or abandoned)."""
    if session.status == PLAYING:
        return None
    game, state = session.game, session.state
    finished = game.is_terminal(state)
    return {"scores": [float(x) for x in game.scores(state)],
            "winners": [int(w) for w in game.winners(state)] if finished else [],
            "truncated": session.truncated}


def _final_text(session: GameSession) -> str:
    result = _result(session) or {}
    scores = ", ".join(f"P{i} {s:g}" for i, s in enumerate(result.get("scores", [])))
    if session.status != "finished":
        return f"The game was {session.status}; scores then: {scores}"
    winners = " and ".join(f"Player {w}" for w in result.get("winners", []))
    return f"Game over - final scores: {scores}" + (f" - won by {winners}" if winners else "")
