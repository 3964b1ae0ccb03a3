"""Saved states are validated whole: one schema mechanism in core.

(a) every state reached by random (and heuristic) play passes ``validate_state`` and
round-trips through ``to_json``/``from_json``, and a loaded save plays exactly like the
original; (b) a corruption battery derived from each game's schema, plus every example
of the issue, is refused with a ``StateFormatError`` naming the field; (c) random
single-field mutations of real saves either are refused or load into a state that passes
``check_invariants`` and can be played on without a non-Formosa exception.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest

from formosa_envs import make_game
from formosa_envs.core import engine
from formosa_envs.core import schema as sc
from formosa_envs.core.contract import step_random
from formosa_envs.core.errors import FormosaError, StateFormatError

CONFIGS = [("flowers", 2, {}), ("flowers", 4, {}), ("taiwan", 2, {}), ("taiwan", 5, {}),
           ("tea", 2, {}), ("tea", 4, {"advanced": True}),
           ("dadaocheng", 1, {}), ("dadaocheng", 2, {}), ("dadaocheng", 4, {})]
"""The smallest and largest player count of each game, plus Tea's advanced rules,
Taiwan's 2-player neutral colour and Dadaocheng's solo game."""
IDS = [f"{g}-{n}p{'-adv' if o else ''}" for g, n, o in CONFIGS]
FUZZ_TRIALS = 100
REPLAY_STEPS = 400
ROUND_TRIP_STATES = 800
"""Whole games, except 5-player Taiwan (about 3,000 states): its first 800."""
HEURISTIC_DECISIONS = 80
"""Heuristic agents are slow: a game's first decisions, in every phase reached."""
_GAMES: dict[tuple[str, int, str], Any] = {}
_SAVES: dict[tuple[str, int, str], list[str]] = {}


def game_of(name: str, n: int, opts: dict[str, Any]) -> Any:
    """One engine per configuration (schemas are compiled once per game)."""
    key = (name, n, repr(opts))
    if key not in _GAMES:
        _GAMES[key] = make_game(name, num_players=n, **opts)
    return _GAMES[key]


