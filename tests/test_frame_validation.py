"""Decision frames are validated whole on load (nothing crashes deep
inside).

(a) Per game, every position of the ``ctx`` of real frames of every kind seen in random
and heuristic games is corrupted: out-of-range values are refused with a
``StateFormatError`` naming ``stack[i].ctx[j]``; any other value (in range but perhaps
inconsistent, a wrong length, another count) is either refused with a
``StateFormatError`` naming the frame, or loads into a state that plays on. (b) The
examples that used to load and crash later (a Taiwan payment its payer can no longer
complete, ids naming nothing) are refused naming the field. (c) The safety net
(``core/dry_run.py``): a pending decision that cannot be played is refused on load, and
only on load. (d) A fuzz of real mid-game saves: frames' ctx/count/optional and single
state fields mutated at random; a save either is refused or plays to the end.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import numpy as np
import pytest

from formosa_envs import make_game
from formosa_envs.core import dry_run
from formosa_envs.core.contract import step_random
from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import FormosaError, StateFormatError

CONFIGS = [("flowers", 3, {}), ("taiwan", 2, {}), ("taiwan", 5, {}), ("tea", 2, {}),
           ("tea", 4, {"advanced": True}), ("dadaocheng", 1, {}), ("dadaocheng", 3, {})]
IDS = [f"{g}-{n}p{'-adv' if o else ''}" for g, n, o in CONFIGS]
EXAMPLES_PER_KIND = 2
HEURISTIC_DECISIONS = 60
PLAY_STEPS = 300
"""Steps a loaded corrupt save is played on (whole games in the fuzz, below)."""
HUGE = (10**6, -10**6)
ODD = (-2, -1, 0, 1, 2, 3, 4, 5, 7, 15, 16, 31, 100, 204, 999)
_GAMES: dict[str, Any] = {}
_FRAMES: dict[str, dict[str, list[tuple[str, int]]]] = {}


def game_of(name: str, n: int, opts: dict[str, Any]) -> Any:
    key = f"{name}-{n}-{opts!r}"
    if key not in _GAMES:
        _GAMES[key] = make_game(name, num_players=n, **opts)
    return _GAMES[key]


def frames_of(name: str, n: int, opts: dict[str, Any]) -> dict[str, list[tuple[str, int]]]:
    """kind -> up to EXAMPLES_PER_KIND (save, stack index) of real frames of that kind,
    from a random game and the first decisions of a heuristic one."""
    key = f"{name}-{n}-{opts!r}"
    if key in _FRAMES:
        return _FRAMES[key]
    from formosa_envs.agents import make_agent
    game = game_of(name, n, opts)
    found: dict[str, list[tuple[str, int]]] = {}
    for seed, agent in ((5, None), (6, make_agent("heuristic", name, seed=6))):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not game.is_terminal(state):
            if agent is not None and state.decisions >= HEURISTIC_DECISIONS:
                break
            _record(game, state, found)
            if agent is not None and game.current_player(state) != CHANCE:
                game.apply_action(state, agent.act_on_state(game, state))
            else:
                step_random(game, state, rng)
    _FRAMES[key] = found
    return found


def _record(game: Any, state: Any, found: dict[str, list[tuple[str, int]]]) -> None:
    """Keep the first frames of each kind with distinct ctx (on top and below the top)."""
    text = None
    top = len(state.stack) - 1
    for i, d in enumerate(state.stack):
        seen = found.setdefault(d.kind, [])
        if len(seen) >= EXAMPLES_PER_KIND:
            continue
        rows = [(json.loads(t)["state"]["stack"][k][4], k == len(json.loads(t)["state"]
                                                                 ["stack"]) - 1)
                for t, k in seen]
        if (list(d.ctx), i == top) not in rows:
            text = text or game.to_json(state)
            seen.append((text, i))


def find_save(name: str, n: int, kind: str, seeds: int = 30) -> tuple[Any, str, int]:
    """A real save (random play) with a ``kind`` frame on top of the stack."""
    game = game_of(name, n, {})
    for text, i in frames_of(name, n, {}).get(kind, []):
        if i == len(json.loads(text)["state"]["stack"]) - 1:
            return game, text, i
    for seed in range(seeds):
        rng = np.random.default_rng(1000 + seed)
        state = game.new_initial_state()
        while not game.is_terminal(state):
            if state.stack[-1].kind == kind:
                return game, game.to_json(state), len(state.stack) - 1
            step_random(game, state, rng)
    raise AssertionError(f"no {name} save with {kind!r} on top in {seeds} games")


def with_frame(text: str, i: int, **change: Any) -> str:
    """The save with frame ``i`` changed (kind, player, count, optional or ctx)."""
    payload = json.loads(text)
    row = payload["state"]["stack"][i]
    for k, key in enumerate(("kind", "player", "count", "optional", "ctx")):
        if key in change:
            row[k] = change[key]
    return json.dumps(payload)


def play_on(game: Any, state: Any, rng: np.random.Generator, steps: int) -> None:
    """Random play; a FormosaError is a clean refusal, anything else is the bug."""
    for _ in range(steps):
        if game.is_terminal(state):
            return
        game.legal_mask(state)
        game.observe(state, max(game.current_player(state), 0))
        step_random(game, state, rng)


def loads_cleanly_or_refuses(game: Any, text: str, names: str, rng: np.random.Generator,
                             steps: int = PLAY_STEPS) -> bool:
    """Either StateFormatError naming ``names``, or a load that plays on; True if loaded."""
    try:
        state = game.from_json(text)
    except StateFormatError as exc:
        assert names in str(exc), f"{exc} does not name {names!r}"
        return False
    except Exception as exc:  # pragma: no cover - the failure report
        raise AssertionError(f"from_json raised {type(exc).__name__}: {exc}") from exc
    try:
        play_on(game, state, rng, steps)
    except FormosaError:
        pass
    except Exception as exc:  # pragma: no cover - the failure report
        raise AssertionError(f"loaded ({names}), then {type(exc).__name__}: {exc}") from exc
    return True


# ----- (a) every ctx position of every real frame kind -------------------------------------

@pytest.mark.parametrize(("name", "n", "opts"), CONFIGS, ids=IDS)
def test_every_ctx_position_of_every_kind(name: str, n: int, opts: dict[str, Any]) -> None:
    game = game_of(name, n, opts)
    found = frames_of(name, n, opts)
    assert len(found) >= 5, sorted(found)
    rng = np.random.default_rng(n)
    for kind, examples in sorted(found.items()):
        for text, i in examples:
            row = json.loads(text)["state"]["stack"][i]
            ctx = row[4]
            for j in range(len(ctx)):
                for bad in HUGE:
                    changed = ctx[:j] + [bad] + ctx[j + 1:]
                    with pytest.raises(StateFormatError) as info:
                        game.from_json(with_frame(text, i, ctx=changed))
                    assert f"stack[{i}].ctx[{j}]" in str(info.value), (kind, str(info.value))
                for odd in ODD:
                    changed = ctx[:j] + [odd] + ctx[j + 1:]
                    loads_cleanly_or_refuses(game, with_frame(text, i, ctx=changed),
                                             "stack" if odd != ctx[j] else "", rng, 40)
            for changed in (ctx + [0], ctx[:-1], ctx + ctx):
                if changed != ctx:
                    loads_cleanly_or_refuses(game, with_frame(text, i, ctx=changed),
                                             "stack[", rng, 40)
            for count in (0, row[2] + 1, row[2] + 5):
                loads_cleanly_or_refuses(game, with_frame(text, i, count=count), "", rng, 40)
            loads_cleanly_or_refuses(game, with_frame(text, i, optional=not row[3]), "", rng,
                                     40)


def test_fixed_length_kinds_refuse_another_length() -> None:
    """A frame whose kind carries a fixed number of ids refuses one more or one less."""
    for name, n, opts in CONFIGS:
        game = game_of(name, n, opts)
        for kind, examples in frames_of(name, n, opts).items():
            text, i = examples[0]
            ctx = json.loads(text)["state"]["stack"][i][4]
            if kind in ("pay", "setup_space", "tech_any", "?setup_space", "?tech_any"):
                continue  # variable-length kinds (a payment's units, an optional id)
            with pytest.raises(StateFormatError, match=rf"stack\[{i}\]\.ctx"):
                game.from_json(with_frame(text, i, ctx=[*ctx, 0]))
            if ctx:
                with pytest.raises(StateFormatError, match=rf"stack\[{i}\]\.ctx"):
                    game.from_json(with_frame(text, i, ctx=ctx[:-1]))


# ----- (b) inconsistent ids: examples that loaded and then crashed ---------------------------

def test_taiwan_payment_the_payer_cannot_complete() -> None:
    """The issue's example: the payer's resources changed while a payment is open. It
    loaded, then the next payment step raised ValueError in core/payment.py."""
    game, text, i = find_save("taiwan", 5, "pay")
    payload = json.loads(text)
    st = payload["state"]
    p = st["stack"][i][1]
    for field in ("res", "coins", "workers", "tribal", "merchants", "warehouse"):
        data = copy.deepcopy(payload)
        value = data["state"][field][p]
        data["state"][field][p] = [0] * len(value) if isinstance(value, list) else 0
        try:
            game.from_json(json.dumps(data))
        except StateFormatError as exc:
            assert f"stack[{i}]" in str(exc) or f"'{field}" in str(exc), str(exc)
    bare = copy.deepcopy(payload)
    for field in ("res", "warehouse"):
        bare["state"][field][p] = [0, 0, 0, 0]
    for field in ("coins", "workers", "tribal", "merchants"):
        bare["state"][field][p] = 0
    with pytest.raises(StateFormatError, match=rf"stack\[{i}\]"):
        game.from_json(json.dumps(bare))


@pytest.mark.parametrize(("name", "n"), [("taiwan", 3), ("tea", 2), ("dadaocheng", 2)])
def test_payment_frames_are_the_ones_the_rules_push(name: str, n: int) -> None:
    """A pending payment's purpose, sources and units must agree with the state."""
    game, text, i = find_save(name, n, "pay")
    ctx = json.loads(text)["state"]["stack"][i][4]
    k = ctx[1]
    options, units = ctx[2:2 + k], ctx[2 + k:]
    cases = {
        "ctx[0]": [999, *ctx[1:]],                                   # no such purpose
        "ctx[1]": [ctx[0], 1, *ctx[2:]],                             # fewer than 2 sources
        "ctx[2]": [ctx[0], k, *reversed(options), *units] if options[0] != options[-1]
        else [ctx[0], k, options[0] + 1, *options[1:], *units],      # other sources
        f"ctx[{2 + k}]": [ctx[0], k, *options, 999, *units[1:]],      # no such unit
    }
    for names, changed in cases.items():
        with pytest.raises(StateFormatError, match=re.escape(f"stack[{i}].{names}")):
            game.from_json(with_frame(text, i, ctx=changed))


