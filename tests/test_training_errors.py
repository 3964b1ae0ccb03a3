"""Bad input to the training entry points: a clear error, never a
traceback. Training options (flags and TOML fields), the TOML file itself, the run folder,
``--resume``, ``python -m formosa_envs.training.ppo.export``, tournament workers, solo evaluation
and
policy files each fail with a FormosaError naming what is wrong, before anything is built
or written; on the command line that is one line and exit status 2."""

from __future__ import annotations

import math
import subprocess
import sys
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import AgentSpecError, make_agent
from formosa_envs.agents.policy import PolicyAgent
from formosa_envs.training.ppo.config import (
    CHOICES,
    FLOAT_BOUNDS,
    INT_BOUNDS,
    MAX_TIMESTEPS,
    load_config,
)

from formosa_envs.core.errors import ConfigError, FormosaError
from formosa_envs.evaluation import backends
from formosa_envs.evaluation.evaluate import MatchRecord

ROOT = Path(__file__).resolve().parents[1]
TINY = ["--timesteps", "256", "--clone-games", "0", "--n-envs", "2", "--n-steps", "64",
        "--batch-size", "64", "--eval-every", "256", "--eval-games", "2", "--final-games", "2",
        "--snapshot-every", "256", "--checkpoint-every", "256", "--workers", "1", "--quiet"]


