"""Fixtures of the RLlib tests (marker ``rllib``; ``make test`` installs ``[rllib]`` first).

Every test here is marked ``rllib`` and runs against one local Ray instance
whose files (session logs, result folders) live in a temporary folder that is
removed afterwards; nothing is written to the home directory.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder ``rllib``."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.rllib)


def _home_ray_files() -> set[str]:
    home = Path.home()
    return {str(p) for name in ("ray_results", ".ray") for p in (home / name).glob("*")}


@pytest.fixture(scope="session")
def ray_session() -> Iterator[Path]:
    """A local two-CPU Ray whose files stay in a temporary folder (yielded)."""
    import ray

    from formosa_envs.envs.rllib_config import start_ray
    before = _home_ray_files()
    folder = Path(tempfile.mkdtemp(prefix="fr", dir="/tmp"))  # short: Ray's socket paths
    os.environ["RAY_AUTH_MODE"] = "disabled"
    start_ray(results_dir=str(folder / "results"), temp_dir=str(folder / "ray"), num_cpus=2)
    try:
        yield folder
    finally:
        ray.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
    leaked = _home_ray_files() - before
    assert not leaked, f"Ray wrote into the home directory: {sorted(leaked)}"
