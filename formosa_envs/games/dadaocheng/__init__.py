"""Dadaocheng (1-4 players): rearrange a grid of two-sided discs, collect in cascades,
stock the storehouses, buy ships and buildings.

Public pieces: :class:`DadaochengGame` (the engine), :class:`DadaochengConfig` and
:func:`make_game`. Rules: ``seeds/dadaocheng.md``; content: ``data/*.toml``.
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.config import build_config

from .config import DadaochengConfig
from .game import DadaochengGame


def make_game(**options: Any) -> DadaochengGame:
    """Build a :class:`DadaochengGame` from keyword options (validated)."""
    return DadaochengGame(build_config(DadaochengConfig, "dadaocheng", **options))


__all__ = ["DadaochengConfig", "DadaochengGame", "make_game"]
