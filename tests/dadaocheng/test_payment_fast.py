"""Dadaocheng's closed-form payment checks agree with the generic exact search."""

from __future__ import annotations

import numpy as np

from formosa_envs.core.payment import legal_sources, search_feasible
from formosa_envs.games import make_game
from formosa_envs.games.dadaocheng.shop import can_pay


def test_fast_feasibility_and_sources_match_the_search() -> None:
    game = make_game("dadaocheng", num_players=2)
    model = game.payment
    state = game.new_initial_state()
    game.resolve_chance(state, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    agree = {True: 0, False: 0}
    for _ in range(2000):
        state.hand[0] = [int(x) for x in rng.integers(0, 4, 5)]
        units = tuple(sorted(int(u) for u in rng.integers(0, 4, int(rng.integers(1, 7)))))
        fast = model.fast_feasible(state, 0, units, {})
        slow = search_feasible(model, state, 0, units)
        assert fast == slow, (state.hand[0], units)
        cost = [units.count(c) for c in range(4)]
        assert can_pay(game, state, 0, cost) == slow
        agree[slow] += 1
        if slow:
            generic = [src for src in model.sources(state, 0, units[0])
                       if model.can_take(state, 0, src, {})
                       and search_feasible(model, state, 0, units[1:], {src: 1})]
            assert legal_sources(model, state, 0, units) == generic
    assert agree[True] > 200 and agree[False] > 200
