"""The value of a 2-player Formosa Flowers position at the start of a round: a table.

When a round of Formosa Flowers ends, every card goes back into the deck (F-5, R-9), so
the position at the start of the next round is the two scores and who starts it. Its
value is therefore a table: ``values[own score, other score, own seat starts]``, the
expected final return (``Game.returns``: +1 a win, -1 a loss, 0 a shared victory) of
the seat whose scores come first. :mod:`formosa_envs.training.round_value` learns it from
heuristic self-play (the distribution of a round's score gains, solved backwards from the
target).

A :class:`RoundValue` is a horizon value of :class:`~formosa_envs.agents.mcts.MCTSAgent`
(``horizon_value``): a play-out cut at the round's end is worth what its scores do to each
seat's chance of winning, not the linear score gain of the round.

The file is an ``.npz`` with ``values`` (float64, ``(target_vp, target_vp, 2)``),
``target_vp`` and ``format`` (:data:`FORMAT`); it is read like every agent file (no
pickles) and checked against the game before it is used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .policy import PolicyFileError, read_archive

FORMAT = "formosa-round-value/1"


class RoundValue:
    """Each seat's expected final return at the start of a 2-player Flowers round."""

    def __init__(self, values: np.ndarray, target_vp: int, path: str = "the table") -> None:
        """Wrap a checked ``(target_vp, target_vp, 2)`` table (use :meth:`load`)."""
        self.values = values
        self.target_vp = target_vp
        self.path = path

    @classmethod
    def load(cls, path: str | Path) -> RoundValue:
        """The table of an ``.npz`` file (:class:`PolicyFileError` naming what is wrong)."""
        return cls.from_arrays(read_archive(Path(path), "round-value table"), str(path))

    @classmethod
    def from_arrays(cls, arrays: dict[str, Any], path: str) -> RoundValue:
        """Check the arrays of a table file: its format, target and the table's shape."""
        fmt = str(np.asarray(arrays.get("format", "")))
        if fmt != FORMAT:
            raise PolicyFileError(f"{path} is not a round-value table (format {fmt!r}, "
                                  f"expected {FORMAT!r})")
        target, values = arrays.get("target_vp"), arrays.get("values")
        if not (isinstance(target, np.ndarray) and target.shape == () and
                target.dtype.kind in "iu" and isinstance(values, np.ndarray) and
                values.dtype.kind in "fiu"):
            raise PolicyFileError(f"{path}: a round-value table needs an integer target_vp "
                                  "and a numeric values array")
        target, values = int(target), values.astype(np.float64)
        if target < 1 or values.shape != (target, target, 2) or \
                not np.all(np.abs(values) <= 1.0):
            raise PolicyFileError(f"{path}: values must be a ({target}, {target}, 2) table "
                                  f"in [-1, 1] for target_vp {target}, got {values.shape}")
        return cls(values, target, path)

    def check_game(self, game: Any) -> None:
        """Refuse (``ValueError``) a game the table was not made for: anything but
        2-player Flowers at this table's ``target_vp`` without the Current Month."""
        config = getattr(game, "config", None)
        if game.name != "flowers" or game.num_players != 2 or config is None or \
                config.target_vp != self.target_vp or config.current_month is not None:
            raise ValueError(f"{self.path} values 2-player Formosa Flowers to "
                             f"{self.target_vp} VP without the Current Month; this game is "
                             f"{game.name} with {game.num_players} players")

    def __call__(self, game: Any, state: Any) -> list[float]:
        """Both seats' values of ``state`` at a round's start (zero-sum: the mean of the
        two seats' entries)."""
        top = self.target_vp - 1
        a, b = (min(int(x), top) for x in state.scores)
        first_starts = int(state.round_start == 0)
        value = float(self.values[a, b, first_starts] - self.values[b, a, 1 - first_starts]) / 2
        return [value, -value]
