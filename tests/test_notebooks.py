"""Every notebook under notebooks/ is executed, so the examples never rot."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS, "notebooks/ is empty"


EXPECTED = {"01_quickstart.ipynb": "final VP", "02_train_and_evaluate.ipynb": "win rate",
            "03_all_games.ipynb": "solo final scores"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_without_errors(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORMOSA_NB_TIMESTEPS", "1024")  # a tiny training budget
    monkeypatch.setenv("FORMOSA_NB_CLONE_GAMES", "20")  # and a tiny warm start
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any(EXPECTED[path.name] in o.get("text", "") for o in outputs)
