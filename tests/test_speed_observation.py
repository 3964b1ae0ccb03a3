"""The speed mechanisms give exactly what the plain code gives.

* :meth:`Codec.encode_flat` (table look-up of small integers) returns the bytes of
  :meth:`Codec.encode` for every input, the values outside the table included;
* the observers' memos of encoded pieces (keyed by the pieces' content) never hand out a
  stale piece: a state changed in place after it was observed gets the observation a
  fresh game (empty memos) computes;
* the games' spelled-out ``clone`` copies every field and shares no list with the
  original at any depth;
* a game's batched ``observe_many`` (Tea's own encoder, the others' default) gives the
  rows of ``observe``, byte for byte, and refuses what ``observe`` refuses;
* the engine's chance draw (:func:`~formosa_envs.core.stack_game.draw_index`) is the
  draw ``Generator.choice`` makes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import ConfigError
from formosa_envs.core.observer import Codec, Feature
from formosa_envs.games import make_game

FEATURES = [Feature("a", "count", 5), Feature("b", "score", 100),
            Feature("c", "signed_score", 50, neg_knee=10), Feature("d", "linear", 8),
            Feature("e")]


def _plain(codec: Codec, raw: list[Any]) -> bytes:
    rows = np.reshape(np.asarray(raw, dtype=np.float64), (-1, len(codec.features)))
    return codec.encode(rows).reshape(-1).tobytes()


@pytest.mark.parametrize("low, high", [(0, 256), (-128, 128), (-400, 600)])
def test_encode_flat_is_encode_byte_for_byte(low: int, high: int) -> None:
    """Unsigned bytes, signed bytes and values beyond both (the slow path) agree."""
    rng = np.random.default_rng(low + high)
    for rows in (1, 3):
        codec = Codec(FEATURES)
        for _ in range(300):
            raw = [int(v) for v in rng.integers(low, high, size=rows * len(FEATURES))]
            assert codec.encode_flat(raw).tobytes() == _plain(codec, raw)


def test_encode_flat_takes_bools_floats_and_tuples() -> None:
    """Flags as bools, a fractional value and a tuple give encode's bytes too."""
    codec = Codec(FEATURES * 2)
    for raw in ([True, 3, 120, -3, 8, False, 0, 0, 0, 1],
                (1, 2.5, 3, 4, 1, 0, 0, 0, 0, 0),
                [7, 300, -200, 9, 1, 255, 255, -128, 0, 0]):
        assert codec.encode_flat(raw).tobytes() == _plain(codec, list(raw))


def test_encode_flat_rejects_a_partial_row() -> None:
    """A raw list that is not whole rows is a clear error, not a wrong vector."""
    with pytest.raises(ConfigError, match="not a whole number of rows"):
        Codec(FEATURES).encode_flat([1, 2, 3])


def _positions(game: Any, seed: int, every: int = 4) -> list[Any]:
    """States at player decisions of one random game (copies, every ``every``-th)."""
    rng, state, seen = np.random.default_rng(seed), game.new_initial_state(), []
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
            continue
        if state.decisions % every == 0:
            seen.append(game.clone(state))
        legal = game.legal_actions(state)
        game.apply_action(state, legal[int(rng.integers(len(legal)))])
    return seen


def _swap_display(s: Any) -> None:
    s.display[0][0], s.display[3][2] = s.display[3][2], s.display[0][0]


def _toggle(values: list[int], index: int, on: int = 1) -> None:
    values[index] = -1 if values[index] >= 0 else on


