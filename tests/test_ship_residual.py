"""scripts/ship_residual.py: pretrained becomes the residual agent at one seat count."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from formosa_envs.agents.pretrained import MANIFEST, build_pretrained, package_root
from formosa_envs.agents.residual import ResidualAgent


@pytest.fixture
def shipped(tmp_path: Path) -> Path:
    """A copy of the package's networks and manifest, and an evaluation JSON."""
    out = tmp_path / "pretrained"
    shutil.copytree(Path(str(package_root())), out)
    report = {"game": "taiwan", "agent": "residual:agents/pretrained/taiwan.npz:5",
              "fair_share_5p": {"games": 600, "win_rate": 0.24, "seed": 7_000_000}}
    (tmp_path / "final.json").write_text(json.dumps(report), encoding="utf-8")
    return out


def test_the_part_is_recorded_and_played(shipped: Path, script: Callable) -> None:
    final = shipped.parent / "final.json"
    assert script("ship_residual").cli(["taiwan", "--players", "5", "--margin", "5", "--eval",
                              str(final), "--validation", "best of 3-6", "--out",
                              str(shipped)]) == 0
    part = json.loads((shipped / MANIFEST).read_text())["games"]["taiwan"]["residual_at"]["5"]
    assert part["margin"] == 5 and part["final_evaluation"][0]["fair_share_5p"]["games"] == 600
    agent = build_pretrained("pretrained", "", "taiwan", 0, root=shipped)
    assert isinstance(agent, ResidualAgent) and agent.at_players[5] == 5.0