def _examples() -> list[tuple[str, int, str, str, Any]]:
    """(game, players, kind, field named, how to corrupt the frame or the state)."""
    return [
        ("taiwan", 2, "reveal", "ctx[0]", lambda st, i: _empty(st, "decks", st["stack"][i][4][0])),
        ("dadaocheng", 2, "ship_reveal", "ctx[0]",
         lambda st, i: _empty(st, "ship_pool", st["stack"][i][4][0])),
        ("dadaocheng", 2, "place_disc", "ctx[0]",
         lambda st, i: st["cell_disc"].__setitem__(st["stack"][i][4][0], 0)),
        ("tea", 2, "take", "ctx[0]", lambda st, i: st["stack"][i][4].__setitem__(0, 0)),
        ("tea", 2, "merchant_draw", "ctx[1]", lambda st, i: st["display"].__setitem__(
            st["stack"][i][4][0], [0, 1, 2])),
    ]


def _empty(st: dict[str, Any], field: str, index: int) -> None:
    st[field][index] = []


@pytest.mark.parametrize(("name", "n", "kind", "names", "corrupt"), _examples(),
                         ids=[f"{e[0]}-{e[2]}" for e in _examples()])
def test_ids_must_name_a_live_component(name: str, n: int, kind: str, names: str,
                                        corrupt: Any) -> None:
    game = game_of(name, n, {})
    text, i = frames_of(name, n, {})[kind][0]
    payload = json.loads(text)
    corrupt(payload["state"], i)
    with pytest.raises(StateFormatError) as info:
        game.from_json(json.dumps(payload))
    assert f"stack[{i}].{names}" in str(info.value), str(info.value)


