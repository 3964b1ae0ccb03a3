"""TorchRL recipe (``examples/ecosystem/torchrl_recipe.py``): the AEC wrapper, and masked PPO
on the learner's single-agent view."""

from __future__ import annotations

import time
import warnings

import pytest
import torch
from tensordict import TensorDict, TensorDictBase
from tensordict.nn import TensorDictModule
from torchrl.envs import PettingZooEnv
from torchrl.envs.utils import ExplorationType, check_env_specs, set_exploration_type
from torchrl.modules import MaskedCategorical, ProbabilisticActor

from examples.ecosystem.torchrl_recipe import (
    MASK_KEY,
    OBS_KEY,
    PPOConfig,
    greedy_policy,
    make_actor_critic,
    make_learner_env,
    make_torchrl_env,
    observation_key,
    torchrl_rollout,
    train_agent,
)
from formosa_envs.envs import evaluate_learner
from formosa_envs.games import GAMES


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_passes_check_env_specs(game: str) -> None:
    players = min(max(2, GAMES[game].min_players), GAMES[game].max_players)
    for flat in (False, True):
        torchrl_env = make_torchrl_env(game, players, seed=1, flat=flat)
        assert list(torchrl_env.group_map) == [f"player_{i}" for i in range(players)]
        check_env_specs(torchrl_env, seed=1)


@pytest.mark.parametrize("flat", [False, True], ids=["dict", "flat"])
def test_rollout_plays_a_whole_game_with_legal_masked_actions(flat: bool) -> None:
    rollout = torchrl_rollout("tea", 3, seed=0, flat=flat)
    groups = ["player_0", "player_1", "player_2"]
    steps = rollout.batch_size[0]
    assert steps > 30
    acting = torch.stack([rollout[g, "mask"].reshape(steps) for g in groups], dim=1)
    assert (acting.sum(dim=1) == 1).all()  # one seat decides on every env step
    for seat, group in enumerate(groups):
        legal = rollout[group, "action_mask"].reshape(steps, -1)
        actions = rollout[group, "action"].reshape(steps)
        chosen = legal[torch.arange(steps), actions]
        assert chosen[acting[:, seat]].all()
    assert bool(rollout["next", "done"][-1]) and not rollout["next", "done"][:-1].any()
    rewards = torch.stack([rollout["next", g, "reward"].reshape(steps) for g in groups], dim=1)
    assert not rewards[:-1].any() and rewards[-1].abs().sum() > 0
    assert float(rewards[-1].sum()) == pytest.approx(0.0)  # rank rewards are zero-sum


def test_rollouts_are_reproducible_and_dict_and_flat_agree() -> None:
    runs = [torchrl_rollout("flowers", 2, seed=5, flat=flat) for flat in (False, True, False)]
    for other in runs[1:]:
        assert other.batch_size == runs[0].batch_size
        for group in ("player_0", "player_1"):
            assert torch.equal(other[group, "action"], runs[0][group, "action"])
    dict_env, flat_env = (make_torchrl_env("flowers", 2, flat=f) for f in (False, True))
    assert observation_key(dict_env, "player_0") == ("player_0", "observation", "observation")
    assert observation_key(flat_env, "player_0") == ("player_0", "observation")
    assert torch.equal(runs[0][observation_key(dict_env, "player_1")],
                       runs[1][observation_key(flat_env, "player_1")])


# --- the learning recipe: masked PPO on the learner's single-agent view --------------------

QUICK = PPOConfig(num_envs=4, steps_per_env=32, minibatch=64, epochs=1, lr=0.05, hidden=(16,),
                  max_batches=2)


def random_rollout(num_envs: int, steps: int, seed: int) -> TensorDictBase:
    """Random legal actions (the ``ActionMask`` transform masks the action spec)."""
    torchrl_env = make_learner_env("flowers", 2, num_envs=num_envs, seed=seed)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return torchrl_env.rollout(steps, break_when_any_done=False)


def test_learner_env_passes_check_env_specs_with_a_bool_action_mask() -> None:
    torchrl_env = make_learner_env("flowers", 2, num_envs=3, seed=1)
    assert torchrl_env.batch_size == torch.Size([3])
    assert set(torchrl_env.observation_spec.keys()) == {OBS_KEY, MASK_KEY}
    assert torchrl_env.observation_spec[MASK_KEY].dtype == torch.bool
    with torch.random.fork_rng(devices=[]):
        check_env_specs(torchrl_env, seed=1)


