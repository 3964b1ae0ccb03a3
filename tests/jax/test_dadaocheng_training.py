"""The jitted self-play PPO on the JAX Dadaocheng engine (``formosa train dadaocheng
--backend jax``): its configs, the refusals of what the game's engine lacks, the solo
evaluation, and (``slow``: the compile takes minutes) tiny runs at 2 players and solo."""

from __future__ import annotations

import json

import pytest
from formosa_envs.agents.network import Network
from formosa_envs.training.jax import train as jax_train
from formosa_envs.training.jax.config import CONFIG_PATH, JaxTrainConfig, load_jax_config
from formosa_envs.training.train import main as train_main

from formosa_envs.core.errors import ConfigError

from .configs import write_jax_config


@pytest.mark.parametrize(("name", "players"), [("dadaocheng_jax", 2),
                                                ("dadaocheng_jax_solo", 1)])
def test_the_shipped_configs_load(name: str, players: int) -> None:
    config = load_jax_config(CONFIG_PATH.parent / f"{name}.toml", "dadaocheng")
    assert config.game == "dadaocheng" and config.num_players == players
    assert config.reward == ("margin" if players == 1 else "rank")
    assert load_jax_config(None, "dadaocheng") == load_jax_config(
        CONFIG_PATH.parent / "dadaocheng_jax.toml")


@pytest.mark.parametrize(("overrides", "message"), [
    ({"heuristic_fraction": 0.5}, "lacks"), ({"kickstart": 1.0}, "lacks"),
    ({"reward": "margin"}, "solo game"), ({"reward": "score"}, "must be one of"),
    ({"num_players": 5}, "num_players")])
def test_what_the_engine_lacks_is_refused(overrides: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_jax_config(None, "dadaocheng", **overrides)


def test_a_config_for_another_game_is_refused() -> None:
    with pytest.raises(ConfigError, match="is for flowers, not dadaocheng"):
        load_jax_config(CONFIG_PATH, "dadaocheng")
    with pytest.raises(ConfigError, match="only dadaocheng has a solo game"):
        load_jax_config(None, "flowers", num_players=1, heuristic_fraction=0.0,
                        kickstart=0.0)
    with pytest.raises(ConfigError, match="game must be one of"):
        load_jax_config(None, "tea")


def test_the_solo_evaluation_reports_the_objective_and_paired_scores(monkeypatch) -> None:
    from formosa_envs.evaluation import solo
    calls = []
    monkeypatch.setattr(solo, "solo_share", lambda *a: calls.append(("share", a)) or {})
    monkeypatch.setattr(solo, "paired_scores", lambda *a: calls.append(("paired", a)) or {})
    config = JaxTrainConfig(game="dadaocheng", num_players=1, reward="margin",
                            eval_games=10, eval_seed=5)
    found = jax_train._evaluate(config, "net.npz", False)
    assert set(found) == {"objective", "heuristic_objective", "paired_scores"}
    assert calls == [("share", ("dadaocheng", "policy:net.npz", 10, 5)),
                     ("share", ("dadaocheng", "heuristic", 10, 5)),
                     ("paired", ("dadaocheng", "policy:net.npz", "heuristic", 10, 5))]


def test_gumbel_is_refused_for_dadaocheng() -> None:
    with pytest.raises(ConfigError, match="gumbel runs on flowers, got dadaocheng"):
        train_main(["dadaocheng", "--backend", "jax", "--method", "gumbel"])


TINY = {"game": "dadaocheng", "num_envs": 8, "pool_size": 2, "random_fraction": 0.5,
        "heuristic_fraction": 0.0, "kickstart": 0.0, "rollout_steps": 4, "epochs": 1,
        "minibatches": 2, "hidden_size": 16, "updates": 2, "updates_per_call": 2,
        "minutes": 0.0, "eval_games": 2, "export_every": 0}


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 1])
def test_a_tiny_run_exports_a_network_that_plays(tmp_path, players: int) -> None:
    settings = {**TINY, "num_players": players}
    if players == 1:
        settings.update(reward="margin", pool_size=1, random_fraction=0.0)
    config = write_jax_config(tmp_path / "tiny.toml", settings)
    assert train_main(["dadaocheng", "--backend", "jax", "--config", str(config),
                       "--out", str(tmp_path / "run"), "--quiet"]) == 0
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["updates"] == 2 and 0 < summary["learner_steps"] <= 2 * 8 * 4
    expected = ({"objective", "heuristic_objective", "paired_scores"} if players == 1
                else {"random", "heuristic"})
    assert set(summary["vs"]) == expected
    assert Network.load(str(tmp_path / "run" / "network.npz")).has_value
