"""The stack of pending decisions that drives every compound turn.

A :class:`Decision` is a small immutable record: which ``kind`` of choice is
pending, which ``player`` must make it (a seat, or ``CHANCE``), how many
repetitions remain (``count``), whether it may be declined (``optional``) and
a tuple ``ctx`` of ids carried between steps. The state keeps a list of them;
the top (last) frame is the decision being made now.

Behaviour lives in per-kind :class:`Handler` objects, collected in a table by
each game; :class:`StackRules` (in ``engine.py``) dispatches to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .stack_game import StackGame


class Decision(NamedTuple):
    """One pending atomic decision (an immutable record, cheap to create)."""

    kind: str
    player: int
    count: int = 1
    optional: bool = False
    ctx: tuple[int, ...] = ()

    def to_list(self) -> list[Any]:
        """A JSON-friendly form, inverse of :meth:`from_list`."""
        return [self.kind, self.player, self.count, self.optional, list(self.ctx)]

    @staticmethod
    def from_list(row: list[Any]) -> Decision:
        """Rebuild a decision from :meth:`to_list` output (validated by the caller)."""
        kind, player, count, optional, ctx = row
        return Decision(str(kind), int(player), int(count), bool(optional),
                        tuple(int(x) for x in ctx))


class Handler:
    """Legal actions and effect of one decision kind.

    Subclasses override :meth:`legal` and :meth:`apply` for player decisions,
    or :meth:`outcomes` and :meth:`apply` for chance decisions. ``label`` is a
    short phrase naming the decision, used in error messages and the CLI.
    """

    label: str = "decision"

    def legal(self, game: StackGame, state: Any, d: Decision) -> list[int]:
        """The legal action ids for decision ``d`` (never empty)."""
        raise NotImplementedError(f"{type(self).__name__} has no legal actions")

    def outcomes(self, game: StackGame, state: Any, d: Decision) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` for a chance decision."""
        raise NotImplementedError(f"{type(self).__name__} is not a chance decision")

    def apply(self, game: StackGame, state: Any, d: Decision, action: int) -> None:
        """Apply ``action`` for decision ``d`` (already popped from the stack)."""
        raise NotImplementedError(f"{type(self).__name__} cannot be applied")

    def is_legal(self, game: StackGame, state: Any, d: Decision, action: int) -> bool:
        """Whether ``action`` answers ``d``; override for a faster test than listing."""
        if d.player < 0:
            return any(o == action for o, _ in self.outcomes(game, state, d))
        return action in self.legal(game, state, d)

    def resolve_run(self, game: StackGame, state: Any, rng: Any,
                    record: list[int] | None) -> bool:
        """Optionally resolve this chance frame and its followers in one go.

        Return False (the default) to let the engine draw one outcome at a time.
        A handler that returns True must have popped its frames and drawn exactly
        what one-at-a-time resolution would have drawn, recording each outcome.
        """
        return False

    def describe(self, game: StackGame, state: Any, d: Decision) -> str:
        """A sentence naming the decision, for people and error messages."""
        return self.label


class FunctionHandler(Handler):
    """A handler assembled from plain functions, for the many small decisions of a game.

    ``legal(game, state, d)`` lists player actions, ``outcomes(game, state, d)``
    lists chance outcomes, ``apply(game, state, d, action)`` carries one out.
    Automatic (``AUTO``) frames need only ``apply``. ``label`` names the
    decision in error messages and the CLI.
    """

    def __init__(self, label: str, apply: Any, legal: Any = None, outcomes: Any = None,
                 is_legal: Any = None) -> None:
        self.label = label
        self._apply, self._legal, self._outcomes = apply, legal, outcomes
        self._is_legal = is_legal
        # the engine's hot path calls the given functions directly (no method in between)
        self.apply = apply  # type: ignore[method-assign]
        if legal is not None:
            self.legal = legal  # type: ignore[method-assign]
        if outcomes is not None:
            self.outcomes = outcomes  # type: ignore[method-assign]

    def legal(self, game: StackGame, state: Any, d: Decision) -> list[int]:
        """The function's legal actions."""
        if self._legal is None:
            return super().legal(game, state, d)
        return self._legal(game, state, d)

    def outcomes(self, game: StackGame, state: Any, d: Decision) -> list[tuple[int, float]]:
        """The function's chance outcomes."""
        if self._outcomes is None:
            return super().outcomes(game, state, d)
        return self._outcomes(game, state, d)

    def apply(self, game: StackGame, state: Any, d: Decision, action: int) -> None:
        """Run the apply function."""
        self._apply(game, state, d, action)

    def is_legal(self, game: StackGame, state: Any, d: Decision, action: int) -> bool:
        """The fast legality test if one was given, else membership in the list."""
        if self._is_legal is not None and d.player >= 0:
            return bool(self._is_legal(game, state, d, action))
        return super().is_legal(game, state, d, action)
