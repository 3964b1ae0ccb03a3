"""OpenSpiel's bots on the formosa games, and formosa agents as OpenSpiel bots."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import formosa_envs.spiel as fs


class RestartableISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's Python IS-MCTS bot has no ``restart_at``, which ``evaluate_bots`` calls
    at the start of a game (docs/openspiel.md names this pitfall)."""

    def restart_at(self, state) -> None:
        self.reset()


def _mcts(game, simulations: int, seed: int) -> mcts.MCTSBot:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator,
                        random_state=rng, solve=False)


@pytest.mark.parametrize("name", ["flowers", "dadaocheng"])
def test_mcts_bot_plays_against_our_heuristic(name: str) -> None:
    game = pyspiel.load_game(f"formosa_{name}")
    bots = [_mcts(game, 8, 0), fs.bot_from_spec("heuristic", game, seed=1)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                          np.random.RandomState(2))
    assert len(returns) == 2 and sum(returns) == 0.0 and max(returns) <= 1.0


def test_ismcts_bot_plays_flowers_from_resampled_states() -> None:
    """IS-MCTS samples worlds through ``resample_from_infostate`` (the engine's
    determinize) and keys its tree by information-state strings."""
    game = pyspiel.load_game("formosa_flowers", {"players": 3})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = RestartableISMCTS(game, evaluator, 2.0, 8, random_state=rng)
    bots = [searcher, fs.bot_from_spec("random", game, seed=4),
            fs.bot_from_spec("heuristic", game, seed=5)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                          np.random.RandomState(6))
    assert len(returns) == 3 and abs(sum(returns)) < 1e-9


def test_the_same_agent_seed_plays_the_same_game() -> None:
    game = pyspiel.load_game("formosa_flowers")

    def play() -> list[int]:
        state = game.new_initial_state()
        bots = [fs.bot_from_spec("mcts:4", game, seed=7),
                fs.bot_from_spec("random", game, seed=8)]
        evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(9))
        return state.history()

    assert play() == play()


def test_a_formosa_bot_needs_an_agent_and_a_formosa_game() -> None:
    with pytest.raises(TypeError, match="act_on_state"):
        fs.FormosaBot(object())
    with pytest.raises(TypeError, match="formosa OpenSpiel game"):
        fs.bot_from_spec("random", pyspiel.load_game("tic_tac_toe"))
    with pytest.raises(TypeError, match="formosa OpenSpiel state"):
        fs.engine_of(pyspiel.load_game("tic_tac_toe").new_initial_state())


def test_openspiel_rl_environment_plays_on_observation_tensors() -> None:
    """``rl_environment`` (OpenSpiel's RL agents: DQN, policy gradients, NFSP) falls back to
    observation tensors, as the games declare no information-state tensor."""
    from open_spiel.python import rl_environment
    env = rl_environment.Environment("formosa_tea", players=3)
    assert env.observation_spec()["info_state"] == (env.game.engine.observation_size,)
    step, rng = env.reset(), np.random.default_rng(0)
    while not step.last():
        seat = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][seat]))])
    assert len(step.rewards) == 3 and abs(sum(step.rewards)) < 1e-9
