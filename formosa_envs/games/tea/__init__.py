"""Formosa Tea (2-4 players): harvest, process and sell Taiwanese tea.

Public pieces: :class:`TeaGame` (the engine), :class:`TeaConfig` and :func:`make_game`.
Rules: ``seeds/tea.md``; content: ``data/*.toml`` (mostly documented placeholders).
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.config import build_config

from .config import TeaConfig
from .game import TeaGame


def make_game(**options: Any) -> TeaGame:
    """Build a :class:`TeaGame` from keyword options (validated)."""
    return TeaGame(build_config(TeaConfig, "tea", **options))


__all__ = ["TeaConfig", "TeaGame", "make_game"]
