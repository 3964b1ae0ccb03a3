"""The README's JAX code block runs as written."""

from __future__ import annotations

from pathlib import Path


def test_the_readme_block_runs() -> None:
    text = (Path(__file__).parents[2] / "README.md").read_text()
    section = text[text.index("## Formosa Flowers on JAX"):]
    start = section.index("```python\n") + len("```python\n")
    block = section[start:section.index("```", start)]
    scope: dict = {}
    exec(compile(block, "README.md (JAX)", "exec"), scope)
    assert scope["state"].observation.shape == (3, 442)
    assert bool(scope["state"].legal_action_mask.any(axis=1).all())
