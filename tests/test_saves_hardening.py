"""Every entry point checks its state, and nothing gets in unchecked.

One test (or more) per class of the issue: (1) Taiwan's counts stay loadable however long
a legal game runs; (2) an engine state changed in place behind the env never gets an
illegal action applied; (3) the load check refuses stacks that break the turn order;
(4) foreign states are refused by the engine; (5) odd values in saves; (6) lifecycle
corners; (7) one game object shared by threads; (8) output paths create only the last
folder.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import formosa_envs
from formosa_envs import make_game
from formosa_envs.core.contract import step_random
from formosa_envs.core.errors import (
    ArgumentError,
    CallOrderError,
    FormosaError,
    IllegalActionError,
    StateFormatError,
)
from formosa_envs.games.taiwan.state import MAX_COINS, MAX_COUNT


def _first_legal_game(game: Any, decisions: int) -> Any:
    state, rng = game.new_initial_state(), np.random.default_rng(0)
    while not game.is_terminal(state) and state.decisions < decisions:
        if game.current_player(state) == formosa_envs.core.engine.CHANCE:
            game.apply_action(state, game.sample_chance(state, rng))
        else:
            game.apply_action(state, game.legal_actions(state)[0])
    return state


def _saved(game: Any, state: Any) -> dict[str, Any]:
    return json.loads(game.to_json(state))


# ----- (1) Taiwan: the loader and the engine agree -------------------------------------------

def test_taiwan_first_action_game_loads_at_truncation() -> None:
    game = make_game("taiwan", num_players=2)
    state = _first_legal_game(game, game.max_game_length)
    assert state.decisions == game.max_game_length and max(state.coins) > 9_999
    assert game.to_json(game.from_json(game.to_json(state))) == game.to_json(state)


@pytest.mark.parametrize(("field", "cap"), [("coins", MAX_COINS), ("workers", MAX_COUNT),
                                            ("merchants", MAX_COUNT)])
def test_taiwan_counts_at_the_cap_stay_loadable(field: str, cap: int) -> None:
    game = make_game("taiwan", num_players=2)
    state = _first_legal_game(game, 200)
    payload = _saved(game, state)
    payload["state"][field] = [cap] * 2
    state = game.from_json(json.dumps(payload))
    rng = np.random.default_rng(1)
    for _ in range(60):
        if game.is_terminal(state):
            break
        step_random(game, state, rng)
        assert max(getattr(state, field)) <= cap
        game.from_json(game.to_json(state))  # loads at every step
    with pytest.raises(StateFormatError, match=field):
        payload["state"][field] = [cap + 1] * 2
        game.from_json(json.dumps(payload))


# ----- (2) the mask cache never trusts a state changed in place ------------------------------

def test_state_changed_in_place_after_observe_is_checked() -> None:
    env = formosa_envs.raw_env("flowers", num_players=2)
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    action = int(np.flatnonzero(mask)[0])
    state = env.engine_state
    card = state.hands[env.game.current_player(state)].pop()   # the card leaves the hand
    state.deck.append(card)
    before = env.game.to_json(state)
    with pytest.raises(FormosaError):
        for a in np.flatnonzero(mask):
            action = int(a)
            env.step(action)
    assert env.game.to_json(state) == before   # nothing half-applied


def test_an_illegal_action_after_an_in_place_change_is_refused() -> None:
    env = formosa_envs.raw_env("tea", num_players=2)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(30):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    mask = env.observe(env.agent_selection)["action_mask"]
    state = env.engine_state
    legal = set(env.game.legal_actions(state))
    state.passed[env.game.current_player(state)] = False
    state.vp[0] += 0  # an in-place change the cache cannot see
    illegal = next(a for a in range(env.game.num_actions) if a not in legal)
    env._mask_cache = (state, len(env.history), env.agent_selection,
                       np.ones_like(mask))  # a cache that would let anything through
    with pytest.raises(IllegalActionError):
        env.step(illegal)


# ----- (3) stacks that break the turn order are refused at load ------------------------------

def _saves(name: str, n: int, count: int = 400) -> tuple[Any, list[str]]:
    game = make_game(name, num_players=n)
    state, rng, out = game.new_initial_state(), np.random.default_rng(5), []
    while not game.is_terminal(state) and len(out) < count:
        out.append(game.to_json(state))
        step_random(game, state, rng)
    return game, out


@pytest.mark.parametrize("name", ["tea", "dadaocheng"])
def test_a_duplicated_top_decision_is_refused(name: str) -> None:
    game, saves = _saves(name, 2)
    tried = 0
    for text in saves[::5]:
        payload = json.loads(text)
        stack = payload["state"]["stack"]
        if not stack or stack[-1][1] < 0 or payload["state"]["phase"] < 1:
            continue
        stack.append(stack[-1])
        tried += 1
        with pytest.raises(StateFormatError):
            game.from_json(json.dumps(payload))
    assert tried > 5


def test_the_second_half_of_a_swap_handed_to_another_seat_is_refused() -> None:
    game, saves = _saves("dadaocheng", 2, 2000)
    payload = next(p for p in map(json.loads, saves)
                   if p["state"]["stack"] and p["state"]["stack"][-1][0] == "swap_to")
    payload["state"]["stack"][-1][1] = 1 - payload["state"]["stack"][-1][1]
    with pytest.raises(StateFormatError, match="swap_to"):
        game.from_json(json.dumps(payload))


def test_flowers_hands_must_follow_the_turn_order() -> None:
    game, saves = _saves("flowers", 3, 2000)
    tried = 0
    for text in saves:
        payload = json.loads(text)
        st = payload["state"]
        if st["phase"] == 0 or st["over"] or st["cashed"] != [False] * 3:
            continue
        sizes = [len(h) for h in st["hands"]]
        big = max(range(3), key=lambda p: sizes[p])
        small = min(range(3), key=lambda p: sizes[p])
        if sizes[big] == sizes[small]:
            continue
        st["hands"][small].append(st["hands"][big].pop())  # sizes swap: still within one
        tried += 1
        with pytest.raises(StateFormatError, match="hands"):
            game.from_json(json.dumps(payload))
    assert tried > 3


# ----- (4) states of another game or player count ---------------------------------------------

@pytest.mark.parametrize("method", ["to_json", "legal_actions", "chance_outcomes",
                                    "apply_action", "apply_legal_action", "resolve_chance"])
def test_a_foreign_state_is_refused(method: str) -> None:
    two, three = make_game("flowers", num_players=2), make_game("flowers", num_players=3)
    taiwan = make_game("taiwan", num_players=2)
    for foreign in (three.new_initial_state(), taiwan.new_initial_state()):
        before = repr(foreign)
        args: tuple[Any, ...] = {"apply_action": (0,), "apply_legal_action": (0,),
                                 "resolve_chance": (np.random.default_rng(0),)}.get(method, ())
        with pytest.raises(ArgumentError, match=method):
            getattr(two, method)(foreign, *args)
        assert repr(foreign) == before


# ----- (5) odd values --------------------------------------------------------------------------

def test_a_huge_integer_is_a_state_format_error() -> None:
    game, saves = _saves("flowers", 2, 20)
    text = saves[-1].replace('"decisions":', '"decisions":' + "9" * 5000 + "0*", 1)
    text = text.replace("0*", "", 1)
    with pytest.raises(StateFormatError):
        game.from_json(text)
    payload = json.loads(saves[-1])
    payload["state"]["decisions"] = 10**40
    with pytest.raises(StateFormatError, match="decisions"):
        game.from_json(json.dumps(payload))


@pytest.mark.parametrize("name", ["flowers", "taiwan"])
def test_a_lone_surrogate_is_a_state_format_error(name: str) -> None:
    game, saves = _saves(name, 2, 20)
    payload = json.loads(saves[-1])
    payload["state"]["last_event"] = "bad \ud800 text"
    with pytest.raises(StateFormatError, match="last_event"):
        game.from_json(json.dumps(payload))


# ----- (6) lifecycle corners ------------------------------------------------------------------

def test_agent_iter_before_reset_is_a_call_order_error() -> None:
    env = formosa_envs.raw_env("flowers", num_players=2)
    with pytest.raises(CallOrderError, match=r"agent_iter\(\) before reset\(\)"):
        env.agent_iter()


def test_an_action_for_a_finished_agent_is_a_call_order_error() -> None:
    env = formosa_envs.raw_env("flowers", num_players=2, max_game_length=3)
    env.reset(seed=0)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    with pytest.raises(CallOrderError, match="None"):
        env.step(0)
    env.step(None)  # the dead step itself still works


# ----- (7) one game object shared by threads ---------------------------------------------------

def _play(game: Any, seed: int) -> str:
    state, rng = game.new_initial_state(), np.random.default_rng(seed)
    while not game.is_terminal(state) and state.decisions < 300:
        step_random(game, state, rng)
        game.observe(state, 0)
    return game.to_json(state)


@pytest.mark.parametrize("name", ["flowers", "taiwan", "tea", "dadaocheng"])
def test_a_game_object_is_safe_to_share_between_threads(name: str) -> None:
    shared = make_game(name, num_players=2)
    fresh = make_game(name, num_players=2)
    want = {seed: _play(fresh, seed) for seed in range(6)}
    got: dict[int, str] = {}

    def worker(seed: int) -> None:
        got[seed] = _play(shared, seed)
    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == want


# ----- (8) output paths ------------------------------------------------------------------------

def test_save_record_creates_only_the_last_folder(tmp_path: Path) -> None:
    from formosa_envs.tools.record import record_random_game, save_record
    from formosa_envs.tools.usage import UsageError, check_output_folder
    record = record_random_game("flowers", 2, 0)
    assert save_record(record, tmp_path / "new" / "g.json").is_file()
    with pytest.raises(UsageError, match="does not exist"):
        save_record(record, tmp_path / "missing" / "deeper" / "g.json")
    assert not (tmp_path / "missing").exists()
    with pytest.raises(UsageError, match="missing"):
        check_output_folder(tmp_path / "missing" / "x", "--out")
    check_output_folder(tmp_path / "x", "--out")
