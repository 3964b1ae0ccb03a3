"""Mid-game laws tying Formosa Tea's pending frames to the state (``check_conservation``).

A frame's own rules (``schema.py``) bound each ``ctx`` position; these laws say what
the rest of the state makes true of frames the flow pushed during a turn, so that a
save whose frames disagree with the table is refused on load rather than played into
an impossible state:

- ``resume`` and ``turn`` belong to the turn player, who has not passed;
- a ``row_advance`` carries the row's worker count (its harvest's steps), and an
  ``advance_mode`` sits on the ``row_advance`` that asked it: the same row and steps,
  decided by the seat that ``row_advance`` reached;
- a ``take`` sits on the ``wu`` frame of its harvest: the same seat and space;
- a ``scent_cube`` belongs to the player whose ``scent_after`` lies under it, and
  ``scent_after`` to the turn player;
- after setup, a ``draw_cube`` is a plantation draw (Basket draws are setup's);
- a scented batch has a tea exactly when it holds cubes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from formosa_envs.core.invariants import require

from .flow import PLANT
from .state import Phase, TeaState, workers_in_row

if TYPE_CHECKING:
    from .game import TeaGame


def check_stack_laws(game: TeaGame, s: TeaState) -> None:
    """Raise ``StateFormatError`` naming the first frame that disagrees with the state."""
    for p in range(game.num_players):
        require((s.scent[p][0] >= 0) == (s.scent[p][1] > 0), f"scent[{p}]",
                f"has tea {s.scent[p][0]} with {s.scent[p][1]} cubes: a scented batch "
                "has a tea exactly when it holds cubes")
    for i, d in enumerate(s.stack):
        law = _LAWS.get(d.kind)
        if law is not None:
            law(game, s, i, f"stack[{i}]")


def _below(s: TeaState, i: int) -> Any:
    return s.stack[i - 1] if i > 0 else None


def _turn_player(s: TeaState, seat: int, path: str, kind: str) -> None:
    require(seat == s.turn and not s.passed[s.turn], path,
            f"is a {kind!r} frame of seat {seat}, but the turn player is {s.turn}"
            f"{' (passed)' if s.passed[s.turn] else ''}: it belongs to the turn player, "
            "who has not passed")


def _resume(game: TeaGame, s: TeaState, i: int, path: str) -> None:
    _turn_player(s, s.stack[i].ctx[0], f"{path}.ctx[0]", "resume")


def _turn(game: TeaGame, s: TeaState, i: int, path: str) -> None:
    _turn_player(s, s.stack[i].player, f"{path}.player", "turn")


def _scent_after(game: TeaGame, s: TeaState, i: int, path: str) -> None:
    _turn_player(s, s.stack[i].ctx[0], f"{path}.ctx[0]", "scent_after")


def _row_advance(game: TeaGame, s: TeaState, i: int, path: str) -> None:
    row, steps, _k = s.stack[i].ctx
    have = workers_in_row(s, row)
    require(steps == have, f"{path}.ctx[1]",
            f"(the steps of row {row}'s harvest) must be the {have} workers standing "
            f"on that row, got {steps}")


def _advance_mode(game: TeaGame, s: TeaState, i: int, path: str) -> None:
    d, under = s.stack[i], _below(s, i)
    require(under is not None and under.kind == "row_advance", path,
            "is an 'advance_mode' frame that no 'row_advance' asked (it sits right above "
            "the row_advance of its harvest)")
    row, steps, k = under.ctx
    require(d.ctx == (row, steps), f"{path}.ctx",
            f"must be the row and steps {[row, steps]} of the row_advance under it, "
            f"got {list(d.ctx)}")
    seat = (s.turn + k - 1) % game.num_players
    require(d.player == seat, f"{path}.player",
            f"must be seat {seat}, the player that row_advance reached, got {d.player}")


def _scent_cube(game: TeaGame, s: TeaState, i: int, path: str) -> None:
    d, under = s.stack[i], _below(s, i)
    require(under is not None and under.kind == "scent_after" and under.ctx[0] == d.player,
            f"{path}.player", "must be the seat of the 'scent_after' frame right under it "
                              f"(the player scenting), got {d.player}")


def _draw_cube(game: TeaGame, s: TeaState, i: int, path: str) -> None:
    if s.phase != Phase.SETUP:
        require(s.stack[i].ctx[0] == PLANT, f"{path}.ctx[0]",
                f"must be {PLANT} (a plantation draw) after setup: Basket draws are "
                f"setup's, got {s.stack[i].ctx[0]}")


def _take(game: TeaGame, s: TeaState, i: int, path: str) -> None:
    d, under = s.stack[i], _below(s, i)
    require(under is not None and under.kind == "wu", path,
            "is a 'take' frame without the 'wu' frame of its harvest right under it")
    require(d.ctx[0] == under.ctx[1], f"{path}.ctx[0]",
            f"must be space {under.ctx[1]}, the space harvested (the 'wu' frame under it), "
            f"got {d.ctx[0]}")
    require(d.player == under.ctx[0], f"{path}.player",
            f"must be seat {under.ctx[0]}, the harvester (the 'wu' frame under it), "
            f"got {d.player}")


_LAWS = {"resume": _resume, "take": _take, "turn": _turn, "scent_after": _scent_after,
         "row_advance": _row_advance, "advance_mode": _advance_mode,
         "scent_cube": _scent_cube, "draw_cube": _draw_cube}
