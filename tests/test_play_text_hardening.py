"""``formosa play`` against odd typing: any line a person types is a move number, ``q``,
or a polite refusal and a new prompt; never a traceback."""

from __future__ import annotations

import io

import pytest
from formosa_envs.agents import make_agent

from formosa_envs.tools.play import HumanSeat, parse_choice, play_session

ODD = ["\u00b2", "\u2075", "\u2460", "9" * 5000, "-1", "+1", "1e3", "0x1", "1_0", "1.0", "",
       "\x00", "\u202e1", "\U0001f4a9", "1 2"]


@pytest.mark.parametrize("line", ODD, ids=[repr(x)[:10] for x in ODD])
def test_odd_lines_are_not_move_numbers(line: str) -> None:
    assert parse_choice(line + "\n", 5) is None


def test_plain_and_other_script_digits_are_read() -> None:
    """Moves are numbered from 1: the number typed is the list index plus one."""
    assert parse_choice(" 3 \r\n", 5) == 2
    assert parse_choice("\u0663", 5) == 2  # Arabic-Indic three: int() reads it
    assert parse_choice("0007", 8) == 6 and parse_choice("8", 8) == 7
    assert parse_choice("9", 8) is None and parse_choice("0", 8) is None


def test_a_session_goes_on_after_odd_lines_and_ends_on_end_of_input() -> None:
    """Every odd line is refused with a message and the same seat is asked again; the end
    of input leaves the game cleanly (no record, no traceback)."""
    typed = "".join(line.replace("\n", " ") + "\n" for line in ODD) + "1\n"
    out = io.StringIO()
    seats = [HumanSeat(io.StringIO(typed), out), make_agent("random", "flowers", 1)]
    assert play_session("flowers", 2, seats, seed=2, out=out) is None
    text = out.getvalue()
    assert text.count("is not a move number between 1 and") == len(ODD)
    assert text.rstrip().endswith("Game abandoned.")
