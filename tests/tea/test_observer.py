"""The Formosa Tea observation: egocentric seats, the pending decision, bounds."""

from __future__ import annotations

import numpy as np

from formosa_envs.core.observer import soft_count
from formosa_envs.games import make_game
from formosa_envs.games.tea import observer as O


def _started(players: int, seed: int = 0):
    game = make_game("tea", num_players=players)
    state = game.new_initial_state()
    game.resolve_chance(state, np.random.default_rng(seed))
    return game, state


def _piece(game, vec: np.ndarray, name: str) -> np.ndarray:
    start = O.LAYOUT.offsets[name]
    shape = O.LAYOUT.shapes[name]
    return vec[start:start + int(np.prod(shape))].reshape(shape)


def test_each_seat_sees_itself_first() -> None:
    game, s = _started(3)
    s.warehouse[2][3 * 1 + 2] = 6  # six good black cubes for player 2
    for viewer in range(3):
        counters = _piece(game, game.observe(s, viewer), "seat_counters")
        row = (2 - viewer) % 3
        column = O.SEAT_COLUMNS.labels.index("warehouse12~6")  # black (1), good (2)
        assert counters[row, column] == soft_count(6, 6) == 0.5
        assert np.count_nonzero(counters[:, column]) == 1
        assert counters[:, 0].tolist() == [1, 1, 1, 0]     # three seats present, one padded


def test_only_the_decider_sees_its_pending_decision() -> None:
    game, s = _started(2)
    decider = game.current_player(s)
    assert decider >= 0
    kind = game.top(s).kind
    mine = _piece(game, game.observe(s, decider), "decision")
    theirs = _piece(game, game.observe(s, 1 - decider), "decision")
    assert mine[O.KINDS.index(kind)] == 1 and theirs.sum() == 0


def test_plantation_weather_and_display_match_the_state() -> None:
    game, s = _started(4, seed=3)
    vec = game.observe(s, 0)
    cubes = _piece(game, vec, "plantation_cubes")
    assert np.allclose(cubes, [[soft_count(k, 3) for k in space] for space in s.cubes])
    weather = _piece(game, vec, "weather")
    assert [int(np.argmax(weather[c, :3])) for c in range(4)] == [
        game.water_level(s, c) for c in range(4)]
    display = _piece(game, vec, "display")
    assert display[:, 0].sum() == 12        # twelve merchant cards face up at the start


def test_values_stay_in_the_unit_interval_when_counters_overflow() -> None:
    game, s = _started(2)
    s.vp[0] = 500
    s.warehouse[0][0] = 30
    vec = game.observe(s, 0)
    assert vec.min() >= 0.0 and vec.max() <= 1.0 and vec.dtype == np.float32
