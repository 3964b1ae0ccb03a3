"""Formosa Flowers (2-4 players): a set-collection card game of the Koi-Koi family.

Public pieces: :class:`FlowersGame` (the engine), :class:`FlowersConfig`,
:func:`make_game` and the pure scoring function :func:`score_pile`.
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.config import build_config

from .config import FlowersConfig
from .game import FlowersGame
from .scoring import PileScore, score_pile


def make_game(**options: Any) -> FlowersGame:
    """Build a :class:`FlowersGame` from keyword options (validated)."""
    return FlowersGame(build_config(FlowersConfig, "flowers", **options))


__all__ = ["FlowersConfig", "FlowersGame", "PileScore", "make_game", "score_pile"]
