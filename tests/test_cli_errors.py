"""The ``formosa`` command on bad input: one line on stderr, exit status 2, no traceback.

One case per path (numbers, files, folders, agent specs, game options) of every
sub-command; destinations are checked before any game is played.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from formosa_envs import cli
from formosa_envs.cli import main
from formosa_envs.core.errors import FormosaError
from formosa_envs.tools.bench import BenchResult, format_bench, run_bench
from formosa_envs.tools.record import record_random_game, save_record

COMMANDS = ("list", "info", "play", "simulate", "replay", "train", "tournament", "bench")


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, str]:
    """A folder, a text file, a binary file, an .npz that is no policy, a game record."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "text.txt").write_text("hello\n")
    (tmp_path / "binary.dat").write_bytes(bytes(range(200, 256)) * 4)
    np.savez(tmp_path / "arrays.npz", a=np.zeros(3))
    save_record(record_random_game("flowers", 2, seed=0), tmp_path / "game.json")
    names = {"folder": "folder", "text": "text.txt", "binary": "binary.dat",
             "npz": "arrays.npz", "record": "game.json", "missing": "missing.npz",
             "under_file": "text.txt/sub", "new": "new"}
    return {key: str(tmp_path / name) for key, name in names.items()}


@pytest.fixture()
def unwritable(tmp_path: Path) -> str:
    """A place where no file can be created."""
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        return str(locked / "out")
    if Path("/proc/self").exists():  # root may write anywhere, except in /proc
        return "/proc/formosa-no-such-folder/out"
    blocker = tmp_path / "a-file"  # elsewhere: no folder can be made under a plain file
    blocker.write_text("x")
    return str(blocker / "sub" / "out")


