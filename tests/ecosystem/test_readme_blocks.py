"""The docs' recipe blocks for TorchRL, Tianshou, SuperSuit and AgileRL run as written.

They are the ```python blocks of docs/ecosystem.md, plus any block of the docs tagged
``# needs: ecosystem`` (tests/docs_blocks.py).
"""

from __future__ import annotations

import pytest

from tests.docs_blocks import page_blocks, run_block, tagged


def _blocks():
    blocks = page_blocks("docs/ecosystem.md")
    return blocks + [block for block in tagged("ecosystem") if block not in blocks]


def test_the_section_has_its_blocks() -> None:
    blocks = _blocks()
    assert len(blocks) == 5
    for client in ("flat_env", "PettingZooWrapper", "PettingZooEnv", "supersuit", "DQN"):
        assert any(client in block.code for block in blocks), client


@pytest.mark.parametrize("index", range(5))
def test_block_runs(index: int) -> None:
    scope = run_block(_blocks()[index])
    if "rollout" in scope:
        assert scope["rollout"].batch_size[0] > 0
    if "collector" in scope:
        assert scope["collector"].collect_episode >= 10
