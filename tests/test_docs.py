"""Every ```python block of the docs and the README runs; the README's links lead somewhere.

Blocks tagged ``# needs: TAG`` on their first line run in their extra's suite instead
(``tests/docs_blocks.py`` names it for each tag: jax, spiel, ecosystem).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs_blocks import ROOT, RUNNERS, all_blocks, blocks_of, run_block

BLOCKS = all_blocks()
DEFAULT = [block for block in BLOCKS if block.tag is None]


def test_the_docs_have_blocks_of_every_kind() -> None:
    assert len(DEFAULT) >= 5
    assert {block.tag for block in BLOCKS} >= set(RUNNERS)
    assert any(block.path.name == "README.md" for block in DEFAULT)


def test_every_tag_has_a_suite_that_runs_it() -> None:
    unknown = {block.name: block.tag for block in BLOCKS if block.tag and block.tag not in RUNNERS}
    assert not unknown, f"tags without a suite (add it to tests/docs_blocks.RUNNERS): {unknown}"


@pytest.mark.parametrize("block", DEFAULT, ids=[block.name for block in DEFAULT])
def test_block_runs(block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)               # files a block writes land in a temporary folder
    monkeypatch.syspath_prepend(str(ROOT))    # blocks may import the repository's examples/
    run_block(block)


def test_a_broken_block_fails_and_a_tag_is_read(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# t\n\n```python\nx = 1\nassert x == 2\n```\n\n"
                    "```python\n# needs: jax\nimport jax\n```\n")
    broken, needs_jax = blocks_of(page)
    assert (broken.line, broken.tag, needs_jax.tag) == (4, None, "jax")
    with pytest.raises(AssertionError):
        run_block(broken)


_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's and MkDocs' anchor of a plain heading."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return re.sub(r"\s+", "-", text)


def _anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def test_the_readme_links_lead_to_files_and_headings() -> None:
    broken = []
    for target in _LINK.findall((ROOT / "README.md").read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (ROOT / path) if path else ROOT / "README.md"
        missing = not file.exists()
        if missing or (anchor and file.suffix == ".md" and anchor not in _anchors(file)):
            broken.append(target)
    assert not broken, f"README links to nothing: {broken}"