def _assert_usage_error(argv: list[str], fragment: str,
                        capsys: pytest.CaptureFixture[str]) -> str:
    """``main(argv)`` exits 2 with one line naming ``fragment``; returns stdout."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    prefix = f"formosa {argv[0]}: error:" if argv[0] in COMMANDS else "formosa: error:"
    assert lines[0].startswith(prefix), lines[0]
    assert fragment in lines[0], lines[0]
    assert "Traceback" not in captured.err
    return captured.out


CASES: list[tuple[str, Callable[[dict[str, str]], list[str]], str]] = [
    # game options (-o): data files that are folders, binary, missing; malformed options
    ("info-card-folder", lambda f: ["info", "flowers", "-o", f"card_file={f['folder']}"],
     "folder"),
    ("info-card-binary", lambda f: ["info", "flowers", "-o", f"card_file={f['binary']}"],
     "binary.dat"),
    ("info-card-missing", lambda f: ["info", "flowers", "-o", f"card_file={f['missing']}"],
     "missing.npz"),
    ("info-option-shape", lambda f: ["info", "flowers", "-o", "=3"], "-o"),
    ("info-players-zero", lambda f: ["info", "flowers", "--players", "0"], "--players"),
    ("info-players-huge", lambda f: ["info", "tea", "--players", str(10**20)], "players"),
    ("bench-option", lambda f: ["bench", "flowers", "-o", "nonsense=1"], "nonsense"),
    # agent specs
    ("policy-not-a-policy", lambda f: ["simulate", "flowers", "--agents", f"policy:{f['npz']}"],
     "--agents"),
    ("policy-text-file", lambda f: ["simulate", "flowers", "--agents", f"policy:{f['text']}"],
     "--agents"),
    ("policy-missing", lambda f: ["simulate", "flowers", "--agents", f"policy:{f['missing']}"],
     "--agents"),
    ("policy-folder", lambda f: ["simulate", "flowers", "--agents", f"policy:{f['folder']}"],
     "--agents"),
    ("agent-unknown", lambda f: ["simulate", "flowers", "--agents", "genius"], "--agents"),
    ("agent-empty", lambda f: ["simulate", "flowers", "--agents", "random,,random"],
     "--agents"),
    ("seat-unknown", lambda f: ["play", "flowers", "--seats", "genius,random"], "--seats"),
    ("seats-count", lambda f: ["play", "flowers", "--seats", "human"], "--seats"),
    # numbers
    ("simulate-seed-negative", lambda f: ["simulate", "flowers", "--seed", "-5"], "--seed"),
    ("simulate-games-zero", lambda f: ["simulate", "flowers", "--games", "0"], "--games"),
    ("simulate-games-huge", lambda f: ["simulate", "flowers", "--games", str(10**14)],
     "--games"),
    ("tournament-games-huge", lambda f: ["tournament", "flowers", "--agents", "random,random",
                                         "--games", str(10**14)], "--games"),
    ("tournament-workers-huge", lambda f: ["tournament", "flowers", "--agents",
                                           "random,random", "--workers", "1000000"],
     "--workers"),
    ("simulate-games-word", lambda f: ["simulate", "flowers", "--games", "ten"], "--games"),
    ("play-seed-negative", lambda f: ["play", "flowers", "--seats", "random,random",
                                      "--seed", "-1"], "--seed"),
    ("bench-seconds-zero", lambda f: ["bench", "flowers", "--seconds", "0"], "--seconds"),
    ("bench-seconds-negative", lambda f: ["bench", "flowers", "--seconds", "-1"], "--seconds"),
    ("bench-seconds-nan", lambda f: ["bench", "flowers", "--seconds", "nan"], "--seconds"),
    ("replay-viewer-negative", lambda f: ["replay", f["record"], "--viewer", "-1"],
     "--viewer"),
    ("replay-viewer-huge", lambda f: ["replay", f["record"], "--viewer", "99"], "--viewer"),
    # files and folders
    ("simulate-record-file", lambda f: ["simulate", "flowers", "--record", f["text"]],
     "--record"),
    ("simulate-record-under-file", lambda f: ["simulate", "flowers", "--record",
                                              f["under_file"]], "--record"),
    ("replay-out-folder", lambda f: ["replay", f["record"], "--out", f["folder"]], "--out"),
    ("replay-record-folder", lambda f: ["replay", f["folder"]], "folder"),
    ("replay-record-missing", lambda f: ["replay", f["missing"]], "not found"),
    ("replay-record-binary", lambda f: ["replay", f["binary"]], "binary.dat"),
    ("play-record-folder", lambda f: ["play", "flowers", "--seats", "random,random",
                                      "--record", f["folder"]], "--record"),
    ("play-record-under-file", lambda f: ["play", "flowers", "--seats", "random,random",
                                          "--record", f["under_file"]], "--record"),
    # hand-overs: checked here before the training modules are even imported
    ("tournament-one-player", lambda f: ["tournament", "dadaocheng", "--players", "1",
                                         "--agents", "random,heuristic"], "--players"),
    ("tournament-one-agent", lambda f: ["tournament", "flowers", "--agents", "random"],
     "--agents"),
    ("tournament-seed", lambda f: ["tournament", "flowers", "--agents", "random,random",
                                   "--seed", "-3"], "--seed"),
    ("tournament-games", lambda f: ["tournament", "flowers", "--agents", "random,random",
                                    "--games", "0"], "--games"),
    ("tournament-out-file", lambda f: ["tournament", "flowers", "--agents", "random,random",
                                       "--out", f["text"]], "--out"),
    ("tournament-record-file", lambda f: ["tournament", "flowers", "--agents",
                                          "random,random", "--record", f["text"]], "--record"),
    ("train-config-folder", lambda f: ["train", "flowers", "--config", f["folder"]],
     "--config"),
    ("train-config-missing", lambda f: ["train", "flowers", "--config", f["missing"]],
     "--config"),
    ("train-out-file", lambda f: ["train", "flowers", "--out", f["text"]], "--out"),
    ("train-seed", lambda f: ["train", "flowers", "--seed", "-5"], "--seed"),
    ("unknown-command", lambda f: ["conquer"], "command"),
    ("unknown-game", lambda f: ["simulate", "chess"], "game"),
]


@pytest.mark.parametrize(("case", "argv", "fragment"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_status_2(case: str, argv: Callable[[dict[str, str]],
                                            list[str]], fragment: str, files: dict[str, str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = _assert_usage_error(argv(files), fragment, capsys)
    assert "Final scores" not in out and "wrote" not in out, "no work was done first"


@pytest.mark.parametrize("command", [
    ["simulate", "flowers", "--games", "1", "--record"],
    ["play", "flowers", "--seats", "random,random", "--record"],
    ["replay", "RECORD", "--out"],
    ["tournament", "flowers", "--agents", "random,random", "--out"],
    ["tournament", "flowers", "--agents", "random,random", "--record"],
])
def test_unwritable_destinations_are_refused_before_any_work(
        command: list[str], unwritable: str, files: dict[str, str],
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = [files["record"] if a == "RECORD" else a for a in command] + [unwritable]
    out = _assert_usage_error(argv, command[-1], capsys)
    assert "Final scores" not in out


def test_play_checks_the_record_destination_before_the_game(
        files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    """The game is not played (and lost) when its record cannot be written."""
    from formosa_envs.tools.play import HumanSeat, play_session
    from formosa_envs.tools.usage import UsageError
    out = io.StringIO()
    with pytest.raises(UsageError, match="--record"):
        play_session("flowers", 2, [HumanSeat(io.StringIO("0\n" * 999), out), "unused"],
                     seed=0, out=out, record_path=files["folder"])
    assert out.getvalue() == "", "nothing was shown or asked before the check"
    target = Path(files["new"]) / "game.json"  # a new folder is fine: created at the end
    assert main(["play", "flowers", "--seats", "random,random", "--seed", "1",
                 "--record", str(target)]) == 0
    assert target.is_file() and "game record saved" in capsys.readouterr().out


def test_api_checks_destinations_first(files: dict[str, str]) -> None:
    from formosa_envs.agents import RandomAgent

    from formosa_envs.tools.replay import write_replay
    from formosa_envs.tools.simulate import simulate
    with pytest.raises(FormosaError, match="--out"):
        write_replay(files["record"], files["folder"])
    agents = [RandomAgent(0), RandomAgent(1)]
    with pytest.raises(FormosaError, match="--record"):
        simulate("flowers", 2, 3, 0, agents, show_progress=False, record_dir=files["text"])


def test_bench_refuses_a_zero_duration_and_formats_a_zero_rate() -> None:
    with pytest.raises(FormosaError, match="seconds"):
        run_bench("flowers", 2, 0.0)
    table = format_bench([BenchResult("connect_four_v3 env()", 0, 0.0),
                          BenchResult("flowers engine", 10, 1.0)], "flowers", 2)
    assert "n/a" in table and "10" in table


def test_genuine_bugs_still_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only usage errors are turned into a message: a bug keeps its traceback."""
    def broken(args: object) -> int:
        raise KeyError("a bug")
    monkeypatch.setattr(cli, "cmd_list", broken)
    with pytest.raises(KeyError):
        main(["list"])

    def no_file(args: object) -> int:
        raise OSError("an OS error about no file")
    monkeypatch.setattr(cli, "cmd_list", no_file)
    with pytest.raises(OSError):
        main(["list"])


