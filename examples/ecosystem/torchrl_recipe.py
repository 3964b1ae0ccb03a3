"""TorchRL: a formosa game in TorchRL, and a masked PPO that learns to beat random.

Part 1, the multi-agent view. The formosa envs are turn-based AEC envs, so
``PettingZooWrapper`` needs ``use_mask=True``; it makes one group per seat (``player_0``,
...), each with ``"mask"`` (whether that seat acts on this step) and ``"action_mask"``
(its legal actions: the Dict observation's mask, or ``infos[agent]["action_mask"]`` of the
flat view). Only the acting seat's action is applied. Every seat's final reward is in
``("next", seat, "reward")`` of the last step. Wrap an env object: ``PettingZooEnv(task=
"formosa/...")`` cannot find our envs (it looks tasks up in PettingZoo's built-in module
table, ``PettingZooEnv._build_env``, not in a registry, and offers no hook to extend it).

Part 2, learning (:func:`train_agent`). Learning one seat from the AEC wrapper needs glue
(pick the learner's steps out of a turn-based group, credit the final reward). Instead the
recipe wraps the learner's single-agent view, ``learner_env(mask="dict")`` (the opponents
move inside ``step``), and uses TorchRL's own pieces end to end:

* ``GymWrapper`` over a gymnasium ``SyncVectorEnv`` of 16 envs with
  ``autoreset_mode=DISABLED`` (TorchRL then resets finished envs itself, by
  ``options["reset_mask"]``): one TorchRL step for 16 games, 6x less CPU per frame than
  one env;
* transforms: rename ``"mask"`` to ``"action_mask"``, cast it int8 -> bool (both are what
  ``MaskedCategorical`` and the ``ActionMask`` transform expect), ``ActionMask`` (random
  actions from the spec are legal too);
* ``ProbabilisticActor`` with ``MaskedCategorical`` fed ``{"logits", "mask":
  "action_mask"}``, a ``ValueOperator`` critic, the ``Collector``, ``GAE``,
  ``ClipPPOLoss`` and a ``ReplayBuffer`` with ``SamplerWithoutReplacement``.

Pitfalls: ``SyncDataCollector`` is called ``Collector`` in TorchRL 0.13; the gymnasium
mask is int8 (``MaskedCategorical`` wants bool: cast it); a vectorised gymnasium env must
use ``autoreset_mode`` ``DISABLED`` or ``SAME_STEP`` (the default ``NEXT_STEP`` is
refused); the collector samples from torch's global generator (the recipe trains inside
``torch.random.fork_rng()``); ``set_exploration_type(DETERMINISTIC)`` makes *every*
probabilistic actor in the call greedy, a uniform random opponent written as a TorchRL
policy included (it would then always play its first legal action).

Run: ``python -m examples.ecosystem.torchrl_recipe``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
import torch
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from tensordict import TensorDict, TensorDictBase
from tensordict.nn import TensorDictModule
from torchrl.collectors import Collector
from torchrl.data import Composite, LazyTensorStorage, ReplayBuffer
from torchrl.data.replay_buffers.samplers import SamplerWithoutReplacement
from torchrl.envs import GymWrapper, PettingZooWrapper, TransformedEnv
from torchrl.envs.transforms import ActionMask, Compose, DTypeCastTransform, RenameTransform
from torchrl.envs.utils import ExplorationType, check_env_specs, set_exploration_type
from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value import GAE
from tqdm import tqdm

from formosa_envs.envs import env, flat_env, learner_env


def make_torchrl_env(game: str = "tea", num_players: int = 3, seed: int = 0,
                     flat: bool = False) -> PettingZooWrapper:
    """The game as a TorchRL env (the Dict env, or the flat view with ``flat=True``),
    seeded, with the global state (``return_state=True``) for centralised critics."""
    pz_env = flat_env(game, num_players=num_players) if flat else env(game,
                                                                      num_players=num_players)
    return PettingZooWrapper(pz_env, use_mask=True, return_state=True, seed=seed)


def observation_key(torchrl_env: PettingZooWrapper, group: str) -> tuple[str, ...]:
    """Where a group's observation vector lies: ``(group, "observation", "observation")``
    for the Dict env (the mask is taken out of it), ``(group, "observation")`` for the
    flat view."""
    if isinstance(torchrl_env.observation_spec[group, "observation"], Composite):
        return (group, "observation", "observation")
    return (group, "observation")


class MaskedLinearPolicy(torch.nn.Module):
    """One linear layer shared by every seat, sampling from ``MaskedCategorical`` with its
    own seeded ``torch.Generator`` (no global random state is used)."""

    def __init__(self, torchrl_env: PettingZooWrapper, seed: int = 0) -> None:
        super().__init__()
        self.groups = list(torchrl_env.group_map)
        self.keys = {g: observation_key(torchrl_env, g) for g in self.groups}
        obs_size = torchrl_env.observation_spec[self.keys[self.groups[0]]].shape[-1]
        num_actions = torchrl_env.full_action_spec[self.groups[0], "action"].space.n
        self.generator = torch.Generator().manual_seed(seed)
        self.linear = torch.nn.Linear(obs_size, num_actions)
        with torch.no_grad():
            self.linear.weight.copy_(0.1 * torch.randn(self.linear.weight.shape,
                                                       generator=self.generator))
            self.linear.bias.zero_()

    def forward(self, tensordict: TensorDictBase) -> TensorDictBase:
        """Write every group's ``"action"``: a legal action for the acting seat."""
        for group in self.groups:
            logits = self.linear(tensordict[self.keys[group]])
            dist = MaskedCategorical(logits=logits, mask=tensordict[group, "action_mask"])
            tensordict[group, "action"] = torch.multinomial(
                dist.probs, 1, generator=self.generator).squeeze(-1)
        return tensordict


