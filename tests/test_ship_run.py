"""scripts/ship_run.py: a finished training run becomes a loadable pretrained network."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from formosa_envs.agents.pretrained import load_network, read_manifest
from formosa_envs.training.ppo.train import main as train_main

ROOT = Path(__file__).resolve().parent.parent
RUN = ["--clone-games", "4", "--timesteps", "256", "--n-envs", "2", "--n-steps", "128",
       "--batch-size", "128", "--eval-every", "100000", "--eval-games", "2",
       "--final-games", "2", "--snapshot-every", "100000", "--checkpoint-every", "100000",
       "--workers", "1", "--quiet"]


def load_script():  # scripts/ is not a package: load the file as a module
    spec = importlib.util.spec_from_file_location("ship_run", ROOT / "scripts" / "ship_run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_run_ships_with_its_manifest_and_loads(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert train_main(["flowers", "--out", str(run), *RUN]) == 0
    out = tmp_path / "new"              # made by the script (only the last folder is)
    assert load_script().cli(["flowers", str(run), "--eval-games", "2", "--workers", "1",
                              "--out", str(out)]) == 0
    entry = read_manifest(out)["games"]["flowers"]
    assert entry["training"]["config"]["clone_games"] == 4
    assert entry["training"]["timesteps"] >= 256 and entry["evaluation"]["vs_heuristic"]["games"]
    assert 0.99 <= entry["float16"]["float16_same_move"] <= 1.0
    network = load_network("flowers", out)
    assert network.has_value and network.input_size == entry["observation_size"]


@pytest.mark.parametrize(("argv", "words"), [
    (["flowers", "{tmp}"], "not a finished formosa train run"),
    (["chess", "{tmp}"], "invalid choice")])
def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               argv: list[str], words: str) -> None:
    assert load_script().cli([a.format(tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err
