"""End-of-game rewards by reward mode, and the range and sum each mode guarantees.

Every seat's reward arrives when the game ends; ``reward_mode`` says what it is:

* ``"rank"`` (the default): :meth:`~formosa_envs.core.engine.Game.returns`: zero-sum rank
  returns in [-1, 1] (+1 / -1 with two players, ties shared; solo: +1 when the objective
  is met, else -1);
* ``"win"``: :meth:`~formosa_envs.core.engine.Game.win_shares`: 1/k to each of the k
  winners, so the rewards of two or more seats always sum to 1 (solo: 1 or 0);
* ``"score"``: the game's own scores (victory points), with no declared bound.

:func:`utility_bounds` is what a client that needs the range up front (OpenSpiel's
``GameInfo``, a value head's squashing) reads: the same functions produce the rewards,
so the bounds hold by construction, and the contract tests check them over random games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import ConfigError

REWARD_MODES = ("rank", "win", "score")
"""The reward modes every env and bridge accepts."""


@dataclass(frozen=True)
class UtilityBounds:
    """What a reward mode guarantees: every seat's final reward lies in ``[low, high]``
    (``None``: no declared bound) and, when ``total`` is not None, the seats' rewards
    always sum to it (0: zero-sum, 1: constant-sum)."""

    low: float | None
    high: float | None
    total: float | None


def check_reward_mode(reward_mode: Any) -> str:
    """``reward_mode`` if it is one of :data:`REWARD_MODES`, else ``ConfigError``."""
    if not isinstance(reward_mode, str) or reward_mode not in REWARD_MODES:
        raise ConfigError(f"reward_mode must be one of {REWARD_MODES}, got {reward_mode!r}")
    return reward_mode


def final_rewards(game: Any, state: Any, reward_mode: str) -> list[float]:
    """Every seat's end-of-game reward under ``reward_mode`` (see the module docstring).
    Winners and ranks come from the game's ordering with its tie-breaks
    (``Game.ranking_keys``)."""
    if reward_mode == "score":
        return [float(v) for v in game.scores(state)]
    if reward_mode == "win":
        return game.win_shares(state)
    return game.returns(state)


def draw_rewards(reward_mode: str, num_players: int) -> list[float]:
    """The rewards of a game stopped by a length guard before it ended, scored as a draw
    within the mode's bounds and sum: 0 each under ``rank``, an equal share of the win
    under ``win`` (0 solo, where nobody met the objective), 0 under ``score``."""
    check_reward_mode(reward_mode)
    share = 1.0 / num_players if reward_mode == "win" and num_players > 1 else 0.0
    return [share] * num_players


def utility_bounds(reward_mode: str, num_players: int) -> UtilityBounds:
    """The range and sum ``reward_mode`` guarantees with ``num_players`` seats."""
    check_reward_mode(reward_mode)
    if reward_mode == "score":
        return UtilityBounds(None, None, None)
    solo = num_players == 1
    if reward_mode == "win":
        return UtilityBounds(0.0, 1.0, None if solo else 1.0)
    return UtilityBounds(-1.0, 1.0, None if solo else 0.0)
