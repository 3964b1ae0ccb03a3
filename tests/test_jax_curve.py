"""benchmarks/jax_curve.py: the learning curve of a JAX run's exported snapshots (no jax
needed: the snapshots play as ``policy:`` / ``residual:`` in the tournament machinery)."""

from __future__ import annotations

import csv
import importlib.util
import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NETWORK = ROOT / "agents" / "pretrained" / "flowers.npz"


def load_curve_script():
    """The script as a module (``benchmarks/`` is not a package)."""
    spec = importlib.util.spec_from_file_location("jax_curve",
                                                  ROOT / "benchmarks" / "jax_curve.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def run_folder(tmp_path: Path) -> Path:
    """A 2-player run folder with snapshots at updates 100, 200, 300 and a final network
    at 350 (the shipped Flowers network stands in for every one)."""
    (tmp_path / "networks").mkdir()
    for update in (100, 200, 300):
        shutil.copy(NETWORK, tmp_path / "networks" / f"update-{update:06d}.npz")
    shutil.copy(NETWORK, tmp_path / "network.npz")
    (tmp_path / "config.json").write_text(json.dumps({"num_players": 2}))
    with (tmp_path / "metrics.csv").open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["update", "wall_s"])
        writer.writerows([update, update * 1.2] for update in range(1, 351))
    return tmp_path


def test_updates_select_snapshots_and_the_final_network_comes_last(run_folder):
    """``--updates`` keeps only those snapshots; the final network is always played."""
    curve = load_curve_script()
    chosen = curve.snapshots(run_folder, [300, 100])
    assert [update for update, _ in chosen] == [100, 300, 350]
    assert chosen[-1][1].name == "network.npz"
    assert len(curve.snapshots(run_folder)) == 4


def test_an_update_without_a_snapshot_is_refused_by_number(run_folder):
    curve = load_curve_script()
    with pytest.raises(SystemExit, match="no snapshot of update 150"):
        curve.snapshots(run_folder, [100, 150])


def test_curve_points_carry_minutes_and_share(run_folder):
    """Each point: the update, its training minute from metrics.csv, a win share with its
    interval (the same network on every point, the same deals: the same share)."""
    curve = load_curve_script()
    points = curve.curve(run_folder, games=2, seed=8_000_000, updates=[200])
    assert [p["update"] for p in points] == [200, 350]
    assert [p["minutes"] for p in points] == [4.0, 7.0]
    assert points[0]["win_rate"] == points[1]["win_rate"]
    assert all(p["win_low"] <= p["win_rate"] <= p["win_high"] for p in points)


def test_bad_updates_flag_is_one_line():
    curve = load_curve_script()
    assert curve.update_list("200,400") == [200, 400]
    for bad in ("0", "x", "200,", ""):
        with pytest.raises(Exception, match="whole number"):
            curve.update_list(bad)