@pytest.mark.parametrize(("change", "words"), [
    ({"agent": "pretrained"}, "not of a residual agent"),
    ({"game": "tea"}, "not of a residual agent"),
    ({"agent": "residual:x.npz:3"}, "the margin '3', not 5"),
])
def test_an_evaluation_of_something_else_is_refused(
        shipped: Path, capsys: pytest.CaptureFixture[str], change: dict, words: str,
        script: Callable) -> None:
    final = shipped.parent / "final.json"
    report = {**json.loads(final.read_text()), **change}
    final.write_text(json.dumps(report))
    before = (shipped / MANIFEST).read_bytes()
    assert script("ship_residual").cli(["taiwan", "--players", "5", "--margin", "5", "--eval",
                              str(final), "--out", str(shipped)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err
    assert (shipped / MANIFEST).read_bytes() == before


@pytest.mark.parametrize(("args", "words"), [
    (["--players", "9", "--margin", "5"], "taiwan seats 2-5"),
    (["--players", "5", "--margin", "-1"], "finite number >= 0"),
    (["--players", "5", "--margin", "nan"], "finite number >= 0"),
    (["--players", "5", "--margin", "5", "--timing", "/dev/zero"], "not a regular file"),
])
def test_bad_arguments_are_one_line(shipped: Path, capsys: pytest.CaptureFixture[str],
                                    args: list[str], words: str, script: Callable) -> None:
    final = shipped.parent / "final.json"
    assert script("ship_residual").cli(["taiwan", *args, "--eval", str(final), "--out",
                              str(shipped)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err


def _kinds_network(path: Path, game_name: str = "flowers") -> Path:
    """A small network of ``game_name`` trained (as its file says) at keep-or-cash only."""
    import numpy as np
    from formosa_envs.training.common.network_export import save_network_npz

    from formosa_envs.games import make_game
    game = make_game(game_name)
    w0 = np.full((4, game.observation_size), 0.01, np.float32)
    layers = [(w0, np.zeros(4, np.float32)),
              (np.zeros((game.num_actions, 4), np.float32), np.zeros(game.num_actions,
                                                                      np.float32))]
    return save_network_npz(layers, None, "relu", path, ["keep_or_cash"])


def test_a_network_of_its_own_is_copied_checked_and_played(
        shipped: Path, script: Callable) -> None:
    from formosa_envs.agents.base import SeatCountAgent
    from formosa_envs.agents.policy import PolicyAgent
    from formosa_envs.agents.pretrained import PretrainedError

    net = _kinds_network(shipped.parent / "best.npz")
    (shipped.parent / "run").mkdir()
    (shipped.parent / "run" / "report.json").write_text(json.dumps({"epochs": 3}))
    final = shipped.parent / "final.json"
    final.write_text(json.dumps({"game": "flowers", "agent": f"residual:{net}:0.5"}))
    assert script("ship_residual").cli([
        "flowers", "--players", "4", "--margin", "0.5", "--eval", str(final), "--network",
        str(net), "--run", str(shipped.parent / "run"), "--out", str(shipped)]) == 0
    part = json.loads((shipped / MANIFEST).read_text())["games"]["flowers"]["residual_at"]["4"]
    assert part["file"] == "flowers_4p_residual.npz" and part["kinds"] == ["keep_or_cash"]
    assert part["training"] == {"epochs": 3} and part["bytes"] == net.stat().st_size
    jax_run = shipped.parent / "jax-run"
    jax_run.mkdir()
    for name, value in (("summary.json", {"updates": 2}), ("config.json", {"seed": 0})):
        (jax_run / name).write_text(json.dumps(value))
    assert script("ship_residual").cli([
        "flowers", "--players", "4", "--margin", "0.5", "--eval", str(final), "--network",
        str(net), "--run", str(jax_run), "--out", str(shipped)]) == 0
    part = json.loads((shipped / MANIFEST).read_text())["games"]["flowers"]["residual_at"]["4"]
    assert part["training"] == {"summary": {"updates": 2}, "config": {"seed": 0}}
    agent = build_pretrained("pretrained", "", "flowers", 0, root=shipped)
    assert isinstance(agent, SeatCountAgent)
    four = agent.pick(4)
    assert isinstance(four, ResidualAgent) and four.margin == 0.5
    assert four.policy.kinds == ("keep_or_cash",)
    assert isinstance(agent.pick(2), PolicyAgent) and not agent.pick(2).kinds
    (shipped / part["file"]).write_bytes(net.read_bytes()[:-1] + b"x")
    with pytest.raises(PretrainedError, match="does not match its manifest"):
        build_pretrained("pretrained", "", "flowers", 0, root=shipped)


def _shipped_part(folder: Path) -> bytes | None:
    """The bytes of the 4-player Flowers part's network in ``folder`` (None: none)."""
    path = folder / "flowers_4p_residual.npz"
    return path.read_bytes() if path.exists() else None


def test_a_network_of_another_game_is_refused(shipped: Path, script: Callable,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    net = _kinds_network(shipped.parent / "tea.npz", "tea")
    final = shipped.parent / "final.json"
    final.write_text(json.dumps({"game": "flowers", "agent": f"residual:{net}:0.5"}))
    before = (shipped / MANIFEST).read_bytes()
    part_before = _shipped_part(shipped)
    assert script("ship_residual").cli([
        "flowers", "--players", "4", "--margin", "0.5", "--eval", str(final), "--network",
        str(net), "--out", str(shipped)]) == 2
    assert "does not fit flowers with 4 players" in capsys.readouterr().err
    assert (shipped / MANIFEST).read_bytes() == before
    assert _shipped_part(shipped) == part_before


def test_a_bad_run_folder_leaves_nothing_behind(shipped: Path, script: Callable,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    net = _kinds_network(shipped.parent / "best.npz")
    final = shipped.parent / "final.json"
    final.write_text(json.dumps({"game": "flowers", "agent": f"residual:{net}:0.5"}))
    before = (shipped / MANIFEST).read_bytes()
    part_before = _shipped_part(shipped)
    common = ["flowers", "--players", "4", "--margin", "0.5", "--eval", str(final),
              "--out", str(shipped)]
    assert script("ship_residual").cli([*common, "--network", str(net), "--run",
                                        str(shipped.parent / "no-run")]) == 2
    assert "--run: " in capsys.readouterr().err
    jax_run = shipped.parent / "jax-run"  # a JAX run: summary.json, and its config.json
    jax_run.mkdir()
    (jax_run / "summary.json").write_text(json.dumps({"updates": 2}))
    assert script("ship_residual").cli([*common, "--network", str(net), "--run",
                                        str(jax_run)]) == 2
    assert "config.json is not a readable JSON" in capsys.readouterr().err
    assert script("ship_residual").cli([*common, "--data", str(shipped.parent)]) == 2
    assert "give the network too" in capsys.readouterr().err
    assert (shipped / MANIFEST).read_bytes() == before
    assert _shipped_part(shipped) == part_before
