"""The ``formosa`` command: list, info, simulate, play (scripted stdin), bench, errors."""

from __future__ import annotations

import io

import pytest
from formosa_envs.agents import RandomAgent

from formosa_envs.cli import main, parse_options
from formosa_envs.tools.bench import bench_aec, bench_engine, format_bench
from formosa_envs.tools.play import HumanSeat, parse_choice, play_session


def test_list_and_info(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    assert "formosa/flowers-v1" in capsys.readouterr().out
    assert main(["info", "flowers", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "PLAY_CARD[54]" in out and "own_hand[54]" in out
    assert "current_month" in out  # the game's options are listed


def test_simulate_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "flowers", "--players", "3", "--games", "20", "--seed", "0"]) == 0
    captured = capsys.readouterr()
    assert "20 games" in captured.out and "win share by seat" in captured.out
    assert "seat 2:" in captured.out and "decisions per game" in captured.out
    assert "20/20" in captured.err, "progress bar goes to stderr"


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "flowers", "--games", "5", "--seed", "3", "--quiet"])
    first = capsys.readouterr().out
    main(["simulate", "flowers", "--games", "5", "--seed", "3", "--quiet"])
    assert capsys.readouterr().out == first


@pytest.mark.parametrize("argv", [
    ["simulate", "flowers", "--players", "9", "--games", "1"],
    ["simulate", "flowers", "--games", "0"],
    ["simulate", "flowers", "--agents", "genius"],
    ["simulate", "flowers", "-o", "current_month"],
    ["simulate", "flowers", "-o", "current_month=13"],
    ["play", "flowers", "--seats", "human"],
])
def test_bad_arguments_give_an_error_not_a_traceback(argv: list[str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert f"formosa {argv[0]}: error:" in capsys.readouterr().err


def test_parse_options_types_values() -> None:
    assert parse_options(["current_month=5", "card_file=x.toml", "a=none", "b=true"]) == {
        "current_month": 5, "card_file": "x.toml", "a": None, "b": True}


def test_parse_choice() -> None:
    assert parse_choice(" 2\n", 3) == 1  # moves are numbered from 1
    assert parse_choice("3", 3) == 2 and parse_choice("4", 3) is None
    assert parse_choice("0", 3) is None
    assert parse_choice("-1", 3) is None
    assert parse_choice("two", 3) is None


def test_human_plays_a_whole_game_from_scripted_input() -> None:
    """A person who always answers 1 (after some bad input) finishes a game."""
    stdin = io.StringIO("hello\n99\n\n" + "1\n" * 5000)
    out = io.StringIO()
    scores = play_session("flowers", 2, [HumanSeat(stdin, out), RandomAgent(seed=1)], seed=0,
                          out=out)
    text = out.getvalue()
    assert scores is not None and max(scores) >= 60
    assert "'hello' is not a move number" in text and "'99' is not a move number" in text
    assert "hidden card(s)" in text, "the opponent's hand is hidden from the human"
    assert "chance: reveal" in text, "reveals are narrated"
    assert "chance: deal" not in text, "deals (secret hands) are never narrated"
    assert "Final scores" in text


def test_human_can_quit_and_end_of_input_quits() -> None:
    out = io.StringIO()
    assert play_session("flowers", 2, [HumanSeat(io.StringIO("q\n"), out), RandomAgent(0)],
                        seed=0, out=out) is None
    assert "Game abandoned" in out.getvalue()
    assert play_session("flowers", 2, [HumanSeat(io.StringIO(""), out), RandomAgent(0)],
                        seed=0, out=out) is None


def test_bench_functions_measure_and_format() -> None:
    import formosa_envs
    from formosa_envs.games import make_game
    engine = bench_engine(make_game("flowers", num_players=2), 0.2)
    env = bench_aec(formosa_envs.env("flowers", num_players=2), "flowers env()", 0.2)
    c4 = bench_aec(formosa_envs.env("flowers", num_players=2), "connect_four_v3 env()", 0.2)
    assert engine.decisions > 0 and env.decisions > 0
    table = format_bench([c4, env, engine], "flowers", 2)
    assert "decisions/s" in table and "x" in table


class _Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_in_a_log_is_a_few_plain_lines() -> None:
    """Not a terminal (a log file, a pipe): lines, never a carriage-return redraw storm."""
    from formosa_envs.tools.progress import progress
    log = io.StringIO()
    assert list(progress(range(5000), 5000, "simulating", stream=log, every=0.0)) == \
        list(range(5000))
    text = log.getvalue()
    assert "\r" not in text
    lines = text.splitlines()
    assert 1 <= len(lines) <= 11, lines  # at most one per tenth, plus none extra
    assert lines[-1].startswith("simulating: 100% 5000/5000")


def test_progress_bar_by_hand_in_a_log_counts_new_work_and_notes() -> None:
    from formosa_envs.tools.progress import ProgressBar
    log = io.StringIO()
    bar = ProgressBar(1000, "training", stream=log, start=400)
    for done in range(400, 1300, 3):  # callers may report past the total
        bar.update(done, "  vs random 40%")
    bar.close()
    bar.close()
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue() and len(lines) <= 7, lines
    assert lines[-1].startswith("training: 100% 1000/1000") and "vs random 40%" in lines[-1]


def test_progress_on_a_terminal_is_a_live_bar() -> None:
    from formosa_envs.tools.progress import progress
    tty = _Terminal()
    list(progress(range(200), 200, "simulating", stream=tty, every=0.0))
    text = tty.getvalue()
    assert "\r" in text and "|" in text and "200/200" in text, text[-200:]


def test_progress_disabled_writes_nothing() -> None:
    from formosa_envs.tools.progress import ProgressBar, progress
    out = _Terminal()
    assert list(progress(range(3), 3, "x", stream=out, enabled=False)) == [0, 1, 2]
    bar = ProgressBar(3, stream=out, enabled=False)
    bar.update(2)
    bar.close()
    assert out.getvalue() == ""


def test_progress_front_end_in_jupyter_depends_on_widgets(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """In a Jupyter kernel stderr is no terminal: tqdm's widget if ipywidgets is there,
    else plain lines (never a storm of redraws in the cell's output)."""
    import importlib.util
    import sys
    import types

    from formosa_envs.tools import progress as progress_module
    shell = types.SimpleNamespace(config={"IPKernelApp": {}})
    monkeypatch.setitem(sys.modules, "IPython",
                        types.SimpleNamespace(get_ipython=lambda: shell))
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name: object() if name == "ipywidgets" else real_find_spec(name))
    assert progress_module.live_output(sys.stderr)
    assert not progress_module.live_output(io.StringIO()), "an explicit log stays lines"
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name: None if name == "ipywidgets" else real_find_spec(name))
    assert not progress_module.live_output(sys.stderr)
