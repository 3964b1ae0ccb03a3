"""Argument checks at the public entry points of every engine and env (stdlib + numpy).

A bad argument gets an :class:`ArgumentError` (a ``FormosaError``, so a ``ValueError``)
that names the function, the argument, what is allowed and what was given::

    observe(): seat must be an integer in 0..2 (this flowers game has 3 seats), got 5

:func:`guard_entry_points` wraps a :class:`~formosa_envs.core.engine.Game` class's view
methods (``observe``, ``state_vector``, ``render``, ``render_svg``, ``determinize``,
``action_label``, ``public_label``) with these checks; ``Game.__init_subclass__`` calls it,
so every game, present or future, gets the same checks without writing them. Each
wrapper tests the common case first (a plain ``int`` in range, a state of the game's own
class), so the checks cost well under a microsecond per call.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from .errors import ArgumentError, CallOrderError

CHANCE_PLAYER = -1  # engine.CHANCE (engine imports this module, so it is repeated here)


def before_reset(where: str) -> CallOrderError:
    """The error for ``where()`` called on an env that has no game yet."""
    return CallOrderError(f"{where}() before reset(): there is no game yet; "
                          "call reset() (or reset(seed=...)) first")


def is_integer(value: Any) -> bool:
    """Whether ``value`` is a Python or numpy integer (``bool`` is not)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_seed(seed: Any, where: str = "reset") -> int | None:
    """``seed`` as an ``int`` (or None); raise :class:`ArgumentError` unless it is None or
    an integer >= 0 (numpy integers included, ``bool`` excluded)."""
    if seed is None:
        return None
    if not is_integer(seed) or seed < 0:
        raise ArgumentError(f"{where}(): seed must be None or an integer >= 0, got {seed!r}")
    return int(seed)


def check_seat(game: Any, seat: Any, where: str, name: str = "seat",
               allow_none: bool = False) -> None:
    """Raise :class:`ArgumentError` unless ``seat`` is a seat of ``game`` (or None when
    ``allow_none``)."""
    if seat is None and allow_none:
        return
    n = game.num_players
    if is_integer(seat) and 0 <= seat < n:
        return
    allowed = f"an integer in 0..{n - 1} (this {game.name} game has {n} seat" + \
        ("s)" if n != 1 else ")")
    if allow_none:
        allowed += " or None (no seat: every hidden item shown)"
    raise ArgumentError(f"{where}(): {name} must be {allowed}, got {seat!r}")


def check_state(game: Any, state: Any, where: str) -> None:
    """Raise :class:`ArgumentError` unless ``state`` is a state of ``game``: the game's
    state class and, where the state records it, the game's player count."""
    cls = getattr(game, "state_class", None)
    if cls is not None and not isinstance(state, cls):
        raise ArgumentError(f"{where}(): state must be a {cls.__name__} of this {game.name} "
                            f"game (new_initial_state() or from_json()), got "
                            f"{type(state).__name__}")
    players = getattr(state, "num_players", game.num_players)
    if players != game.num_players:
        raise ArgumentError(f"{where}(): state is a {players}-player {game.name} state, "
                            f"this game has {game.num_players} players")


def check_own_state(game: Any, state: Any, where: str) -> None:
    """:func:`check_state`, after its cheap common case (for the engine's hot paths)."""
    if state.__class__ is not getattr(game, "state_class", None) or \
            getattr(state, "num_players", game.num_players) != game.num_players:
        check_state(game, state, where)


def check_action(game: Any, state: Any, action: Any, where: str) -> None:
    """Raise :class:`ArgumentError` unless ``action`` can be labelled in ``state``: at a
    chance node one of its outcomes, elsewhere an id of the action space."""
    if not is_integer(action):
        raise ArgumentError(f"{where}(): action must be an integer, got {action!r}")
    if not game.is_terminal(state) and game.current_player(state) == CHANCE_PLAYER:
        outcomes = sorted(o for o, _ in game.chance_outcomes(state))
        if action not in outcomes:
            shown = ", ".join(map(str, outcomes[:12])) + (" ..." if len(outcomes) > 12 else "")
            raise ArgumentError(f"{where}(): action {action!r} is not an outcome of the "
                                f"pending chance event; its outcomes are {shown}")
        return
    if not 0 <= action < game.num_actions:
        raise ArgumentError(f"{where}(): action must be in 0..{game.num_actions - 1} (the "
                            f"{game.name} action space), got {action!r}")


