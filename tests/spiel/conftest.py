"""The OpenSpiel bridge tests (marker ``spiel``; ``make test`` installs ``[spiel]`` and runs
``pytest -m spiel``). Every test in this folder is marked ``spiel``."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder ``spiel``."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.spiel)
