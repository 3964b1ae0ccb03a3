"""``formosa train --backend rllib``: a tiny run, its files, resume, and its checkpoint
playing in ``formosa tournament`` (marker ``rllib``)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from formosa_envs.training.ppo.train_rllib import RLlibSettings, env_statistics

from formosa_envs.cli import main as formosa

TINY = ["--timesteps", "600", "--n-steps", "75", "--n-envs", "4", "--batch-size", "100",
        "--eval-every", "300", "--eval-games", "4", "--final-games", "4",
        "--snapshot-every", "300", "--checkpoint-every", "300", "--runners", "0",
        "--envs-per-runner", "2", "--quiet"]


def test_train_resume_and_play_the_checkpoint(ray_session: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert formosa(["train", "flowers", "--backend", "rllib", "--out", str(out), *TINY]) == 0
    assert "policy vs random" in capsys.readouterr().out
    for name in ("checkpoints/latest", "policy.npz", "eval.csv", "logs/progress.csv",
                 "learning_curve.png", "final/table.txt", "summary.json", "league.json"):
        assert (out / name).exists(), name
    league = json.loads((out / "league.json").read_text())
    first = league["counters"]["timesteps"]
    assert first >= 600 and league["snapshots"], league
    with (out / "logs" / "progress.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert all(float(r["env_steps_per_s"]) > 0 for r in rows)
    assert sum(int(r["episodes"]) for r in rows) > 0  # rewards measured by the env
    summary = json.loads((out / "summary.json").read_text())
    assert summary["backend"]["name"] == "rllib" and summary["vs"]["random"]["games"] > 0

    resumed = [*TINY]
    resumed[resumed.index("--timesteps") + 1] = "1200"
    assert formosa(["train", "flowers", "--backend", "rllib", "--out", str(out), "--resume",
                    *resumed]) == 0
    league = json.loads((out / "league.json").read_text())
    assert league["counters"]["timesteps"] >= 1200 > first
    capsys.readouterr()

    checkpoint = out / "checkpoints" / "latest"
    assert formosa(["tournament", "flowers", "--agents", f"rllib:{checkpoint},random",
                    "--games", "4", "--quiet"]) == 0
    assert "rllib:latest" in capsys.readouterr().out
    assert formosa(["play", "flowers", "--seats", f"rllib:{checkpoint}@learner,random",
                    "--seed", "1"]) == 0
    assert "Final scores" in capsys.readouterr().out


def test_solo_run_reports_the_objective(ray_session: Path, tmp_path: Path) -> None:
    out = tmp_path / "solo"
    assert formosa(["train", "dadaocheng", "--backend", "rllib", "--players", "1",
                    "--mode", "shared", "--out", str(out), *TINY]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["num_players"] == 1 and "objective" in summary["table"]


def test_bad_settings_are_named(ray_session: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert formosa(["train", "flowers", "--backend", "rllib", "--mode", "teams"]) == 2
    assert "invalid choice: 'teams'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="--eval-module 'seat_3' is not a module"):
        RLlibSettings(mode="per_seat", eval_module="seat_3").validate(2)
    with pytest.raises(ValueError, match="--runners and --learners must be >= 0"):
        RLlibSettings(learners=-1).validate(2)
    assert formosa(["tournament", "flowers", "--agents", f"rllib:{tmp_path},random",
                    "--games", "2", "--quiet"]) == 2
    assert "not an RLlib algorithm checkpoint" in capsys.readouterr().err


def test_env_statistics_count_every_game() -> None:
    from formosa_envs.envs.rllib import RECORDS_KEPT, FormosaRLlibEnv
    env = FormosaRLlibEnv({"game": "dadaocheng", "num_players": 1, "roles": "league",
                           "seed": 1})
    rewards, decisions = [], []
    for _ in range(RECORDS_KEPT + 6):  # more games than the env keeps records of
        obs, _ = env.reset()
        done = False
        while not done:
            mask = obs["learner"]["action_mask"]
            obs, reward, terms, truncs, _ = env.step({"learner": int(mask.argmax())})
            done = terms["__all__"] or truncs["__all__"]
        rewards.append(reward["learner"])
        decisions.append(env.aec.engine_state.decisions)
    stats = env_statistics(env.drain_totals())
    assert stats["episodes"] == RECORDS_KEPT + 6 == len(rewards)
    assert stats["rollout/ep_rew_mean"] == pytest.approx(sum(rewards) / len(rewards))
    assert stats["mean_decisions"] == pytest.approx(sum(decisions) / len(decisions))
    assert env_statistics(env.drain_totals()) == {"episodes": 0}


def test_the_rllib_backend_refuses_a_warm_start(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The warm start is an SB3-path feature: asking the RLlib backend for it is one line."""
    from formosa_envs.training.ppo.train_rllib import cli
    assert cli(["flowers", "--clone-games", "5", "--out", str(tmp_path / "run"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no warm start" in err[0] and "clone_games=5" in err[0]
    assert not (tmp_path / "run").exists()
