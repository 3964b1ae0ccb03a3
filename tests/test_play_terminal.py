"""``formosa play`` as a person reads it, part two: Dadaocheng's grid shows both faces of
every disc, the person's own move is echoed, moves are numbered from 1, a compact mode
prints only what changed since the seat's last decision (never less than that), and
``formosa play --help`` names every agent kind.
"""

from __future__ import annotations

import io
import re
from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import agent_kinds, make_agent

from formosa_envs.cli import main
from formosa_envs.core.engine import CHANCE
from formosa_envs.games import GAMES, make_game
from formosa_envs.games.dadaocheng.content import COLOURS
from formosa_envs.tools.narrate import table_zones
from formosa_envs.tools.play import HumanSeat, parse_choice, play_session

LETTER = {"red": "R", "white": "W", "green": "G", "yellow": "Y", "black": "K"}
MOVE = re.compile(r"(?:^|\s)(\d+): ")


class Typist:
    """Types a valid move number (counted from 1) chosen by its own generator."""

    def __init__(self, seed: int, extra: tuple[str, ...] = (), limit: int = 5000) -> None:
        self.rng = np.random.default_rng(seed)
        self.count = 1
        self.extra = list(extra)
        self.left = limit

    def readline(self) -> str:
        """The next line typed: a queued extra line first, else a move number; the end
        of input after ``limit`` lines (a refused number cannot loop for ever)."""
        self.left -= 1
        if self.left < 0:
            return ""
        if self.extra:
            return self.extra.pop(0)
        return f"{int(self.rng.integers(self.count)) + 1}\n"


class Recording(HumanSeat):
    """A scripted person who keeps (state, screen, chosen action) for every decision."""

    def __init__(self, typist: Typist, out: io.StringIO, **kwargs: Any) -> None:
        super().__init__(typist, out, **kwargs)  # type: ignore[arg-type]
        self.typist = typist
        self.screens: list[tuple[Any, str, int]] = []

    def act_on_state(self, game: Any, state: Any) -> int:
        """Answer as a HumanSeat does; remember the state, the screen and the move."""
        self.typist.count = len(game.legal_actions(state))
        start = len(self.out.getvalue())
        seen = game.clone(state)
        action = super().act_on_state(game, state)
        self.screens.append((seen, self.out.getvalue()[start:], action))
        return action


def _play(game_name: str, n: int, seed: int, extra: tuple[str, ...] = (),
          **kwargs: Any) -> tuple[Recording, str]:
    out = io.StringIO()
    human = Recording(Typist(seed, extra), out, **kwargs)
    seats: list[Any] = [human] + [make_agent("random", game_name, seed + i)
                                  for i in range(1, n)]
    play_session(game_name, n, seats, seed, out=out)
    return human, out.getvalue()


def _table_part(screen: str) -> list[str]:
    """The lines of a screen before the question (``>> ...``)."""
    lines = screen.lstrip("\n").splitlines()
    return lines[:next(i for i, line in enumerate(lines) if line.startswith(">> "))]


def _zones(lines: list[str]) -> dict[str, list[str]]:
    """A table's zones, as the compact mode splits them (narrate.table_zones)."""
    return table_zones(lines)


# --- Dadaocheng's grid: both faces ---------------------------------------------------

def _grid_cells(text: str) -> list[str]:
    """The 16 cell texts of the grid, row by row (the rows end with their cell numbers)."""
    cells: list[str] = []
    for r in range(4):
        numbers = " ".join(f"{4 * r + c:2d}" for c in range(4))
        row = next(line for line in text.splitlines() if line.rstrip().endswith(numbers))
        cells += re.findall(r"[RWGYK]\*?/[rwgyk]\*?", row)
    return cells


@pytest.mark.parametrize("n", [1, 2, 4])
def test_dadaocheng_grid_shows_what_a_flip_gives(n: int) -> None:
    """Every cell shows its face up and, after a slash, its face down (what a flip
    shows), the star on the sun side: as the picture draws a disc, at every step of a
    random game, flipped discs included."""
    game = make_game("dadaocheng", num_players=n)
    rng = np.random.default_rng(n)
    state, flipped_seen = game.new_initial_state(), 0
    while not game.is_terminal(state) and state.decisions < 400:
        if game.current_player(state) != CHANCE and min(state.cell_disc) >= 0:
            cells = _grid_cells(game.render(state, 0))
            assert len(cells) == 16, game.render(state, 0)
            for cell, text in enumerate(cells):
                sun, back = (LETTER[COLOURS[c]] for c in game.discs[state.cell_disc[cell]].faces)
                up, down = (f"{back}", f"{sun.lower()}*") if state.flipped[cell] else \
                    (f"{sun}*", back.lower())
                assert text == f"{up}/{down}", (cell, text)
            flipped_seen += sum(state.flipped)
        legal = game.legal_actions(state) if game.current_player(state) != CHANCE else None
        action = game.sample_chance(state, rng) if legal is None else \
            legal[int(rng.integers(len(legal)))]
        game.apply_action(state, action)
    assert flipped_seen, "no flipped disc met"
    assert "face down" in game.render(state, 0) and "* = sun side" in game.render(state, 0)


