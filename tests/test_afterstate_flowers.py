"""The afterstate agent on Formosa Flowers: one candidate per card that may be played (and
per option of a keep-or-cash choice), each afterstate stopping before the next reveal, and
nothing a seat may not see in what the network is given."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from formosa_envs.agents import make_agent
from formosa_envs.agents.afterstate import afterstate_features
from formosa_envs.agents.candidates import TURN_STARTS, flowers_candidates
from formosa_envs.agents.heuristics import HeuristicAgent
from formosa_envs.agents.heuristics import flowers as heuristic

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.games.flowers.actions import CASH, KEEP
from formosa_envs.games.flowers.rules import KEEP_OR_CASH, PLAY
from formosa_envs.tools.simulate import play_game

from .test_afterstate import _turn_states as turn_states
from .test_afterstate import write_evaluator


def _states(num: int, kind: str = PLAY, players: int = 4, seed: int = 2) -> tuple[Any, list[Any]]:
    """Flowers states at a ``kind`` decision with a choice, by heuristic self-play."""
    return turn_states(num, players, seed, "flowers", lambda game, state, seat: (
        state.stack[-1].kind == kind and len(game.legal_actions(state)) > 1))


def test_one_candidate_per_card_with_its_afterstate_up_to_the_reveal() -> None:
    """Each legal play is a row; its afterstate is the play and the seat's own capture
    choice (the heuristic's), stopped at the reveal, another seat or the seat's next play;
    its value is the seat's value there."""
    game, states = _states(15)
    assert len(states) == 15
    for state in states:
        me = game.current_player(state)
        rows = flowers_candidates(game, state, me)
        assert [c.action for c in rows] == game.legal_actions(state)
        for c in rows:
            after = c.after
            assert after.over or game.current_player(after) != me \
                or after.stack[-1].kind == PLAY
            assert len(after.hands[me]) == len(state.hands[me]) - 1
            assert c.value == heuristic.seat_value(game, after, me)
        assert any(game.current_player(c.after) == CHANCE for c in rows)


def test_keep_or_cash_has_a_row_for_each() -> None:
    """At the keep-or-cash choice: KEEP and CASH; cashing banks the pile (seat_value is then
    the score)."""
    game, states = _states(3, KEEP_OR_CASH, seed=4)
    assert states
    for state in states:
        me = game.current_player(state)
        rows = {c.action: c for c in flowers_candidates(game, state, me)}
        assert set(rows) == {KEEP, CASH}
        assert rows[CASH].after.cashed[me] and not rows[KEEP].after.cashed[me]
        assert rows[CASH].value == rows[CASH].after.scores[me]


def test_other_decisions_have_no_candidates() -> None:
    """Capture choices (and forced moves) are the heuristic's own."""
    game = make_game("flowers", num_players=4)
    agents = [HeuristicAgent("flowers", seed=i) for i in range(4)]
    rng, state, seen = np.random.default_rng(1), game.new_initial_state(), 0
    while not game.is_terminal(state) and seen < 10:
        seat = game.current_player(state)
        if seat == CHANCE:
            game.resolve_chance(state, rng)
            continue
        if state.stack[-1].kind not in (PLAY, KEEP_OR_CASH) or len(
                game.legal_actions(state)) < 2:
            assert flowers_candidates(game, state, seat) is None
            seen += 1
        game.apply_action(state, agents[seat].act_on_state(game, state))
    assert seen == 10


def test_what_the_network_sees_is_what_the_seat_sees() -> None:
    """Resample everything the deciding seat cannot see (other hands, the deck): the
    candidates, their values and their input rows do not change."""
    game, states = _states(10, seed=6)
    for k, state in enumerate(states):
        me = game.current_player(state)
        other = game.determinize(state, me, np.random.default_rng(k))
        hidden = [sorted(h) for p, h in enumerate(other.hands) if p != me]
        assert hidden != [sorted(h) for p, h in enumerate(state.hands) if p != me] \
            or not any(hidden)
        ours, theirs = (flowers_candidates(game, s, me) for s in (state, other))
        assert [(c.action, c.value) for c in ours] == [(c.action, c.value) for c in theirs]
        for a, b in zip(ours, theirs, strict=True):
            assert afterstate_features(game, "flowers", a.after, me).tobytes() == \
                afterstate_features(game, "flowers", b.after, me).tobytes()


def test_turn_starts_are_plays() -> None:
    """Truncated play-outs count a seat's turns by its plays."""
    game, states = _states(3)
    assert all(TURN_STARTS["flowers"](s) for s in states)


def test_the_agent_plays_four_player_games_the_same_way_twice(tmp_path: Path) -> None:
    """A random evaluator plays whole 4-player games, the same game for the same seeds."""
    path = write_evaluator(tmp_path / "f.npz", "flowers")
    game = make_game("flowers", num_players=4)
    runs = []
    for _ in range(2):
        agents = [make_agent(f"afterstate:{path}", "flowers", 5),
                  *(make_agent("heuristic", "flowers", 6 + i) for i in range(3))]
        runs.append(play_game(game, agents, seed=13))
    assert runs[0] == runs[1]
