"""Perfect recall for the OpenSpiel information state (:mod:`formosa_envs.spiel`).

Each seat has a running 128-bit digest of everything it has observed and done:

* in a game without private information (Taiwan Formosa, Formosa Tea, Dadaocheng) every
  seat sees every action and chance outcome, so one digest of the action history serves
  all seats; it is folded at every step (a hash, no engine call);
* in a game with private information (Flowers) a seat's digest folds, per step, its own
  action (when it moved), the action's narration to it (``Game.public_label``) and its
  observation after the step (where its private draws show). Computing observations at
  every step would make search rollouts several times slower, and rollouts never ask for
  information states, so steps are only recorded (an action id, on a list shared between
  clones, copied on write) and folded when a digest is asked for, by replaying them on a
  copy of the last folded state.
"""

from __future__ import annotations

import hashlib
from typing import Any

from formosa_envs.core.engine import Game

_START = bytes(16)


def _fold(old: bytes, *parts: bytes) -> bytes:
    h = hashlib.blake2b(old, digest_size=16)
    for part in parts:
        h.update(part)
    return h.digest()


class Recall:
    """The seats' digests of one game state (see the module docstring)."""

    __slots__ = ("digests", "base", "steps", "count")

    def __init__(self, digests: list[bytes], base: Any = None,
                 steps: list[int] | None = None, count: int = 0) -> None:
        self.digests, self.base = digests, base
        self.steps, self.count = steps if steps is not None else [], count

    @classmethod
    def start(cls, engine: Game, state: Any) -> Recall:
        """The recall of a new game (``state``: its initial state)."""
        base = engine.clone(state) if engine.hidden_information else None
        return cls([_START] * engine.num_players, base)

    def copy(self) -> Recall:
        """An independent recall for a cloned state (the folded state is shared: it is
        never changed)."""
        return Recall(list(self.digests), self.base, self.steps, self.count)

    def record(self, engine: Game, mover: int, action: int) -> None:
        """Note that ``mover`` (a seat or chance) has just played ``action``."""
        if not engine.hidden_information:
            token = f"{mover}:{action};".encode()
            self.digests = [_fold(self.digests[0], token)] * len(self.digests)
            return
        if len(self.steps) != self.count:        # a clone extended the shared list
            self.steps = self.steps[:self.count]
        self.steps.append(action)
        self.count += 1

    def digest(self, engine: Game, seat: int) -> bytes:
        """``seat``'s digest of the game so far."""
        self.settle(engine)
        return self.digests[seat]

    def settle(self, engine: Game) -> None:
        """Fold every recorded step (hidden-information games)."""
        if not self.count:
            return
        state = engine.clone(self.base)
        for action in self.steps[:self.count]:
            mover = engine.current_player(state)
            told = [f"{mover}:{action}" if seat == mover
                    else str(engine.public_label(state, action, seat))
                    for seat in range(len(self.digests))]
            engine.apply_action(state, action)
            self.digests = [_fold(old, told[seat].encode(), b";",
                                  engine.observe(state, seat).tobytes())
                            for seat, old in enumerate(self.digests)]
        self.base, self.steps, self.count = state, [], 0

    def rebase(self, engine: Game, state: Any) -> None:
        """Continue from ``state`` (a resampled world): fold the past first, so the
        digests stay those of the real history and later steps fold the new world."""
        self.settle(engine)
        if engine.hidden_information:
            self.base = engine.clone(state)
