"""The OpenSpiel bridge (``formosa_envs.spiel``): OpenSpiel's own random simulation test,
the game type and info per configuration, parameters, observations, serialization, and the
same game through the PettingZoo env and through pyspiel."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import formosa_envs.spiel as fs
from formosa_envs.core.errors import ConfigError
from formosa_envs.envs import raw_env
from formosa_envs.games import GAMES, make_game

T = pyspiel.GameType


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {f"formosa_{g}" for g in GAMES} <= names
    assert fs.register() == [f"formosa_{g}" for g in GAMES]      # a second call is harmless


def test_random_sim_test_with_serialization(game_name: str, num_players: int) -> None:
    """OpenSpiel's own checks (clone, serialize/deserialize, legal masks, sorted actions,
    returns within the declared utility range, game length) over random games."""
    for mode in ("rank", "win"):
        game = pyspiel.load_game(f"formosa_{game_name}",
                                 {"players": num_players, "reward_mode": mode})
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params", "utility", "low", "total"), [
    ("flowers", {}, T.Utility.ZERO_SUM, -1.0, 0.0),
    ("flowers", {"players": 4, "reward_mode": "win"}, T.Utility.CONSTANT_SUM, 0.0, 1.0),
    ("dadaocheng", {"players": 1}, T.Utility.GENERAL_SUM, -1.0, None),
    ("dadaocheng", {"players": 1, "reward_mode": "win"}, T.Utility.GENERAL_SUM, 0.0, None),
    ("tea", {"players": 3, "advanced": True}, T.Utility.ZERO_SUM, -1.0, 0.0),
])
def test_type_and_info_follow_the_configuration(name, params, utility, low, total) -> None:
    game = pyspiel.load_game(f"formosa_{name}", params)
    engine = make_game(name, **{"num_players": params.get("players", 2),
                                **{k: v for k, v in params.items()
                                   if k not in ("players", "reward_mode")}})
    gtype = game.get_type()
    assert gtype.utility == utility and gtype.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC
    assert gtype.dynamics == T.Dynamics.SEQUENTIAL
    hidden = T.Information.IMPERFECT_INFORMATION
    assert (gtype.information == hidden) == engine.hidden_information
    assert game.min_utility() == low and game.max_utility() == 1.0
    if total is not None:
        assert game.utility_sum() == total
    assert game.num_players() == engine.num_players
    assert game.num_distinct_actions() == engine.num_actions
    assert game.max_chance_outcomes() == engine.max_chance_outcomes
    assert game.max_game_length() == engine.max_game_length
    assert game.observation_tensor_shape() == [engine.observation_size]


def test_parameters_map_to_engine_options() -> None:
    """None-valued options have a stand-in (0 for current_month, "" for a choice or file)."""
    game = pyspiel.load_game("formosa_flowers", {"current_month": 5, "players": 3})
    assert game.engine.config.current_month == 5 and game.engine.num_players == 3
    assert pyspiel.load_game("formosa_flowers").engine.config.current_month is None
    solo = pyspiel.load_game("formosa_dadaocheng", {"players": 1, "solo_challenge": "ships"})
    assert solo.engine.config.solo_challenge == "ships"
    assert pyspiel.load_game("formosa_dadaocheng", {"players": 1}).engine.config.solo_challenge \
        is None


@pytest.mark.parametrize(("params", "message"), [
    ({"reward_mode": "score"}, "reward_mode must be one of"),
    ({"players": 9}, "played by 2-4 players"),
    ({"target_vp": 0}, "target_vp"),
])
def test_bad_parameters_fail_clearly(params, message) -> None:
    with pytest.raises(ConfigError, match=message):
        fs.GAME_CLASSES["flowers"](params)


def test_unknown_parameters_are_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="unknown parameter.*colour"):
        fs.GAME_CLASSES["tea"]({"colour": 1})
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("formosa_tea", {"colour": 1})


def _play(state, rng: np.random.Generator, moves: int) -> None:
    """``moves`` random player moves, chance drawn as the envs draw it, up to the next
    player decision (or the end)."""
    while not state.is_terminal() and (moves or state.is_chance_node()):
        if state.is_chance_node():
            state.apply_action(fs.sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            moves -= 1


def test_the_same_seed_gives_the_same_game_through_both_apis(game_name: str,
                                                              num_players: int) -> None:
    """The env's reset(seed) generator, used for chance through pyspiel, plays the env's
    game: same chance outcomes, same engine state, same final rewards."""
    env = raw_env(game_name, num_players=num_players)
    env.reset(seed=11)
    state = pyspiel.load_game(f"formosa_{game_name}", {"players": num_players}
                              ).new_initial_state()
    chance, pick = np.random.default_rng(11), np.random.default_rng(5)
    while state.is_chance_node():
        state.apply_action(fs.sample_chance(state, chance))
    for _ in range(300):
        if not env.agents or state.is_terminal():
            break
        assert fs.engine_of(state)[0].to_json(state.engine_state) == \
            env.game.to_json(env.engine_state)
        legal = state.legal_actions()
        action = legal[int(pick.integers(len(legal)))]
        env.step(action)
        state.apply_action(action)
        while state.is_chance_node():
            state.apply_action(fs.sample_chance(state, chance))
    assert env.game.to_json(env.engine_state) == state.engine.to_json(state.engine_state)


def test_observation_tensor_is_the_env_observation() -> None:
    game = pyspiel.load_game("formosa_tea", {"players": 3})
    state = game.new_initial_state()
    _play(state, np.random.default_rng(0), 25)
    for seat in range(3):
        expected = state.engine.observe(state.engine_state, seat)
        assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), expected)
        assert state.observation_string(seat) == state.engine.render(state.engine_state, seat)


def test_named_pieces_are_views_of_the_tensor() -> None:
    from open_spiel.python.observation import make_observation
    game = pyspiel.load_game("formosa_flowers")
    obs = make_observation(game)
    names = [name for name, *_ in game.engine.observation_pieces()]
    assert list(obs.dict) == names
    state = game.new_initial_state()
    _play(state, np.random.default_rng(1), 3)
    obs.set_from(state, 0)
    assert np.array_equal(obs.tensor, state.engine.observe(state.engine_state, 0))


def test_information_state_hides_and_recalls() -> None:
    """Flowers: resampling seat 0's unknowns keeps seat 0's information state and changes
    what seat 1 holds; seat 0's own move changes its recall."""
    game = pyspiel.load_game("formosa_flowers")
    state = game.new_initial_state()
    _play(state, np.random.default_rng(2), 4)
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.observation_tensor(0) == state.observation_tensor(0)
    assert other.engine_state.hands[1] != state.engine_state.hands[1]
    assert other.observation_string(1) != state.observation_string(1)
    mover = state.current_player()
    before = state.information_state_string(mover)
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(mover) != before


