"""``formosa play``: people and agents at one table in the terminal.

A human seat sees the table from its own chair (other hands hidden), the decision
asked in words (``Player 0, choose a card from your hand to play``), a list of legal
moves numbered from 1 with labels, and picks one by number; the move is told back
(``you (player 0) played: ...``). Bad input gets a message and a new prompt; ``q`` (or
end of input) leaves the game. In compact mode a decision shows only what changed on
the table since that seat's last one, and ``t`` the whole table. Agents' moves are told
one line each; chance is told one line per kind of event (``narrate.py``), hiding from
the human seat what it may not see.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

import numpy as np

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game

from .narrate import ChanceNarrator, decision_prompt, move_lines, table_changes
from .simulate import tell_all


class HumanQuit(Exception):
    """The person asked to leave the game."""


class HumanSeat:
    """A person choosing moves by number (counted from 1) at the terminal.

    With ``compact``, each decision after a seat's first prints only the zones of the
    table that changed since the last table shown to that seat (see
    :func:`table_changes`) and lays the moves out in columns; ``t`` at the prompt prints
    the whole table again (in either mode).
    """

    name = "human"

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 compact: bool = False) -> None:
        self.stdin = stdin or sys.stdin
        self.out = stdout or sys.stdout
        self.compact = compact
        self._shown: dict[int, list[str]] = {}

    def reset(self) -> None:
        """Forget the tables shown (the next decision of every seat shows all of it)."""
        self._shown = {}

    def act_on_state(self, game: Any, state: Any) -> int:
        """Show the table (or what changed) and the numbered legal moves; read a choice."""
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        self._screen(game, state, seat, legal, full=not self.compact)
        while True:
            self.out.write(f"player {seat}, choose {_range(len(legal))} (q to quit, t for "
                           "the full table): ")
            self.out.flush()
            line = self.stdin.readline()
            typed = line.strip().lower()
            if not line or typed in ("q", "quit", "exit"):
                raise HumanQuit
            if typed == "t":
                self._screen(game, state, seat, legal, full=True)
                continue
            choice = parse_choice(line, len(legal))
            if choice is not None:
                return legal[choice]
            self.out.write(f"  '{line.strip()}' is not a move number between 1 and "
                           f"{len(legal)}; try again.\n")

    def _screen(self, game: Any, state: Any, seat: int, legal: list[int], full: bool
                ) -> None:
        """Write the table (whole, or its changes for this seat), the question, the moves."""
        table = game.render(state, viewer=seat).splitlines()
        previous = self._shown.get(seat)
        shown = table if full or previous is None else table_changes(previous, table)
        self._shown[seat] = table
        self.out.write("\n" + "\n".join(shown) + "\n")
        self.out.write(f">> {decision_prompt(game, state)}\n")
        labels = [game.action_label(state, action) for action in legal]
        _write_lines(self.out, move_lines(labels, columns=self.compact))


def _range(count: int) -> str:
    """``1-7``: the numbers a person may type (``1`` when there is one move)."""
    return "1" if count == 1 else f"1-{count}"


def parse_choice(line: str, count: int) -> int | None:
    """The index in the move list of the move number typed on ``line`` (moves are
    numbered from 1, as a person counts), or None if it is not one of 1..``count``."""
    text = line.strip()
    if not text.isdigit():
        return None
    try:
        value = int(text)
    except ValueError:  # a digit int() cannot read ('²'), or a number of over 4300 digits
        return None
    return value - 1 if 1 <= value <= count else None


def play_session(game_name: str, num_players: int, seats: list[Any], seed: int | None,
                 out: TextIO | None = None, record_path: str | None = None,
                 names: list[str] | None = None, **options: Any) -> list[float] | None:
    """Run one game with ``seats`` (HumanSeat or agents); return scores, None if quit.

    With ``record_path``, a finished game is saved there as a game record
    (``names``: the seats' specs written into it; ``formosa replay`` shows it); the
    destination is checked before the game starts, so a finished game is never lost.
    """
    out = out or sys.stdout
    game = make_game(game_name, num_players=num_players, **options)
    if record_path:
        from .usage import check_output_file
        check_output_file(record_path, "--record")
    chance_seed = int(np.random.SeedSequence(seed).generate_state(1)[0]) if seed is None \
        else seed
    steps: list[list[Any]] = []
    try:
        state = _play_out(game, seats, chance_seed, out, steps)
    except HumanQuit:
        out.write("\nGame abandoned." + (" No record saved." if record_path else "") + "\n")
        return None
    out.write("\n" + game.render(state) + "\n")
    scores = game.scores(state)
    truncated = not game.is_terminal(state)
    if truncated:
        out.write(f"Stopped after {game.max_game_length:,} decisions (the game's safety cap, "
                  "not a rule): the scores are as they stand.\n")
    out.write(f"Final scores: {scores}; winner(s): {_winners_text(game, state)}\n")
    if record_path:
        from .record import new_record, save_record
        record = new_record(game_name, num_players, options, chance_seed,
                            names or [getattr(s, "name", "agent") for s in seats], steps,
                            scores, truncated)
        out.write(f"game record saved to {save_record(record, record_path)}\n")
    return scores


def _play_out(game: Any, seats: list[Any], seed: int, out: TextIO,
              steps: list[list[Any]]) -> Any:
    """Play to the end, narrating agents' moves and chance; fill ``steps``.

    Chance events between two decisions are summarised one line per kind of event,
    as the human seat may see them (everything public when several people play).
    """
    humans = [i for i, seat in enumerate(seats) if isinstance(seat, HumanSeat)]
    narrator = ChanceNarrator(game, humans[0] if len(humans) == 1 else None)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        player = game.current_player(state)
        if player == CHANCE:
            action = game.sample_chance(state, rng)
            if humans:
                narrator.note(state, action)
        else:
            _write_lines(out, narrator.flush())
            action = seats[player].act_on_state(game, state)
            if isinstance(seats[player], HumanSeat):
                out.write(f"you (player {player}) played: "
                          f"{game.action_label(state, action)}\n")
            else:
                out.write(f"player {player} ({seats[player].name}){_context(game, state)}: "
                          f"{game.action_label(state, action)}\n")
            tell_all(seats, game, state, player, action)
        steps.append([int(player), int(action), game.action_label(state, action)])
        game.apply_action(state, action)
    _write_lines(out, narrator.flush())
    return state


def _context(game: Any, state: Any) -> str:
    """``, taking a cube``: what the deciding seat is doing, to read an agent's move by."""
    text = game.decision_description(state)
    _, sep, doing = text.partition(" is ")
    return f", {doing}" if sep else ""


def _write_lines(out: TextIO, lines: list[str]) -> None:
    for line in lines:
        out.write(line + "\n")


def _winners_text(game: Any, state: Any) -> str:
    """The winners by the game's own ordering (its tie-breaks; a solo game's objective)."""
    if not game.is_terminal(state):
        return "none (the game was cut off before its end)"
    winners = game.winners(state)
    return str(winners) if winners else "none (the objective was not reached)"
