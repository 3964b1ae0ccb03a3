"""Fixtures of the JAX engine tests (marker ``jax``; they need the ``[jax]`` extra).

Every test here is marked ``jax``. Without JAX installed the folder is not collected
at all, so the core test run keeps working without the extra.
"""

from __future__ import annotations

from pathlib import Path

import pytest

try:
    import jax  # noqa: F401
except ImportError:
    collect_ignore_glob = ["*.py"]  # read by pytest: collect nothing here


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``jax`` marker."""
    config.addinivalue_line("markers", "jax: the JAX Flowers engine, needs the [jax] extra")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder ``jax``."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.jax)
