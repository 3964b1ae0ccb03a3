"""The Dadaocheng observation: both disc faces, storehouses, seats, decision privacy."""

from __future__ import annotations

import numpy as np

from formosa_envs.core.observer import soft_count
from formosa_envs.games import make_game
from formosa_envs.games.dadaocheng import observer as O
from formosa_envs.games.dadaocheng.grid import showing


def _started(players: int, seed: int = 0):
    game = make_game("dadaocheng", num_players=players)
    state = game.new_initial_state()
    game.resolve_chance(state, np.random.default_rng(seed))
    return game, state


def _piece(vec: np.ndarray, name: str) -> np.ndarray:
    start, shape = O.LAYOUT.offsets[name], O.LAYOUT.shapes[name]
    return vec[start:start + int(np.prod(shape))].reshape(shape)


def test_grid_shows_both_faces_and_the_side_up() -> None:
    game, s = _started(2)
    s.flipped[5] = 1
    grid = _piece(game.observe(s, 0), "grid")
    faces = [game.disc_faces[d] for d in s.cell_disc]
    shown = showing(faces, s.bits())
    for cell, (sun, back) in enumerate(faces):
        assert grid[cell, sun] == 1 and grid[cell, 5 + back] == 1
        assert grid[cell, 10 + shown[cell]] == 1 and grid[cell, 15] == (cell == 5)


def test_seats_are_egocentric_and_storehouses_visible() -> None:
    game, s = _started(3)
    s.hand[2] = [6, 0, 0, 0, 0]
    s.storehouse[4 * s.sides_of[1]] = [0, 2, 0, 0, 0]
    for viewer in range(3):
        vec = game.observe(s, viewer)
        counters = _piece(vec, "seat_counters")
        assert counters[(2 - viewer) % 3, 3] == soft_count(6, 6)  # six red cubes, knee 6
        assert counters[:, 0].tolist() == [1, 1, 1, 0]
        assert _piece(vec, "storehouse")[4 * s.sides_of[1], 1] == soft_count(2, 2)


def test_only_the_decider_sees_its_pending_decision() -> None:
    game, s = _started(2)
    decider = game.current_player(s)
    kind = game.top(s).kind
    assert _piece(game.observe(s, decider), "decision")[O.KINDS.index(kind)] == 1
    assert _piece(game.observe(s, 1 - decider), "decision").sum() == 0


def test_values_stay_in_the_unit_interval() -> None:
    game, s = _started(1)
    s.opium[0], s.hand[0] = 40, [30, 0, 0, 0, 9]
    vec = game.observe(s, 0)
    assert vec.dtype == np.float32 and vec.min() >= 0.0 and vec.max() <= 1.0
