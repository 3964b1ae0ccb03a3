"""The core and the adapter serve games unlike Flowers: repeated optional decisions and
out-of-turn decisions (tests/toy_game.py), through the same contract kit and AEC class."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from formosa_envs.core import contract
from formosa_envs.envs import FormosaAECEnv
from formosa_envs.games import GAMES, GameInfo

from . import toy_game


@pytest.fixture()
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "toy", GameInfo("toy", "Toy", "formosa/toy-v0",
                                               "tests.toy_game", 2, 3))


@pytest.mark.parametrize("players", [2, 3])
def test_toy_game_keeps_the_engine_contract(players: int) -> None:
    game = toy_game.make_game(num_players=players)
    contract.check_random_games(game, range(100))
    for seed in range(3):
        contract.check_clone_and_json(game, seed)
        contract.check_replay(game, seed)
    assert sum(contract.check_hidden_information(game, s) for s in range(3)) > 0
    contract.check_determinize_canonical(game, 0)
    contract.check_illegal_actions(game, 0)


def test_repeated_optional_decision_and_pass() -> None:
    game = toy_game.make_game(num_players=2)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while game.current_player(state) < 0:
        game.apply_chance(state, rng)
    first = game.top(state)
    assert (first.kind, first.count, first.optional) == ("keep", 2, True)
    keep = game.legal_actions(state)[0]
    game.apply_action(state, keep)
    again = game.top(state)
    assert (again.kind, again.player, again.count) == ("keep", 0, 1)
    assert toy_game.PASS in game.legal_actions(state)
    game.apply_action(state, toy_game.PASS)
    assert game.top(state).kind == "discard" and game.top(state).player == 1


def test_adapter_selects_out_of_turn_agents(toy_registered: None) -> None:
    env = FormosaAECEnv("toy", num_players=3)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    sequence = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        top = env.game.top(env.engine_state)
        sequence.append((agent, top.kind))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sequence[0] == ("player_0", "keep")
    discards = [a for a, kind in sequence if kind == "discard"]
    assert "player_1" in discards and "player_2" in discards
    # the same agent acts twice in a row when it keeps two cards
    assert any(sequence[i] == sequence[i + 1] == (sequence[i][0], "keep")
               for i in range(len(sequence) - 1))


def test_toy_game_passes_pettingzoo_tests(toy_registered: None) -> None:
    api_test(FormosaAECEnv("toy", num_players=3), num_cycles=200)
    seed_test(lambda: FormosaAECEnv("toy", num_players=2), num_cycles=200)


def test_auto_frames_run_in_stack_order_without_a_seat_seeing_them() -> None:
    """AUTO frames are continuations: settle pops and applies them until a decision."""
    from types import SimpleNamespace

    from formosa_envs.core.decisions import Decision, FunctionHandler
    from formosa_envs.core.engine import AUTO
    from formosa_envs.core.stack_game import StackGame

    log: list[str] = []
    game = SimpleNamespace(handlers={
        "note": FunctionHandler("noting", lambda g, s, d, a: log.append(d.ctx[0])),
        "ask": FunctionHandler("asking", lambda g, s, d, a: log.append(f"ask{a}"),
                               legal=lambda g, s, d: [0, 1]),
    }, advance=lambda state: setattr(state, "over", True), apply_forced=False)
    state = SimpleNamespace(stack=[Decision("note", AUTO, ctx=(7,)), Decision("ask", 0),
                                   Decision("note", AUTO, ctx=(1,))], over=False)
    StackGame.settle(game, state)  # the top AUTO frame runs; the decision stops it
    assert log == [1] and state.stack[-1].kind == "ask"
    assert StackGame.current_player(game, state) == 0
    d = state.stack.pop()
    game.handlers["ask"].apply(game, state, d, 1)
    StackGame.settle(game, state)  # the frame below runs, then the flow ends the game
    assert log == [1, "ask1", 7] and state.over


def test_apply_forced_answers_single_option_decisions_only() -> None:
    """With ``apply_forced`` a decision with one legal option is applied by settle; a
    decision with two waits for its player."""
    from types import SimpleNamespace

    from formosa_envs.core.decisions import Decision, FunctionHandler
    from formosa_envs.core.stack_game import StackGame

    log: list[int] = []
    options = {"one": [5], "two": [1, 2]}
    handler = FunctionHandler("asking", lambda g, s, d, a: log.append(a),
                              legal=lambda g, s, d: options[d.ctx[0]])
    game = SimpleNamespace(handlers={"ask": handler}, apply_forced=True,
                           advance=lambda state: setattr(state, "over", True))
    state = SimpleNamespace(stack=[Decision("ask", 0, ctx=("two",)),
                                   Decision("ask", 1, ctx=("one",))], over=False)
    StackGame.settle(game, state)
    assert log == [5] and len(state.stack) == 1 and state.stack[-1].ctx == ("two",)