def test_an_os_error_on_a_named_path_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    def full_disk(args: object) -> int:
        raise OSError(28, "No space left on device", "games/game_00007.json")
    monkeypatch.setattr(cli, "cmd_list", full_disk)
    assert main(["list"]) == 2
    err = capsys.readouterr().err
    assert err == "formosa list: error: games/game_00007.json: No space left on device\n"


def test_the_console_command_prints_no_traceback(files: dict[str, str]) -> None:
    """The real process: exit status 2, one line on stderr."""
    for argv in (["simulate", "flowers", "--seed", "-5"],
                 ["info", "flowers", "-o", f"card_file={files['folder']}"]):
        done = subprocess.run([sys.executable, "-m", "formosa_envs.cli", *argv],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_one_one_line_parser_for_the_cli_and_training() -> None:
    """The formosa command and the training entry points share usage.OneLineParser."""
    import argparse

    from formosa_envs.tools import console, usage

    assert console.OneLineParser is usage.OneLineParser
    assert console.one_line is usage.one_line and console.USAGE_ERROR == usage.USAGE_ERROR == 2
    parser = cli.build_parser()
    assert isinstance(parser, usage.OneLineParser)
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert subs and all(isinstance(p, usage.OneLineParser) for p in subs[0].choices.values())


def test_one_line_parser_joins_a_multi_line_message(capsys: pytest.CaptureFixture[str]) -> None:
    from formosa_envs.tools.usage import OneLineParser
    with pytest.raises(SystemExit) as exc:
        OneLineParser(prog="prog").error("first\nsecond")
    assert exc.value.code == 2
    assert capsys.readouterr().err == "prog: error: first; second (see prog -h)\n"


def test_only_a_commands_own_default_folder_gets_its_parents(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``runs/<game>`` (the default when --out is not given) works in a fresh checkout;
    a path the user typed makes only its last folder, naming a missing parent."""
    from formosa_envs.tools.usage import UsageError, check_output_folder
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match="the folder runs does not exist"):
        check_output_folder("runs/flowers", "--out")
    assert not (tmp_path / "runs").exists()
    check_output_folder("runs/flowers", "out", default=True)
    assert (tmp_path / "runs").is_dir() and not (tmp_path / "runs" / "flowers").exists()
