"""The 11 historical events (TEA-12): immediate parts and game-end parts.

Each player resolves the round's event in turn order from the start player
(``event_turn`` frames); choices are ``event_discard`` (an oolong cube or DONE)
and ``event_1868`` (the oolong Master or the oolong technology).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision, FunctionHandler
from formosa_envs.core.engine import AUTO

from . import actions as A
from . import effects as E
from . import scoring
from .state import SCENTED, TeaState

if TYPE_CHECKING:
    from .game import TeaGame

OOLONG, BLACK, GREEN = 0, 1, 2
DISCARD_VP = {"e1865": 0, "e1867": 2, "e1869": 6}


def start_event(game: TeaGame, s: TeaState) -> None:
    """Queue this round's event for every player, then its end-of-round part."""
    s.stack.append(Decision("event_end", AUTO))
    s.stack.append(Decision("event_turn", AUTO, ctx=(0,)))


def current_event(game: TeaGame, s: TeaState) -> str:
    """Key of the event resolved this round."""
    return game.events[s.events[s.round - 1]].key


def _event_turn_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    k = d.ctx[0]
    if k >= s.num_players:
        return
    s.stack.append(Decision("event_turn", AUTO, ctx=(k + 1,)))
    p = (s.start_player + k) % s.num_players
    key = current_event(game, s)
    if key in DISCARD_VP:
        E.ask(game, s, Decision("event_discard", p, ctx=(DISCARD_VP[key],)))
    elif key == "e1868":
        E.ask(game, s, Decision("event_1868", p))
    elif key == "e1874":
        _scented_twice(game, s, p)
    elif key == "e1903":
        E.ask(game, s, Decision("tech_any", p, ctx=(1,)))
    elif key == "e1916":
        E.ask(game, s, Decision("tech_any", p))


def _scented_twice(game: TeaGame, s: TeaState, p: int) -> None:
    """1874: the scented Master moves 1 space and its effect is executed twice."""
    pos = s.master_pos[p][SCENTED]
    if 0 <= pos < game.last[SCENTED]:
        s.master_pos[p][SCENTED] = pos + 1
        effect = game.effect_at(SCENTED, pos + 1)
        s.stack.append(Decision("event_effect", AUTO, ctx=(p, effect)))
        E.push_effect(game, s, p, SCENTED, effect)


def _event_effect_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    E.push_effect(game, s, d.ctx[0], SCENTED, d.ctx[1])


def _discard_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    cubes = [A.CUBE0 + q for q in range(3) if s.warehouse[d.player][q]]
    return [A.DONE, *cubes] if cubes else []


def _discard_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    """An optional trade: an oolong cube for VP and an oolong advance (R-26)."""
    if action == A.DONE:
        return
    s.warehouse[d.player][action - A.CUBE0] -= 1
    s.bag[OOLONG] += 1
    s.vp[d.player] += d.ctx[0]
    E.push_tech(s, d.player, OOLONG)


def _1868_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    legal = []
    if 0 <= s.master_pos[d.player][OOLONG] < game.last[OOLONG]:
        legal.append(A.TRACK0 + OOLONG)
    if s.tech[d.player][OOLONG] < game.tech_top[OOLONG]:
        legal.append(A.TECH0 + OOLONG)
    return legal


def _1868_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    if action == A.TECH0 + OOLONG:
        E.push_tech(s, d.player, OOLONG)
    else:
        E.push_move(s, d.player, OOLONG, 1, arai=False)


def _event_end_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    """1936 / 1964 score at the end of their own round (R-26)."""
    key = current_event(game, s)
    if key in ("e1936", "e1964"):
        tea = BLACK if key == "e1936" else GREEN
        counts = [sum(1 for c in s.kept[p] if game.merchants[c].demand[tea] > 0)
                  for p in range(s.num_players)]
        for p, vp in enumerate(scoring.rank_awards(counts, 5, 0)):
            s.vp[p] += vp


def end_game_vp(game: TeaGame, s: TeaState) -> list[int]:
    """The game-end parts of the events in play (TEA-14.5)."""
    n = s.num_players
    total = [0] * n
    keys = {game.events[e].key for e in s.events}
    awards = []
    if "e1889" in keys:
        awards.append(scoring.rank_awards([len(k) for k in s.kept], 10, 5))
    if "e1916" in keys:
        awards.append(scoring.rank_awards([t[OOLONG] for t in s.tech], 6, 3))
    if "e1925" in keys:
        awards.append(scoring.rank_awards([t[BLACK] for t in s.tech], 6, 3))
    if "e1903" in keys:
        awards.append([scoring.tech_research_vp(s.tech[p]) for p in range(n)])
    for row in awards:
        total = [a + b for a, b in zip(total, row, strict=True)]
    return total


HANDLERS = {
    "event_turn": FunctionHandler("resolving the historical event", _event_turn_apply),
    "event_end": FunctionHandler("ending the historical event", _event_end_apply),
    "event_effect": FunctionHandler("repeating the scented effect", _event_effect_apply),
    "event_discard": FunctionHandler("choosing whether to discard an oolong cube",
                                     _discard_apply, _discard_legal),
    "event_1868": FunctionHandler("advancing the oolong Master or oolong technology",
                                  _1868_apply, _1868_legal),
}