def test_serialization_goes_through_the_engine_json() -> None:
    game = pyspiel.load_game("formosa_dadaocheng", {"players": 3})
    state = game.new_initial_state()
    _play(state, np.random.default_rng(3), 40)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.engine.to_json(state2.engine_state) == state.engine.to_json(state.engine_state)
    assert state2.history() == state.history()
    assert state2.information_state_string(1) == state.information_state_string(1)
    clone = state.clone()
    _play(clone, np.random.default_rng(4), 5)
    assert clone.history() != state.history()                   # independent copies


def test_a_bad_action_names_the_legal_ones() -> None:
    state = pyspiel.load_game("formosa_taiwan").new_initial_state()
    _play(state, np.random.default_rng(0), 1)
    illegal = next(a for a in range(state.get_game().num_distinct_actions())
                   if a not in state.legal_actions())
    with pytest.raises(Exception, match="legal"):
        state.apply_action(illegal)


def test_observation_types() -> None:
    """Everything (ALL_PLAYERS) is the global state vector; the information state has no
    tensor; a public-only view of Flowers is refused by name, an open game's is its view."""
    from open_spiel.python.observation import make_observation
    game = pyspiel.load_game("formosa_flowers")
    state = game.new_initial_state()
    _play(state, np.random.default_rng(5), 2)
    every = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    every.set_from(state, 0)
    assert np.array_equal(every.tensor, state.engine.state_vector(state.engine_state))
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.tensor is None
    assert recall.string_from(state, 1) == state.information_state_string(1)
    with pytest.raises(ValueError, match="no public-only observation"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    tea = pyspiel.load_game("formosa_tea")
    public = make_observation(tea, pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    assert public.tensor.shape == (tea.engine.observation_size,)
    with pytest.raises(ValueError, match="observer parameters"):
        game.make_py_observer(None, {"x": 1})
