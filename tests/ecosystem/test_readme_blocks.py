"""The README's recipe blocks for TorchRL, Tianshou, SuperSuit and AgileRL run as written."""

from __future__ import annotations

from pathlib import Path

import pytest

SECTION = "### TorchRL, Tianshou, SuperSuit, AgileRL and PettingZoo's parallel API"


def _blocks() -> list[str]:
    text = (Path(__file__).parents[2] / "README.md").read_text()
    section = text[text.index(SECTION):]
    section = section[:section.index("**Pitfalls.**")]
    parts = section.split("```python\n")[1:]
    return [part[:part.index("```")] for part in parts]


def test_the_section_has_its_blocks() -> None:
    blocks = _blocks()
    assert len(blocks) == 5
    for client in ("flat_env", "PettingZooWrapper", "PettingZooEnv", "supersuit", "DQN"):
        assert any(client in block for block in blocks), client


@pytest.mark.parametrize("index", range(5))
def test_block_runs(index: int) -> None:
    block = _blocks()[index]
    scope: dict = {}
    exec(compile(block, f"README.md (ecosystem block {index})", "exec"), scope)
    if "rollout" in scope:
        assert scope["rollout"].batch_size[0] > 0
    if "collector" in scope:
        assert scope["collector"].collect_episode >= 10