CHANGES: dict[str, list[Any]] = {
    "tea": [_swap_display, lambda s: _toggle(s.bud, 5), lambda s: _toggle(s.occupant, 6, 0),
            lambda s: s.face.__setitem__(s.weather[1], s.face[s.weather[1]] ^ 1),
            lambda s: s.kept[0].append(3)],
    "taiwan": [lambda s: s.regions[1].append(0), lambda s: s.track[0].append([3, 2]),
               lambda s: s.built[1].append(4),
               lambda s: s.bought[0].__setitem__(4, s.bought[0][4] + 1),
               lambda s: s.piles.__setitem__(4, max(0, s.piles[4] - 1)),
               lambda s: _toggle(s.face_up, 2)],
    "dadaocheng": [lambda s: s.remodelled.__setitem__(3, s.remodelled[3] ^ 1),
                   lambda s: s.covered.__setitem__(1, s.covered[1] ^ 1),
                   lambda s: s.flipped.__setitem__(7, s.flipped[7] ^ 1),
                   lambda s: s.cell_disc.__setitem__(slice(5, 7), s.cell_disc[6:4:-1]),
                   lambda s: setattr(s, "round", s.round % 10 + 1),
                   lambda s: s.events.append(13 - len(s.events))],
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_memoised_pieces_follow_in_place_changes(name: str) -> None:
    """Observe, change one zone of the state in place, observe again: what a fresh game
    (empty memos) sees, for every zone a memo is keyed by."""
    warm = make_game(name, num_players=2)
    for s in _positions(warm, seed=3, every=25):
        for change in CHANGES[name]:
            for viewer in range(2):
                warm.observe(s, viewer)
            change(s)
            fresh = make_game(name, num_players=2)  # its memos are empty
            for viewer in range(2):
                assert warm.observe(s, viewer).tobytes() == fresh.observe(s, viewer).tobytes()


def _lists(value: Any) -> list[int]:
    if not isinstance(value, list):
        return []
    return [id(value)] + [i for item in value for i in _lists(item)]


@pytest.mark.parametrize("name", ["flowers", "taiwan", "tea", "dadaocheng"])
def test_clone_copies_every_field_and_shares_no_list(name: str) -> None:
    """Equal to the original (saved form), every slot set, no list shared at any depth."""
    game = make_game(name, num_players=2)
    for s in _positions(game, seed=1, every=9):
        c = game.clone(s)
        assert game.to_json(c) == game.to_json(s)
        for slot in type(s).__slots__:
            assert not set(_lists(getattr(s, slot))) & set(_lists(getattr(c, slot))), slot


@pytest.mark.parametrize("name", ["flowers", "taiwan", "tea", "dadaocheng"])
@pytest.mark.parametrize("players", [2, 3])
def test_observe_many_is_observe_row_by_row(name: str, players: int) -> None:
    """Every seat's batch of mid-game positions (and batches of one and none)."""
    game = make_game(name, num_players=players)
    states = _positions(game, 5 + players)
    assert len(states) > 10
    for seat in range(players):
        rows = np.stack([game.observe(s, seat) for s in states])
        assert game.observe_many(states, seat).tobytes() == rows.tobytes()
        assert game.observe_many(tuple(states[:1]), seat).tobytes() == rows[:1].tobytes()
    empty = game.observe_many([], 0)
    assert empty.shape == (0, game.observation_size) and empty.dtype == np.float32


def test_observe_many_refuses_what_observe_refuses() -> None:
    """Not a sequence, a foreign state, a bad seat: an ArgumentError naming it."""
    from formosa_envs.core.errors import ArgumentError
    game, other = make_game("tea", num_players=2), make_game("flowers", num_players=2)
    state = game.new_initial_state()
    for states, seat, words in (("abc", 0, "sequence"), (7, 0, "sequence"),
                                ([state, other.new_initial_state()], 0, "TeaState"),
                                ([state], 2, "seat")):
        with pytest.raises(ArgumentError, match=words):
            game.observe_many(states, seat)


def test_draw_index_draws_what_generator_choice_draws() -> None:
    """Same index and the generator left in the same state, for many vectors (zeros
    among them) and seeds: the engine's chance draws, and so every seed's game, stay."""
    from formosa_envs.core.stack_game import draw_index
    meta = np.random.default_rng(5)
    for trial in range(400):
        n = int(meta.integers(1, 40))
        weights = meta.random(n) * (meta.random(n) < 0.8)
        weights[int(meta.integers(n))] += 0.5
        p = weights / weights.sum()
        seed = int(meta.integers(2**32))
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        for _ in range(3):
            assert draw_index(p, a) == int(b.choice(n, p=p)), trial
        assert a.random() == b.random()


def test_cumulative_tables_draw_what_draw_index_draws() -> None:
    """The engine's cached sums (``CumulativeTables``) give draw_index's index and leave the
    generator where it leaves it, for vectors seen before and new ones, across a clear."""
    from formosa_envs.core.stack_game import CumulativeTables, draw_index
    tables, meta = CumulativeTables(), np.random.default_rng(11)
    tables.LIMIT = 7  # clear often
    vectors = []
    for _ in range(30):
        n = int(meta.integers(1, 30))
        weights = meta.random(n) * (meta.random(n) < 0.7)
        weights[int(meta.integers(n))] += 0.25
        vectors.append(tuple((weights / weights.sum()).tolist()))
    vectors += [tuple([1 / k] * k) for k in range(1, 13)]
    for trial in range(600):
        probs = vectors[int(meta.integers(len(vectors)))]
        seed = int(meta.integers(2**32))
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        p = np.array(probs)
        assert tables.draw(probs, a) == draw_index(p / p.sum(), b), trial
        assert a.random() == b.random()
    assert len(tables._sums) <= tables.LIMIT


def test_dadaocheng_disc_placements_come_as_fresh_lists() -> None:
    """The remembered placement odds are handed out as copies: changing a returned list
    changes nothing a later call sees; a fresh game gives the same odds."""
    game = make_game("dadaocheng", num_players=2)
    s = game.new_initial_state()
    rng = np.random.default_rng(0)
    while s.stack[-1].kind == "place_disc":
        first = game.chance_outcomes(s)
        first.clear()
        again = game.chance_outcomes(s)
        assert again and again == make_game("dadaocheng", num_players=2).chance_outcomes(s)
        game.apply_action(s, again[int(rng.integers(len(again)))][0])


def test_per_game_caches_go_with_their_game() -> None:
    """``per_game`` builds once per game and name, and forgets a game once it is collected."""
    import gc

    from formosa_envs.core.observer import _PER_GAME, per_game
    game, calls = make_game("flowers", num_players=2), []
    for _ in range(3):
        per_game(game, "test.thing", lambda: calls.append(1) or {"built": True})
    assert calls == [1] and id(game) in _PER_GAME
    key = id(game)
    del game
    gc.collect()
    assert key not in _PER_GAME


def test_listed_legal_actions_are_the_legal_actions_of_that_state() -> None:
    """What settle listed for a forced-move check is handed out only for the very state and
    frame it listed, and equals ``legal_actions`` there (Dadaocheng applies forced moves)."""
    game = make_game("dadaocheng", num_players=2)
    rng, s, listed = np.random.default_rng(4), game.new_initial_state(), 0
    while not game.is_terminal(s) and s.decisions < 300:
        if game.current_player(s) == CHANCE:
            game.resolve_chance(s, rng)
            continue
        got = game.listed_legal_actions(s)
        legal = game.legal_actions(s)
        if got is not None:
            listed += 1
            assert got == legal
            assert game.listed_legal_actions(game.clone(s)) is None  # another state object
        game.apply_action(s, legal[int(rng.integers(len(legal)))])
    assert listed > 100
    assert make_game("tea", num_players=2).listed_legal_actions(s) is None


def test_env_lists_legal_actions_afresh_once_the_state_is_handed_out() -> None:
    """A state changed in place through ``engine_state``: the mask follows the change."""
    import formosa_envs
    env = formosa_envs.raw_env("dadaocheng", num_players=2)
    env.reset(seed=2)
    game = env.game
    for _ in range(400):
        if env.engine_state.stack[-1].kind == "purchase" and sum(
                env.engine_state.hand[env.engine_state.turn]) >= 2:
            break
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    state = env.engine_state
    assert state.stack[-1].kind == "purchase"
    before = game.listed_legal_actions(state)
    state.hand[state.turn] = [0] * 5  # nothing left to buy or exchange with
    mask = env.observe(env.agent_selection)["action_mask"]
    assert np.flatnonzero(mask).tolist() == game.legal_actions(state) != before


@pytest.mark.parametrize("name", ["flowers", "taiwan", "tea", "dadaocheng"])
def test_child_is_a_clone_with_the_action_applied(name: str) -> None:
    """The child equals clone + apply_action; the parent is untouched, also when the action
    is refused (IllegalActionError, nothing half-applied)."""
    from formosa_envs.core.errors import IllegalActionError
    game = make_game(name, num_players=2)
    for s in _positions(game, seed=2, every=17):
        saved = game.to_json(s)
        legal = game.legal_actions(s)
        kid = game.child(s, legal[-1])
        manual = game.clone(s)
        game.apply_action(manual, legal[-1])
        assert game.to_json(kid) == game.to_json(manual)
        assert game.to_json(s) == saved
        illegal = next(a for a in range(game.num_actions) if a not in legal)
        with pytest.raises(IllegalActionError):
            game.child(s, illegal)
        assert game.to_json(s) == saved
    from formosa_envs.core.errors import ArgumentError
    with pytest.raises(ArgumentError, match="child"):
        game.child("not a state", 0)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_dadaocheng_fast_legality_tests_say_yes_to_the_listed_actions(players: int) -> None:
    """The fast legality tests of a movement, a swap's second cell and a Stage 4 action say
    yes exactly to the listed actions, over the whole action space (apply_action uses them)."""
    game = make_game("dadaocheng", num_players=players)
    seen: set[str] = set()
    for seed in (8, 9):
        for s in _positions(game, seed=seed, every=1):
            d = s.stack[-1]
            if d.kind not in ("move", "swap_to", "purchase"):
                continue
            seen.add(d.kind)
            handler, legal = game.handlers[d.kind], set(game.legal_actions(s))
            assert {a for a in range(game.num_actions)
                    if handler.is_legal(game, s, d, a)} == legal, d
    assert {"move", "swap_to"} <= seen
    if players > 1:  # random solo play rarely has a Stage 4 choice (a forced DONE applies)
        assert "purchase" in seen


def test_dadaocheng_placements_are_disc_probabilities() -> None:
    """The engine's placement odds (per-colour odds remembered by prefix) are exactly
    ``disc_probabilities`` of the placed colours and the unplaced discs, at every placement
    of several layouts (a game's start and its loops)."""
    from formosa_envs.games.dadaocheng.cascade import CORNERS, NON_CORNERS
    from formosa_envs.games.dadaocheng.layouts import disc_probabilities
    for players in (1, 2):
        game = make_game("dadaocheng", num_players=players)
        rng, checked = np.random.default_rng(players), 0
        for _ in range(6):
            s = game.new_initial_state()
            while s.stack and s.stack[-1].kind == "place_disc":
                cell = s.stack[-1].ctx[0]
                got = game.chance_outcomes(s)
                if cell not in CORNERS:
                    placed = set(s.cell_disc)
                    prefix = [game.disc_faces[s.cell_disc[c]][0] for c in NON_CORNERS
                              if s.cell_disc[c] >= 0]
                    unplaced = [(d.id, d.faces[0]) for d in game.discs
                                if d.faces[0] != 4 and d.id not in placed]
                    assert got == disc_probabilities(game.layout_table, prefix, unplaced)
                    checked += 1
                game.apply_action(s, got[int(rng.integers(len(got)))][0])
        assert checked == 6 * len(NON_CORNERS)
