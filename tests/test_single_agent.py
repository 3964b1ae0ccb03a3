"""The single-agent gymnasium view used for self-play training."""

from __future__ import annotations

import numpy as np
import pytest

from formosa_envs.core.decisions import Decision
from formosa_envs.core.errors import ConfigError, IllegalActionError
from formosa_envs.envs.single_agent import SingleAgentEnv, UniformOpponent
from formosa_envs.games.flowers.actions import CASH, KEEP
from formosa_envs.games.flowers.rules import KEEP_OR_CASH
from formosa_envs.games.flowers.scenario import cid, scenario
from formosa_envs.games.flowers.state import Phase


def random_episode(env: SingleAgentEnv, rng: np.random.Generator) -> tuple[float, int]:
    """Play one episode with masked random learner actions; return (total reward, steps)."""
    total, steps = 0.0, 0
    done = False
    while not done:
        mask = env.action_masks()
        assert mask.any()
        assert env.game.current_player(env.state) == env.seat, "learner is not deciding"
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        done = terminated or truncated
        np.testing.assert_array_equal(info["action_mask"], env.action_masks())
    return total, steps


def test_learner_seat_rotates_and_rewards_are_final_ranks() -> None:
    env = SingleAgentEnv("flowers", num_players=3)
    rng = np.random.default_rng(0)
    seats, rewards = [], []
    for episode in range(6):
        obs, info = env.reset(seed=episode)
        assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
        seats.append(info["learner_seat"])
        total, _ = random_episode(env, rng)
        rewards.append(total)
        assert total == env.game.returns(env.state)[env.seat]
    assert seats == [0, 1, 2, 0, 1, 2]
    assert all(-1.0 <= r <= 1.0 for r in rewards)


def test_same_seed_same_episode() -> None:
    runs = []
    for _ in range(2):
        env = SingleAgentEnv("flowers", num_players=2, learner_seat=1)
        env.reset(seed=7)
        runs.append(random_episode(env, np.random.default_rng(3)))
    assert runs[0] == runs[1]


class Scripted:
    """An opponent that plays a given card when it can and always cashes out."""

    name = "scripted"

    def __init__(self, card: int) -> None:
        self.card = card

    def reset(self) -> None:
        """Nothing to forget."""

    def act_on_state(self, game, state) -> int:
        """Cash out if possible, else play the scripted card, else the first legal action."""
        legal = game.legal_actions(state)
        for wanted in (CASH, self.card):
            if wanted in legal:
                return wanted
        return legal[0]


def learner_at_keep_or_cash(opponent_card: int) -> SingleAgentEnv:
    """Seat 1 (learner) must choose Keep/Cash; seat 0 (scripted) is about to win."""
    env = SingleAgentEnv("flowers", num_players=2, learner_seat=1)
    env.reset(seed=0)
    game = env.game
    plains = [cid(game, m, None, 0) for m in (1, 3, 4, 5, 6, 9, 11)]
    state = scenario(
        game, turn=1, scores=[58, 55],
        hands=[[opponent_card, cid(game, 12, None, 0)], [cid(game, 10, None, 0)]],
        field=[cid(game, 7, None, 0), cid(game, 8, None, 1)],
        piles=[[cid(game, 2, "animal"), cid(game, 4, "animal"), *plains],
               [cid(game, m, "night") for m in (1, 6, 9)] + [cid(game, 3, "bird"),
                                                             cid(game, 5, "bird")]])
    state.stack = [Decision(KEEP_OR_CASH, 1)]
    state.phase = Phase.END_TURN
    env.state = state
    env.opponents = {0: Scripted(opponent_card)}
    return env


def test_reward_is_the_learners_when_the_opponent_ends_the_game() -> None:
    """PR #1203: the opponent's winning move must give the learner -1, never the mover's +1."""
    env = learner_at_keep_or_cash(opponent_card=cid(env_game(), 7, "animal"))
    _, reward, terminated, _, _ = env.step(KEEP)
    assert terminated
    scores = env.game.scores(env.state)
    assert scores[0] >= 60 > scores[1], scores
    assert reward == -1.0


def test_reward_when_the_learner_ends_the_game_itself() -> None:
    env = learner_at_keep_or_cash(opponent_card=cid(env_game(), 7, "animal"))
    _, reward, terminated, _, _ = env.step(CASH)
    assert terminated and env.game.scores(env.state)[1] >= 60
    assert reward == 1.0


def env_game():
    """A 2-player Flowers engine for looking up card ids."""
    from formosa_envs.games import make_game
    return make_game("flowers", num_players=2)


@pytest.mark.parametrize("mode", ["win", "score"])
def test_reward_modes(mode: str) -> None:
    env = SingleAgentEnv("flowers", num_players=2, reward_mode=mode)
    env.reset(seed=2)
    total, _ = random_episode(env, np.random.default_rng(2))
    scores = env.game.scores(env.state)
    if mode == "score":
        assert total == scores[env.seat]
    else:
        assert total in (0.0, 0.5, 1.0) and (total > 0) == (scores[env.seat] == max(scores))


def test_bad_options_and_misuse() -> None:
    with pytest.raises(ConfigError, match="learner_seat"):
        SingleAgentEnv("flowers", num_players=2, learner_seat=5)
    with pytest.raises(ConfigError, match="reward_mode"):
        SingleAgentEnv("flowers", reward_mode="elo")
    env = SingleAgentEnv("flowers")
    with pytest.raises(IllegalActionError):
        env.step(0)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)


def test_opponent_factory_is_used_per_episode() -> None:
    calls = []

    def factory(rng: np.random.Generator, count: int) -> list[UniformOpponent]:
        calls.append(count)
        return [UniformOpponent(np.random.default_rng(len(calls))) for _ in range(count)]

    env = SingleAgentEnv("flowers", num_players=4, opponents=factory)
    for episode in range(3):
        env.reset(seed=episode)
    assert calls == [3, 3, 3]


def test_potential_shaping_is_dense_and_sums_to_the_final_reward() -> None:
    """Shaping adds w * (potential after - potential before) per step, with the potential
    of a finished game 0: the rewards of a game still sum to its final reward."""
    env = SingleAgentEnv("dadaocheng", num_players=1, reward_mode="score", shaping=1.0)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    rewards, done = [], False
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, _ = env.step(action)
        rewards.append(reward)
        done = terminated or truncated
    assert sum(1 for r in rewards[:-1] if r != 0) > 0        # dense hints during the game
    start_potential = 0.0                                       # no prestige, empty hand
    assert abs(sum(rewards) - (env.game.scores(env.state)[0] - start_potential)) < 1e-9
    plain = SingleAgentEnv("flowers", num_players=2, shaping=1.0)  # no potential defined
    plain.reset(seed=0)
    _, reward, *_ = plain.step(int(np.flatnonzero(plain.action_masks())[0]))
    assert reward == 0.0


def test_bad_shaping_is_rejected() -> None:
    with pytest.raises(ConfigError, match="shaping"):
        SingleAgentEnv("flowers", shaping=-1)