def test_discards_cannot_exceed_the_hand() -> None:
    game, text, i = find_save("taiwan", 2, "cleanup")
    count = json.loads(text)["state"]["stack"][i][2]
    with pytest.raises(StateFormatError, match=rf"stack\[{i}\]\.count"):
        game.from_json(with_frame(text, i, count=count + 1))


# ----- (c) the safety net: the pending decision is played on a clone -------------------------

def test_a_pending_decision_that_cannot_be_played_is_refused_on_load() -> None:
    """A Tea harvest choice on a space emptied of cubes: every field is in range, but no
    action is legal; loading says so instead of the env failing on an empty mask."""
    game, text, i = find_save("tea", 2, "take")
    payload = json.loads(text)
    space = payload["state"]["stack"][i][4][0]
    cubes = payload["state"]["cubes"][space]
    payload["state"]["bag"] = [b + c for b, c in zip(payload["state"]["bag"], cubes,
                                                     strict=True)]
    payload["state"]["cubes"][space] = [0, 0, 0]
    broken = game.from_json(text)  # the same corruption in memory passes the field checks
    broken.bag, broken.cubes[space] = payload["state"]["bag"], [0, 0, 0]
    game.check_invariants(broken)  # check_invariants does not play the decision (cheap)
    with pytest.raises(StateFormatError, match=r"pending decision 'take'.*cannot be played"):
        game.from_json(json.dumps(payload))
    with pytest.raises(StateFormatError, match="no action is legal"):
        game.validate_state(broken)