def torchrl_rollout(game: str = "tea", num_players: int = 3, seed: int = 0,
                    flat: bool = False, max_steps: int = 10_000) -> TensorDictBase:
    """Check the wrapped env's specs, then play one whole game with the masked policy;
    returns the rollout (one row per env step)."""
    torchrl_env = make_torchrl_env(game, num_players, seed, flat)
    check_env_specs(torchrl_env, seed=seed)
    torchrl_env.set_seed(seed)
    policy = MaskedLinearPolicy(torchrl_env, seed)
    with torch.no_grad():
        return torchrl_env.rollout(max_steps, policy=policy, break_when_any_done=True)


# --- Part 2: masked PPO on the learner's single-agent view ---------------------------------

OBS_KEY, MASK_KEY = "obs", "action_mask"
"""The tensordict keys of the learner's observation vector and its legal-action mask."""


@dataclass(frozen=True)
class PPOConfig:
    """The PPO settings of :func:`train_agent` (frames per batch = envs x steps)."""

    num_envs: int = 16
    steps_per_env: int = 128
    minibatch: int = 256
    epochs: int = 4
    lr: float = 3e-4
    gamma: float = 1.0
    lmbda: float = 0.95
    clip_epsilon: float = 0.2
    entropy_coeff: float = 0.01
    hidden: tuple[int, ...] = (128, 128)
    max_batches: int | None = None
    """Stop after this many batches even with CPU time left (reproducible short runs)."""


def make_learner_env(game: str = "flowers", num_players: int = 2, num_envs: int = 16,
                     seed: int = 0, opponents: str = "random") -> TransformedEnv:
    """``num_envs`` learner views (``learner_env(mask="dict")``) as one batched TorchRL env
    with keys ``"obs"`` and ``"action_mask"`` (bool), seeded ``seed`` (sub-env ``i``: ``seed
    + i``); the ``ActionMask`` transform keeps the action spec's mask up to date."""
    make = partial(learner_env, game, opponents, "dict", num_players)
    vector = SyncVectorEnv([make for _ in range(num_envs)], autoreset_mode=AutoresetMode.DISABLED)
    torchrl_env = TransformedEnv(
        GymWrapper(vector, categorical_action_encoding=True),
        Compose(RenameTransform(["mask"], [MASK_KEY]),
                DTypeCastTransform(torch.int8, torch.bool, in_keys=[MASK_KEY]),
                ActionMask(mask_key=MASK_KEY)))
    torchrl_env.set_seed(seed)
    return torchrl_env


def make_actor_critic(torchrl_env: TransformedEnv,
                      hidden: tuple[int, ...] = (128, 128)) -> tuple[ProbabilisticActor,
                                                                     ValueOperator]:
    """A masked categorical actor (``MaskedCategorical`` over the MLP's logits, masked by
    ``"action_mask"``) and an MLP critic, both reading ``"obs"``. Call under a seeded
    torch generator for reproducible weights."""
    size = torchrl_env.observation_spec[OBS_KEY].shape[-1]
    actions = int(torchrl_env.full_action_spec["action"].space.n)
    logits = TensorDictModule(MLP(in_features=size, out_features=actions, num_cells=list(hidden),
                                  activation_class=torch.nn.Tanh),
                              in_keys=[OBS_KEY], out_keys=["logits"])
    actor = ProbabilisticActor(logits, in_keys={"logits": "logits", "mask": MASK_KEY},
                               distribution_class=MaskedCategorical, return_log_prob=True)
    critic = ValueOperator(MLP(in_features=size, out_features=1, num_cells=list(hidden),
                               activation_class=torch.nn.Tanh), in_keys=[OBS_KEY])
    return actor, critic


