"""PPO warm-started from a cloned network: weights copied, the actor frozen during the value
warm-up, the clone stage inside a run (and reused on resume), clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from formosa_envs.agents.network import Network
from formosa_envs.agents.policy import PolicyAgent
from formosa_envs.training.common.network_export import save_network_npz
from formosa_envs.training.ppo.config import load_config
from formosa_envs.training.ppo.train import build_model, main, make_vec_env
from formosa_envs.training.ppo.warm_start import ValueWarmup, actor_parameters, load_init

from formosa_envs.core.errors import ConfigError
from formosa_envs.games import make_game

SMALL = ["--n-envs", "2", "--n-steps", "128", "--batch-size", "128", "--eval-every", "100000",
         "--eval-games", "2", "--final-games", "2", "--snapshot-every", "100000",
         "--checkpoint-every", "100000", "--workers", "1", "--quiet"]


def random_network(path: Path, hidden: list[int], seed: int = 0, value: bool = True) -> Path:
    """An exported network of the Flowers sizes with random weights."""
    game = make_game("flowers", num_players=2)
    rng = np.random.default_rng(seed)
    sizes = [game.observation_size, *hidden]

    def tower(outputs: int) -> list[tuple[np.ndarray, np.ndarray]]:
        dims = [*sizes, outputs]
        return [(rng.normal(0, 0.1, (b, a)), rng.normal(0, 0.1, b))
                for a, b in zip(dims, dims[1:], strict=False)]
    return save_network_npz(tower(game.num_actions), tower(1) if value else None, "relu", path)


def ppo(tmp_path: Path, hidden: list[int], activation: str = "relu", init: Path | None = None):
    config = load_config("flowers", out=str(tmp_path / "run"), net_arch=hidden,
                         activation=activation, n_envs=1, n_steps=64, batch_size=64)
    venv = make_vec_env(config, tmp_path / "pool")
    return build_model(config, venv, tmp_path / "run", resume=False, init=init), venv


def test_the_actor_and_value_head_are_copied(tmp_path: Path) -> None:
    import torch
    path = random_network(tmp_path / "net.npz", [32, 16])
    model, venv = ppo(tmp_path, [32, 16], init=path)
    network = Network.load(path)
    obs = np.random.default_rng(1).random((4, network.layers[0][0].shape[1])).astype(np.float32)
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(obs))
        logits = dist.distribution.logits.numpy()
        values = model.policy.predict_values(torch.as_tensor(obs)).numpy()[:, 0]
    ours = network.logits(obs)
    shift = ours - logits  # torch normalises logits: equal up to a per-row constant
    np.testing.assert_allclose(shift, shift[:, :1] * np.ones_like(shift), atol=1e-4)
    np.testing.assert_allclose(np.tanh(values), network.values(obs), atol=1e-5)
    venv.close()


def test_a_network_without_a_value_head_copies_the_actor_only(tmp_path: Path) -> None:
    path = random_network(tmp_path / "net.npz", [16], value=False)
    model, venv = ppo(tmp_path, [16])
    before = model.policy.value_net.weight.detach().clone()
    assert load_init(model, path) == {"actor": True, "value": False}
    assert (model.policy.value_net.weight.detach() == before).all()
    venv.close()


@pytest.mark.parametrize(("hidden", "activation", "words"), [
    ([32, 32], "relu", "layer shapes"), ([16], "tanh", "uses relu")])
def test_a_network_that_does_not_fit_is_a_clear_error(tmp_path: Path, hidden: list[int],
                                                      activation: str, words: str) -> None:
    path = random_network(tmp_path / "net.npz", [16])
    model, venv = ppo(tmp_path, hidden, activation)
    with pytest.raises(ConfigError, match=words):
        load_init(model, path)
    venv.close()


def test_a_missing_or_broken_init_file_is_a_clear_error(tmp_path: Path) -> None:
    model, venv = ppo(tmp_path, [16])
    (tmp_path / "bad.npz").write_text("not an archive")
    with pytest.raises(ConfigError, match="bad.npz"):
        load_init(model, tmp_path / "bad.npz")
    venv.close()


def test_the_value_warmup_freezes_the_actor_only(tmp_path: Path) -> None:
    path = random_network(tmp_path / "net.npz", [16])
    model, venv = ppo(tmp_path, [16], init=path)
    actor = [p.detach().clone() for p in actor_parameters(model)]
    critic = model.policy.value_net.weight.detach().clone()
    model.learn(128, callback=ValueWarmup(10_000))
    assert all((p.detach() == q).all() for p, q in zip(actor_parameters(model), actor,
                                                          strict=True))
    assert not (model.policy.value_net.weight.detach() == critic).all()
    assert all(p.requires_grad for p in actor_parameters(model))  # unfrozen at the end
    model.learn(128, callback=ValueWarmup(0))
    assert not all((p.detach() == q).all() for p, q in zip(actor_parameters(model), actor,
                                                              strict=True))
    venv.close()


def test_a_run_with_clone_games_clones_then_trains_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["flowers", "--out", str(out), "--clone-games", "6", "--value-warmup", "128",
            "--timesteps", "256", *SMALL]
    assert main(args) == 0
    best = out / "clone" / "bc" / "best.npz"
    assert best.is_file() and (out / "clone" / "data" / "manifest.json").is_file()
    from formosa_envs.training.ppo.report import read_csv
    assert {r["timesteps"] for r in read_csv(out / "eval.csv")} >= {"0"}  # the clone's level
    summary = json.loads((out / "summary.json").read_text())
    assert summary["timesteps"] >= 256
    agent = PolicyAgent.load(out / "policy.npz")
    assert agent.layers[0][0].shape == Network.load(best).layers[0][0].shape
    stamp = best.stat().st_mtime_ns
    assert main([*args[:-len(SMALL) - 2], "--timesteps", "512", *SMALL, "--resume"]) == 0
    assert best.stat().st_mtime_ns == stamp  # the clone stage is not redone
    assert json.loads((out / "summary.json").read_text())["timesteps"] >= 512


def test_init_and_clone_games_exclude_each_other(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="exclude each other"):
        load_config("flowers", init=str(tmp_path / "x.npz"), clone_games=5)


def test_a_missing_init_flag_file_is_one_line(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from formosa_envs.training.ppo.train import cli
    assert cli(["flowers", "--init", str(tmp_path / "none.npz"), "--out",
                str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--init" in err[0] and "none.npz" in err[0]


def test_evaluations_record_wall_minutes_that_carry_over_a_resume(tmp_path: Path) -> None:
    from formosa_envs.training.ppo.callbacks import checkpoint_wall_minutes, last_wall_minutes
    out = tmp_path / "run"
    base = ["flowers", "--out", str(out), "--clone-games", "0", "--n-envs", "2", "--n-steps", "128",
            "--batch-size", "128", "--eval-every", "256", "--eval-games", "2",
            "--final-games", "2", "--snapshot-every", "100000", "--checkpoint-every", "256",
            "--workers", "1", "--quiet"]
    assert main([*base, "--timesteps", "512"]) == 0
    first = last_wall_minutes(out / "eval.csv")
    assert first > 0
    assert main([*base, "--timesteps", "1024", "--resume"]) == 0
    assert last_wall_minutes(out / "eval.csv") >= first
    minutes = json.loads((out / "summary.json").read_text())["train_minutes"]
    assert minutes >= checkpoint_wall_minutes(out) > 0
    # a resume asking for no more steps only finishes the run (export, final evaluation)
    assert main([*base, "--timesteps", "512", "--resume"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["timesteps"] >= 1024 and summary["train_minutes"] >= minutes


def test_a_bad_init_file_fails_before_the_run_folder_is_made(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    from formosa_envs.training.ppo.train import cli
    bad = tmp_path / "bad.npz"
    bad.write_text("not a network")
    out = tmp_path / "run"
    assert cli(["flowers", "--init", str(bad), "--clone-games", "0", "--out", str(out),
                "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.npz" in err[0] and not out.exists()


@pytest.mark.parametrize("name", ["flowers_jax", "flowers_jax_4p", "flowers_jax_long"])
def test_the_jax_training_configs_load(name: str) -> None:
    """The JAX backend's PPO configs (their own keys; loading needs no JAX)."""
    from formosa_envs.training.jax.config import CONFIG_PATH, load_jax_config
    config = load_jax_config(CONFIG_PATH.parent / f"{name}.toml")
    assert config.num_envs % config.pool_size == 0 and config.minutes > 0


def test_the_gumbel_training_config_loads() -> None:
    """flowers_gumbel.toml is the JAX backend's Gumbel MuZero run (loading needs no JAX)."""
    from formosa_envs.training.jax.gumbel_train import CONFIG_PATH, load_gumbel_config
    config = load_gumbel_config(CONFIG_PATH)
    assert config.simulations >= 2 and config.minutes > 0


def _is_sb3_config(path: Path) -> bool:
    """Configs of the SB3/RLlib pipeline (not cloning, expert iteration, afterstate or JAX)."""
    return not (path.stem.endswith(("_bc", "_xit", "_afterstate")) or "_jax" in path.stem
                or path.stem.startswith("flowers_gumbel"))


@pytest.mark.parametrize("path", sorted(
    p for p in (Path(__file__).parent.parent / "training" / "configs").glob("*.toml")
    if _is_sb3_config(p)), ids=lambda p: p.stem)
def test_every_training_config_loads(path: Path) -> None:
    """The defaults, the recorded runs (_long) and the RLlib recipes are valid configs."""
    config = load_config(path.stem.split("_")[0], str(path))
    if path.stem.endswith("_long"):
        assert config.clone_games > 0 and config.heuristic == 1.0
