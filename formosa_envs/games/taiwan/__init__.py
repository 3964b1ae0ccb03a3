"""Taiwan Formosa (2-5 players): dice, buildings on time tracks, landmarks and regions.

Public pieces: :class:`TaiwanGame` (the engine), :class:`TaiwanConfig` and
:func:`make_game`. Rules: ``seeds/taiwan.md``; content: ``data/*.toml``.
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.config import build_config

from .config import TaiwanConfig
from .game import TaiwanGame


def make_game(**options: Any) -> TaiwanGame:
    """Build a :class:`TaiwanGame` from keyword options (validated)."""
    return TaiwanGame(build_config(TaiwanConfig, "taiwan", **options))


__all__ = ["TaiwanConfig", "TaiwanGame", "make_game"]