def test_dry_run_reports_a_crash_of_any_action() -> None:
    """Every legal action is applied to a clone; a crash becomes a StateFormatError naming
    the decision and the action, and the state itself is left untouched."""
    game = game_of("dadaocheng", 3, {})
    text, _i = frames_of("dadaocheng", 3, {})["purchase"][0]
    state = game.from_json(text)
    before = game.to_json(state)
    calls: list[int] = []
    real = game.apply_legal_action

    def fragile(s: Any, action: int) -> None:
        calls.append(action)
        if len(calls) == 2:
            raise IndexError("list index out of range")
        real(s, action)
    game.apply_legal_action = fragile
    try:
        with pytest.raises(StateFormatError, match=r"'purchase'.*cannot be played.*IndexError"):
            dry_run.check_playable(game, state)
    finally:
        del game.apply_legal_action
    assert game.to_json(state) == before and len(calls) == 2


def test_chance_frames_are_sampled_not_exhausted() -> None:
    items = list(range(100))
    sample = dry_run._spread(items, dry_run.CHANCE_SAMPLE)
    assert len(sample) == dry_run.CHANCE_SAMPLE and sample[0] == 0 and sample[-1] == 99
    assert dry_run._spread(items[:5], dry_run.CHANCE_SAMPLE) == items[:5]


def test_an_automatic_frame_left_on_top_is_refused() -> None:
    game, text, i = find_save("dadaocheng", 2, "purchase")
    payload = json.loads(text)
    payload["state"]["stack"].append(["stage4", -2, 1, False, []])
    with pytest.raises(StateFormatError, match="neither a seat nor chance"):
        game.from_json(json.dumps(payload))


# ----- (d) fuzz over real mid-game saves ---------------------------------------------------

FUZZ_TRIALS = 40
WHOLE_GAMES = 4
"""Loaded corrupt saves played to the very end per configuration (the rest: PLAY_STEPS)."""


def _mutate(rng: np.random.Generator, state: dict[str, Any]) -> str:
    """One random change: a frame's ctx / count / optional, or one state value."""
    stack = state["stack"]
    if stack and rng.random() < 0.7:
        i = int(rng.integers(len(stack)))
        row = stack[i]
        roll = rng.random()
        if roll < 0.6 and row[4]:
            j = int(rng.integers(len(row[4])))
            row[4][j] = int(rng.choice([row[4][j] + int(rng.choice([-1, 1, 2])), *ODD]))
        elif roll < 0.7:
            row[4].append(int(rng.choice(ODD)))
        elif roll < 0.9:
            row[2] = int(rng.choice([0, 1, 2, 3, row[2] + 1]))
        else:
            row[3] = not row[3]
        return f"stack[{i}]"
    name = sorted(state)[int(rng.integers(len(state)))]
    holder, key = state, name
    while isinstance(holder[key], list) and holder[key] and not isinstance(holder[key][0], str):
        holder, key = holder[key], int(rng.integers(len(holder[key])))
    if isinstance(holder[key], bool):
        holder[key] = not holder[key]
    elif isinstance(holder[key], int):
        holder[key] += int(rng.choice([-2, -1, 1, 2]))
    return name


@pytest.mark.parametrize(("name", "n", "opts"), CONFIGS, ids=IDS)
def test_fuzz_frames_and_fields_of_real_saves(name: str, n: int, opts: dict[str, Any]) -> None:
    game = game_of(name, n, opts)
    saves = sorted({text for examples in frames_of(name, n, opts).values()
                    for text, _ in examples})
    rng = np.random.default_rng(99 + n)
    loaded = whole = 0
    for trial in range(FUZZ_TRIALS):
        payload = json.loads(saves[int(rng.integers(len(saves)))])
        what = _mutate(rng, payload["state"])
        steps = PLAY_STEPS
        if whole < WHOLE_GAMES:
            steps = 10 * game.max_game_length
        if loads_cleanly_or_refuses(game, json.dumps(payload), "", rng, steps):
            loaded += 1
            whole += steps > PLAY_STEPS
        assert trial < FUZZ_TRIALS, what
    assert loaded < FUZZ_TRIALS