def saves_of(name: str, n: int, opts: dict[str, Any], count: int = 6) -> list[str]:
    """Saves of ``count`` states spread over one seeded random game (middle states)."""
    key = (name, n, repr(opts))
    if key not in _SAVES:
        game = game_of(name, n, opts)
        rng = np.random.default_rng(7)
        state, states = game.new_initial_state(), []
        while not game.is_terminal(state):
            states.append(game.clone(state))
            step_random(game, state, rng)
        picks = np.linspace(len(states) // 5, len(states) - 1, count).astype(int)
        _SAVES[key] = [game.to_json(states[i]) for i in picks]
    return _SAVES[key]


def load(game: Any, text: str) -> Any:
    return game.from_json(text)


def edited(text: str, **changes: Any) -> str:
    """A save with top-level state fields replaced."""
    payload = json.loads(text)
    payload["state"].update(changes)
    return json.dumps(payload)


def refused(game: Any, payload: dict[str, Any], names: str) -> str:
    """Assert the save is refused with a StateFormatError mentioning ``names``."""
    with pytest.raises(StateFormatError) as info:
        game.from_json(json.dumps(payload))
    message = str(info.value)
    assert names in message, f"{message!r} does not name {names!r}"
    return message


# ----- (a) reachable states pass, round-trip, and replay identically ------------------------

@pytest.mark.parametrize(("name", "n", "opts"), CONFIGS, ids=IDS)
def test_every_reached_state_is_valid_and_round_trips(name: str, n: int,
                                                      opts: dict[str, Any]) -> None:
    game = game_of(name, n, opts)
    rng = np.random.default_rng(n)
    state = game.new_initial_state()
    for _ in range(ROUND_TRIP_STATES):
        text = game.to_json(state)
        assert game.to_json(game.from_json(text)) == text
        if game.is_terminal(state):
            break
        step_random(game, state, rng)


@pytest.mark.parametrize("name", ["flowers", "taiwan", "tea", "dadaocheng"])
def test_heuristic_games_stay_valid(name: str) -> None:
    from formosa_envs.agents import make_agent
    game = make_game(name, num_players=2)
    agent = make_agent("heuristic", name, seed=3)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    while not game.is_terminal(state) and state.decisions < HEURISTIC_DECISIONS:
        if game.current_player(state) == engine.CHANCE:
            game.apply_action(state, game.sample_chance(state, rng))
        else:
            game.apply_action(state, agent.act_on_state(game, state))
        game.check_invariants(state)
        assert game.to_json(game.from_json(game.to_json(state))) == game.to_json(state)


@pytest.mark.parametrize(("name", "n", "opts"), CONFIGS, ids=IDS)
def test_a_loaded_save_plays_exactly_like_the_original(name: str, n: int,
                                                       opts: dict[str, Any]) -> None:
    game = game_of(name, n, opts)
    text = saves_of(name, n, opts)[4]
    original, loaded = game.from_json(text), game.from_json(text)
    rng_a, rng_b = np.random.default_rng(11), np.random.default_rng(11)
    for _ in range(REPLAY_STEPS):
        if game.is_terminal(original):
            break
        step_random(game, original, rng_a)
        step_random(game, loaded, rng_b)
        assert game.to_json(loaded) == game.to_json(original)
    assert game.is_terminal(loaded) == game.is_terminal(original)


def test_check_invariants_and_load_validation_are_one_check() -> None:
    """A corrupt in-memory state fails check_invariants exactly as its save fails to load."""
    game = make_game("flowers", num_players=2)
    state = game.from_json(saves_of("flowers", 2, {})[1])
    state.deck.append(state.deck[0])
    with pytest.raises(StateFormatError, match="deck") as in_memory:
        game.check_invariants(state)
    with pytest.raises(StateFormatError) as loading:
        game.from_json(game.to_json(state))
    assert str(loading.value) == str(in_memory.value)
    with pytest.raises(StateFormatError):
        game.validate_state(state)


def test_every_state_field_is_declared() -> None:
    """Each game's schema describes every field of its state dataclass (none forgotten)."""
    import dataclasses
    for name, n, opts in CONFIGS:
        game = game_of(name, n, opts)
        declared = set(sc.describe_schema(game)) | {"stack", "num_players"}
        fields = {f.name for f in dataclasses.fields(game.state_class)}
        assert fields <= declared, f"{name}: undeclared {fields - declared}"
    assert (sc.CHANCE, sc.AUTO) == (engine.CHANCE, engine.AUTO)


# ----- (b) the corruption battery ------------------------------------------------------------

def _first_list(value: Any, depth: int) -> list[Any] | None:
    """The first list at nesting ``depth`` inside ``value`` (depth 0: value itself)."""
    if not isinstance(value, list):
        return None
    if depth == 0:
        return value
    for item in value:
        found = _first_list(item, depth - 1)
        if found is not None:
            return found
    return None


def _leaf_holder(value: Any, depth: int) -> tuple[list[Any], int] | None:
    """A (list, index) of an innermost value, preferring a non-empty innermost list."""
    lists = [value] if depth == 1 else [x for x in value if isinstance(x, list)]
    for _ in range(depth - 2):
        lists = [y for x in lists for y in x if isinstance(y, list)]
    for inner in lists:
        if inner:
            return inner, 0
    return None


def _bad_values(r: sc.Resolved, index: int) -> list[Any]:
    """Values outside the field's declared type and range (at ``index`` of a leaf list)."""
    lo = r.lo[index] if isinstance(r.lo, tuple) else r.lo
    hi = r.hi[index] if isinstance(r.hi, tuple) else r.hi
    bad: list[Any] = [{"x": 1}, None]
    if r.kind is int:
        bad += [True, 1.5, "7"]
        bad += [] if lo is None else [lo - 1, -10**9]
        bad += [] if hi is None else [hi + 1, 10**9]
        bad += [] if r.choices is None else [max(r.choices) + 1, min(r.choices) - 1]
    elif r.kind is bool:
        bad += [0, 1, "true"]
    else:
        bad += [7, "x" * (hi + 1 if hi is not None else 10)]
    return bad


def corruptions(game: Any, state: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(what, field, mutated state) for every declared field: wrong type, wrong length of
    every list level, out-of-range, negative and huge values, duplicates."""
    frozen = json.dumps(state)
    return [case for name in sc.describe_schema(game)
            for case in _field_corruptions(sc.resolve(game, name), name, state, frozen)]


def _field_corruptions(r: sc.Resolved, name: str, state: dict[str, Any],
                       frozen: str) -> list[tuple[str, str, dict[str, Any]]]:
    out = []

    def mutate(change: Any, what: str) -> None:
        data = json.loads(frozen)
        change(data[name] if isinstance(data[name], list) else data, data)
        out.append((what, name, data))
    mutate(lambda _v, d: d.__setitem__(name, {"not": "valid"}), "wrong type")
    for depth, allowed in enumerate(r.lengths):
        target = _first_list(state[name], depth)
        if target is None:
            continue
        if allowed.stop - 1 < 1 << 40:
            def grow(v: Any, _d: Any, depth: int = depth, n: int = allowed.stop) -> None:
                lst = _first_list(v, depth)
                filler = copy.deepcopy(lst[-1]) if lst else 0
                lst.extend(copy.deepcopy(filler) for _ in range(n - len(lst)))
            mutate(grow, f"list level {depth} too long")
        if allowed.start > 0 and target:
            mutate(lambda v, _d, depth=depth: _first_list(v, depth).pop(),
                   f"list level {depth} too short")
    if not r.lengths:
        for bad in _bad_values(r, 0):
            mutate(lambda _v, d, bad=bad: d.__setitem__(name, bad), f"value {bad!r:.20}")
        return out
    depth = len(r.lengths)
    holder = _leaf_holder(state[name], depth)
    if holder is None:
        return out
    for bad in _bad_values(r, holder[1]):
        def put(v: Any, _d: Any, bad: Any = bad) -> None:
            inner, i = _leaf_holder(v, depth)
            inner[i] = bad
        mutate(put, f"entry {bad!r:.20}")
    if r.unique:
        def twice(v: Any, _d: Any) -> None:
            inner, i = _leaf_holder(v, depth)
            inner.append(inner[i])
        mutate(twice, "duplicate entry")
    return out


@pytest.mark.parametrize(("name", "n", "opts"), CONFIGS, ids=IDS)
def test_corruption_battery_names_the_field(name: str, n: int, opts: dict[str, Any]) -> None:
    game = game_of(name, n, opts)
    payload = json.loads(saves_of(name, n, opts)[3])
    cases = corruptions(game, payload["state"])
    assert len(cases) > 5 * len(payload["state"]) // 2
    for what, field, data in cases:
        with pytest.raises(StateFormatError) as info:
            game.from_json(json.dumps({**payload, "state": data}))
        assert f"'{field}" in str(info.value), f"{field}: {what}: {info.value}"


@pytest.mark.parametrize(("name", "n", "opts"), CONFIGS, ids=IDS)
def test_generic_corruptions(name: str, n: int, opts: dict[str, Any]) -> None:
    """Decision stack, player count and save keys, checked the same way for every game."""
    game = game_of(name, n, opts)
    payload = json.loads(saves_of(name, n, opts)[2])
    state = payload["state"]
    top = state["stack"][-1]

    def with_top(**change: Any) -> dict[str, Any]:
        frame = list(top)
        for i, key in enumerate(("kind", "player", "count", "optional", "ctx")):
            frame[i] = change.get(key, frame[i])
        return {**payload, "state": {**state, "stack": [*state["stack"][:-1], frame]}}
    refused(game, with_top(kind="no_such_decision"), "stack[")
    refused(game, with_top(kind="no_such_decision"), ".kind")
    refused(game, with_top(player=99), ".player")
    refused(game, with_top(player=-7), ".player")
    refused(game, with_top(count=-1), ".count")
    refused(game, with_top(optional=3), "stack[")
    refused(game, with_top(ctx=["x"]), "stack[")
    refused(game, {**payload, "state": {**state, "stack": []}}, "'stack'")
    refused(game, {**payload, "state": {**state, "stack": "pending"}}, "'stack'")
    refused(game, {**payload, "state": {**state, "over": True}}, "'over'")
    refused(game, {**payload, "state": {**state, "num_players": n + 1}}, "'num_players'")
    refused(game, {**payload, "state": {**state, "decisions": -1}}, "'decisions'")
    refused(game, {**payload, "state": {**state, "turn": 99}}, "'turn'")
    refused(game, {**payload, "state": {**state, "phase": 99}}, "'phase'")
    refused(game, {**payload, "extra": 1}, "extra")
    refused(game, {k: v for k, v in payload.items() if k != "config"}, "config")
    refused(game, {**payload, "state": {**state, "mystery": 1}}, "mystery")


def _state_of(name: str, n: int = 2, index: int = 3) -> tuple[Any, dict[str, Any]]:
    game = game_of(name, n, {})
    return game, json.loads(saves_of(name, n, {})[index])


def _with(payload: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**payload, "state": {**payload["state"], **changes}}


def test_issue_examples_flowers() -> None:
    game, payload = _state_of("flowers")
    deck = payload["state"]["deck"]
    refused(game, _with(payload, deck=[*deck, deck[0]]), "'deck'")        # 55 cards
    scores = payload["state"]["scores"]
    refused(game, _with(payload, scores=[-3, *scores[1:]]), "'scores[0]'")
    refused(game, _with(payload, scores=[10**9, *scores[1:]]), "'scores[0]'")


def test_issue_examples_taiwan() -> None:
    game, payload = _state_of("taiwan")
    st = payload["state"]
    refused(game, _with(payload, res=[st["res"][0][:3], *st["res"][1:]]), "'res[0]'")
    refused(game, _with(payload, vp=[-3, *st["vp"][1:]]), "'vp[0]'")
    refused(game, _with(payload, num_players=3), "'num_players'")
    refused(game, _with(payload, stack=[]), "'stack'")
    refused(game, _with(payload, over=True), "'over'")


def test_issue_examples_tea() -> None:
    game, payload = _state_of("tea")
    st = payload["state"]
    refused(game, _with(payload, cubes=[st["cubes"][0], [0, 0], *st["cubes"][2:]]),
            "'cubes[1]'")
    refused(game, _with(payload, face=[999, *st["face"][1:]]), "'face[0]'")
    refused(game, _with(payload, weather=[999, *st["weather"][1:]]), "'weather[0]'")
    refused(game, _with(payload, vp=[*st["vp"][:-1], -3]), "'vp[1]'")
    events = st["events"] or [0]
    refused(game, _with(payload, events=[events[0], *events]), "'events'")
    refused(game, _with(payload, stack=[]), "'stack'")


def test_issue_examples_dadaocheng() -> None:
    game, payload = _state_of("dadaocheng")
    st = payload["state"]
    refused(game, _with(payload, storehouse=[[0] * 4, *st["storehouse"][1:]]),
            "'storehouse[0]'")
    refused(game, _with(payload, hand=[[999, *st["hand"][0][1:]], *st["hand"][1:]]),
            "'hand[0][0]'")
    refused(game, _with(payload, stack=[]), "'stack'")


# ----- (c) fuzz: a mutation is refused, or it loads into a playable valid state -------------

_ODD_VALUES: list[Any] = [-1, 0, 1, 2, 3, 5, 17, 99, 10**6, -10**6, True, False, "x", None,
                          [], [0], 1.5]


def _random_mutation(rng: np.random.Generator, state: dict[str, Any]) -> str:
    """Change one value somewhere inside one random field of ``state`` (in place)."""
    name = sorted(state)[int(rng.integers(len(state)))]
    holder: Any = state
    key: Any = name
    while isinstance(holder[key], list) and holder[key] and rng.random() < 0.75:
        holder, key = holder[key], int(rng.integers(len(holder[key])))
    value = holder[key]
    roll = rng.random()
    if isinstance(value, list) and roll < 0.4:
        if value and rng.random() < 0.5:
            value.pop(int(rng.integers(len(value))))
        else:
            value.append(copy.deepcopy(value[-1]) if value else 0)
    elif isinstance(value, int) and not isinstance(value, bool) and roll < 0.7:
        holder[key] = value + int(rng.choice([-2, -1, 1, 2]))
    else:
        holder[key] = copy.deepcopy(_ODD_VALUES[int(rng.integers(len(_ODD_VALUES)))])
    return name


def _play_on(game: Any, state: Any, rng: np.random.Generator, steps: int = 4) -> None:
    for _ in range(steps):
        if game.is_terminal(state):
            return
        game.legal_actions(state)
        game.observe(state, max(game.current_player(state), 0))
        step_random(game, state, rng)
        game.check_invariants(state)


@pytest.mark.parametrize(("name", "n", "opts"), CONFIGS, ids=IDS)
def test_fuzz_single_field_mutations(name: str, n: int, opts: dict[str, Any]) -> None:
    game = game_of(name, n, opts)
    rng = np.random.default_rng(2024 + n)
    saves = [json.loads(t) for t in saves_of(name, n, opts)]
    loaded = 0
    for trial in range(FUZZ_TRIALS):
        payload = copy.deepcopy(saves[trial % len(saves)])
        field = _random_mutation(rng, payload["state"])
        text = json.dumps(payload)
        try:
            state = game.from_json(text)
        except StateFormatError:
            continue
        loaded += 1
        try:
            game.check_invariants(state)
            _play_on(game, state, rng)
        except FormosaError:
            pass  # e.g. an IllegalActionError is a clean refusal too
        except Exception as exc:  # pragma: no cover - the failure report
            raise AssertionError(f"mutating {field!r} loaded, then {type(exc).__name__}: "
                                 f"{exc}\n{text[:300]}") from exc
    assert loaded < FUZZ_TRIALS
