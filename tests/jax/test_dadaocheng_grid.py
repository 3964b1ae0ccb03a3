"""The JAX Dadaocheng grid (formosa_envs.jax.dadaocheng.grid) against the Python grid: the
showing colours, candidate lines, flips and whether a cascade can end, on the engine's own
layouts and on arbitrary arrangements of its discs (swaps move discs anywhere)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from formosa_envs.games.dadaocheng import grid as py
from formosa_envs.games.dadaocheng.config import DadaochengConfig
from formosa_envs.games.dadaocheng.game import DadaochengGame
from formosa_envs.games.dadaocheng.scenario import new_game
from formosa_envs.jax.dadaocheng import grid
from tests.dadaocheng.test_grid import LOOP_3X3, LOOP_3X4, scenario


def engine_layouts(count: int, seed: int, num_players: int = 2) -> list[np.ndarray]:
    """The (sun, back) faces of ``count`` layouts dealt by the Python engine's setup."""
    game = DadaochengGame(DadaochengConfig(num_players=num_players))
    return [np.array([game.disc_faces[d] for d in new_game(game, seed + i).cell_disc], np.int32)
            for i in range(count)]


def shuffled_layouts(count: int, seed: int) -> list[np.ndarray]:
    """The game's 16 discs in ``count`` random arrangements."""
    faces = np.array(DadaochengGame(DadaochengConfig(num_players=2)).disc_faces, np.int32)
    rng = np.random.default_rng(seed)
    return [faces[rng.permutation(16)] for _ in range(count)]


def layouts_and_states(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Engine and shuffled layouts (1- and 2-player deals), 40 random side states each."""
    layouts = (engine_layouts(15, seed, 1) + engine_layouts(15, seed + 1, 2)
               + shuffled_layouts(30, seed + 2))
    rng = np.random.default_rng(seed + 3)
    faces = np.repeat(np.stack(layouts), 40, axis=0)
    return faces, rng.integers(0, 1 << 16, len(faces)).astype(np.int32)


def test_showing_colours_and_candidates_match_the_python_grid() -> None:
    faces, sides = layouts_and_states(0)
    colours = np.asarray(jax.vmap(grid.showing)(faces, sides))
    lines = np.asarray(jax.vmap(grid.candidates)(faces, sides))
    for row in range(len(faces)):
        face_pairs = [tuple(f) for f in faces[row].tolist()]
        expected = py.showing(face_pairs, int(sides[row]))
        assert colours[row].tolist() == expected
        assert np.flatnonzero(lines[row]).tolist() == py.candidates(expected)
    assert lines.any(axis=1).mean() > 0.3  # the states hold candidates often enough


def test_flipping_a_line_matches_the_python_grid() -> None:
    sides = np.random.default_rng(1).integers(0, 1 << 16, 24).astype(np.int32)
    flipped = np.asarray(jax.vmap(grid.flip_line)(jnp.asarray(sides), jnp.arange(24)))
    assert flipped.tolist() == [py.flip_line(int(s), line) for line, s in enumerate(sides)]


def test_can_end_matches_the_python_cascade_search() -> None:
    faces, sides = layouts_and_states(2)
    found, overflow = jax.jit(jax.vmap(grid.can_end_checked))(faces, sides)
    found, overflow = np.asarray(found), np.asarray(overflow)
    assert not overflow.any()
    for row in range(len(faces)):
        face_pairs = tuple(tuple(f) for f in faces[row].tolist())
        start = int(sides[row])
        assert found[row] == py.cascade_can_end(face_pairs, start)[start], (row, start)


@pytest.mark.parametrize(("text", "stride"), [
    (LOOP_3X3, 1), (LOOP_3X4, 5), pytest.param(LOOP_3X4, 1, marks=pytest.mark.slow)],
    ids=["3x3-all", "3x4-every-5th", "3x4-all"])
def test_can_end_agrees_on_the_side_states_of_the_printed_loop_layouts(text: str,
                                                                      stride: int) -> None:
    """Every ``stride``-th of the 65,536 side states of the discs of the rulebook's loop
    scenarios (the test discs of seeds/dadaocheng.md 4.1), where cascades that cannot end
    exist and (3x4) a cascade can reach hundreds of states."""
    faces, loop_state = scenario(text)
    expected: dict[int, bool] = {}
    for start in range(1 << 16):
        if start not in expected:
            expected.update(py.cascade_can_end(faces, start))
    states = np.arange(0, 1 << 16, stride, dtype=np.int32)
    search = jax.jit(jax.vmap(grid.can_end_checked, in_axes=(None, 0)))
    found, overflow = search(jnp.asarray(faces, jnp.int32), jnp.asarray(states))
    assert not np.asarray(overflow).any()
    assert np.asarray(found).tolist() == [expected[int(state)] for state in states]
    assert not expected[loop_state] and not np.asarray(found).all()


def test_the_full_search_settles_what_the_short_one_cannot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    faces, sides = layouts_and_states(6)
    exact = np.asarray(jax.vmap(grid.can_end)(faces, sides))
    monkeypatch.setattr(grid, "SHORT_QUEUE", 2)  # the short search spills on most searches
    found, overflow = jax.vmap(grid.can_end_checked)(faces, sides)
    assert not np.asarray(overflow).any()
    np.testing.assert_array_equal(np.asarray(found), exact)


def test_a_tiny_queue_reports_its_overflow(monkeypatch: pytest.MonkeyPatch) -> None:
    faces, sides = layouts_and_states(4)
    reach = [len(py.cascade_can_end(tuple(tuple(f) for f in faces[r].tolist()), int(sides[r])))
             for r in range(len(faces))]
    monkeypatch.setattr(grid, "QUEUE_SIZE", 2)
    monkeypatch.setattr(grid, "SHORT_QUEUE", 2)
    _, overflow = jax.vmap(grid.can_end_checked)(faces, sides)
    # the queue overflows only where the search queued more than 2 states (the reachable
    # set bounds what it queues; a search that finds an end early may queue fewer)
    assert np.asarray(overflow).any()
    assert not np.asarray(overflow)[np.array(reach) <= 2].any()