def one_line_error(err: str, *needles: str) -> None:
    """``err`` is a single ``...: error: ...`` line holding every needle, no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert ": error: " in lines[0] and "Traceback" not in err and "usage:" not in err, err
    for needle in needles:
        assert needle in lines[0], (needle, err)


# --- tournament workers -------------------------------------------------------------------

class _InlineExecutor:
    """A ProcessPoolExecutor stand-in that records its size and runs work in-line."""

    sizes: list[int] = []

    def __init__(self, max_workers: int) -> None:
        self.sizes.append(max_workers)

    def __enter__(self) -> _InlineExecutor:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def submit(self, fn: Any, *args: Any) -> Future:
        future: Future = Future()
        future.set_result(fn(*args))
        return future


def _records(count: int) -> list[MatchRecord]:
    return [MatchRecord(index=i, table=0, game=i, seats=[], specs=[], chance_seed=i,
                        agent_seeds=[]) for i in range(count)]


def test_process_pool_never_starts_more_processes_than_chunks(monkeypatch) -> None:
    monkeypatch.setattr(backends, "ProcessPoolExecutor", _InlineExecutor)
    monkeypatch.setattr(backends, "play_chunk", lambda setup, chunk: list(chunk))
    _InlineExecutor.sizes = []
    tasks = _records(3)
    for workers in (200, 10**6):  # a million workers used to start a million processes
        out = backends.run_tasks(("flowers",), tasks, workers, "process", show_progress=False)
        assert [r.index for r in out] == [0, 1, 2]
    assert _InlineExecutor.sizes == [3, 3]


@pytest.mark.parametrize("workers", [0, -4, 1.5, True])
def test_workers_below_one_or_not_whole_are_refused(workers: Any) -> None:
    with pytest.raises(ConfigError, match="workers must be a whole number >= 1"):
        backends.chunk_tasks(_records(4), workers)
    with pytest.raises(ConfigError, match="workers"):
        backends.resolve_backend(None, workers)
    with pytest.raises(ConfigError, match="workers"):
        backends.run_tasks(("flowers",), _records(2), workers, "process", show_progress=False)


# --- training options: every field of the TOML -------------------------------------------

def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return repr(value)


def _bad_values() -> list[tuple[str, Any]]:
    cases: list[tuple[str, Any]] = []
    for name, (low, high) in INT_BOUNDS.items():
        cases += [(name, low - 1), (name, high + 1), (name, 2.5), (name, True), (name, "3")]
    for name, (low, high, closed) in FLOAT_BOUNDS.items():
        cases += [(name, low - 0.5), (name, high + 1), (name, math.nan), (name, math.inf),
                  (name, "0.1"), (name, False)]
        if not closed:
            cases.append((name, low))
    for name in sorted(set(CHOICES) - {"game"}):  # game: the command's (a different one: below)
        cases += [(name, "nope"), (name, 3)]
    cases += [("net_arch", v) for v in ([], [0], [64, 2.5], "128", [128] * 9, [10**6])]
    cases += [("player_counts", v) for v in ([1], [7], [2, 2.5], "2", [True], [[2]])]
    cases += [("out", ""), ("out", 3)]
    return cases


@pytest.mark.parametrize(("name", "value"), _bad_values(), ids=lambda v: repr(v)[:20])
def test_every_toml_field_is_checked(tmp_path: Path, name: str, value: Any) -> None:
    path = tmp_path / "run.toml"
    path.write_text(f"[train]\n{name} = {_toml_value(value)}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config("flowers", str(path))
    message = str(info.value)
    assert name in message and "must be" in message and str(path) in message, message


def test_cross_field_checks_name_the_field(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="num_players must be from 2 to 4 for flowers"):
        load_config("flowers", num_players=5)
    with pytest.raises(ConfigError, match="batch_size must be >= 2 and <= n_steps"):
        load_config("flowers", n_steps=8, n_envs=2, batch_size=64)
    with pytest.raises(ConfigError, match="n_steps \\* n_envs must be <="):
        load_config("flowers", n_steps=10**6, n_envs=64)
    with pytest.raises(ConfigError, match="positive sum"):
        load_config("flowers", random=0.0, heuristic=0.0, snapshots=0.0)
    with pytest.raises(ConfigError, match="seed must be >= 0.*from --seed"):
        load_config("flowers", flags={"seed": "--seed"}, seed=-1)
    with pytest.raises(ConfigError, match=f"total_timesteps must be >= 1 and <= {MAX_TIMESTEPS:,}"):
        load_config("flowers", total_timesteps=MAX_TIMESTEPS + 1)
    with pytest.raises(ConfigError, match="unknown game"):
        load_config("chess")
    with pytest.raises(ConfigError, match="player_counts must hold seat counts from 2 to 4 "
                                          "for flowers, got 5"):
        load_config("flowers", player_counts=[2, 5])
    with pytest.raises(ConfigError, match="lists 3 counts but there are only n_envs = 2"):
        load_config("flowers", player_counts=[2, 3, 4], n_envs=2)


@pytest.mark.parametrize(("content", "expected"), [
    (b"\xff\xfe[train]\n", "not UTF-8"),
    (b"[train\nseed = 1\n", "not valid TOML"),
    (b"[train]\nn_envs = 2\n[eval]\nn_envs = 4\n", "n_envs is set twice"),
    (b"[train]\ncolour = 1\n", "unknown training option"),
    (b"[train.nested]\nseed = 1\n", "unknown training option"),
    (b"seed = -3\n", "seed must be >= 0"),
    (b'game = "tea"\n', "game = 'tea'"),
])
def test_toml_file_errors_name_the_file(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "run.toml"
    path.write_bytes(content)
    with pytest.raises(ConfigError, match=expected) as info:
        load_config("flowers", str(path))
    assert str(path) in str(info.value)


def test_config_folder_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a folder"):
        load_config("flowers", str(tmp_path))
    with pytest.raises(ConfigError, match="not found"):
        load_config("flowers", str(tmp_path / "missing.toml"))


@pytest.mark.parametrize("name", ["flowers", "taiwan", "tea", "dadaocheng", "dadaocheng_solo",
                                  "taiwan_multi"])
def test_shipped_configs_are_valid(name: str) -> None:
    game = name.split("_")[0]
    path = ROOT / "training" / "configs" / f"{name}.toml"
    assert load_config(game, str(path)).game == game


# --- python -m formosa_envs.training.ppo.train: one line, status 2
# -----------------------------------------

BAD_FLAGS = [
    (["--seed", "-5"], "--seed"), (["--seed", "4294967296"], "--seed"),
    (["--timesteps", "0"], "--timesteps"), (["--timesteps", str(10**11)], "--timesteps"),
    (["--players", "0"], "--players"), (["--n-envs", "1000000"], "--n-envs"),
    (["--n-envs", "two"], "--n-envs"), (["--workers", "0"], "--workers"),
    (["--workers", "1000000"], "--workers"), (["--eval-every", "-1"], "--eval-every"),
    (["--eval-games", "0"], "--eval-games"), (["--final-games", "0"], "--final-games"),
    (["--snapshot-every", "0"], "--snapshot-every"),
    (["--checkpoint-every", "0"], "--checkpoint-every"), (["--n-steps", "0"], "--n-steps"),
    (["--batch-size", "1"], "--batch-size"), (["--learning-rate", "0"], "--learning-rate"),
    (["--learning-rate", "nan"], "--learning-rate"), (["--vec-env", "threads"], "--vec-env"),
    (["--backend", "tpu"], "--backend"), (["--bogus"], "--bogus"),
]

JAX_BAD_FLAGS = [
    (["flowers", "--updates", "0"], "--updates"), (["flowers", "--num-envs", "x"], "--num-envs"),
    (["tea"], "argument game"), (["flowers", "--bogus"], "--bogus"),
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("argv", "flag"), JAX_BAD_FLAGS,
                         ids=[" ".join(a) for a, _ in JAX_BAD_FLAGS])
def test_bad_jax_backend_flags_are_one_line(capsys, argv: list[str], flag: str) -> None:
    """``formosa train --backend jax``: bad flags fail before JAX is imported."""
    from formosa_envs.training.train import main
    with pytest.raises(SystemExit) as info:
        main([*argv, "--backend", "jax", "--quiet"])
    assert info.value.code == 2
    one_line_error(capsys.readouterr().err, flag)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("argv", "message"), [
    (["--minutes", "-1"], "minutes must be a number from 0"),
    (["--num-envs", "100"], "multiple of pool_size"),
    (["--out", "OLD"], "already holds a run (config.json)"),
])
def test_bad_jax_settings_are_one_line(capsys, tmp_path, argv: list[str], message: str) -> None:
    from formosa_envs.training.train import cli
    (tmp_path / "OLD").mkdir()
    (tmp_path / "OLD" / "config.json").write_text("{}")
    argv = [str(tmp_path / a) if a == "OLD" else a for a in argv]
    out = [] if "--out" in argv else ["--out", str(tmp_path / "r")]
    assert cli(["flowers", "--backend", "jax", *argv, *out, "--quiet"]) == 2
    one_line_error(capsys.readouterr().err, message)


@pytest.mark.timeout(60)  # the old code trained (for ever) on most of these
@pytest.mark.parametrize(("argv", "flag"), BAD_FLAGS, ids=[" ".join(a) for a, _ in BAD_FLAGS])
def test_bad_flags_are_one_line_and_status_2(capsys, argv: list[str], flag: str) -> None:
    from formosa_envs.training.ppo.train import main
    with pytest.raises(SystemExit) as info:
        main(["flowers", *argv, "--quiet"])
    assert info.value.code == 2
    one_line_error(capsys.readouterr().err, flag)


@pytest.mark.timeout(60)
def test_unknown_game_is_one_line(capsys) -> None:
    from formosa_envs.training.ppo.train import cli
    assert cli(["chess", "--quiet"]) == 2
    one_line_error(capsys.readouterr().err, "argument game", "flowers")


@pytest.mark.timeout(60)
def test_cross_checked_flags_name_the_flag(capsys, tmp_path: Path) -> None:
    from formosa_envs.training.ppo.train import cli
    argv = ["flowers", "--players", "6", "--out", str(tmp_path / "run"), *TINY]
    assert cli(argv) == 2
    one_line_error(capsys.readouterr().err, "num_players", "--players", "2 to 4")
    argv = ["flowers", "--learning-rate", "3", "--out", str(tmp_path / "run"), *TINY]
    assert cli(argv) == 2
    one_line_error(capsys.readouterr().err, "learning_rate", "--learning-rate")
    assert not (tmp_path / "run").exists()


@pytest.mark.timeout(60)
def test_bad_config_files_are_one_line(capsys, tmp_path: Path) -> None:
    from formosa_envs.training.ppo.train import cli
    wrong_type = tmp_path / "types.toml"
    wrong_type.write_text('[train]\nn_envs = "eight"\n')
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\x80\x81\x82")
    for config, needle in [(tmp_path, "is a folder"), (tmp_path / "no.toml", "not found"),
                           (binary, "not UTF-8"), (wrong_type, "n_envs")]:
        assert cli(["flowers", "--config", str(config), "--out", str(tmp_path / "r")]) == 2
        one_line_error(capsys.readouterr().err, needle)
    assert not (tmp_path / "r").exists()


@pytest.mark.timeout(60)
def test_out_must_be_a_usable_folder(capsys, tmp_path: Path) -> None:
    from formosa_envs.training.ppo.train import cli
    taken = tmp_path / "a_file"
    taken.write_text("x")
    assert cli(["flowers", "--out", str(taken), *TINY]) == 2
    one_line_error(capsys.readouterr().err, "--out", "is a file")
    assert cli(["flowers", "--out", str(taken / "run"), *TINY]) == 2
    one_line_error(capsys.readouterr().err, "--out")


@pytest.mark.timeout(60)
def test_resume_without_checkpoint_writes_nothing(capsys, tmp_path: Path) -> None:
    from formosa_envs.training.ppo.train import cli
    run = tmp_path / "run"
    assert cli(["flowers", "--out", str(run), "--resume", *TINY]) == 2
    one_line_error(capsys.readouterr().err, "no checkpoint")
    assert not run.exists()  # the old code wrote config.json first


@pytest.mark.timeout(60)
def test_resume_from_a_corrupt_checkpoint(capsys, tmp_path: Path) -> None:
    from formosa_envs.training.ppo.train import cli
    latest = tmp_path / "run" / "checkpoints" / "latest.zip"
    latest.parent.mkdir(parents=True)
    latest.write_text("not a checkpoint")
    assert cli(["flowers", "--out", str(tmp_path / "run"), "--resume", *TINY]) == 2
    one_line_error(capsys.readouterr().err, "--resume", "not a MaskablePPO checkpoint")


@pytest.mark.timeout(60)
def test_formosa_train_wrong_toml_type_is_one_line(capsys, tmp_path: Path) -> None:
    from formosa_envs.cli import main as formosa_main
    bad = tmp_path / "bad.toml"
    bad.write_text("[train]\nn_envs = [1]\n")
    assert formosa_main(["train", "flowers", "--config", str(bad), "--out",
                         str(tmp_path / "r")]) == 2
    one_line_error(capsys.readouterr().err, "n_envs", str(bad))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("module", ["formosa_envs.training.ppo.train",
                                    "formosa_envs.training.ppo.export"])
def test_python_dash_m_prints_no_traceback(tmp_path: Path, module: str) -> None:
    argv = (["flowers", "--config", str(tmp_path)] if module == "formosa_envs.training.ppo.train"
            else [str(tmp_path / "missing.zip"), str(tmp_path / "out.npz")])
    proc = subprocess.run([sys.executable, "-m", module, *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    one_line_error(proc.stderr, str(tmp_path))


# --- python -m formosa_envs.training.ppo.export
# ------------------------------------------------------------

@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An untrained MaskablePPO saved as a checkpoint (no learning: about a second)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from formosa_envs.envs.single_agent import SingleAgentEnv
    venv = DummyVecEnv([lambda: SingleAgentEnv("flowers")])
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=16, device="cpu",
                        policy_kwargs={"net_arch": [8], "activation_fn": torch.nn.Tanh})
    path = tmp_path_factory.mktemp("ckpt") / "model.zip"
    model.save(path)
    return path


def test_export_checks_model_and_destination(capsys, tmp_path: Path, checkpoint: Path) -> None:
    from formosa_envs.training.ppo.export import cli
    text = tmp_path / "notes.zip"
    text.write_text("hello")
    cases = [([str(text), str(tmp_path / "p.npz")], "not a MaskablePPO checkpoint"),
             ([str(tmp_path), str(tmp_path / "p.npz")], "is a folder"),
             ([str(tmp_path / "none.zip"), str(tmp_path / "p.npz")], "not found"),
             ([str(checkpoint), str(tmp_path)], "is a folder"),
             ([str(checkpoint), str(tmp_path / "p.txt")], "must end in .npz"),
             ([str(text / "x.npz"), str(tmp_path / "p.npz")], "not found")]
    for argv, needle in cases:
        assert cli(argv) == 2, argv
        one_line_error(capsys.readouterr().err, needle)
    assert not (tmp_path / "p.npz").exists()
    assert cli([str(checkpoint), str(tmp_path / "p.npz")]) == 0
    assert PolicyAgent.load(tmp_path / "p.npz").layers[0][0].shape[0] == 8


def test_export_refuses_an_activation_it_cannot_play() -> None:
    import torch
    from formosa_envs.training.ppo.export import actor_layers
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from formosa_envs.envs.single_agent import SingleAgentEnv
    venv = DummyVecEnv([lambda: SingleAgentEnv("flowers")])
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=16, device="cpu",
                        policy_kwargs={"net_arch": [8], "activation_fn": torch.nn.GELU})
    with pytest.raises(ConfigError, match="cannot export activations"):
        actor_layers(model)


# --- solo evaluation ----------------------------------------------------------------------

@pytest.mark.parametrize(("games", "seed", "field"), [(0, 0, "games"), (-1, 0, "games"),
                                                       (2.0, 0, "games"), (1, -1, "seed")])
def test_solo_share_checks_its_counts(games: Any, seed: Any, field: str) -> None:
    from formosa_envs.evaluation.solo import solo_share
    with pytest.raises(ConfigError, match=f"{field} must be a whole number"):
        solo_share("dadaocheng", "random", games=games, seed=seed)


def test_paired_solo_scores_compare_the_same_deals() -> None:
    """An agent against itself differs by nothing on every deal; random against the
    heuristic is far below it, and the interval holds the mean difference."""
    from formosa_envs.evaluation.solo import paired_scores, solo_share
    same = paired_scores("dadaocheng", "heuristic", "heuristic", games=3, seed=5)
    assert same["mean_difference"] == 0.0 and same["difference_ci95"] == [0.0, 0.0]
    worse = paired_scores("dadaocheng", "random", "heuristic", games=3, seed=5)
    low, high = worse["difference_ci95"]
    assert low <= worse["mean_difference"] <= high and worse["mean_difference"] < -10
    assert worse["baseline_mean_score"] == solo_share("dadaocheng", "heuristic", 3, 5)[
        "mean_score"]
    with pytest.raises(ConfigError, match="games must be a whole number"):
        paired_scores("dadaocheng", "random", "heuristic", games=0, seed=5)
    from formosa_envs.evaluation.solo import paired_difference, solo_infos
    three = solo_infos("dadaocheng", "random", 3, 5)
    with pytest.raises(ConfigError, match="the same deals on both sides, got 3 and 2"):
        paired_difference(three, three[:2])


# --- policy files -------------------------------------------------------------------------

def _save(path: Path, **arrays: Any) -> Path:
    base = {"activation": np.array("tanh"), "w0": np.zeros((3, 4), np.float32),
            "b0": np.zeros(3, np.float32), "w_out": np.zeros((5, 3), np.float32),
            "b_out": np.zeros(5, np.float32)}
    base.update(arrays)
    np.savez(path, **{k: v for k, v in base.items() if v is not None})
    return path


def test_policy_file_that_is_not_an_archive(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a policy\n")
    npy = tmp_path / "weights.npy"
    np.save(npy, np.zeros(3))
    for path in (text, npy):
        with pytest.raises(AgentSpecError, match="not an .npz policy archive") as info:
            PolicyAgent.load(path)
        assert str(path) in str(info.value) and "pickle" not in str(info.value)
    with pytest.raises(AgentSpecError, match="not an .npz policy archive"):
        make_agent(f"policy:{text}", "flowers")


def test_policy_path_missing_or_a_folder(tmp_path: Path) -> None:
    with pytest.raises(AgentSpecError, match="not found") as info:
        PolicyAgent.load(tmp_path / "missing.npz")
    assert isinstance(info.value, FileNotFoundError)  # callers catching that still do
    with pytest.raises(AgentSpecError, match="is a folder") as info:
        PolicyAgent.load(tmp_path)
    assert str(tmp_path) in str(info.value)


@pytest.mark.parametrize(("arrays", "expected"), [
    ({"w_out": None}, "missing arrays w_out"),
    ({"b0": None}, "missing arrays b0"),
    ({"w1": np.zeros((3, 3), np.float32)}, "missing arrays b1"),
    ({"activation": None}, "activation must be one of relu, tanh, got missing"),
    ({"activation": np.array("gelu")}, "activation must be one of relu, tanh, got 'gelu'"),
    ({"w0": np.zeros(4, np.float32)}, "w0 must be a non-empty 2-D"),
    ({"b0": np.zeros(2, np.float32)}, "b0 has shape \\(2,\\)"),
    ({"w_out": np.zeros((5, 2), np.float32)}, "w_out has shape \\(5, 2\\): it takes 2 inputs"),
    ({"w0": np.zeros((3, 4), np.int64)}, "must be float arrays"),
    ({"b_out": np.full(5, np.nan, np.float32)}, "NaN or infinity"),
])
def test_policy_archive_contents_are_checked(tmp_path: Path, arrays: dict, expected: str
                                             ) -> None:
    path = _save(tmp_path / "p.npz", **arrays)
    with pytest.raises(AgentSpecError, match=expected) as info:
        PolicyAgent.load(path)
    assert str(path) in str(info.value)


def test_formosa_simulate_with_a_text_policy_is_one_line(capsys, tmp_path: Path) -> None:
    from formosa_envs.cli import main as formosa_main
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    assert formosa_main(["simulate", "flowers", "--games", "1", "--agents",
                         f"policy:{text}"]) == 2
    one_line_error(capsys.readouterr().err, "not an .npz policy archive", str(text))


def test_errors_are_formosa_errors() -> None:
    assert issubclass(AgentSpecError, FormosaError) and issubclass(ConfigError, ValueError)


# --- python -m formosa_envs.evaluation.evaluate
# ----------------------------------------------------------

@pytest.mark.parametrize(("flag", "value", "needle"), [
    ("--players", "1", ">= 2"), ("--players", "x", "whole number"),
    ("--games", "0", "from 1"), ("--games", "100000000", "10,000,000"),
    ("--seed", "-5", ">= 0"), ("--workers", "0", "from 1"), ("--workers", "257", "256")])
def test_evaluate_flags_are_bounded(capsys, flag: str, value: str, needle: str) -> None:
    from formosa_envs.evaluation.evaluate import cli
    assert cli(["flowers", "--agents", "random,random", flag, value]) == 2
    one_line_error(capsys.readouterr().err, "python -m formosa_envs.evaluation.evaluate", flag,
                   needle)


def test_evaluate_out_is_checked_before_any_game(capsys, monkeypatch, tmp_path: Path) -> None:
    from formosa_envs.evaluation import evaluate

    def no_games(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a game was played before --out was checked")
    monkeypatch.setattr(evaluate, "run_tournament", no_games)
    (tmp_path / "file").write_text("x")
    for out in (tmp_path / "file", tmp_path / "file" / "sub"):
        assert evaluate.cli(["flowers", "--agents", "random,random", "--out", str(out)]) == 2
        one_line_error(capsys.readouterr().err, "--out", str(out))


def test_evaluate_bad_spec_is_one_line(capsys) -> None:
    from formosa_envs.evaluation.evaluate import cli
    assert cli(["flowers", "--agents", "random,nosuchagent", "--games", "2", "--quiet"]) == 2
    one_line_error(capsys.readouterr().err, "nosuchagent")
    assert cli(["flowers", "--agents", "random,random", "--players", "99", "--quiet"]) == 2
    one_line_error(capsys.readouterr().err, "2-4 players", "99")


@pytest.mark.timeout(60)
def test_python_dash_m_evaluate_prints_no_traceback(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "formosa_envs.evaluation.evaluate", "flowers",
                           "--agents",
                           "random,random", "--seed", "-1"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2
    one_line_error(proc.stderr, "--seed")


# --- python -m formosa_envs.training.ppo.train_rllib (no Ray run: every case fails before one
# starts) ------

@pytest.mark.parametrize(("flag", "value", "needle"), [
    ("--runners", "-1", "from 0 to 256"), ("--runners", "257", "256"),
    ("--learners", "-1", "from 0"), ("--learners", "1000", "256"),
    ("--envs-per-runner", "0", "from 1"), ("--envs-per-runner", "x", "whole number")])
def test_rllib_counts_are_bounded(capsys, flag: str, value: str, needle: str) -> None:
    from formosa_envs.training.ppo.train_rllib import cli
    assert cli(["flowers", flag, value]) == 2
    one_line_error(capsys.readouterr().err, flag, needle)


def test_rllib_settings_upper_bounds_are_config_errors() -> None:
    from formosa_envs.training.ppo.train_rllib import MAX_RUNNERS, RLlibSettings
    for settings in (RLlibSettings(runners=MAX_RUNNERS + 1), RLlibSettings(learners=10**6),
                     RLlibSettings(envs_per_runner=0), RLlibSettings(runners=1.5)):
        with pytest.raises(ConfigError, match="--runners and --learners must be >= 0"):
            settings.validate(2)
    RLlibSettings(runners=MAX_RUNNERS, learners=0, envs_per_runner=1).validate(2)


def test_rllib_without_ray_is_a_config_error(capsys, monkeypatch, tmp_path: Path) -> None:
    from formosa_envs.training.ppo import train_rllib
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(ConfigError, match=r"pip install -e '\.\[rllib\]'"):
        train_rllib.require_ray()
    assert train_rllib.cli(["flowers", "--out", str(tmp_path / "run")]) == 2
    one_line_error(capsys.readouterr().err, "python -m formosa_envs.training.ppo.train_rllib",
                   "[rllib]")
    assert not (tmp_path / "run").exists()


def test_rllib_out_is_checked_before_ray_starts(capsys, monkeypatch, tmp_path: Path) -> None:
    from formosa_envs.training.ppo import train_rllib
    monkeypatch.setattr(train_rllib, "require_ray", lambda: None)

    def no_run(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("training started before --out was checked")
    monkeypatch.setattr(train_rllib, "train_rllib", no_run)
    (tmp_path / "file").write_text("x")
    assert train_rllib.cli(["flowers", "--out", str(tmp_path / "file")]) == 2
    one_line_error(capsys.readouterr().err, "--out", "is a file")


@pytest.mark.timeout(60)
def test_python_dash_m_train_rllib_prints_no_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "formosa_envs.training.ppo.train_rllib", "flowers",
                           "--runners", "-3"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2
    one_line_error(proc.stderr, "--runners")
