"""The safety net behind loading a saved state: its pending decision must be playable.

After a loaded state has passed its schema (``core/schema.py``) and its game's
conservation laws, :func:`check_playable` evaluates the pending decision the way a
player or the env would: the legal actions (or chance outcomes) must be computable
and non-empty, and every legal action (every chance outcome, or an evenly spread
sample of at most :data:`CHANCE_SAMPLE` of them) must apply cleanly to a clone of
the state (and the automatic effects after it). Whatever goes wrong
there is reported as ``StateFormatError("saved state's pending decision <kind> cannot
be played: ...")`` instead of surfacing later, deep inside the rules, as an
``IndexError`` or a ``ValueError``.

It runs on load only (``Game.validate_state``, hence ``from_json``), not in
``check_invariants``: applying every legal action costs far more than one step
(about 30-300 us a load, see the tests). The children are not checked whole again
(that would cost ten times more): the state they come from has just been.
"""

from __future__ import annotations

import math
from typing import Any

from .errors import StateFormatError
from .schema_frames import CHANCE

CHANCE_SAMPLE = 8
"""Chance outcomes tried at most (first, last and evenly spread between)."""
ACTION_SAMPLE = 256
"""Player actions tried at most (real decisions offer far fewer)."""
LOOKAHEAD = 4
"""Steps played ahead of a loaded state along two paths (always the first, always the
last legal action or chance outcome), each step's state checked whole
(``check_invariants``): a stack that breaks the turn order a few decisions later (a
duplicated decision, a compound turn handed to the wrong seat) is refused on load."""
_TOLERANCE = 1e-6


def check_playable(game: Any, state: Any) -> None:
    """Raise ``StateFormatError`` unless ``state``'s pending decision can be played."""
    if game.is_terminal(state):
        return
    kind = _kind(state)
    try:
        player = game.current_player(state)
        if player == CHANCE:
            actions = _outcomes(game, state)
        elif type(player) is int and 0 <= player < game.num_players:
            actions = _actions(game, state)
        else:
            raise StateFormatError(f"the deciding player is {player!r}, neither a seat nor "
                                   "chance (an automatic frame is never left on top)")
        for action in actions:
            _try(game, state, action)
        for pick in (0, -1):
            _look_ahead(game, state, pick)
    except StateFormatError as exc:
        raise StateFormatError(f"saved state's pending decision {kind} cannot be played: "
                               f"{exc}") from None
    except Exception as exc:  # noqa: BLE001 - any crash here means the save is broken
        raise StateFormatError(f"saved state's pending decision {kind} cannot be played: "
                               f"{type(exc).__name__}: {exc}") from None


def _kind(state: Any) -> str:
    stack = getattr(state, "stack", None)
    if stack:
        return f"{stack[-1].kind!r} (field 'stack[{len(stack) - 1}]')"
    return "(none)"


def _outcomes(game: Any, state: Any) -> list[int]:
    outcomes = game.chance_outcomes(state)
    if not outcomes:
        raise StateFormatError("no chance outcome is possible")
    total = 0.0
    for outcome, p in outcomes:
        if type(outcome) is not int or not (isinstance(p, float) and math.isfinite(p)
                                            and p > 0):
            raise StateFormatError(f"chance outcome {outcome!r} has probability {p!r}")
        total += p
    if abs(total - 1.0) > _TOLERANCE:
        raise StateFormatError(f"chance probabilities sum to {total}, not 1")
    return _spread([o for o, _ in outcomes], CHANCE_SAMPLE)


def _actions(game: Any, state: Any) -> list[int]:
    legal = game.legal_actions(state)
    if not legal:
        raise StateFormatError("no action is legal")
    bad = [a for a in legal if type(a) is not int or not 0 <= a < game.num_actions]
    if bad:
        raise StateFormatError(f"legal actions {bad[:5]} are outside the action space "
                               f"0..{game.num_actions - 1}")
    return _spread(legal, ACTION_SAMPLE)


def _spread(items: list[int], most: int) -> list[int]:
    """``items`` if few, else ``most`` of them spread evenly (first and last included)."""
    if len(items) <= most:
        return items
    step = (len(items) - 1) / (most - 1)
    return [items[round(i * step)] for i in range(most)]


def _try(game: Any, state: Any, action: int) -> None:
    child = game.clone(state)
    try:
        game.apply_legal_action(child, action)
    except Exception as exc:  # noqa: BLE001 - reported with the action that failed
        raise StateFormatError(f"{_what(game, state, action)} fails: "
                               f"{type(exc).__name__}: {exc}") from None


def _look_ahead(game: Any, state: Any, pick: int) -> None:
    """Play :data:`LOOKAHEAD` steps from a clone, always choosing entry ``pick`` of the
    legal actions (or chance outcomes), checking every state reached whole."""
    child = game.clone(state)
    for step in range(1, LOOKAHEAD + 1):
        if game.is_terminal(child):
            return
        legal = game.legal_actions(child)
        if not legal:
            raise StateFormatError(f"{step} step(s) ahead no action is legal")
        game.apply_legal_action(child, legal[pick])
        try:
            game.check_invariants(child)
        except StateFormatError as exc:
            raise StateFormatError(f"{step} step(s) ahead (always taking the "
                                   f"{'first' if pick == 0 else 'last'} option) the game "
                                   f"reaches an impossible state: {exc}") from None


def _what(game: Any, state: Any, action: int) -> str:
    if game.current_player(state) == CHANCE:
        return f"chance outcome {action}"
    try:
        return f"action {action} ({game.action_label(state, action)})"
    except Exception:  # noqa: BLE001 - the label itself may be what is broken
        return f"action {action}"
