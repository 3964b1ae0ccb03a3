"""Stage 2 on JAX (formosa_envs.jax.dadaocheng.cascade) against the Python engine's cascade:
the same start (grid, hands, storehouse, signs, Store markers), the same line choices, and at
every stop the same outcome (ended, a choice, a loop), hands, storehouse, signs, side state
and history. Starts: random arrangements and side states of the shipped and the test discs
at 1-4 players, and the rulebook's loop and cycle grids."""

from __future__ import annotations

from typing import Any

import jax
import numpy as np
import pytest

from formosa_envs.core.decisions import Decision
from formosa_envs.core.engine import AUTO, CHANCE
from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.config import DadaochengConfig
from formosa_envs.games.dadaocheng.game import DadaochengGame
from formosa_envs.games.dadaocheng.scenario import new_game, parse_grid
from formosa_envs.jax.dadaocheng import cascade as jc
from tests.dadaocheng import common
from tests.dadaocheng.test_rules_loops import CYCLE

SENTINEL = "loop_any"  # a real decision under the cascade: settle stops there when it ends
run = jax.jit(jc.run_cascade)
choose = jax.jit(jc.choose_line)


def python_start(game: DadaochengGame, rng: np.random.Generator,
                 grid: str | None = None) -> Any:
    """A set-up game at its first turn with a random storehouse, hands, signs and Store
    markers, the discs of ``grid`` (else a random arrangement and side state), and the
    stack holding only the cascade's start above a sentinel decision of the active player."""
    s = new_game(game, int(rng.integers(1 << 30)))
    if grid is None:
        s.cell_disc = rng.permutation(16).tolist()
        s.flipped = rng.integers(0, 2, 16).tolist()
    else:
        s.cell_disc, s.flipped = parse_grid(game, grid)
    s.storehouse = [rng.multinomial(int(rng.integers(0, 3)), [0.2] * 5).tolist()
                    for _ in range(16)]
    s.remodelled = (rng.random(16) < 0.2).astype(int).tolist()
    s.hand = rng.integers(0, 3, (game.num_players, 5)).tolist()
    s.sign = rng.integers(0, 2, game.num_players).tolist()
    s.stack = [Decision(SENTINEL, s.turn), Decision("after_planning", AUTO)]
    return s


def python_outcome(s: Any) -> int:
    """What stopped the Python cascade."""
    top = s.stack[-1]
    if top.kind == "line":
        return jc.CHOOSE
    if top.player == CHANCE and top.kind == "place_disc":
        return jc.LOOPED
    assert [d.kind for d in s.stack] == [SENTINEL], s.stack
    return jc.ENDED


def jax_inputs(game: DadaochengGame, s: Any) -> tuple[np.ndarray, ...]:
    """(faces, covered, Store markers, active player) of a Python state."""
    faces = np.array([game.disc_faces[d] for d in s.cell_disc], np.int32)
    return faces, np.array(s.covered, bool), np.array(s.remodelled, bool), np.int32(s.turn)


def assert_same(c: jc.Cascade, s: Any, status: int, outcome: int) -> None:
    """The JAX cascade agrees with the Python state at a stop."""
    assert int(status) == outcome
    assert np.asarray(c.hand).tolist() == s.hand
    assert np.asarray(c.storehouse).tolist() == s.storehouse
    assert np.asarray(c.sign).tolist() == s.sign
    assert np.asarray(c.history)[:int(c.length)].tolist() == s.history
    if outcome != jc.LOOPED:  # a loop resets the Python grid for the new layout
        assert int(c.sides) == s.bits()
    assert not bool(c.overflow)


def play_both(game: DadaochengGame, s: Any, rng: np.random.Generator) -> list[int]:
    """Run one cascade in both engines with the same random line choices; the outcomes."""
    faces, covered, remodelled, turn = jax_inputs(game, s)
    c = jc.start_cascade(np.int32(s.bits()), np.array(s.hand), np.array(s.storehouse),
                         np.array(s.sign))
    game.settle(s)
    c, status = run(c, faces, covered, remodelled, turn)
    outcomes = [python_outcome(s)]
    assert_same(c, s, status, outcomes[-1])
    while outcomes[-1] == jc.CHOOSE:
        action = int(rng.choice(game.legal_actions(s)))
        game.apply_action(s, action)
        c, status = choose(c, faces, covered, remodelled, turn, np.int32(action - A.LINE0))
        outcomes.append(python_outcome(s))
        assert_same(c, s, status, outcomes[-1])
    return outcomes


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("discs", ["shipped", "test"])
def test_random_cascades_match_the_python_engine(players: int, discs: str) -> None:
    game = (DadaochengGame(DadaochengConfig(num_players=players)) if discs == "shipped"
            else common.game(players))
    rng = np.random.default_rng(players * 10 + (discs == "test"))
    seen = {jc.ENDED: 0, jc.CHOOSE: 0, jc.LOOPED: 0}
    for _ in range(40):
        for outcome in play_both(game, python_start(game, rng), rng):
            seen[outcome] += 1
    assert seen[jc.ENDED] > 0 and seen[jc.CHOOSE] > 0


@pytest.mark.parametrize("grid", [common.LOOP_3X3, common.LOOP_3X4, CYCLE],
                         ids=["loop-3x3", "loop-3x4", "cycle"])
def test_the_rulebook_grids_match_the_python_engine(grid: str) -> None:
    """The printed loops (the cascade cannot end) and a cycle with exits, where choosing
    to go round repeats a state (DDC-6.3)."""
    game, rng = common.game(3), np.random.default_rng(5)
    outcomes = [play_both(game, python_start(game, rng, grid), rng) for _ in range(25)]
    if grid != CYCLE:
        assert all(o == [jc.LOOPED] for o in outcomes)
    else:
        finals = {o[-1] for o in outcomes}
        assert finals == {jc.ENDED, jc.LOOPED}  # some choices exit, some go round


def test_a_batch_of_cascades_runs_as_each_one_alone() -> None:
    game, rng = DadaochengGame(DadaochengConfig(num_players=4)), np.random.default_rng(9)
    starts = [python_start(game, rng) for _ in range(16)]
    inputs = [jax_inputs(game, s) for s in starts]
    cascades = [jc.start_cascade(np.int32(s.bits()), np.array(s.hand), np.array(s.storehouse),
                                 np.array(s.sign)) for s in starts]
    stacked = [jax.tree.map(lambda *rows: np.stack(rows), *items)
               for items in (cascades, inputs)]
    batch, statuses = jax.jit(jax.vmap(jc.run_cascade))(stacked[0], *stacked[1])
    for row, (c, args) in enumerate(zip(cascades, inputs, strict=True)):
        alone, status = run(c, *args)
        assert int(statuses[row]) == int(status)
        for field, value in zip(jc.Cascade._fields, alone, strict=True):
            np.testing.assert_array_equal(np.asarray(getattr(batch, field))[row], value)
