"""Taiwan's closed-form payment feasibility agrees with the generic exact search."""

from __future__ import annotations

from typing import Any

import numpy as np

from formosa_envs.core.payment import search_feasible
from formosa_envs.games.taiwan import make_game
from formosa_envs.games.taiwan.payment import (
    BUY_COIN,
    COIN,
    ITEM,
    MERCHANT,
    RES_UNIT0,
    WORKER,
    NeedTable,
    affordable,
    affordable_many,
    needs_of,
)

UNIT_KINDS = [COIN, BUY_COIN, WORKER, MERCHANT, *(RES_UNIT0 + r for r in range(4))]


def random_holdings(game, rng: np.random.Generator):
    """A fresh state whose player 0 holds random items and completed factories."""
    state = game.new_initial_state()
    state.coins[0] = int(rng.integers(0, 12))
    state.res[0] = [int(x) for x in rng.integers(0, 4, 4)]
    state.warehouse[0] = [int(x) for x in rng.integers(0, 2, 4)]
    state.workers[0], state.tribal[0] = int(rng.integers(0, 3)), int(rng.integers(0, 2))
    state.merchants[0] = int(rng.integers(0, 2))
    factories = [game.type_id[k] for k in ("sawmill", "brickworks", "steelworks",
                                           "stone_factory")]
    state.built[0] = [f for f in factories for _ in range(int(rng.integers(0, 3)))]
    state.factory_used[0] = [int(x) for x in rng.integers(0, 2, 4)]
    return state


def test_fast_feasibility_matches_the_search() -> None:
    game = make_game(num_players=2)
    model = game.payment
    rng = np.random.default_rng(0)
    agree = {True: 0, False: 0}
    for _ in range(3000):
        state = random_holdings(game, rng)
        if rng.random() < 0.2:
            units = (ITEM,) * int(rng.integers(1, 5))
        else:
            units = tuple(int(u) for u in rng.choice(UNIT_KINDS, int(rng.integers(1, 9))))
        used = {}
        source = int(rng.integers(0, 16))
        if rng.random() < 0.3 and model.can_take(state, 0, source, {}):
            used = {source: 1}  # as legal_sources does: one unit already taken
        fast = model.fast_feasible(state, 0, units, used)
        if fast is None:
            continue
        slow = search_feasible(model, state, 0, units, used)
        assert fast == slow, (units, used, state.coins[0], state.res[0], state.warehouse[0])
        agree[slow] += 1
    assert agree[True] > 200 and agree[False] > 200


def test_listed_options_and_single_action_checks_agree() -> None:
    """action_options (vectorised) and action_allowed (one action) give the same answer."""
    from formosa_envs.core.contract import step_random
    from formosa_envs.games.taiwan import actions as A
    game = make_game(num_players=3)
    rng = np.random.default_rng(1)
    checked = 0
    for seed in range(4):
        state = game.new_initial_state()
        while not game.is_terminal(state) and checked < 400 * (seed + 1):
            top = game.top(state)
            if top.kind == "act":
                listed = set(game.action_options(state, top.player))
                single = {a for a in range(game.num_actions)
                          if a != A.PASS and game.action_allowed(state, top.player, a)}
                assert listed == single
                checked += 1
            step_random(game, state, rng)
    assert checked > 100


def test_fast_legal_sources_match_the_generic_rule() -> None:
    """Taiwan's one-budget legal_sources equals 'can take and the rest stays payable'."""
    game = make_game(num_players=2)
    model = game.payment
    rng = np.random.default_rng(5)
    compared = 0
    for k in range(2000):
        state = random_holdings(game, rng)
        if k % 4 == 0:  # exchanges pay items only (their own shortcut)
            units = (ITEM,) * int(rng.integers(1, 6))
        else:
            units = tuple(int(u) for u in rng.choice(UNIT_KINDS, int(rng.integers(1, 7))))
        fast = model.legal_sources(state, 0, units)
        if fast is None:
            continue
        slow = [src for src in model.sources(state, 0, units[0])
                if model.can_take(state, 0, src, {})
                and search_feasible(model, state, 0, units[1:], {src: 1})]
        assert fast == slow, units
        compared += 1
    assert compared > 1000


def _random_needs(rng: np.random.Generator, count: int, most_units: int) -> np.ndarray:
    """``count`` random costs of up to ``most_units`` units (items included), as need rows."""
    return np.array([needs_of(tuple(int(u) for u in rng.choice(
        [*UNIT_KINDS, ITEM], int(rng.integers(0, most_units))))) for _ in range(count)],
        dtype=np.int64)


def _check_rows(rows: np.ndarray, budgets: Any) -> None:
    """affordable_many agrees with affordable row by row on every budget; both answers
    occur."""
    table, outcomes = NeedTable(rows), set()
    for budget in budgets:
        single = [affordable(budget, row) for row in rows]
        assert affordable_many(budget, table) == single
        outcomes.update(single)
    assert outcomes == {True, False}


def test_vectorised_affordability_matches_the_row_by_row_check() -> None:
    game = make_game(num_players=2)
    rng = np.random.default_rng(4)
    rows = _random_needs(rng, 60, 9)
    _check_rows(rows, (game.payment.budget(random_holdings(game, rng), 0) for _ in range(500)))


def test_vectorised_affordability_on_budgets_of_every_size() -> None:
    """Budgets from nothing to far beyond every row's needs, and rows needing nothing."""
    rng = np.random.default_rng(9)

    def budget() -> tuple:
        top = int(rng.integers(1, 14))
        res = [[int(v) for v in rng.integers(0, top, 4)] for _ in range(3)]
        return (res[0], res[1], int(rng.integers(0, top)), int(rng.integers(0, top)),
                int(rng.integers(0, top)), res[2])
    _check_rows(_random_needs(rng, 70, 12), (budget() for _ in range(3000)))
