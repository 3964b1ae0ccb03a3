"""The ecosystem tests (marker ``ecosystem``): the recipes of docs/ecosystem.md for other RL
libraries
(``examples/ecosystem``), run with the clients of the ``[ecosystem]`` extra in
``.venv-eco`` (``pytest -m ecosystem``).

Every test here is marked ``ecosystem``. Without TorchRL the whole folder is left
uncollected (as ``tests/conftest.py`` does for the RLlib tests), so the default suite
passes without the clients; with it, a test file whose own client is missing is left out.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

CLIENTS = {"test_torchrl.py": "torchrl", "test_tianshou.py": "tianshou",
           "test_tianshou_dqn.py": "tianshou",
           "test_supersuit.py": "supersuit", "test_agilerl.py": "agilerl",
           "test_parallel.py": "torchrl", "test_readme_blocks.py": "agilerl"}

collect_ignore = [name for name, module in CLIENTS.items()
                  if importlib.util.find_spec("torchrl") is None
                  or importlib.util.find_spec(module) is None]


# the clients' own notices, not about our code
WARNING_FILTERS = ["ignore:PettingZoo in TorchRL is tested using version:UserWarning",
                   "ignore:MakeEvolvable will be deprecated:DeprecationWarning"]


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker (until pyproject's markers list names it) and the filters of
    the clients' notices."""
    config.addinivalue_line("markers", "ecosystem: recipes for other RL libraries (TorchRL, "
                            "Tianshou, SuperSuit, AgileRL); need the [ecosystem] extra")
    for line in WARNING_FILTERS:
        config.addinivalue_line("filterwarnings", line)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder ``ecosystem``."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.ecosystem)
