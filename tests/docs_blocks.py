"""The ```python blocks of the documentation (docs/**/*.md and README.md), found and run.

A block that needs an optional extra names it on its first line, ``# needs: TAG``; such a
block does not run in the default suite (``tests/test_docs.py``) but in the suite of its
extra, listed in :data:`RUNNERS`. Every other block runs in the default suite.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUNNERS = {
    "jax": "tests/jax/test_readme_block.py (pytest -m jax)",
    "spiel": "tests/spiel/test_recipe.py (pytest -m spiel)",
    "ecosystem": "tests/ecosystem/test_readme_blocks.py (make ecosystem, in .venv-eco)",
}
_FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
_TAG = re.compile(r"#\s*needs:\s*([\w-]+)")


@dataclass(frozen=True)
class Block:
    """One code block: where it is (file and first line of code), its text and its tag."""

    path: Path
    line: int
    code: str
    tag: str | None

    @property
    def name(self) -> str:
        """``docs/jax.md:12``: the file relative to the repository and the line."""
        try:
            where = self.path.relative_to(ROOT)
        except ValueError:
            where = self.path
        return f"{where}:{self.line}"


def doc_files() -> list[Path]:
    """Every Markdown page of the site, then the README."""
    return sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]


def blocks_of(path: Path) -> list[Block]:
    """The top-level ```python blocks of one Markdown file, in order."""
    text = path.read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        code = match.group(1)
        first = code.split("\n", 1)[0]
        tag = _TAG.match(first.strip())
        line = text.count("\n", 0, match.start(1)) + 1
        found.append(Block(path, line, code, tag.group(1) if tag else None))
    return found


def all_blocks() -> list[Block]:
    """The blocks of every documentation file."""
    return [block for path in doc_files() for block in blocks_of(path)]


def tagged(tag: str) -> list[Block]:
    """The blocks that need ``tag`` (run by that extra's suite)."""
    return [block for block in all_blocks() if block.tag == tag]


def page_blocks(relative: str) -> list[Block]:
    """The blocks of one page, e.g. ``"docs/ecosystem.md"``."""
    return blocks_of(ROOT / relative)


def run_block(block: Block) -> dict[str, Any]:
    """Execute a block as written, in a fresh namespace, and return that namespace."""
    scope: dict[str, Any] = {"__name__": "__docs__"}
    exec(compile(block.code, block.name, "exec"), scope)
    return scope
