"""The contract-check kit: engine invariants every game's tests call.

Each check drives a :class:`~formosa_envs.core.engine.Game` with its own
seeded generator and raises ``AssertionError`` with a precise message when a
contract of DESIGN.md section 2 is broken. Every step also runs the game's own
conservation laws (``Game.check_invariants``: cards, cubes, coins) and an
optional extra ``invariant`` callback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .engine import CHANCE, Game
from .errors import IllegalActionError

Invariant = Callable[[Game, Any], None]


def step_random(game: Game, state: Any, rng: np.random.Generator) -> int:
    """Apply one random legal action or chance outcome; return it."""
    if game.current_player(state) == CHANCE:
        action = game.sample_chance(state, rng)
    else:
        legal = game.legal_actions(state)
        action = legal[int(rng.integers(len(legal)))]
    game.apply_action(state, action)
    return action


def random_playout(game: Game, seed: int, max_steps: int | None = None) -> tuple[Any, list[int]]:
    """Play a whole game at random; return the final state and the action history."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    history: list[int] = []
    limit = max_steps or 50 * game.max_game_length
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        history.append(step_random(game, state, rng))
        if len(history) > limit:
            raise AssertionError(f"game did not end within {limit} steps (seed {seed})")
    return state, history


def check_step(game: Game, state: Any, invariant: Invariant | None = None) -> None:
    """Per-step checks: mask == legal set, non-empty legal set, sane chance, invariant."""
    player = game.current_player(state)
    game.check_invariants(state)
    if invariant is not None:
        invariant(game, state)
    if game.is_terminal(state):
        assert not game.legal_actions(state), "terminal state has legal actions"
        check_reward_bounds(game, state)
        return
    legal = game.legal_actions(state)
    assert legal, f"no legal action in a non-terminal state: {game.decision_description(state)}"
    if player == CHANCE:
        outcomes = game.chance_outcomes(state)
        total = sum(p for _, p in outcomes)
        assert abs(total - 1.0) < 1e-9, f"chance probabilities sum to {total}"
        top = max(o for o, _ in outcomes)
        assert min(o for o, _ in outcomes) >= 0 and top < game.max_chance_outcomes, (
            f"chance outcome {top} outside 0..{game.max_chance_outcomes - 1} "
            f"(max_chance_outcomes) at {game.decision_description(state)}")
        return
    assert 0 <= player < game.num_players, f"current_player {player} is not a seat"
    mask = game.legal_mask(state)
    assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(set(legal)), "mask != legal set"
    assert len(set(legal)) == len(legal), "duplicate legal actions"


def check_reward_bounds(game: Game, state: Any) -> None:
    """The final rewards of every reward mode lie in the bounds and sum that
    :meth:`Game.utility_bounds` declares."""
    from .rewards import REWARD_MODES, final_rewards
    for mode in REWARD_MODES:
        bounds, rewards = game.utility_bounds(mode), final_rewards(game, state, mode)
        assert len(rewards) == game.num_players, f"{mode}: {len(rewards)} rewards"
        low = -np.inf if bounds.low is None else bounds.low
        high = np.inf if bounds.high is None else bounds.high
        assert all(low <= r <= high for r in rewards), (
            f"{mode} rewards {rewards} outside the declared [{bounds.low}, {bounds.high}]")
        if bounds.total is not None:
            assert abs(sum(rewards) - bounds.total) < 1e-9, (
                f"{mode} rewards {rewards} do not sum to the declared {bounds.total}")


def check_random_games(game: Game, seeds: range | list[int],
                       invariant: Invariant | None = None) -> list[Any]:
    """Play one random game per seed with :func:`check_step` at every step."""
    finals = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        check_step(game, state, invariant)
        while not game.is_terminal(state) and state.decisions < game.max_game_length:
            step_random(game, state, rng)
            check_step(game, state, invariant)
        assert game.is_terminal(state), f"seed {seed}: truncated at max_game_length"
        finals.append(state)
    return finals


def check_replay(game: Game, seed: int) -> None:
    """The action history (chance included) replays the same final state."""
    final, history = random_playout(game, seed)
    state = game.new_initial_state()
    for action in history:
        game.apply_action(state, action)
    assert game.to_json(state) == game.to_json(final), "replaying the history diverged"


def check_chance_paths(game: Game, seed: int) -> None:
    """``resolve_chance`` (batched) draws exactly what ``apply_chance`` one by one draws."""
    finals = []
    for batched in (True, False):
        rng, pick = np.random.default_rng(seed), np.random.default_rng(seed + 1)
        state, record = game.new_initial_state(), []
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                if batched:
                    game.resolve_chance(state, rng, record)
                else:
                    record.append(game.apply_chance(state, rng))
                continue
            legal = game.legal_actions(state)
            action = legal[int(pick.integers(len(legal)))]
            record.append(action)
            game.apply_action(state, action)
        finals.append((record, game.to_json(state)))
    assert finals[0] == finals[1], "batched chance resolution differs from one at a time"


def check_determinism(game: Game, seed: int) -> None:
    """The same seed gives the same game."""
    a, ha = random_playout(game, seed)
    b, hb = random_playout(game, seed)
    assert ha == hb and game.to_json(a) == game.to_json(b), "same seed, different games"


