"""The 14 historical events (DDC-11): which can be executed, and what they do.

Automatic cards (1853, 1884, 1895, 1920) act through the rules that check
:func:`current_event`; the others are executed once per turn with ``EVENT``.
Decision kinds: ``convert`` (1905), ``exchange_more`` (1908's second exchange).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from formosa_envs.core.decisions import Decision, FunctionHandler
from formosa_envs.core.engine import AUTO
from formosa_envs.core.payment import start_payment

from . import actions as A
from .content import GREEN, MANSION, RED, WHITE
from .shop import G_1908, P_1860, P_1898, can_pay, roll
from .state import USED_EVENT, DadaochengState

if TYPE_CHECKING:
    from .game import DadaochengGame


def current_event(game: DadaochengGame, s: DadaochengState) -> str | None:
    """Key of this round's event (None in the solo game)."""
    if len(s.events) < s.round:
        return None
    return game.events[s.events[s.round - 1]].key


def event_available(game: DadaochengGame, s: DadaochengState, p: int) -> bool:
    """Whether ``p`` may execute this round's event now (once per turn, DDC-8.7)."""
    key = current_event(game, s)
    if key is None or s.used[USED_EVENT]:
        return False
    check = EVENT_CHECKS.get(key)
    return check is not None and bool(check(game, s, p))


EVENT_CHECKS: dict[str, Any] = {
    "e1851": lambda game, s, p: True, "e1859": lambda game, s, p: True,
    "e1865": lambda game, s, p: True, "e1878": lambda game, s, p: True,
    "e1891": lambda game, s, p: True,
    "e1860": lambda game, s, p: can_pay(game, s, p, (2, 0, 0, 0)),
    "e1898": lambda game, s, p: s.opium[p] >= 1 and can_pay(game, s, p, (0, 1, 0, 0)),
    "e1905": lambda game, s, p: bool(_convertible(s, p)),
    "e1908": lambda game, s, p: sum(s.hand[p]) >= 1,
    "e1915": lambda game, s, p: s.opium[p] >= 1,
}
"""The events a player may execute in Stage 4 and when (DDC-8.7): (game, state, seat)."""


def execute_event(game: DadaochengGame, s: DadaochengState, p: int) -> None:
    """Carry out this round's event for ``p`` (DDC-11.3-11.14)."""
    key = current_event(game, s)
    s.used[USED_EVENT] = 1
    s.last_event = f"player {p} executes event {key[1:]}"
    if key == "e1851":
        s.stack.append(Decision("take", p, 2, ctx=(-1,)))
    elif key in ("e1859", "e1878"):
        roll(s, 2 if key == "e1859" else 3)
    elif key in ("e1865", "e1891"):
        s.hand[p][GREEN if key == "e1865" else WHITE] += 1
    elif key == "e1860":
        start_payment(game.payment, s, p, P_1860, (RED, RED))
    elif key == "e1898":
        start_payment(game.payment, s, p, P_1898, (WHITE,))
    elif key == "e1905":
        s.stack.append(Decision("convert", p, count=2))
    elif key == "e1908":
        s.stack.append(Decision("give", p, 1, ctx=(G_1908, -1)))
    elif key == "e1915":
        s.opium[p] = max(0, s.opium[p] - 2)


def after_event_payment(game: DadaochengGame, s: DadaochengState, p: int,
                        purpose: int) -> None:
    """1860: three cubes of any colours; 1898: the opium track falls by 2 (R-28)."""
    if purpose == P_1860:
        s.stack.append(Decision("take", p, 3, ctx=(-1,)))
    elif purpose == P_1898:
        s.opium[p] = max(0, s.opium[p] - 2)


def _convertible(s: DadaochengState, p: int) -> list[int]:
    if s.piles[MANSION] <= 0:
        return []
    return [t for t in range(1, 5) if s.buildings[p][t] > 0]


def _convert_legal(game: DadaochengGame, s: DadaochengState, d: Decision) -> list[int]:
    kinds = [A.BUILDING0 + t for t in _convertible(s, d.player)]
    return kinds + [A.DONE] if kinds and d.count < 2 else kinds


def _convert_apply(game: DadaochengGame, s: DadaochengState, d: Decision, action: int) -> None:
    """One building back to its pile, a Mansion from the pile (1905, R-29)."""
    if action == A.DONE:
        return
    kind, p = action - A.BUILDING0, d.player
    s.buildings[p][kind] -= 1
    s.piles[kind] += 1
    s.buildings[p][MANSION] += 1
    s.piles[MANSION] -= 1
    if d.count > 1:
        s.stack.append(Decision("convert_check", AUTO, ctx=(p,)))


def _convert_check_apply(game: DadaochengGame, s: DadaochengState, d: Decision,
                         _action: int) -> None:
    if _convertible(s, d.ctx[0]):
        s.stack.append(Decision("convert", d.ctx[0], count=1))


def _more_legal(game: DadaochengGame, s: DadaochengState, d: Decision) -> list[int]:
    return [A.DONE] + [A.COLOUR0 + c for c in range(5) if s.hand[d.player][c]]


def _more_apply(game: DadaochengGame, s: DadaochengState, d: Decision, action: int) -> None:
    """1908's optional second exchange: give one cube, take one of another colour."""
    if action == A.DONE:
        return
    colour = action - A.COLOUR0
    s.hand[d.player][colour] -= 1
    s.stack.append(Decision("take", d.player, 1, ctx=(colour,)))


HANDLERS = {
    "convert": FunctionHandler("converting a building into a Mansion", _convert_apply,
                               _convert_legal),
    "convert_check": FunctionHandler("offering a second conversion", _convert_check_apply),
    "exchange_more": FunctionHandler("deciding on a second exchange", _more_apply, _more_legal),
}
