"""Dadaocheng phase flow: setup, turns and rounds, event reveals, the end of the game.

Chance kinds: ``ship_reveal``, ``start_player``, ``event_draw``. Automatic:
``next_turn``. Rule ids refer to ``seeds/dadaocheng.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision, FunctionHandler
from formosa_envs.core.engine import AUTO, CHANCE

from .cascade import push_layout, start_planning
from .state import ROUNDS, USED_SIZE, DadaochengState, Phase

if TYPE_CHECKING:
    from .game import DadaochengGame


def setup_step(game: DadaochengGame, s: DadaochengState) -> None:
    """Setup (DDC-2): discs, ship piles, start player, the 1851 event; then turn 1."""
    step = s.setup_step
    s.setup_step += 1
    if step == 0:
        push_layout(s)
    elif step == 1:
        for level in reversed(range(3)):
            s.stack.append(Decision("ship_reveal", CHANCE, ctx=(level,)))
        if s.num_players > 1:
            s.stack.append(Decision("start_player", CHANCE))
    else:
        if s.num_players > 1:
            first = game.event_index["e1851"]
            s.events.append(first)
            s.event_pool.remove(first)
        s.phase = Phase.TURNS
        start_turn(s, s.start_player)


def start_turn(s: DadaochengState, p: int) -> None:
    """Planning, the cascade, Full House for everyone, then purchases (DDC-3.3)."""
    s.turn = p
    s.used = [0] * USED_SIZE
    s.stack.append(Decision("stage4", AUTO))
    s.stack.append(Decision("full_house_check", AUTO, ctx=(0,)))
    start_planning(s, p)


def _next_turn_apply(game: DadaochengGame, s: DadaochengState, d: Decision,
                     _action: int) -> None:
    """The next seat, or the end of the round: the next event, or the end (DDC-12)."""
    n = s.num_players
    nxt = (s.turn + 1) % n
    if nxt != s.start_player:
        start_turn(s, nxt)
        return
    if s.round >= ROUNDS[n]:
        s.over = True
        s.last_event = "the game is over"
        return
    s.round += 1
    s.stack.append(Decision("start_round", AUTO))
    if n > 1 and s.event_pool:
        if game.config.chronological_events:
            s.events.append(min(s.event_pool))
            s.event_pool.remove(s.events[-1])
        else:
            s.stack.append(Decision("event_draw", CHANCE))


def _start_round_apply(game: DadaochengGame, s: DadaochengState, d: Decision,
                       _action: int) -> None:
    start_turn(s, s.start_player)


def _ship_outcomes(game: DadaochengGame, s: DadaochengState,
                   d: Decision) -> list[tuple[int, float]]:
    pool = s.ship_pool[d.ctx[0]]
    return [(ship, 1 / len(pool)) for ship in pool]


def _ship_apply(game: DadaochengGame, s: DadaochengState, d: Decision, ship: int) -> None:
    level = d.ctx[0]
    s.ship_pool[level].remove(ship)
    s.ship_up[level] = ship
    s.revealed[level] += 1


def _start_outcomes(game: DadaochengGame, s: DadaochengState,
                    d: Decision) -> list[tuple[int, float]]:
    return [(p, 1 / s.num_players) for p in range(s.num_players)]


def _start_apply(game: DadaochengGame, s: DadaochengState, d: Decision, seat: int) -> None:
    s.start_player = s.turn = seat


def _event_outcomes(game: DadaochengGame, s: DadaochengState,
                    d: Decision) -> list[tuple[int, float]]:
    return [(e, 1 / len(s.event_pool)) for e in s.event_pool]


def _event_apply(game: DadaochengGame, s: DadaochengState, d: Decision, event: int) -> None:
    s.event_pool.remove(event)
    s.events.append(event)
    s.last_event = f"event {game.events[event].year}: {game.events[event].name}"


HANDLERS = {
    "next_turn": FunctionHandler("passing the turn on", _next_turn_apply),
    "start_round": FunctionHandler("starting a round", _start_round_apply),
    "ship_reveal": FunctionHandler("revealing a ship", _ship_apply, outcomes=_ship_outcomes),
    "start_player": FunctionHandler("choosing the start player", _start_apply,
                                    outcomes=_start_outcomes),
    "event_draw": FunctionHandler("revealing a historical event", _event_apply,
                                  outcomes=_event_outcomes),
}
