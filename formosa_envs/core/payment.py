"""Paying a cost one unit at a time, where the rules allow alternative sources.

Euro games let a player pay one unit of a cost from several places: a coin
from the purse or a resource through a factory's substitution, a worker from
the hand or from a building's stock, a resource from the hand or from a
warehouse. The engine must never choose for the player, and must never let a
player start a payment it cannot finish. This module gives every game one
mechanism for that:

* a cost is a tuple of *unit* codes (the game's own ints: "a coin", "a wood",
  "a worker", ...), paid in order;
* the game describes its sources through a :class:`PaymentModel`: which
  sources may pay a unit, whether a source can pay one more, how to take
  one, and what happens once everything is paid;
* :func:`feasible` checks (by a small exact search over the units) that a
  whole cost can be paid; :func:`legal_sources` offers only the sources that
  keep the rest of the cost payable, so a payment can never get stuck;
* :class:`PayHandler` is the decision handler: it pays forced units
  automatically and asks the player whenever a unit has two or more sources.

The pending payment lives in a ``Decision("pay", player, ctx=...)`` built by
:func:`pay_decision`: it records the purpose, the legal sources of the next
unit (computed once, when the decision is pushed; nothing changes while it
waits) and the units left. Read it back with :func:`pay_purpose`,
:func:`pay_options` and :func:`pay_units`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .decisions import Decision, Handler


class PaymentModel(Protocol):
    """What a game tells the payment mechanism about its sources."""

    def sources(self, state: Any, player: int, unit: int) -> Sequence[int]:
        """Source codes that may pay one ``unit`` (in a stable order)."""

    def can_take(self, state: Any, player: int, source: int, used: Mapping[int, int]) -> bool:
        """Whether ``source`` can pay one more unit, given the units ``used`` so far.

        ``used`` counts units tentatively taken from each source; sources that
        draw on the same items (wood in hand and a sawmill paying wood as a
        coin) must account for each other.
        """

    def take(self, state: Any, player: int, unit: int, source: int) -> None:
        """Pay one ``unit`` from ``source`` (remove the item, mark a once-per-round use)."""

    def finish(self, state: Any, player: int, purpose: int) -> None:
        """Everything is paid: carry out ``purpose`` (place the card, gain the item...)."""


def feasible(model: PaymentModel, state: Any, player: int, units: Sequence[int],
             used: dict[int, int] | None = None) -> bool:
    """Whether ``units`` can all be paid from the current sources.

    A model may define ``fast_feasible(state, player, units, used)`` returning
    True/False (or None to fall back to the exact search below); it must agree
    with the search, which a game's tests should check.
    """
    fast = getattr(model, "fast_feasible", None)
    if fast is not None:
        answer = fast(state, player, units, used or {})
        if answer is not None:
            return bool(answer)
    return search_feasible(model, state, player, units, used)


def search_feasible(model: PaymentModel, state: Any, player: int, units: Sequence[int],
                    used: dict[int, int] | None = None) -> bool:
    """The exact feasibility search (one source per unit, backtracking)."""
    used = dict(used or {})
    return _assign(model, state, player, sorted(units, key=lambda u: len(
        model.sources(state, player, u))), 0, used)


def _assign(model: PaymentModel, state: Any, player: int, units: list[int], i: int,
            used: dict[int, int]) -> bool:
    if i == len(units):
        return True
    for source in model.sources(state, player, units[i]):
        if model.can_take(state, player, source, used):
            used[source] = used.get(source, 0) + 1
            if _assign(model, state, player, units, i + 1, used):
                return True
            used[source] -= 1
    return False


def legal_sources(model: PaymentModel, state: Any, player: int,
                  units: Sequence[int]) -> list[int]:
    """Sources for ``units[0]`` after which the rest of ``units`` stays payable.

    A model may provide its own exact ``legal_sources(state, player, units)``.
    """
    fast = getattr(model, "legal_sources", None)
    if fast is not None:
        answer = fast(state, player, units)
        if answer is not None:
            return list(answer)
    first, rest = units[0], units[1:]
    options = []
    for source in model.sources(state, player, first):
        if model.can_take(state, player, source, {}) and feasible(
                model, state, player, rest, {source: 1}):
            options.append(source)
    return options


def pay_decision(player: int, purpose: int, options: Sequence[int],
                 units: Sequence[int]) -> Decision:
    """The ``pay`` frame: ``ctx = (purpose, len(options), *options, *units)``."""
    return Decision("pay", player, ctx=(purpose, len(options), *options, *units))


def pay_purpose(d: Decision) -> int:
    """What the pending payment ``d`` pays for."""
    return d.ctx[0]


def pay_options(d: Decision) -> tuple[int, ...]:
    """The sources that may pay the next unit of ``d`` (each keeps the rest payable)."""
    return d.ctx[2:2 + d.ctx[1]]


def pay_units(d: Decision) -> tuple[int, ...]:
    """The units ``d`` still has to pay, the next one first."""
    return d.ctx[2 + d.ctx[1]:]


def start_payment(model: PaymentModel, state: Any, player: int, purpose: int,
                  units: Sequence[int]) -> None:
    """Begin paying ``units`` for ``purpose``: pay forced units, push a decision if needed.

    The caller must have checked :func:`feasible` (legal actions do).
    """
    units = tuple(units)
    while units:
        options = legal_sources(model, state, player, units)
        if not options:
            raise ValueError(f"payment for purpose {purpose} cannot be completed: {units}")
        if len(options) > 1:
            state.stack.append(pay_decision(player, purpose, options, units))
            return
        model.take(state, player, units[0], options[0])
        units = units[1:]
    model.finish(state, player, purpose)


class PayHandler(Handler):
    """The ``pay`` decision: choose the source of the next unit (PAY_SOURCE[source])."""

    label = "choosing how to pay"

    def __init__(self, model: PaymentModel, first_action: int) -> None:
        self.model = model
        self.first_action = first_action

    def legal(self, game: Any, state: Any, d: Decision) -> list[int]:
        """One PAY_SOURCE action per source that keeps the payment completable."""
        return [self.first_action + s for s in pay_options(d)]

    def is_legal(self, game: Any, state: Any, d: Decision, action: int) -> bool:
        """Whether ``action`` pays the next unit from one of the decision's sources."""
        return action - self.first_action in pay_options(d)

    def apply(self, game: Any, state: Any, d: Decision, action: int) -> None:
        """Pay the unit from the chosen source, then continue the payment."""
        units = pay_units(d)
        self.model.take(state, d.player, units[0], action - self.first_action)
        start_payment(self.model, state, d.player, pay_purpose(d), units[1:])
