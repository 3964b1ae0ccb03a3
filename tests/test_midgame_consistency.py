"""Mid-game saves are consistent with their pending frames.

"A save that loads plays exactly like the original": a mid-game save that ``from_json``
accepts must never lead, by legal play, to a state ``check_invariants`` refuses.
(a) A bounded, fixed-seed load-then-play fuzz over mid-game saves of random and
heuristic games of every game, player count and setup-changing option: one field or
one frame position (kind excluded) of a real save is changed; when the save still
loads, random steps are played with ``check_invariants`` after each, and a
``StateFormatError`` there is a hole. (b) One test per hole the unbounded fuzz found,
refused naming the field. (c) Tea scenarios end setup at the rules' own step.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from formosa_envs import make_game
from formosa_envs.core.contract import step_random
from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import StateFormatError
from tests.fuzz_saves import fuzz, game_of

CONFIGS = [("tea", 2, {}), ("tea", 3, {"advanced": True}), ("tea", 4, {}),
           ("dadaocheng", 1, {"solo_challenge": "ships"}),
           ("dadaocheng", 2, {"two_player_sides": "adjacent"}), ("dadaocheng", 3, {}),
           ("flowers", 2, {"current_month": 5}), ("flowers", 4, {}),
           ("taiwan", 3, {}), ("taiwan", 5, {})]
IDS = [f"{g}-{n}p{''.join('-' + k for k in o)}" for g, n, o in CONFIGS]
SAVE_EVERY = 9
"""A save every 9th decision after setup."""
TRIALS = 60
_SAVES: dict[str, list[str]] = {}


def _after_setup(state: Any) -> bool:
    return int(getattr(state, "phase", 1)) != 0


def play(game: Any, seed: int, heuristic: bool, limit: int = 700) -> Any:
    """Yield every state after setup of a seeded random (or heuristic) game."""
    from formosa_envs.agents import make_agent
    rng, state = np.random.default_rng(seed), game.new_initial_state()
    agent = make_agent("heuristic", game.name, seed=seed) if heuristic else None
    while not game.is_terminal(state) and state.decisions < limit:
        if _after_setup(state):
            yield state
        if agent is not None and game.current_player(state) != CHANCE:
            game.apply_action(state, agent.act_on_state(game, state))
        else:
            step_random(game, state, rng)


def midgame_saves(game: Any) -> list[str]:
    """Saves every ``SAVE_EVERY`` decisions of two random and one heuristic game."""
    key = f"{game.name}{game.config_dict()}"
    if key not in _SAVES:
        _SAVES[key] = [game.to_json(st)
                       for seed, heur in ((0, False), (1, False), (2, True))
                       for k, st in enumerate(play(game, seed, heur)) if k % SAVE_EVERY == 0]
    return _SAVES[key]


def _leaves(obj: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _leaves(v, (*path, k))]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _leaves(v, (*path, i))]
    return [path] if isinstance(obj, int) else []


def mutate(state: dict[str, Any], rng: random.Random) -> str:
    """Change one int/bool leaf (a frame's position 60% of the time); say what changed."""
    paths = [p for p in _leaves(state) if p[0] != "decisions"]
    frames = [p for p in paths if p[0] == "stack"]
    if frames and rng.random() < 0.6:
        paths = frames
    path = rng.choice(paths)
    holder = state
    for key in path[:-1]:
        holder = holder[key]
    old = holder[path[-1]]
    new = (not old) if isinstance(old, bool) else rng.choice([old + 1, old - 1, 0, 1, -1])
    holder[path[-1]] = new
    return f"{'.'.join(map(str, path))}: {old} -> {new}"


@pytest.mark.parametrize(("name", "n", "opts"), CONFIGS, ids=IDS)
def test_midgame_load_then_play_fuzz(name: str, n: int, opts: dict[str, Any]) -> None:
    """No mutated mid-game save loads into a state that legal play shows impossible."""
    game = game_of(name, n, opts)
    found = fuzz(game, midgame_saves(game), TRIALS, seed=n, mutate=mutate)
    assert not found, "\n".join(found[:5])


# ----- the holes found, one test each ----------------------------------------------------

def midgame_save(game: Any, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first mid-game state (as a save dict) of seeded games satisfying ``pred``."""
    for seed in range(40):
        for heur in (False, True):
            for st in play(game, seed, heur):
                payload = json.loads(game.to_json(st))
                if pred(payload["state"]):
                    return payload
    raise AssertionError("no such mid-game state")


def _at(kinds: list[str]) -> Callable[[dict[str, Any]], bool]:
    """A state whose stack ends with frames of ``kinds`` (bottom to top)."""
    return lambda st: [row[0] for row in st["stack"][-len(kinds):]] == kinds


def _idx(st: dict[str, Any], kind: str) -> int:
    return next(i for i, row in enumerate(st["stack"]) if row[0] == kind)


def _ctx(kind: str, j: int, new: Callable[[dict[str, Any], int], int]) -> Callable:
    def change(st: dict[str, Any]) -> None:
        row = st["stack"][_idx(st, kind)]
        row[4][j] = new(st, row[4][j])
    return change


def _player(kind: str) -> Callable:
    def change(st: dict[str, Any]) -> None:
        row = st["stack"][_idx(st, kind)]
        row[1] = (row[1] + 1) % st["num_players"]
    return change


def _other_seat(st: dict[str, Any], old: int) -> int:
    return (old + 1) % len(st["vp"])


def _other_advances(st: dict[str, Any]) -> bool:
    """The next seat's Master can advance on the row of the top ``advance_mode``."""
    seat, row = st["stack"][-1][1], st["stack"][-1][4][0]
    return st["master_pos"][(seat + 1) % len(st["vp"])][row] in (0, 1, 2)


def _basket_draw(st: dict[str, Any]) -> None:
    row = st["stack"][_idx(st, "draw_cube")]
    row[4] = [1, 1]


def _uncash(st: dict[str, Any]) -> None:
    active = min(len(h) for h, out in zip(st["hands"], st["cashed"], strict=True) if not out)
    p = next(p for p, (h, out) in enumerate(zip(st["hands"], st["cashed"], strict=True))
             if out and len(h) >= active + 2)
    st["cashed"][p] = False


def _turn_player_passed(st: dict[str, Any]) -> None:
    st["passed"][st["turn"]] = True


def _scent_tea_without_cubes(st: dict[str, Any]) -> None:
    p = next(p for p, sc in enumerate(st["scent"]) if sc[1] == 0)
    st["scent"][p][0] = 1



def _pending(st: dict[str, Any], kind: str) -> bool:
    return any(row[0] == kind for row in st["stack"]) and st["phase"] != 0


def _empty_a_filled_cell(st: dict[str, Any]) -> None:
    c = next(c for c, d in enumerate(st["cell_disc"]) if d >= 0)
    st["cell_disc"][c] = -1


def _cashed_with_cards(st: dict[str, Any]) -> bool:
    """A cashed-out seat holds 2+ cards more than an empty-handed seat still in play."""
    active = [len(h) for h, out in zip(st["hands"], st["cashed"], strict=True) if not out]
    return any(out and len(h) >= min(active) + 2
               for h, out in zip(st["hands"], st["cashed"], strict=True)) and active


HOLES = [
    # the reported hole: a mid-game plantation draw turned into a Basket draw
    ("tea", 2, {"advanced": True}, _at(["new_round", "draw_cube"]), _basket_draw,
     "stack[1].ctx[0]"),
    ("tea", 3, {}, lambda st: st["stack"][:1] and st["stack"][0][0] == "resume",
     _ctx("resume", 0, _other_seat), "stack[0].ctx[0]"),
    ("tea", 2, {}, lambda st: st["stack"][:1] and st["stack"][0][0] == "resume",
     _turn_player_passed, "stack[0].ctx[0]"),
    ("tea", 3, {}, _at(["row_advance", "wu", "take"]),
     _ctx("row_advance", 1, lambda st, old: old - 1), "stack[1].ctx[1]"),
    ("tea", 3, {}, _at(["row_advance", "advance_mode"]),
     _ctx("advance_mode", 1, lambda st, old: old + 1 if old < 4 else old - 1),
     "stack[2].ctx"),
    ("tea", 3, {}, lambda st: _at(["row_advance", "advance_mode"])(st) and _other_advances(st),
     _player("advance_mode"), "stack[2].player"),
    ("tea", 3, {"advanced": True}, _at(["scent_after", "scent_cube"]), _player("scent_cube"),
     "stack[2].player"),
    ("tea", 3, {"advanced": True}, _at(["wu", "take"]),
     _ctx("take", 0, lambda st, old: next(
         sp for sp in range(16) if sp != old and (sp % 4 != 0 or len(st["vp"]) == 4))),
     "stack[3].ctx[0]"),
    ("tea", 3, {"advanced": True},
     lambda st: st["stack"] and any(sc[1] == 0 for sc in st["scent"]),
     _scent_tea_without_cubes, "scent["),
    ("taiwan", 3, {}, lambda st: [r[0] for r in st["stack"]] == ["warehouse"],
     _player("warehouse"), "stack"),
    ("dadaocheng", 1, {}, lambda st: _pending(st, "place_disc") and min(st["cell_disc"]) >= -1
     and any(d >= 0 for d in st["cell_disc"]), _empty_a_filled_cell, "cell_disc"),
    ("dadaocheng", 2, {}, lambda st: _pending(st, "take"), _player("take"), "stack["),
    ("dadaocheng", 3, {}, _at(["purchase"]), _player("purchase"), "stack[0].player"),
    ("flowers", 4, {}, lambda st: _cashed_with_cards(st), _uncash, "cashed"),
]



@pytest.mark.parametrize("case", HOLES, ids=[f"{c[0]}-{c[5]}-{i}" for i, c in enumerate(HOLES)])
def test_impossible_midgame_saves_refused(case: tuple) -> None:
    """Each hole the mid-game fuzz found is refused on load, naming the field."""
    name, n, opts, pred, change, field = case
    game = game_of(name, n, opts)
    payload = midgame_save(game, pred)
    game.from_json(json.dumps(payload))  # the original loads
    change(payload["state"])
    with pytest.raises(StateFormatError, match=f"field '{field}".replace("[", r"\[")):
        game.from_json(json.dumps(payload))


# ----- Tea scenarios end setup where the rules do ---------------------------------------

@pytest.mark.parametrize(("advanced", "last"), [(False, 5), (True, 6)])
def test_tea_scenario_ends_setup_at_the_real_step(advanced: bool, last: int) -> None:
    """A scenario's setup_step is the rules' end of setup; the other value is refused."""
    from formosa_envs.games.tea.scenario import scenario
    game = make_game("tea", num_players=2, advanced=advanced)
    state = scenario(game)
    assert state.setup_step == last
    payload = json.loads(game.to_json(state))
    game.from_json(json.dumps(payload))
    payload["state"]["setup_step"] = 11 - last
    with pytest.raises(StateFormatError, match="field 'setup_step'"):
        game.from_json(json.dumps(payload))
