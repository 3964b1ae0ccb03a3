"""``formosa play``: people and agents at one table in the terminal.

A human seat sees the table from its own chair (other hands hidden), the decision
asked in words (``Player 0, choose a card from your hand to play``), a numbered list
of legal moves with labels, and picks one by number. Bad input gets a message and a
new prompt; ``q`` (or end of input) leaves the game. Agents' moves are told one line
each; chance is told one line per kind of event (``narrate.py``), hiding from the
human seat what it may not see.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

import numpy as np

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game

from .narrate import ChanceNarrator, decision_prompt


class HumanQuit(Exception):
    """The person asked to leave the game."""


class HumanSeat:
    """A person choosing moves by number at the terminal."""

    name = "human"

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.out = stdout or sys.stdout

    def reset(self) -> None:
        """Nothing to forget between games."""

    def act_on_state(self, game: Any, state: Any) -> int:
        """Show the table and the numbered legal moves; read a valid choice."""
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        self.out.write("\n" + game.render(state, viewer=seat) + "\n")
        self.out.write(f">> {decision_prompt(game, state)}\n")
        for i, action in enumerate(legal):
            self.out.write(f"  {i:>2}: {game.action_label(state, action)}\n")
        while True:
            self.out.write(f"player {seat}, choose 0-{len(legal) - 1} (q to quit): ")
            self.out.flush()
            line = self.stdin.readline()
            if not line or line.strip().lower() in ("q", "quit", "exit"):
                raise HumanQuit
            choice = parse_choice(line, len(legal))
            if choice is not None:
                return legal[choice]
            self.out.write(f"  '{line.strip()}' is not a move number between 0 and "
                           f"{len(legal) - 1}; try again.\n")


def parse_choice(line: str, count: int) -> int | None:
    """The move index typed on ``line``, or None if it is not a valid index."""
    text = line.strip()
    if not text.isdigit():
        return None
    try:
        value = int(text)
    except ValueError:  # a digit int() cannot read ('²'), or a number of over 4300 digits
        return None
    return value if 0 <= value < count else None


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
    out.write(f"Final scores: {scores}; winner(s): {_winners_text(game, state)}\n")
    if record_path:
        from .record import new_record, save_record
        record = new_record(game_name, num_players, options, chance_seed,
                            names or [getattr(s, "name", "agent") for s in seats], steps,
                            scores, False)
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
    while not game.is_terminal(state):
        player = game.current_player(state)
        if player == CHANCE:
            action = game.sample_chance(state, rng)
            if humans:
                narrator.note(state, action)
        else:
            _write_lines(out, narrator.flush())
            action = seats[player].act_on_state(game, state)
            if not isinstance(seats[player], HumanSeat):
                out.write(f"player {player} ({seats[player].name}){_context(game, state)}: "
                          f"{game.action_label(state, action)}\n")
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