def test_learner_env_steps_legal_actions_and_resets_finished_games_alone() -> None:
    rollout = random_rollout(num_envs=4, steps=150, seed=2)
    assert rollout.batch_size == torch.Size([4, 150])
    chosen = rollout[MASK_KEY].gather(-1, rollout["action"].unsqueeze(-1))
    assert chosen.all()  # every sampled action was legal
    done = rollout["next", "done"].squeeze(-1)
    reward = rollout["next", "reward"].squeeze(-1)
    assert done.sum() >= 4 and not reward[~done].any()  # the reward is the final one
    assert set(reward[done].tolist()) <= {-1.0, 0.0, 1.0} and reward[done].abs().sum() > 0
    going = ~done[:, :-1]  # an unfinished game continues where it was, in its own env
    assert torch.equal(rollout["next", OBS_KEY][:, :-1][going], rollout[OBS_KEY][:, 1:][going])
    assert not torch.equal(rollout[OBS_KEY][0, 0], rollout[OBS_KEY][1, 0])  # seeds differ
    again = random_rollout(num_envs=4, steps=150, seed=2)
    assert torch.equal(again["action"], rollout["action"])


def test_greedy_policy_is_the_masked_argmax_of_the_actor() -> None:
    torchrl_env = make_learner_env("flowers", 2, num_envs=2, seed=3)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(3)
        actor, critic = make_actor_critic(torchrl_env, hidden=(32,))
    act = greedy_policy(actor)
    rollout = random_rollout(num_envs=2, steps=20, seed=3)
    observations, masks = rollout[OBS_KEY].reshape(40, -1), rollout[MASK_KEY].reshape(40, -1)
    with torch.no_grad():
        logits = actor.module[0](rollout.reshape(-1))["logits"]
        values = critic(rollout.reshape(-1))["state_value"]
    expected = logits.masked_fill(~masks, float("-inf")).argmax(-1)
    for row in range(40):
        action = act(observations[row].numpy(), masks[row].numpy())
        assert action == int(expected[row]) and bool(masks[row, action])
    assert values.shape == (40, 1)


def test_train_agent_is_reproducible_and_leaves_torch_random_state_alone() -> None:
    state = torch.random.get_rng_state()
    acts = [train_agent(seed=4, cpu_seconds=60.0, progress=False, config=QUICK)
            for _ in range(2)]
    untrained = train_agent(seed=4, cpu_seconds=0, progress=False, config=QUICK)
    assert torch.equal(torch.random.get_rng_state(), state)
    rollout = random_rollout(num_envs=2, steps=30, seed=5)
    pairs = zip(rollout[OBS_KEY].reshape(60, -1).numpy(),
                rollout[MASK_KEY].reshape(60, -1).numpy(), strict=True)
    choices = [[act(obs, mask) for act in (*acts, untrained)] for obs, mask in pairs]
    assert all(first == second for first, second, _ in choices)  # same seed, same agent
    assert any(first != before for first, _, before in choices)  # and it learnt something


def test_train_agent_stays_within_its_cpu_budget() -> None:
    start = time.process_time()
    act = train_agent(seed=6, cpu_seconds=4.0, progress=False)
    assert time.process_time() - start <= 4.0
    score = evaluate_learner(act, games=2, seed=8_000_000)
    assert score.games == 2


def test_deterministic_exploration_makes_a_random_torchrl_opponent_greedy_too() -> None:
    """The README's pitfall: ``set_exploration_type(DETERMINISTIC)`` reaches every
    probabilistic actor, so a uniform masked "random" policy always takes the first legal
    action (its mode) instead of a random one."""
    uniform = ProbabilisticActor(
        TensorDictModule(lambda mask: torch.zeros(mask.shape), in_keys=[MASK_KEY],
                         out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": MASK_KEY}, distribution_class=MaskedCategorical)
    mask = torch.zeros(200, 10, dtype=torch.bool)
    mask[:, 3:7] = True
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        with set_exploration_type(ExplorationType.DETERMINISTIC):
            greedy = uniform(TensorDict({MASK_KEY: mask}, [200]))["action"]
        with set_exploration_type(ExplorationType.RANDOM):
            sampled = uniform(TensorDict({MASK_KEY: mask}, [200]))["action"]
    assert set(greedy.tolist()) == {3}
    assert set(sampled.tolist()) == {3, 4, 5, 6}


def test_pettingzoo_env_by_task_name_does_not_find_formosa_envs() -> None:
    """``PettingZooEnv(task=...)`` looks the task up in PettingZoo's own module table
    (``PettingZooEnv._build_env``), not in a registry: wrap an env with
    ``PettingZooWrapper`` instead (part 1). If TorchRL ever finds it, update the README."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="Specified task not in available environments"):
            PettingZooEnv(task="formosa/flowers-v1", parallel=False, use_mask=True)


@pytest.mark.slow
def test_ppo_beats_random_after_three_cpu_minutes() -> None:
    act = train_agent(seed=0, cpu_seconds=180.0, progress=False)
    score = evaluate_learner(act, games=100, seed=7_000_000)
    assert score.win_rate >= 0.65, str(score)
