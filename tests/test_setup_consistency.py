"""Setup-phase saves are consistent with ``setup_step`` and the pending frames.

"A save that loads plays exactly like the original": a save taken during setup that
``from_json`` accepts must never lead, by legal play, to a state ``check_invariants``
refuses. (a) A load-then-play fuzz: real saves taken at every setup step (and a few
mid-game) get single-field and single-frame mutations; whenever a mutated save loads,
random steps are played from it with ``check_invariants`` after each; any
``StateFormatError`` there means the load accepted an impossible state. (b) The
reviewer's examples are refused naming the field. (c) Legitimate states still pass
at every step of random games (the option combinations that change setup).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from formosa_envs.core.contract import step_random
from formosa_envs.core.errors import StateFormatError
from tests.fuzz_saves import fuzz, game_of

FUZZ_CONFIGS = [("tea", 2, {}), ("tea", 3, {"advanced": True}), ("tea", 4, {}),
                ("dadaocheng", 1, {}), ("dadaocheng", 2, {}), ("dadaocheng", 3, {}),
                ("flowers", 2, {}), ("taiwan", 3, {})]
IDS = [f"{g}-{n}p{'-' + '-'.join(o) if o else ''}" for g, n, o in FUZZ_CONFIGS]
SETUP_EVERY = 3
"""A save every 3rd setup decision (every step of each setup phase is reached)."""
MID_GAME = 3


def in_setup(game: Any, state: Any) -> bool:
    """Whether ``state`` is before the first turn (phase 0, or Flowers' deal)."""
    return int(getattr(state, "phase", 0)) == 0 and not game.is_terminal(state)


def setup_saves(game: Any, seeds: range, mid: int = MID_GAME) -> list[str]:
    """Saves of setup states (every ``SETUP_EVERY``-th) and ``mid`` mid-game states."""
    saves: list[str] = []
    for seed in seeds:
        rng, state, k = np.random.default_rng(seed), game.new_initial_state(), 0
        while in_setup(game, state):
            if k % SETUP_EVERY == 0:
                saves.append(game.to_json(state))
            step_random(game, state, rng)
            k += 1
        later = []
        while not game.is_terminal(state) and len(later) < 60:
            later.append(game.to_json(state))
            step_random(game, state, rng)
        if mid:
            saves.extend(later[:: max(1, len(later) // mid)][:mid])
    return saves


def _leaves(obj: Any, path: tuple = ()) -> list[tuple]:
    """Paths of every int leaf (bools excluded) under ``obj``."""
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _leaves(v, (*path, k))]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _leaves(v, (*path, i))]
    return [path] if isinstance(obj, int) and not isinstance(obj, bool) else []


def mutate(state: dict[str, Any], rng: random.Random) -> str:
    """One single-field or single-frame change; return what was changed."""
    paths = [p for p in _leaves(state) if p[0] != "decisions"]
    if state["stack"] and rng.random() < 0.35:
        paths = [p for p in paths if p[0] == "stack"] or paths
    path = rng.choice(paths)
    holder = state
    for key in path[:-1]:
        holder = holder[key]
    old = holder[path[-1]]
    holder[path[-1]] = rng.choice([old + 1, old - 1, -1, 0, old + 2])
    return f"{'.'.join(map(str, path))}: {old} -> {holder[path[-1]]}"


@pytest.mark.parametrize(("name", "n", "opts"), FUZZ_CONFIGS, ids=IDS)
def test_load_then_play_fuzz(name: str, n: int, opts: dict[str, Any]) -> None:
    """No mutated setup save loads into a state that legal play shows to be impossible."""
    game = game_of(name, n, opts)
    found = fuzz(game, setup_saves(game, range(2), mid=0), trials=250, seed=n,
                 mutate=mutate)
    assert not found, "\n".join(found[:5])


def _setup_save(game: Any, pred: Any, seed: int = 0) -> dict[str, Any]:
    """The first setup save of a seeded random game whose state dict satisfies ``pred``."""
    for save in setup_saves(game, range(seed, seed + 1), mid=0):
        payload = json.loads(save)
        if pred(payload["state"]):
            return payload
    raise AssertionError("no such setup state")


def _kinds(st: dict[str, Any]) -> list[str]:
    return [row[0] for row in st["stack"]]


def _set_ctx(kind: str, old: list[int], new: list[int]) -> Any:
    def change(st: dict[str, Any]) -> None:
        row = next(r for r in st["stack"] if r[0] == kind and r[4] == old)
        row[4] = new
    return change


REVIEW_CASES = [
    ("tea", 3, lambda st: st["setup_step"] == 1,
     lambda st: st["weather"].__setitem__(0, 1), "weather[0]"),
    ("tea", 3, lambda st: st["setup_step"] == 1 and "place_bud" in _kinds(st),
     lambda st: st.__setitem__("setup_step", 0), "stack"),
    ("tea", 3, lambda st: st["setup_step"] == 1 and [0, 14] in [r[4] for r in st["stack"]],
     _set_ctx("draw_cube", [0, 14], [0, 13]), "stack["),
    ("tea", 2, lambda st: st["setup_step"] == 4 and "draw_cube" in _kinds(st),
     lambda st: (st["basket"][0].__setitem__(1, st["basket"][0][1] + 1),
                 st["bag"].__setitem__(0, st["bag"][0] - 1)), "basket[0]"),
    ("tea", 2, lambda st: st["setup_step"] == 1,
     lambda st: st["vp"].__setitem__(1, 3), "vp"),
    ("dadaocheng", 2, lambda st: st["setup_step"] == 2 and "ship_reveal" in _kinds(st),
     lambda st: st.__setitem__("setup_step", 3), "setup_step"),
    ("dadaocheng", 2, lambda st: st["setup_step"] == 1 and st["cell_disc"][3] >= 0,
     lambda st: st["cell_disc"].__setitem__(3, -1), "cell_disc"),
    ("dadaocheng", 3, lambda st: st["setup_step"] == 2 and _kinds(st)[:1] == ["ship_reveal"]
     and st["stack"][0][4] == [2],
     lambda st: st["stack"][0][4].__setitem__(0, 1), "stack[0]"),
    ("dadaocheng", 2, lambda st: st["setup_step"] == 1,
     lambda st: st["hand"][0].__setitem__(2, 1), "hand"),
    ("taiwan", 3, lambda st: _kinds(st) == ["reveal"] and st["stack"][0][4] == [3],
     lambda st: st["stack"][0][4].__setitem__(0, 4), "stack"),
    ("taiwan", 3, lambda st: _kinds(st) == ["draw_type"] and st["setup_step"] < 11,
     lambda st: st.__setitem__("setup_step", st["setup_step"] + 1), "in_game"),
]


@pytest.mark.parametrize("case", REVIEW_CASES, ids=[f"{c[0]}-{c[4]}" for c in REVIEW_CASES])
def test_impossible_setup_saves_refused(case: tuple) -> None:
    """The reviewer's setup corruptions (and kin) are refused naming the field."""
    name, n, pred, change, field = case
    game = game_of(name, n, {})
    payload = _setup_save(game, pred)
    game.from_json(json.dumps(payload))  # the original loads
    change(payload["state"])
    with pytest.raises(StateFormatError, match=f"field '{field}".replace("[", r"\[")):
        game.from_json(json.dumps(payload))


LEGIT = [("tea", 2, {}), ("tea", 4, {"advanced": True}), ("tea", 2, {"advanced": True}),
         ("dadaocheng", 1, {"solo_challenge": "ships"}),
         ("dadaocheng", 2, {"two_player_sides": "adjacent"}), ("dadaocheng", 4, {}),
         ("taiwan", 2, {}), ("taiwan", 5, {})]


@pytest.mark.parametrize(("name", "n", "opts"), LEGIT,
                         ids=[f"{g}-{n}p-{'-'.join(o)}" for g, n, o in LEGIT])
def test_setup_states_of_real_games_pass(name: str, n: int, opts: dict[str, Any]) -> None:
    """Every state of a random game passes check_invariants; setup saves load."""
    game = game_of(name, n, opts)
    rng, state = np.random.default_rng(3), game.new_initial_state()
    while not game.is_terminal(state) and state.decisions < 400:
        game.check_invariants(state)
        if in_setup(game, state):
            game.from_json(game.to_json(state))
        step_random(game, state, rng)
