"""Env and engine lifecycle and argument checks.

Every misuse gets a ``FormosaError`` (a ``ValueError``) naming the call, the argument
and what is allowed, never a raw AttributeError / KeyError / IndexError from inside.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import formosa_envs
from formosa_envs.core.args import ArgumentError, CallOrderError
from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import ConfigError, FormosaError, IllegalActionError
from formosa_envs.envs import SingleAgentEnv
from formosa_envs.games import GAMES, make_game

GAME_NAMES = sorted(GAMES)
BAD_SEEDS = ["x", 1.5, -1, True, np.float64(2.0), [1]]
GOOD_SEEDS = [None, 0, 7, np.int64(3), np.uint8(5), 2**40]


def finished(game: Any, seed: int = 0) -> Any:
    """A state at the end of a uniformly random game."""
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    while not game.is_terminal(s):
        if game.current_player(s) == CHANCE:
            game.resolve_chance(s, rng)
        else:
            game.apply_action(s, int(rng.choice(game.legal_actions(s))))
    return s


@pytest.fixture(scope="module", params=GAME_NAMES)
def played(request: pytest.FixtureRequest) -> tuple[Any, Any, Any]:
    """(game, a state at a player decision, a finished state), 2 players."""
    game = make_game(request.param, num_players=2)
    s = game.new_initial_state()
    game.resolve_chance(s, np.random.default_rng(0))
    return game, s, finished(game)


def run_out(env: Any, seed: int = 0) -> None:
    """Masked random play until every agent has left."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc
                 else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# ----- the AEC env ---------------------------------------------------------------------
@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("call", ["last", "step", "observe", "state", "action_label",
                                  "render"])
def test_env_calls_before_reset_say_so(game: str, call: str) -> None:
    env = formosa_envs.raw_env(game, num_players=2, render_mode="ansi")
    calls = {"last": env.last, "step": lambda: env.step(0),
             "observe": lambda: env.observe("player_0"), "state": env.state,
             "action_label": lambda: env.action_label(0), "render": env.render}
    with pytest.raises(CallOrderError, match=rf"{call}\(\) before reset\(\)"):
        calls[call]()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_env_after_every_agent_left(game: str) -> None:
    """PettingZoo removes each agent with a None step; once none is left, step and last
    say the game is over (the wrapped env warns instead, as PettingZoo's own does);
    observe still shows the final position to any agent."""
    env = formosa_envs.raw_env(game, num_players=2, max_game_length=3)
    run_out(env)
    assert env.agents == []
    for call in (lambda: env.step(None), lambda: env.step(0), env.last):
        with pytest.raises(CallOrderError, match="after the game ended"):
            call()
    assert env.observe("player_1")["observation"].shape == (env.game.observation_size,)
    env.reset(seed=1)  # and the env plays again
    assert env.agents == env.possible_agents


def test_env_after_a_natural_end() -> None:
    env = formosa_envs.raw_env("flowers", num_players=2, target_vp=30)
    run_out(env, seed=2)
    assert env.game.is_terminal(env.engine_state)
    with pytest.raises(CallOrderError, match="after the game ended"):
        env.last()
    wrapped = formosa_envs.env("flowers", num_players=2, target_vp=30)
    run_out(wrapped, seed=2)
    wrapped.step(None)  # PettingZoo's OrderEnforcingWrapper warns and ignores it


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_bad_seeds_are_refused(seed: Any) -> None:
    env = formosa_envs.raw_env("tea", num_players=2)
    with pytest.raises(ArgumentError, match=r"reset\(\): seed must be None or an integer "
                                            r">= 0, got"):
        env.reset(seed=seed)
    single = SingleAgentEnv("tea", num_players=2)
    with pytest.raises(ArgumentError, match="seed must be None or an integer >= 0"):
        single.reset(seed=seed)