# --- moves numbered from 1, own move echoed ------------------------------------------

def test_move_numbers_count_from_one() -> None:
    assert parse_choice("1\n", 3) == 0 and parse_choice(" 3 ", 3) == 2
    assert parse_choice("0", 3) is None and parse_choice("4", 3) is None


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_the_list_starts_at_one_and_the_number_typed_is_the_move_played(game_name: str
                                                                          ) -> None:
    """Move k of the printed list is legal_actions[k - 1]; the prompt names 1-N; the
    person's own move is told back after they choose."""
    human, text = _play(game_name, 2, seed=1)
    assert human.screens
    for state, screen, action in human.screens[:12]:
        game = make_game(game_name, num_players=2)
        legal = game.legal_actions(state)
        numbers = [int(m) for line in screen.splitlines() if re.match(r"^ +\d+: ", line)
                   for m in MOVE.findall(line)]
        assert sorted(numbers) == list(range(1, len(legal) + 1)), screen
        assert f"choose 1-{len(legal)} " in screen or (len(legal) == 1 and "choose 1 " in screen)
        seat = game.current_player(state)
        echo = f"you (player {seat}) played: {game.action_label(state, action)}\n"
        assert echo in text
    assert text.count("you (player 0) played: ") == len(human.screens)


def test_a_zero_is_refused_with_the_range() -> None:
    human, text = _play("flowers", 2, seed=2, extra=("0\n",))
    assert "'0' is not a move number between 1 and " in text
    assert human.screens


# --- compact mode ----------------------------------------------------------------------

def _check_compact(game: Any, seat: int, screens: list[tuple[Any, str, int]]) -> int:
    """Each compact screen holds every zone that changed since the last one (heading and
    changed lines), names every zone gone, and prints nothing not on the table; the
    first screen is the whole table. Returns how many screens were not full."""
    previous: dict[str, list[str]] | None = None
    partial = 0
    for state, screen, _ in screens:
        full = game.render(state, seat).splitlines()
        shown = _table_part(screen)
        if previous is None:
            assert shown == full, screen
        else:
            new = _zones(full)
            for key, lines in new.items():
                old = previous.get(key)
                if old == lines:
                    continue
                assert lines[0] in shown, (key, screen)
                changed = [x for i, x in enumerate(lines) if old is None or i >= len(old)
                           or old[i] != x]
                assert all(x in shown for x in changed), (key, changed, screen)
            for key in previous.keys() - new.keys():
                assert any(key in x and x.startswith("(") for x in shown), (key, screen)
            extra = [x for x in shown if x not in full and not x.startswith("(")]
            assert not extra, (extra, screen)
            partial += shown != full
        previous = _zones(full)
    return partial


@pytest.mark.parametrize(("game_name", "n"), [("flowers", 2), ("taiwan", 3), ("tea", 2),
                                              ("tea", 4), ("dadaocheng", 2),
                                              ("dadaocheng", 1)])
def test_compact_shows_everything_that_changed(game_name: str, n: int) -> None:
    human, _ = _play(game_name, n, seed=3, compact=True)
    game = make_game(game_name, num_players=n)
    assert len(human.screens) > 5
    assert _check_compact(game, 0, human.screens) > len(human.screens) // 2


def test_t_shows_the_full_table_and_asks_again() -> None:
    """In compact mode ``t`` prints the whole table and the moves again; the choice
    typed next is the move played."""
    human, text = _play("tea", 2, seed=4, extra=("1\n", "t\n"), compact=True)
    game = make_game("tea", num_players=2)
    state, screen, action = human.screens[1]
    full = game.render(state, 0)
    assert screen.count(full) == 1 and screen.count(">> ") == 2, screen
    assert action in game.legal_actions(state)


