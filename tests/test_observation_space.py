"""Observations stay inside their declared space, and decisive quantities never clip.

Every observation of every seat and every ``state()`` vector lies
in ``Box(0, 1)`` (finite, float32) over random and heuristic games at every player
count; scores and tie-breaks that grow late in a game (Tea VP, Flowers scores and set
VP, Taiwan coins and negative VP, Dadaocheng credit and hand cubes) stay distinct.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest

from formosa_envs import agents
from formosa_envs.core.contract import check_observation_bounds, step_random
from formosa_envs.core.engine import CHANCE
from formosa_envs.core.observer import Codec, Feature, distinct_limit, soft_count
from formosa_envs.games import GAMES, make_game

COUNTS = [(name, n) for name, info in GAMES.items()
          for n in range(info.min_players, info.max_players + 1)]


def play_checked(game: Any, spec: str, seed: int) -> int:
    """Play one game with ``spec`` agents, checking the bounds in every state; return
    how many states were checked."""
    players = [agents.make_agent(spec, game.name, seed=seed + i) for i in range(game.num_players)]
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    checked = 0
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        seat = game.current_player(state)
        if seat == CHANCE:
            step_random(game, state, rng)
            continue
        check_observation_bounds(game, state)
        checked += 1
        game.apply_action(state, players[seat].act_on_state(game, state))
    check_observation_bounds(game, state)  # the final position too
    return checked + 1


@pytest.mark.parametrize(("name", "num_players"), COUNTS)
def test_observations_inside_the_box(name: str, num_players: int) -> None:
    game = make_game(name, num_players=num_players)
    checked = sum(play_checked(game, spec, seed)
                  for seed, spec in enumerate(("random", "heuristic")))
    assert checked > 20


@pytest.mark.parametrize("name", sorted(GAMES))
def test_env_spaces_contain_observations_and_state(name: str) -> None:
    from formosa_envs.envs.aec import FormosaAECEnv
    env = FormosaAECEnv(name, num_players=GAMES[name].max_players)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    for agent in env.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = env.last()
        assert env.observation_space(agent).contains(obs)
        assert env.state_space.contains(env.state())
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if term or trunc else int(rng.choice(legal)))
        steps += 1
    assert steps > 50


# The observation layout each env id version stands for: (size, digest of the pieces'
# names and shapes). Changing a layout means bumping the version (as PettingZoo does),
# then recording the new layout here.
LAYOUTS = {"formosa/flowers-v1": (442, "322d583d9c47"), "formosa/taiwan-v1": (1624, "ca2c0852cb6a"),
           "formosa/tea-v1": (979, "b53c396dacda"), "formosa/dadaocheng-v2": (660, "e7ac2b4b33e4")}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_layout_matches_its_env_id_version(name: str) -> None:
    game = make_game(name, num_players=GAMES[name].max_players)
    shapes = repr([(piece, shape) for piece, _, shape, _ in game.observation_pieces()])
    layout = (game.observation_size, hashlib.sha256(shapes.encode()).hexdigest()[:12])
    assert LAYOUTS.get(GAMES[name].env_id) == layout, (
        f"{name}'s observation layout {layout} is not the one {GAMES[name].env_id} stands for: "
        "bump the env id version and record the new layout in LAYOUTS")


# ----- the encodings ------------------------------------------------------------------

@pytest.mark.parametrize("knee", [2, 3, 5, 6, 10, 12, 15, 20, 24, 50, 100])
def test_soft_count_distinct_in_float32(knee: int) -> None:
    top = distinct_limit(knee)
    assert top > 2500
    values = Codec([Feature("v", "count", knee)]).encode(np.arange(top + 1)[:, None])[:, 0]
    assert values.dtype == np.float32
    assert values[0] == 0.0 and values[-1] < 1.0
    assert np.all(np.diff(values) > 0), "consecutive integers collide"
    assert values[knee] == np.float32(0.5)
    assert soft_count(knee, knee) == 0.5 and soft_count(4 * knee, knee) == 0.875


def test_codec_keeps_every_column_in_range() -> None:
    codec = Codec([Feature("flag"), Feature("score", "score", 50),
                   Feature("signed", "signed_score", 50, neg_knee=10),
                   Feature("count", "count", 5)])
    assert codec.labels == ["flag/1", "score/50", "score~50", "signed/50", "signed~50",
                            "-signed~10", "count~5"]
    raw = np.array([[1, 10**9, -10**9, 10**9], [0, 0, 0, 0], [1, 49, -3, 7]])
    out = codec.encode(raw)
    assert out.dtype == np.float32 and np.all((out >= 0) & (out <= 1))
    assert out[2, 1] == np.float32(49 / 50) and out[2, 5] == np.float32(0.15)
    ten_coins = Codec([Feature("coin", "count", 5)]).encode([10])
    assert ten_coins[0] <= 1.0


def test_a_wrong_encoding_is_refused() -> None:
    with pytest.raises(ValueError, match="encoding must be one of"):
        Feature("x", "log")


# ----- decisive quantities stay distinct ------------------------------------------------

def midgame(name: str, num_players: int, steps: int = 60, seed: int = 1) -> tuple[Any, Any]:
    """A game and a state some random steps in."""
    game = make_game(name, num_players=num_players)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if game.is_terminal(state):
            break
        step_random(game, state, rng)
    return game, state


def assert_distinct(game: Any, state: Any, field: str, seat: int, values: list[Any]) -> None:
    """Setting ``state.<field>[seat]`` to each of ``values`` gives pairwise different
    observations (of ``seat`` and of another seat) and stays in the box."""
    for viewer in {seat, (seat + 1) % game.num_players}:
        seen = []
        for value in values:
            copy = game.clone(state)
            getattr(copy, field)[seat] = value
            check_observation_bounds(game, copy)
            seen.append(game.observe(copy, viewer))
        for i in range(len(seen)):
            for j in range(i):
                assert not np.array_equal(seen[i], seen[j]), (
                    f"{field} {values[j]!r} and {values[i]!r} look the same to seat {viewer}")


LATE_VALUES = [  # (game, players, random steps, field, seat, values that must differ)
    ("tea", 2, 80, "vp", 0, [100, 150, 160, 190]),           # 2-player games reach ~160
    ("flowers", 2, 20, "scores", 0, [60, 119, 130, 140]),    # past twice the target
    ("flowers", 2, 20, "pile_vp", 1, [40, 45, 50, 80]),      # set VP past 40
    ("taiwan", 3, 60, "coins", 1, [100, 120, 130, 400]),     # coins break VP ties
    ("taiwan", 3, 60, "vp", 2, [-5, -3, 0]),                 # final scoring can go negative
    ("taiwan", 3, 60, "vp", 2, [50, 100, 120]),
    ("dadaocheng", 2, 40, "credit", 0, [20, 21, 24, 45]),    # the tie-break, above 20 late
    ("dadaocheng", 2, 40, "credit", 1, [500, 600, 700]),     # prestige past 100 (credit/5)
    ("dadaocheng", 2, 40, "opium", 0, [10, 15, 20]),         # prestige below 0
]


@pytest.mark.parametrize(("name", "num_players", "steps", "field", "seat", "values"),
                         LATE_VALUES, ids=[f"{v[0]}-{v[3]}-{v[5][1]}" for v in LATE_VALUES])
def test_late_game_values_stay_distinct(name: str, num_players: int, steps: int, field: str,
                                        seat: int, values: list[int]) -> None:
    game, state = midgame(name, num_players, steps=steps)
    assert_distinct(game, state, field, seat, values)


def test_dadaocheng_hand_colours_stay_distinct() -> None:
    game, state = midgame("dadaocheng", 2, steps=40)
    hands = []
    for k in (6, 7, 8, 12):
        copy = game.clone(state)
        copy.hand[1] = [k, 0, 0, 0, 0]
        check_observation_bounds(game, copy)
        hands.append(game.observe(copy, 0))
    assert all(not np.array_equal(a, b) for i, a in enumerate(hands) for b in hands[:i])


def test_taiwan_long_regions_and_large_payments_stay_in_the_box() -> None:
    from formosa_envs.core.payment import pay_decision
    from formosa_envs.games.taiwan.payment import COIN
    game, state = midgame("taiwan", 5, steps=30)
    state.regions[0] = [0, 1, 2, 3, 4] * 3           # 15 markers: the 10th and later
    state.regions[1] = [4] + [3] * 6 + [2]          # 4's first marker comes first
    check_observation_bounds(game, state)
    seat = game.current_player(state)
    if seat == CHANCE:
        seat = 0
    state.stack.append(pay_decision(seat, 0, (0, 1), (COIN,) * 10))
    check_observation_bounds(game, state)
    view = game.observer.LAYOUT.view(game.observe(state, seat), "units")
    assert 0.5 < view[COIN] < 1.0                     # 10 coins: past the knee, below 1