def check_rng(rng: Any, where: str) -> None:
    """Raise :class:`ArgumentError` unless ``rng`` is a ``numpy.random.Generator``."""
    if not isinstance(rng, np.random.Generator):
        raise ArgumentError(f"{where}(): rng must be a numpy.random.Generator "
                            f"(numpy.random.default_rng(seed)), got {type(rng).__name__}")


def _fast_state(game: Any, state: Any) -> bool:
    """The common case of :func:`check_state`, cheaply."""
    return state.__class__ is getattr(game, "state_class", None) and \
        getattr(state, "num_players", game.num_players) == game.num_players


def _fast_seat(game: Any, seat: Any) -> bool:
    return seat.__class__ is int and 0 <= seat < game.num_players


# ----- wrappers, one per entry point -----------------------------------------------------
def _observe(inner: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(inner)
    def observe(self: Any, state: Any, seat: int) -> Any:
        if not (_fast_state(self, state) and _fast_seat(self, seat)):
            check_state(self, state, "observe")
            check_seat(self, seat, "observe")
            seat = int(seat)
        return inner(self, state, seat)
    return observe


def _observe_many(inner: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(inner)
    def observe_many(self: Any, states: Any, seat: int) -> Any:
        if isinstance(states, (str, bytes)) or not hasattr(states, "__len__"):
            raise ArgumentError(f"observe_many: states must be a sequence of {self.name} "
                                f"states, got {type(states).__name__}")
        states = list(states)
        for state in states:
            if not _fast_state(self, state):
                check_state(self, state, "observe_many")
        if not _fast_seat(self, seat):
            check_seat(self, seat, "observe_many")
            seat = int(seat)
        return inner(self, states, seat)
    return observe_many


def _state_vector(inner: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(inner)
    def state_vector(self: Any, state: Any) -> Any:
        if not _fast_state(self, state):
            check_state(self, state, "state_vector")
        return inner(self, state)
    return state_vector


def _viewed(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A wrapper for ``name(state, viewer=None)`` (render, render_svg)."""
    def wrap(inner: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(inner)
        def viewed(self: Any, state: Any, viewer: int | None = None) -> Any:
            check_state(self, state, name)
            check_seat(self, viewer, name, "viewer", allow_none=True)
            return inner(self, state, None if viewer is None else int(viewer))
        return viewed
    return wrap


def _determinize(inner: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(inner)
    def determinize(self: Any, state: Any, viewer: int, rng: np.random.Generator) -> Any:
        check_state(self, state, "determinize")
        check_seat(self, viewer, "determinize", "viewer")
        check_rng(rng, "determinize")
        return inner(self, state, int(viewer), rng)
    return determinize


def _action_label(inner: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(inner)
    def action_label(self: Any, state: Any, action: int) -> Any:
        if not (_fast_state(self, state) and action.__class__ is int
                and 0 <= action < self.num_actions
                and (self.is_terminal(state) or self.current_player(state) != CHANCE_PLAYER)):
            check_state(self, state, "action_label")
            check_action(self, state, action, "action_label")
            action = int(action)
        return inner(self, state, action)
    return action_label


def _public_label(inner: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(inner)
    def public_label(self: Any, state: Any, action: int, viewer: int | None) -> Any:
        check_state(self, state, "public_label")
        check_action(self, state, action, "public_label")
        check_seat(self, viewer, "public_label", "viewer", allow_none=True)
        return inner(self, state, int(action), None if viewer is None else int(viewer))
    return public_label


WRAPPERS: dict[str, Callable[[Callable[..., Any]], Callable[..., Any]]] = {
    "observe": _observe, "observe_many": _observe_many, "state_vector": _state_vector,
    "render": _viewed("render"),
    "render_svg": _viewed("render_svg"), "determinize": _determinize,
    "action_label": _action_label, "public_label": _public_label,
}
"""The checked entry points of a game and the wrapper that checks each."""


def guard_entry_points(cls: type) -> None:
    """Wrap the entry points ``cls`` itself defines (see :data:`WRAPPERS`) with their
    argument checks; inherited ones are already wrapped, abstract ones are left alone."""
    for name, wrapper in WRAPPERS.items():
        method = cls.__dict__.get(name)
        if (method is None or not callable(method) or getattr(method, "_checked", False)
                or getattr(method, "__isabstractmethod__", False)):
            continue
        checked = wrapper(method)
        checked._checked = True  # type: ignore[attr-defined]
        setattr(cls, name, checked)


__all__ = ["ArgumentError", "CallOrderError", "before_reset", "check_action", "check_rng",
           "check_own_state", "check_seat", "check_seed", "check_state", "guard_entry_points",
           "is_integer"]
