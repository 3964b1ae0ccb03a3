"""Imitation data generation and behaviour cloning (training/imitation/data.py,
training/imitation/bc.py, training/common/network_export.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from formosa_envs.agents import AgentSpecError, make_agent
from formosa_envs.agents.policy import PolicyAgent
from formosa_envs.training.common.network_export import forward, load_value_layers
from formosa_envs.training.imitation import data as imitation
from formosa_envs.training.imitation.config import BCConfig, load_bc_config
from formosa_envs.training.imitation.data import DataSettings, game_seeds, generate, load_data

from formosa_envs.core.errors import ConfigError, DataError
from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game

pytest.importorskip("torch")  # the [train] extra: cloning needs it, data generation does not
from formosa_envs.training.imitation import bc  # noqa: E402

TINY = BCConfig(hidden=[16], value_hidden=[8], epochs=1, batch_size=64, seed=0, threads=1)


@pytest.fixture(scope="module")
def flowers150(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """150 heuristic-vs-heuristic Flowers games (2 players), the fixed cloning dataset."""
    out = tmp_path_factory.mktemp("flowers150")
    generate(DataSettings("flowers", 150, seed=7), out, workers=2, show_progress=False)
    return out


def _arrays(folder: Path) -> dict[str, np.ndarray]:
    data = load_data(folder)
    return {k: getattr(data, k) for k in ("obs", "mask", "action", "seat", "game", "ret")}


def test_two_workers_write_the_same_data_as_one(tmp_path: Path) -> None:
    settings = DataSettings("flowers", 7, teacher="heuristic", opponents=["random"], chunk=2,
                            seed=3)
    one = generate(settings, tmp_path / "one", workers=1, show_progress=False)
    two = generate(settings, tmp_path / "two", workers=2, show_progress=False)
    a, b = _arrays(tmp_path / "one"), _arrays(tmp_path / "two")
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    assert one["rows"] == two["rows"] == len(a["action"]) > 0
    assert [s["games"] for s in one["shards"]] == [2, 2, 2, 1]
    assert sorted(set(a["game"].tolist())) == list(range(7))
    # only the teacher's seat (g % 2) is recorded against a random opponent
    assert (a["seat"] == a["game"] % 2).all()
    assert set(np.unique(a["ret"]).tolist()) <= {-1.0, 0.0, 1.0}
    other = generate(DataSettings("flowers", 7, opponents=["random"], chunk=2, seed=4),
                     tmp_path / "other", workers=1, show_progress=False)
    assert other["rows"] != one["rows"] or not np.array_equal(
        _arrays(tmp_path / "other")["obs"], a["obs"])


def test_data_seeds_never_meet_tournament_seeds() -> None:
    seeds = {game_seeds(0, g, 2)[0] for g in range(1000)}
    assert len(seeds) == 1000 and min(seeds) >= 2**63  # tournament chance seeds are < 2**32
    assert game_seeds(0, 5, 2) == game_seeds(0, 5, 2) != game_seeds(1, 5, 2)


def test_recorded_rows_match_the_games(flowers150: Path) -> None:
    data = load_data(flowers150)
    manifest = json.loads((flowers150 / "manifest.json").read_text())
    assert manifest["games"] == 150 and manifest["teacher"] == "heuristic"
    assert len(data) == manifest["rows"] and data.obs.dtype == np.float32
    assert data.mask[np.arange(len(data)), data.action].all()
    assert set(np.unique(data.seat).tolist()) == {0, 1}  # heuristic in both seats
    # both seats of a decisive two-player game get opposite returns
    by_game = {(g, s): r for g, s, r in zip(data.game, data.seat, data.ret, strict=True)}
    assert all(by_game[(g, 0)] == -by_game[(g, 1)] for g in range(150))


def _clone(data_dir: Path, run: Path, init: Path | None = None, **changes: object) -> dict:
    config = BCConfig(hidden=[128], value_hidden=[32], epochs=8, batch_size=128,
                      learning_rate=3e-3, patience=3, seed=0, threads=1)
    for key, value in changes.items():
        setattr(config, key, value)
    return bc.train_bc(data_dir, run, config, log=lambda *_: None, init=init)


def _learned(report: dict) -> bool:
    best = report["best"]
    return best["held_ce"] < best["uniform_ce"] - 0.2 and best["agreement"] > 0.5


def test_cloning_learns_the_heuristic(flowers150: Path, tmp_path: Path) -> None:
    report = _clone(flowers150, tmp_path / "run")
    best = report["best"]
    assert _learned(report), best
    assert best["held_ce"] < report["history"][0]["held_ce"]
    assert best["held_ce"] == min(h["held_ce"] for h in report["history"])
    assert best["best_value_mse"] == min(h["value_mse"] for h in report["history"])
    assert (tmp_path / "run" / "best.npz").is_file() and (tmp_path / "run" / "final.npz").is_file()


def test_cloning_random_labels_fails_the_same_check(flowers150: Path, tmp_path: Path) -> None:
    """The learning check above is not vacuous: with the teacher's actions replaced by
    random legal ones, it fails."""
    noisy = tmp_path / "noisy"
    shutil.copytree(flowers150, noisy)
    rng = np.random.default_rng(0)
    for path in sorted((noisy / "shards").glob("*.npz")):
        with np.load(path) as z:
            arrays = {k: z[k] for k in z.files}
        mask = np.unpackbits(arrays["mask"], axis=1, count=111).astype(bool)
        arrays["action"] = np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int32)
        np.savez_compressed(path, **arrays)
    assert not _learned(_clone(noisy, tmp_path / "run"))


def test_resume_gives_the_same_network(flowers150: Path, tmp_path: Path) -> None:
    config = BCConfig(hidden=[32], value_hidden=[16], epochs=3, batch_size=256, patience=9,
                      threads=1)
    whole = bc.train_bc(flowers150, tmp_path / "whole", config, log=lambda *_: None)
    config.epochs = 1
    bc.train_bc(flowers150, tmp_path / "part", config, log=lambda *_: None)
    with pytest.raises(ConfigError, match="--resume"):
        bc.train_bc(flowers150, tmp_path / "part", config, log=lambda *_: None)
    with pytest.raises(ConfigError, match="hidden"):
        bc.train_bc(flowers150, tmp_path / "part", BCConfig(hidden=[8], epochs=3),
                    resume=True, log=lambda *_: None)
    config.epochs = 3
    resumed = bc.train_bc(flowers150, tmp_path / "part", config, resume=True,
                          log=lambda *_: None)
    assert [h["held_ce"] for h in resumed["history"]] == [h["held_ce"] for h in whole["history"]]
    with np.load(tmp_path / "whole" / "final.npz") as a, \
            np.load(tmp_path / "part" / "final.npz") as b:
        for key in a.files:
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)


@pytest.mark.parametrize("game", ["flowers", "taiwan", "tea", "dadaocheng"])
def test_exported_network_plays_every_game(game: str, tmp_path: Path) -> None:
    generate(DataSettings(game, 2, opponents=["random"], chunk=1), tmp_path / "data",
             workers=1, show_progress=False)
    bc.train_bc(tmp_path / "data", tmp_path / "run", TINY, log=lambda *_: None)
    path = tmp_path / "run" / "best.npz"
    engine = make_game(game, num_players=2)
    agent = make_agent(f"policy:{path}", game)
    assert isinstance(agent, PolicyAgent) and agent.input_size == engine.observation_size
    for seed in range(2):  # apply_action refuses an illegal move: the games are legal
        record = play_game(engine, [agent, make_agent("random", game, seed)], seed)
        assert not record.truncated
    value = load_value_layers(path)
    assert value[-1][0].shape == (1, 8)
    data = load_data(tmp_path / "data")
    v = np.tanh(forward(value, "relu", data.obs[:5]))[:, 0]
    assert v.shape == (5,) and (np.abs(v) <= 1).all()


def test_bad_data_arguments_are_named(tmp_path: Path) -> None:
    cases = [(DataSettings("chess", 5), "game must be one of"),
             (DataSettings("flowers", 0), "games must be"),
             (DataSettings("flowers", 5, num_players=7), "num_players must be .* for flowers"),
             (DataSettings("flowers", 5, chunk=0), "chunk must be"),
             (DataSettings("flowers", 5, seed=-1), "seed must be")]
    for settings, message in cases:
        with pytest.raises(ConfigError, match=message):
            generate(settings, tmp_path / "x", workers=1, show_progress=False)
    with pytest.raises(AgentSpecError, match="unknown agent"):
        generate(DataSettings("flowers", 5, teacher="genius"), tmp_path / "x", workers=1)
    with pytest.raises(ConfigError, match="workers"):
        generate(DataSettings("flowers", 5), tmp_path / "x", workers=0)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "f").write_text("x")
    with pytest.raises(ConfigError, match="not empty"):
        generate(DataSettings("flowers", 1), tmp_path / "full", workers=1)
    assert not (tmp_path / "x").exists()


def test_bad_data_folders_are_data_errors(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no manifest.json"):
        load_data(tmp_path)
    generate(DataSettings("flowers", 2, chunk=1), tmp_path / "d", workers=1, show_progress=False)
    (tmp_path / "d" / "shards" / "shard-00001.npz").unlink()
    with pytest.raises(DataError, match="shard-00001.npz: cannot be read"):
        load_data(tmp_path / "d")
    (tmp_path / "d" / "manifest.json").write_text('{"format": "other"}')
    with pytest.raises(DataError, match="format must be"):
        load_data(tmp_path / "d")


def test_bc_config_errors_name_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    for text, message in [("[bc]\nhiden = [3]\n", "unknown cloning option 'hiden'"),
                          ("[bc]\nepochs = 0\n", "epochs must be a whole number"),
                          ("hidden = [0]\n", "hidden must be a list"),
                          ("[bc]\nactivation = 'gelu'\n", "activation must be one of"),
                          ("[bc\n", "not a readable TOML")]:
        bad.write_text(text)
        with pytest.raises(ConfigError, match=message):
            load_bc_config(bad)
    for game in ["flowers", "taiwan", "tea", "dadaocheng"]:
        load_bc_config(Path("training/configs") / f"{game}_bc.toml")


def test_console_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert imitation.cli(["flowers", "--games", "0", "--out", str(tmp_path)]) == 2
    assert imitation.cli(["flowers", "--games", "2", "--teacher", "nope",
                          "--out", str(tmp_path / "o")]) == 2
    assert bc.cli([str(tmp_path / "missing"), "--out", str(tmp_path / "r")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 3 and all(" error: " in line for line in lines)
    assert "no manifest.json" in lines[2]


def test_dagger_with_the_teacher_as_learner_records_the_teachers_own_games(tmp_path: Path
                                                                           ) -> None:
    """Learner and teacher share the seat's agent seed, so a DAgger round whose learner is
    the teacher (a copy in lockstep) plays the teacher's games: the rows are those of its
    seat (g % n) in the plain data."""
    plain = DataSettings("flowers", 4, opponents=["random"], seed=5)
    dagger = DataSettings("flowers", 4, opponents=["random"], seed=5, learner="heuristic")
    generate(plain, tmp_path / "plain", workers=1, show_progress=False)
    manifest = generate(dagger, tmp_path / "dagger", workers=1, show_progress=False)
    a, b = _arrays(tmp_path / "plain"), _arrays(tmp_path / "dagger")
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    assert "DAgger" in manifest["recorded"] and manifest["learner"] == "heuristic"


def test_dagger_labels_the_learners_states_with_the_teachers_moves(tmp_path: Path) -> None:
    """A random learner reaches other states than the teacher; every row is a state of
    the learner's seat labelled with a legal teacher move, and base + DAgger data join
    for cloning with the games kept apart."""
    base = tmp_path / "base"
    generate(DataSettings("flowers", 6, seed=1), base, workers=1, show_progress=False)
    generate(DataSettings("flowers", 6, seed=2, learner="random"), tmp_path / "dagger",
             workers=1, show_progress=False)
    rows = _arrays(tmp_path / "dagger")
    assert (rows["seat"] == rows["game"] % 2).all()  # only the learner's seat
    joined = bc.load_datasets([base, tmp_path / "dagger"])
    assert len(joined) == len(load_data(base)) + len(rows["action"])
    assert len(np.unique(joined.game)) == 12
    report = bc.train_bc([base, tmp_path / "dagger"], tmp_path / "run", TINY, log=lambda _: None)
    assert report["data_rows"] == len(joined)
    with pytest.raises(AgentSpecError):
        DataSettings("flowers", 2, learner="nonsense").validate()


def test_joining_data_of_another_game_is_a_data_error(tmp_path: Path) -> None:
    generate(DataSettings("flowers", 2, seed=1), tmp_path / "a", workers=1, show_progress=False)
    generate(DataSettings("taiwan", 2, seed=1), tmp_path / "b", workers=1, show_progress=False)
    with pytest.raises(DataError, match="differs from"):
        bc.load_datasets([tmp_path / "a", tmp_path / "b"])


def test_init_starts_from_an_exported_network(flowers150: Path, tmp_path: Path) -> None:
    """``init`` copies both towers: a run with a tiny learning rate starts (epoch 1's
    held-out figures) where the exported network is, far from a fresh network's start."""
    base = _clone(flowers150, tmp_path / "base")
    start = tmp_path / "base" / "best.npz"
    slow = {"learning_rate": 1e-8, "epochs": 1}
    tuned = _clone(flowers150, tmp_path / "tuned", **slow, init=start)
    fresh = _clone(flowers150, tmp_path / "fresh", **slow)
    first = tuned["history"][0]
    assert tuned["init"] == str(start) and fresh["init"] is None
    assert abs(first["held_ce"] - base["best"]["held_ce"]) < 0.01
    assert abs(first["value_mse"] - base["best"]["best_value_mse"]) < 0.01
    assert fresh["history"][0]["held_ce"] > first["held_ce"] + 0.2


def test_init_refuses_a_mismatched_or_missing_network(flowers150: Path, tmp_path: Path) -> None:
    _clone(flowers150, tmp_path / "base")
    start = tmp_path / "base" / "best.npz"
    with pytest.raises(ConfigError, match=r"--init: .*policy layers are \[\(128, "):
        _clone(flowers150, tmp_path / "wide", hidden=[64], init=start)
    with pytest.raises(ConfigError, match="--init: .*missing.npz"):
        _clone(flowers150, tmp_path / "none", init=tmp_path / "missing.npz")
    policy_only = tmp_path / "policy_only.npz"
    with np.load(start) as z:
        np.savez(policy_only, **{k: z[k] for k in z.files if not k.startswith("v")})
    with pytest.raises(ConfigError, match="no value tower"):
        _clone(flowers150, tmp_path / "nv", init=policy_only)
    assert not (tmp_path / "wide" / "checkpoint.pt").exists()
