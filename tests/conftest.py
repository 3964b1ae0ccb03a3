"""Shared fixtures: every (game, player count) combination in the catalogue."""

from __future__ import annotations

import importlib.util

import pytest

from formosa_envs.games import GAMES

# The RLlib tests (marker ``rllib``) need the [rllib] extra; without it they are not
# collected at all, so ``pytest -m rllib`` then reports "no tests ran" (exit 5), a failure.
# Likewise the OpenSpiel bridge tests (marker ``spiel``) need the [spiel] extra and the
# JAX engine's (marker ``jax``) the [jax] extra.
collect_ignore = [folder for folder, module in (("rllib", "ray"), ("spiel", "pyspiel"),
                                                ("jax", "jax"))
                  if importlib.util.find_spec(module) is None]

GAME_COUNTS = [(name, n) for name, info in GAMES.items()
               for n in range(info.min_players, info.max_players + 1)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise any test taking ``game_name`` and ``num_players`` over the catalogue."""
    if {"game_name", "num_players"} <= set(metafunc.fixturenames):
        metafunc.parametrize(("game_name", "num_players"), GAME_COUNTS,
                             ids=[f"{g}-{n}p" for g, n in GAME_COUNTS])


@pytest.fixture
def script():
    """Load ``scripts/NAME.py`` as a module (``scripts/`` is not a package):
    ``script("filter_imitation").main([...])``."""
    from pathlib import Path
    folder = Path(__file__).resolve().parent.parent / "scripts"

    def load(name: str):
        spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    return load
