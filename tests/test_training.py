"""The self-play training pipeline: config, export, opponent pool, a tiny run and resume."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from formosa_envs.agents import make_agent
from formosa_envs.agents.policy import PolicyAgent
from formosa_envs.training.ppo.config import load_config
from formosa_envs.training.ppo.opponents import OpponentPool
from formosa_envs.training.ppo.train import env_player_counts, main, make_vec_env

from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game

TINY = ["--timesteps", "1024", "--clone-games", "0", "--n-envs", "2", "--n-steps", "256",
        "--batch-size", "128", "--eval-every", "512", "--eval-games", "4", "--final-games", "4",
        "--snapshot-every", "512", "--checkpoint-every", "512", "--workers", "1", "--quiet"]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "flowers"
    assert main(["flowers", "--out", str(out), *TINY]) == 0
    return out


def test_tiny_run_writes_every_artifact(tiny_run: Path) -> None:
    for name in ("model.zip", "policy.npz", "eval.csv", "learning_curve.png", "summary.json",
                 "checkpoints/latest.zip", "checkpoints/latest.npz", "logs/progress.csv",
                 "final/tournament.csv",
                 "final/tournament.json", "final/tournament.png", "final/table.txt"):
        assert (tiny_run / name).exists(), name
    assert sorted(p.name for p in (tiny_run / "pool").glob("snapshot_*.npz"))
    summary = json.loads((tiny_run / "summary.json").read_text())
    assert summary["timesteps"] >= 1024
    assert set(summary["vs"]) == {"random", "heuristic"}
    assert 0.0 <= summary["vs"]["random"]["win_rate"] <= 1.0


def test_exported_policy_matches_the_torch_actor(tiny_run: Path) -> None:
    import torch
    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load(tiny_run / "model.zip", device="cpu")
    agent = PolicyAgent.load(tiny_run / "policy.npz")
    game = make_game("flowers", num_players=2)
    obs = np.random.default_rng(0).random((5, game.observation_size)).astype(np.float32)
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(obs))
        torch_logits = dist.distribution.logits.numpy()
    ours = np.stack([agent.logits(o) for o in obs])
    shift = ours - torch_logits  # torch normalises logits: equal up to a per-row constant
    np.testing.assert_allclose(shift, shift[:, :1] * np.ones_like(shift), atol=1e-4)


def test_checkpoint_reloads_and_plays_legally(tiny_run: Path) -> None:
    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load(tiny_run / "checkpoints" / "latest.zip", device="cpu")
    assert model.num_timesteps >= 1024
    game = make_game("flowers", num_players=2)
    agents = [make_agent(f"policy:{tiny_run / 'policy.npz'}", "flowers", seed=0),
              make_agent("random", "flowers", seed=1)]
    for seed in range(5):  # apply_action raises on any illegal action
        assert play_game(game, agents, seed).decisions > 0


def test_resume_continues_from_the_checkpoint(tiny_run: Path, tmp_path: Path) -> None:
    import shutil
    run = tmp_path / "resumed"
    shutil.copytree(tiny_run, run)
    more = [a if a != "1024" else "1536" for a in TINY]
    assert main(["flowers", "--out", str(run), "--resume", *more]) == 0
    summary = json.loads((run / "summary.json").read_text())
    assert summary["timesteps"] >= 1536
    rows = (run / "eval.csv").read_text().splitlines()
    assert len(rows) > len((tiny_run / "eval.csv").read_text().splitlines())


def test_resume_without_checkpoint_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no checkpoint"):
        main(["flowers", "--out", str(tmp_path / "none"), "--resume", *TINY])


def test_config_defaults_overrides_and_errors(tmp_path: Path) -> None:
    config = load_config("flowers", total_timesteps=5000)
    assert config.total_timesteps == 5000 and config.num_players == 2
    with pytest.raises(ValueError, match="n_envs must be >= 1"):
        load_config("flowers", n_envs=0)
    bad = tmp_path / "bad.toml"
    bad.write_text("[train]\ncolour = 1\n")
    with pytest.raises(ValueError, match="unknown training option"):
        load_config("flowers", str(bad))
    with pytest.raises(ValueError, match="not found"):
        load_config("flowers", str(tmp_path / "missing.toml"))


def test_opponent_pool_mix(tiny_run: Path) -> None:
    pool = OpponentPool("flowers", str(tiny_run / "pool"), random=0.0, heuristic=0.0,
                        snapshots=1.0, pool_size=2)
    rng = np.random.default_rng(0)
    drawn = pool(rng, 3)
    assert all(isinstance(a, PolicyAgent) for a in drawn)
    assert len(pool.snapshot_files()) == 2
    empty = OpponentPool("flowers", str(tiny_run / "nowhere"), 0.0, 0.0, 1.0)
    assert [a.name for a in empty(rng, 2)] == ["random", "random"]  # no snapshots yet


def test_vec_env_masks_and_seeds(tmp_path: Path) -> None:
    config = load_config("flowers", n_envs=2, out=str(tmp_path))
    venv = make_vec_env(config, tmp_path / "pool")
    obs = venv.reset()
    masks = venv.env_method("action_masks")
    assert obs.shape == (2, make_game("flowers").observation_size)
    assert all(m.any() for m in masks)
    venv.close()


def test_player_counts_cycle_over_the_envs(tmp_path: Path) -> None:
    """player_counts: env i plays counts[i % len]; every env shares one observation space."""
    config = load_config("taiwan", n_envs=5, player_counts=[2, 4, 5], out=str(tmp_path))
    assert env_player_counts(config) == [2, 4, 5, 2, 4]
    venv = make_vec_env(config, tmp_path / "pool")
    try:
        assert venv.get_attr("game") and [g.num_players for g in venv.get_attr("game")] \
            == [2, 4, 5, 2, 4]
        obs = venv.reset()
        for _ in range(30):  # the learner's decisions in every env, each game at its count
            masks = venv.env_method("action_masks")
            obs, _, _, _ = venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
        assert obs.shape == (5, make_game("taiwan").observation_size)
    finally:
        venv.close()
    assert env_player_counts(load_config("taiwan", n_envs=3)) == [2, 2, 2]


def test_export_command_and_zip_spec_message(tiny_run: Path, tmp_path: Path) -> None:
    from formosa_envs.agents import AgentSpecError
    from formosa_envs.training.ppo.export import main as export_main
    out = tmp_path / "exported.npz"
    assert export_main([str(tiny_run / "model.zip"), str(out)]) == 0
    obs = np.random.default_rng(1).random(make_game("flowers").observation_size)
    np.testing.assert_allclose(PolicyAgent.load(out).logits(obs),
                               PolicyAgent.load(tiny_run / "policy.npz").logits(obs), atol=1e-6)
    with pytest.raises(AgentSpecError, match="training checkpoint"):
        make_agent(f"policy:{tiny_run / 'model.zip'}")


def test_subprocess_vec_env_steps(tmp_path: Path) -> None:
    """--vec-env subproc: one process per env, opponents built inside each process."""
    config = load_config("flowers", n_envs=2, vec_env="subproc", out=str(tmp_path))
    venv = make_vec_env(config, tmp_path / "pool")
    try:
        obs = venv.reset()
        for _ in range(20):
            masks = venv.env_method("action_masks")
            actions = [int(np.flatnonzero(m)[0]) for m in masks]
            obs, rewards, dones, infos = venv.step(np.array(actions))
        assert obs.shape[0] == 2 and len(rewards) == 2
    finally:
        venv.close()


def test_tiny_solo_run_reports_the_objective(tmp_path: Path) -> None:
    """One-player training (Dadaocheng's solo game): evaluation against the objective."""
    out = tmp_path / "solo"
    args = [a if a != "4" else "3" for a in TINY]
    assert main(["dadaocheng", "--players", "1", "--out", str(out), *args]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["num_players"] == 1 and set(summary["solo"]) >= {"random", "heuristic"}
    for row in summary["solo"].values():
        assert row["games"] == 3 and 0.0 <= row["win_rate"] <= 1.0
        assert sum(row["tiers"].values()) == 3
    rows = (out / "eval.csv").read_text().splitlines()
    assert "objective" in rows[1] and (out / "learning_curve.png").exists()