def _lines_per_decision(game_name: str, compact: bool) -> float:
    lines = decisions = 0
    for seed in range(2):
        human, text = _play(game_name, 2, seed=seed, compact=compact)
        lines += text.count("\n")
        decisions += len(human.screens)
    return lines / decisions


@pytest.mark.parametrize("game_name", ["tea", "dadaocheng"])
def test_compact_prints_far_fewer_lines_per_decision(game_name: str) -> None:
    full = _lines_per_decision(game_name, compact=False)
    compact = _lines_per_decision(game_name, compact=True)
    assert compact < 0.6 * full, (compact, full)


def test_formosa_play_is_compact_unless_told_full(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``formosa play`` prints changes after the first decision; ``--full`` every table."""
    counts = {}
    for flag in ([], ["--full"]):
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 6 + "q\n"))
        assert main(["play", "tea", "--seats", "human,random", "--seed", "5", *flag]) == 0
        text = capsys.readouterr().out
        counts[bool(flag)] = text.count("Processing tracks (space: effect)")
        assert ("changes since your last decision" in text) is not bool(flag)
    assert counts[True] == 7 and counts[False] < 7


# --- formosa play --help ---------------------------------------------------------------

def test_play_help_names_every_agent_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for kind in ("human", *agent_kinds()):
        assert re.search(rf"(?<![\w-]){kind}\b", text), kind
    assert "pretrained[:GAME][:net|:az[:N]]" in text and "az:PATH.npz[:N]" in text
    assert "--compact" in text or "--full" in text


def test_play_help_follows_the_registry(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind registered later appears in the help: the text is generated, not copied."""
    from formosa_envs.agents import specs
    monkeypatch.setitem(specs._KINDS, "oracle", specs.AgentKind("oracle", "oracle:EYES"))
    assert main(["play", "--help"]) == 0
    assert "oracle:EYES" in " ".join(capsys.readouterr().out.split())


def test_the_compact_check_catches_a_hidden_change() -> None:
    """Negative control: a compact screen that drops one changed line, or prints a line
    that is not on the table, fails the check; the real screen passes it."""
    from formosa_envs.tools.narrate import table_changes
    human, _ = _play("tea", 2, seed=3, compact=False)
    game = make_game("tea", num_players=2)
    pairs = zip(human.screens, human.screens[1:], strict=False)
    first, second = next((a, b) for a, b in pairs
                         if len(table_changes(game.render(a[0], 0).splitlines(),
                                              game.render(b[0], 0).splitlines())) > 6)
    (s0, screen0, _), (s1, screen1, _) = first, second
    changes = table_changes(game.render(s0, 0).splitlines(), game.render(s1, 0).splitlines())
    question = screen1[screen1.index(">> "):]
    good = "\n".join(changes) + "\n" + question
    assert _check_compact(game, 0, [(s0, screen0, 0), (s1, good, 0)]) == 1
    for bad in (changes[:-1], changes + ["Player 0: 99 VP"]):
        with pytest.raises(AssertionError):
            _check_compact(game, 0, [(s0, screen0, 0), (s1, "\n".join(bad) + "\n" + question,
                                                        0)])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_flowers_text_names_cards_as_the_table_shows_them(seed: int) -> None:
    """Prompts and chance lines say ``7``, never the internal id (``7 (card 27)``)."""
    _, text = _play("flowers", 2, seed)
    assert "(card " not in text, re.findall(r".{30}\(card \d+\).{10}", text)[:3]


class FirstMove:
    """An agent that always takes the first legal move (in Flowers it never ends a round)."""

    name = "first"

    def act_on_state(self, game: Any, state: Any) -> int:
        return game.legal_actions(state)[0]


def test_a_game_that_never_ends_stops_at_the_decision_cap(tmp_path) -> None:
    """``formosa play`` stops at ``max_game_length`` decisions as ``formosa simulate`` does
    (it used to loop for ever), says so, and records the game as truncated."""
    from formosa_envs.tools.record import load_record
    out, path = io.StringIO(), tmp_path / "cut.json"
    game = make_game("flowers", num_players=3)
    scores = play_session("flowers", 3, [FirstMove(), FirstMove(), FirstMove()], seed=6,
                          out=out, record_path=str(path))
    text = out.getvalue()
    assert f"Stopped after {game.max_game_length:,} decisions" in text
    assert "winner(s): none (the game was cut off before its end)" in text
    record = load_record(path)
    assert record["truncated"] is True and len(scores) == 3
    assert sum(p >= 0 for p, _, _ in record["steps"]) == game.max_game_length