@pytest.mark.parametrize("seed", GOOD_SEEDS, ids=repr)
def test_good_seeds_are_accepted_and_numpy_ints_equal_ints(seed: Any) -> None:
    env = formosa_envs.raw_env("flowers", num_players=2)
    env.reset(seed=seed)
    if seed is not None:
        history = list(env.history)
        env.reset(seed=int(seed))
        assert env.history == history
    SingleAgentEnv("flowers", num_players=2).reset(seed=seed)


@pytest.mark.parametrize("agent", ["player_99", "player_2", "", 0, None, ("player_0",)])
def test_unknown_agent_names(agent: Any) -> None:
    env = formosa_envs.raw_env("dadaocheng", num_players=2)
    env.reset(seed=0)
    for call in (env.observe, env.observation_space, env.action_space):
        with pytest.raises(ArgumentError, match=r"agent must be one of \['player_0', "
                                                r"'player_1'\], got"):
            call(agent)


def test_env_action_label_checks_the_action() -> None:
    env = formosa_envs.raw_env("taiwan", num_players=2)
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    assert env.action_label(legal)
    with pytest.raises(ArgumentError, match=r"action_label\(\): action must be in 0\.\."):
        env.action_label(-1)


# ----- the engine ----------------------------------------------------------------------
def test_apply_chance_on_a_finished_game_and_at_a_decision(played: tuple) -> None:
    game, s, over = played
    rng = np.random.default_rng(0)
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply_chance(game.clone(over), rng)
    with pytest.raises(IllegalActionError, match="at a player decision"):
        game.apply_chance(game.clone(s), rng)


def test_sample_chance_without_a_pending_chance_event(played: tuple) -> None:
    """sample_chance at a player decision or after the end is refused (Flowers returned a
    deck card, the other games raised numpy's ValueError)."""
    game, s, over = played
    rng = np.random.default_rng(0)
    for state in (s, over):
        with pytest.raises(IllegalActionError, match="no chance event is pending"):
            game.sample_chance(game.clone(state), rng)


def test_apply_chance_and_resolve_chance_need_a_generator() -> None:
    game = make_game("flowers", num_players=2)
    s = game.new_initial_state()
    for call in (game.apply_chance, game.resolve_chance):
        with pytest.raises(ArgumentError, match="rng must be a numpy.random.Generator"):
            call(s, 42)


@pytest.mark.parametrize("seat", [2, -1, 99, "0", 1.0, True, None])
def test_observe_checks_the_seat(played: tuple, seat: Any) -> None:
    game, s, _ = played
    with pytest.raises(ArgumentError, match=r"observe\(\): seat must be an integer in "
                                            r"0\.\.1 \(this \w+ game has 2 seats\)"):
        game.observe(s, seat)


def test_observe_accepts_numpy_seats(played: tuple) -> None:
    game, s, _ = played
    assert np.array_equal(game.observe(s, np.int64(1)), game.observe(s, 1))


def test_entry_points_check_the_state(played: tuple) -> None:
    game, s, _ = played
    other = make_game(game.name, num_players=3).new_initial_state()
    for bad, needle in ((None, "state must be a"), ("state", "state must be a"),
                        (other, "3-player")):
        for call in (lambda b: game.observe(b, 0), game.state_vector, game.render,
                     lambda b: game.action_label(b, 0)):
            with pytest.raises(ArgumentError, match=needle):
                call(bad)


@pytest.mark.parametrize("viewer", [2, -1, "1", 0.0, False])
def test_views_check_the_viewer(played: tuple, viewer: Any) -> None:
    game, s, _ = played
    action = game.legal_actions(s)[0]
    for name, call in (("render", lambda: game.render(s, viewer)),
                       ("render_svg", lambda: game.render_svg(s, viewer)),
                       ("public_label", lambda: game.public_label(s, action, viewer)),
                       ("determinize", lambda: game.determinize(
                           s, viewer, np.random.default_rng(0)))):
        with pytest.raises(ArgumentError, match=rf"{name}\(\): viewer must be an integer "
                                                r"in 0\.\.1"):
            call()