def greedy_policy(actor: ProbabilisticActor) -> Callable[[np.ndarray, np.ndarray], int]:
    """``act(observation, mask)``: the actor's most likely legal action (TorchRL's
    ``ExplorationType.DETERMINISTIC``, the masked distribution's mode)."""
    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        data = TensorDict({OBS_KEY: torch.as_tensor(observation, dtype=torch.float32),
                           MASK_KEY: torch.as_tensor(mask, dtype=torch.bool)})
        with torch.no_grad(), set_exploration_type(ExplorationType.DETERMINISTIC):
            return int(actor(data)["action"])
    return act


def ppo_update(data: TensorDictBase, loss: ClipPPOLoss, gae: GAE, optimizer: torch.optim.Optimizer,
               buffer: ReplayBuffer, epochs: int) -> dict[str, float]:
    """One PPO update on a collected batch: GAE advantages, then ``epochs`` passes over the
    batch in minibatches drawn without replacement. Returns the last minibatch's losses."""
    with torch.no_grad():
        gae(data)
    buffer.empty()
    buffer.extend(data.reshape(-1))
    for _ in range(epochs * (len(buffer) // buffer.batch_size)):
        losses = loss(buffer.sample())
        total = sum(value for key, value in losses.items() if key.startswith("loss_"))
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
    return {key: float(value.detach()) for key, value in losses.items() if key.startswith("loss_")}


def run_ppo(torchrl_env: TransformedEnv, actor: ProbabilisticActor, critic: ValueOperator,
            config: PPOConfig, cpu_seconds: float, progress: bool = True,
            start: float | None = None) -> int:
    """Train ``actor`` and ``critic`` with TorchRL's collector, GAE and ``ClipPPOLoss`` until
    the next batch would take this process past ``cpu_seconds`` of CPU time from ``start``
    (a ``time.process_time()``; now if None). Returns the frames collected."""
    frames = config.num_envs * config.steps_per_env
    collector = Collector(torchrl_env, actor, frames_per_batch=frames, total_frames=-1,
                          auto_register_policy_transforms=False)
    gae = GAE(gamma=config.gamma, lmbda=config.lmbda, value_network=critic)
    loss = ClipPPOLoss(actor, critic, clip_epsilon=config.clip_epsilon,
                       entropy_coeff=config.entropy_coeff, normalize_advantage=True)
    optimizer = torch.optim.Adam(loss.parameters(), lr=config.lr)
    buffer = ReplayBuffer(storage=LazyTensorStorage(frames), batch_size=config.minibatch,
                          sampler=SamplerWithoutReplacement())
    start = time.process_time() if start is None else start
    last = time.process_time()
    collected, longest, batches = 0, 0.0, 0
    with tqdm(total=round(cpu_seconds), unit="cpu-s", desc="torchrl ppo",
              disable=not progress) as bar:
        for data in collector:
            losses = ppo_update(data, loss, gae, optimizer, buffer, config.epochs)
            collected, batches = collected + data.numel(), batches + 1
            now = time.process_time()
            longest, last = max(longest, now - last), now
            bar.update(min(round(now - start), bar.total) - bar.n)
            bar.set_postfix(frames=collected, **{k[5:]: f"{v:.3f}" for k, v in losses.items()})
            if now - start + 1.5 * longest > cpu_seconds or batches == config.max_batches:
                break
    collector.shutdown()
    return collected


def train_agent(game: str = "flowers", num_players: int = 2, seed: int = 0,
                cpu_seconds: float = 180.0, progress: bool = True,
                config: PPOConfig | None = None) -> Callable[[np.ndarray, np.ndarray], int]:
    """Train a masked PPO agent against random opponents for at most ``cpu_seconds`` of
    this process's CPU time (``cpu_seconds=0``: the untrained policy) and return its greedy
    policy ``act(observation, mask) -> legal action``. Seeded by ``seed`` (training games
    ``seed`` .. ``seed + num_envs - 1``, then the envs' own generators); torch's global
    random state is left as it was."""
    start, config = time.process_time(), config or PPOConfig()
    torch.set_num_threads(1)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        torchrl_env = make_learner_env(game, num_players, config.num_envs, seed)
        actor, critic = make_actor_critic(torchrl_env, config.hidden)
        if cpu_seconds > 0:
            run_ppo(torchrl_env, actor, critic, config, cpu_seconds, progress, start)
        torchrl_env.close()
    actor.eval()
    return greedy_policy(actor)


if __name__ == "__main__":
    rollout = torchrl_rollout()
    final = {g: float(rollout["next", g, "reward"][-1]) for g in ("player_0", "player_1",
                                                                  "player_2")}
    print(f"{rollout.batch_size[0]} env steps; final rewards {final}")
