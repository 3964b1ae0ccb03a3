"""Move labels name things as the table shows them, and stay unique.

Checked at every decision of random games of every game and player count: the legal
moves' labels differ, no label carries an internal card id (``play 11 (card 42)``) or
the ``r4c2`` shorthand, and the second cell of a Dadaocheng swap reads as a swap.
Needs only the engines (no web extra).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import GAMES, make_game

CASES = [(name, n) for name, info in GAMES.items()
         for n in range(info.min_players, info.max_players + 1)]
MACHINE = re.compile(r"\(card \d+\)|\br\d+c\d+\b|\.\.\.")


def decisions(game: Any, seed: int) -> Iterator[tuple[Any, list[int]]]:
    """Every decision of a random game: the state and its legal moves."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        if game.current_player(state) == CHANCE:
            game.apply_action(state, game.sample_chance(state, rng))
            continue
        legal = game.legal_actions(state)
        yield state, legal
        game.apply_action(state, int(rng.choice(legal)))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_legal_labels_are_distinct_and_read_as_the_table(name: str, players: int) -> None:
    game = make_game(name, num_players=players)
    count = 0
    for state, legal in decisions(game, seed=players):
        labels = [game.action_label(state, a) for a in legal]
        assert len(set(labels)) == len(labels), labels
        for label in labels:
            assert not MACHINE.search(label), label
        count += 1
    assert count > 10


def test_the_second_cell_of_a_swap_reads_as_a_swap() -> None:
    game = make_game("dadaocheng", num_players=2)
    for state, legal in decisions(game, seed=4):
        if state.stack[-1].kind == "swap_to":
            first = state.stack[-1].ctx[0]
            for action in legal:
                segment, cell = game.action_space.decode(action)
                if segment == "SWAP_TO":
                    assert game.action_label(state, action) == \
                        f"swap cell {first} with cell {cell}"
            return
    raise AssertionError("no swap in the game")


def test_flowers_look_alike_cards_are_told_apart_by_where_they_lie() -> None:
    """Both plain cards of a month in one hand: left and right, as the hand is drawn."""
    from formosa_envs.games.flowers.actions import PLAY0
    from formosa_envs.games.flowers.scenario import cid
    from formosa_envs.games.flowers.scenario import scenario as flowers_scenario
    game = make_game("flowers", num_players=2)
    first, second = cid(game, 1), cid(game, 1, nth=1)
    s = flowers_scenario(game, hands=[[second, first, cid(game, 1, "night")], [cid(game, 5)]],
                         field=[cid(game, 2), cid(game, 2, nth=1)])
    labels = {c: game.action_label(s, PLAY0 + c) for c in (first, second)}
    assert labels == {first: "play 1 (left copy)", second: "play 1 (right copy)"}
    s = flowers_scenario(game, hands=[[first], [cid(game, 5)]], field=[cid(game, 3)])
    assert game.action_label(s, PLAY0 + first) == "play 1"


def test_tea_spaces_are_named_by_row_and_column() -> None:
    from formosa_envs.games.tea.render import space_name
    assert space_name(9) == "the space at row 3, column 2"