def test_none_viewer_stays_allowed_where_documented(played: tuple) -> None:
    game, s, _ = played
    action = game.legal_actions(s)[0]
    assert game.render(s, None) and game.render_svg(s, None).startswith("<svg")
    assert game.render(s) == game.render(s, None)
    game.public_label(s, action, None)
    with pytest.raises(ArgumentError,
                       match=r"determinize\(\): viewer must be an integer in 0\.\.1 .*got None"):
        game.determinize(s, None, np.random.default_rng(0))
    with pytest.raises(ArgumentError, match="rng must be a numpy.random.Generator"):
        game.determinize(s, 0, 3)
    assert game.determinize(s, np.int64(1), np.random.default_rng(0)) is not None


@pytest.mark.parametrize("action", [-1, "DONE", 1.0, True, None, 10**6])
def test_action_label_checks_the_action(played: tuple, action: Any) -> None:
    game, s, over = played
    for state in (s, over):
        with pytest.raises(ArgumentError, match=r"action_label\(\): action must be"):
            game.action_label(state, action)
    with pytest.raises(ArgumentError, match=r"action_label\(\): action must be in 0\.\."):
        game.action_label(s, game.num_actions)
    assert game.action_label(s, np.int32(game.legal_actions(s)[0]))


def test_action_label_at_chance_takes_the_outcomes(played: tuple) -> None:
    game = played[0]
    s = game.new_initial_state()
    assert game.current_player(s) == CHANCE
    outcomes = [o for o, _ in game.chance_outcomes(s)]
    assert game.action_label(s, outcomes[0])
    missing = next(a for a in range(game.num_actions + 100) if a not in outcomes)
    with pytest.raises(ArgumentError, match="not an outcome of the pending chance event"):
        game.action_label(s, missing)
    with pytest.raises(IllegalActionError):  # applying it is an illegal action, not a crash
        game.apply_action(s, missing)


def test_errors_are_value_errors() -> None:
    assert issubclass(ArgumentError, FormosaError) and issubclass(ArgumentError, ValueError)
    assert issubclass(CallOrderError, IllegalActionError)


# ----- the single-agent gymnasium env ---------------------------------------------------
def test_single_agent_env_before_reset_and_after_the_end() -> None:
    env = SingleAgentEnv("flowers", num_players=2, render_mode="ansi")
    for name, call in (("step", lambda: env.step(0)), ("action_masks", env.action_masks),
                       ("render", env.render), ("learner_reward", env.learner_reward)):
        with pytest.raises(CallOrderError, match=rf"{name}\(\) before reset\(\)"):
            call()
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]))  # a numpy integer
        _, _, terminated, truncated, info = env.step(np.array(action))  # 0-d arrays too
        done = terminated or truncated
    with pytest.raises(CallOrderError, match="after the episode ended"):
        env.step(0)
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match="'x'"):
        env.step("x")


def test_single_agent_env_refuses_steps_after_truncation(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    env = SingleAgentEnv("tea", num_players=2)
    _, info = env.reset(seed=0)
    monkeypatch.setattr(type(env.game), "max_game_length", property(lambda self: 3))
    rng = np.random.default_rng(0)
    truncated = False
    while not truncated:
        _, _, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert not terminated
    with pytest.raises(CallOrderError, match="terminated or truncated"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


@pytest.mark.parametrize("options", [{"game": ["flowers"]}, {"render_mode": ["ansi"]},
                                     {"reward_mode": {}}], ids=repr)
def test_unhashable_env_options_are_config_errors(options: dict[str, Any]) -> None:
    """Unhashable values raised TypeError from the membership test; now a ConfigError."""
    options = {"game": "flowers", **options}
    with pytest.raises(ConfigError):
        formosa_envs.raw_env(**options)