def check_clone_and_json(game: Game, seed: int, every: int = 7) -> None:
    """Clones are independent and JSON round trips are exact, along a random game."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    step = 0
    while not game.is_terminal(state):
        if step % every == 0:
            _check_clone(game, state, rng)
            restored = game.from_json(game.to_json(state))
            assert game.to_json(restored) == game.to_json(state), "JSON round trip changed state"
            assert np.array_equal(game.state_vector(restored), game.state_vector(state))
        step_random(game, state, rng)
        step += 1


def _check_clone(game: Game, state: Any, rng: np.random.Generator) -> None:
    before = game.to_json(state)
    copy = game.clone(state)
    assert game.to_json(copy) == before, "clone differs from the original"
    for _ in range(5):
        if game.is_terminal(copy):
            break
        step_random(game, copy, np.random.default_rng(int(rng.integers(1 << 30))))
    assert game.to_json(state) == before, "playing on a clone changed the original"


def check_hidden_information(game: Game, seed: int, every: int = 5) -> int:
    """A seat's observation is unchanged when everything it cannot see is resampled.

    Returns how many determinisations actually changed the hidden state (a test
    should require this to be positive, so the check cannot pass vacuously).
    """
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    changed, step = 0, 0
    while not game.is_terminal(state):
        if step % every == 0:
            for seat in range(game.num_players):
                other = game.determinize(state, seat, rng)
                assert np.array_equal(game.observe(state, seat), game.observe(other, seat)), (
                    f"seat {seat}'s observation depends on hidden information")
                changed += game.to_json(other) != game.to_json(state)
        step_random(game, state, rng)
        step += 1
    return changed


def check_determinize_canonical(game: Game, seed: int, every: int = 9) -> None:
    """``determinize`` depends only on the rng and the viewer's information.

    Determinizing a state whose hidden items were first reshuffled must give the
    same result as determinizing the original with the same generator seed, or
    search agents could be steered by hidden information.
    """
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    step = 0
    while not game.is_terminal(state):
        if step % every == 0:
            for seat in range(game.num_players):
                shuffled = game.determinize(state, seat, rng)
                key = int(rng.integers(1 << 30))
                a = game.determinize(state, seat, np.random.default_rng(key))
                b = game.determinize(shuffled, seat, np.random.default_rng(key))
                assert game.to_json(a) == game.to_json(b), (
                    f"seat {seat}: determinize depends on the hidden arrangement")
        step_random(game, state, rng)
        step += 1


def check_illegal_actions(game: Game, seed: int) -> None:
    """Out-of-range, illegal and non-integer actions raise ``IllegalActionError``."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while game.current_player(state) == CHANCE:
        step_random(game, state, rng)
    legal = set(game.legal_actions(state))
    illegal = [a for a in range(game.num_actions) if a not in legal][:3]
    for bad in [*illegal, -1, game.num_actions, "x", None, 1.5]:
        before = game.to_json(state)
        try:
            game.apply_action(state, bad)
        except IllegalActionError as exc:
            assert "legal" in str(exc), f"unhelpful message: {exc}"
        else:
            raise AssertionError(f"illegal action {bad!r} was accepted")
        assert game.to_json(state) == before, f"rejected action {bad!r} changed the state"


def check_labels(game: Game, state: Any) -> None:
    """Every option of ``state`` has its own label, and narration never contradicts it.

    The options are the legal actions at a player's decision and the possible
    outcomes at a chance node. Their ``action_label`` strings must be non-empty and
    pairwise different (clients such as OpenSpiel key actions by their string, and
    a person choosing a move must tell the options apart). ``public_label`` may
    withhold an option from a viewer (None) but never renames it: any text it
    gives is the option's ``action_label``.
    """
    if game.is_terminal(state):
        return
    player = game.current_player(state)
    options = ([a for a, _ in game.chance_outcomes(state)] if player == CHANCE
               else game.legal_actions(state))
    labels: dict[str, int] = {}
    for action in options:
        label = game.action_label(state, action)
        assert isinstance(label, str) and label.strip(), f"action {action}: empty label"
        assert label not in labels, (
            f"actions {labels[label]} and {action} share the label {label!r} "
            f"({game.decision_description(state)})")
        labels[label] = action
        for viewer in (None, *range(game.num_players)):
            told = game.public_label(state, action, viewer)
            assert told is None or told == label, (
                f"action {action}: public label {told!r} for viewer {viewer} differs from "
                f"its label {label!r}")


def check_observation_bounds(game: Game, state: Any, low: float = 0.0,
                             high: float = 1.0) -> None:
    """Every seat's observation and the global state vector lie in their declared space:
    float32, the declared length, finite, and within ``[low, high]`` (the env's Box)."""
    vectors = [(f"seat {seat}'s observation", game.observe(state, seat), game.observation_size)
               for seat in range(game.num_players)]
    vectors.append(("the state vector", game.state_vector(state), game.state_size))
    pieces = game.observation_pieces()
    for what, vec, size in vectors:
        assert vec.dtype == np.float32 and vec.shape == (size,), (
            f"{what}: {vec.dtype} {vec.shape}, declared float32 ({size},)")
        bad = np.flatnonzero(~np.isfinite(vec) | (vec < low) | (vec > high))
        if bad.size:
            i = int(bad[0])
            raise AssertionError(f"{what}: {bad.size} value(s) outside [{low}, {high}], first "
                                 f"{float(vec[i])!r} at {i} ({_piece_at(pieces, i)})")


def _piece_at(pieces: list[tuple[str, int, tuple[int, ...], str]], index: int) -> str:
    """The piece holding vector ``index`` and the offset inside it."""
    for name, offset, shape, _ in reversed(pieces):
        if offset <= index:
            return f"piece {name!r} {shape}, item {index - offset}"
    return "no named piece"
