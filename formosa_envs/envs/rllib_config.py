"""RLlib PPO configs for formosa games, and league snapshots (``[rllib]`` extra).

:func:`build_ppo_config` returns an RLlib ``PPOConfig`` in one of three modes:

* ``shared`` — one module (``shared``) plays every seat;
* ``per_seat`` — one module per seat (``seat_0``, ``seat_1``...), all trained;
* ``league`` — one trained module (``learner``) whose seat rotates per episode,
  against scripted random/heuristic players (inside the env) and frozen
  snapshots of itself (``snapshot_<n>`` modules, see :func:`add_snapshot`);
  before the first snapshot, non-scripted opponents are the learner itself.

Env checking is off (RLlib's pre-check steps unmasked random actions, which
the env rightly rejects), episodes stay Python lists on the runners
(``episodes_to_numpy=False``: much faster with many short episodes).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from formosa_envs.core.errors import ConfigError

from .rllib import LEARNER, FormosaRLlibEnv, MaskedPPOTorchRLModule

MODES = ("shared", "per_seat", "league")


@dataclass(frozen=True)
class SeatMapping:
    """Agent -> module for ``shared`` and ``per_seat`` (picklable for the env runners)."""

    mode: str

    def __call__(self, agent_id: str, episode: Any = None, **kwargs: Any) -> str:
        """``shared``, or ``seat_<i>`` for agent ``player_<i>``."""
        if self.mode == "shared":
            return "shared"
        return "seat_" + agent_id.rsplit("_", 1)[1]


@dataclass(frozen=True)
class LeagueMapping:
    """Agent -> module for ``league``: the learner, or one snapshot per opponent seat.

    The snapshot is drawn by a stable hash of the episode id and the agent id,
    so one opponent keeps its module for the whole episode.
    """

    snapshots: tuple[str, ...] = ()

    def __call__(self, agent_id: str, episode: Any = None, **kwargs: Any) -> str:
        """``learner`` for the learner (and opponents while no snapshot exists)."""
        if agent_id == LEARNER or not self.snapshots:
            return LEARNER
        key = f"{getattr(episode, 'id_', '')}/{agent_id}".encode()
        return self.snapshots[zlib.crc32(key) % len(self.snapshots)]


def module_ids(mode: str, num_players: int) -> list[str]:
    """The modules a fresh config of ``mode`` starts with."""
    if mode == "shared":
        return ["shared"]
    if mode == "per_seat":
        return [f"seat_{i}" for i in range(num_players)]
    return [LEARNER]


def module_spec(env_config: dict[str, Any], net_arch: Sequence[int] = (128, 128),
                activation: str = "tanh") -> RLModuleSpec:
    """The masked PPO module spec for a game (spaces taken from the env)."""
    env = FormosaRLlibEnv(env_config)
    agent = env.possible_agents[0]
    return RLModuleSpec(module_class=MaskedPPOTorchRLModule,
                        observation_space=env.observation_spaces[agent],
                        action_space=env.action_spaces[agent],
                        model_config={"fcnet_hiddens": list(net_arch),
                                      "fcnet_activation": activation,
                                      "vf_share_layers": False})


def build_ppo_config(game: str, num_players: int = 2, mode: str = "shared", *,
                     options: dict[str, Any] | None = None, runners: int = 0,
                     envs_per_runner: int = 4, learners: int = 0, seed: int = 0,
                     scripted: dict[str, float] | None = None,
                     net_arch: Sequence[int] = (128, 128), activation: str = "tanh",
                     training: dict[str, Any] | None = None) -> PPOConfig:
    """A PPO config for ``game`` in ``mode`` (module docstring).

    ``runners`` is the number of remote env runners (0: sample in the main
    process), ``learners`` of remote learners (0: learn in the main process);
    ``scripted`` the league's per-seat probabilities of scripted
    ``random``/``heuristic`` opponents; ``training`` extra keyword arguments
    of ``PPOConfig.training`` (``lr``, ``train_batch_size_per_learner``...).
    """
    if mode not in MODES:
        raise ConfigError(f"RLlib mode must be one of {MODES}, got {mode!r}")
    if runners < 0 or learners < 0 or envs_per_runner < 1:
        raise ConfigError(f"runners and learners must be >= 0 and envs_per_runner >= 1, got "
                          f"{runners}, {learners} and {envs_per_runner}")
    env_config = {"game": game, "num_players": num_players, "options": dict(options or {}),
                  "roles": "league" if mode == "league" else "seats", "seed": seed,
                  "scripted": dict(scripted or {}) if mode == "league" else {}}
    spec = module_spec(env_config, net_arch, activation)
    ids = module_ids(mode, num_players)
    mapping = LeagueMapping() if mode == "league" else SeatMapping(mode)
    return (PPOConfig()
            .environment(FormosaRLlibEnv, env_config=env_config, disable_env_checking=True)
            .framework("torch")
            .env_runners(num_env_runners=runners, num_envs_per_env_runner=envs_per_runner,
                         episodes_to_numpy=False, num_cpus_per_env_runner=1)
            .learners(num_learners=learners)
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={m: spec for m in ids}))
            .multi_agent(policies=set(ids), policy_mapping_fn=mapping,
                         policies_to_train=list(ids) if mode != "league" else [LEARNER])
            .training(**(training or {}))
            .debugging(seed=seed, log_level="ERROR"))


def snapshot_ids(algo: Any) -> list[str]:
    """The league's snapshot modules, oldest first."""
    ids = [m for m in algo.config.policies if m.startswith("snapshot_")]
    return sorted(ids, key=lambda m: int(m.rsplit("_", 1)[1]))


def add_snapshot(algo: Any, pool_size: int = 5, push: bool = True,
                 module_id: str | None = None) -> str:
    """Freeze the learner's current weights as a new ``snapshot_<n>`` module.

    Keeps the ``pool_size`` newest snapshots (older ones are removed) and, with
    ``push`` (always, outside tests), writes the weights to every env runner:
    ``Algorithm.add_module`` alone leaves a never-trained module at its random
    initial weights on the runners (ray issue 61960). ``module_id`` names the
    new module (resuming re-creates saved ids); default: the next number.
    """
    existing = snapshot_ids(algo)
    index = int(existing[-1].rsplit("_", 1)[1]) + 1 if existing else 1
    new_id = module_id or f"snapshot_{index}"
    if not new_id.startswith("snapshot_") or not new_id[9:].isdigit() or new_id in existing:
        raise ValueError(f"snapshot id must be a new snapshot_<n>, got {new_id!r}")
    keep = [*existing, new_id][-pool_size:]
    state = learner_state(algo, LEARNER)
    spec = algo.config.rl_module_spec.rl_module_specs[LEARNER]
    algo.add_module(new_id, spec, new_agent_to_module_mapping_fn=LeagueMapping(tuple(keep)),
                    new_should_module_be_updated=[LEARNER])
    _on_learners(algo, lambda learner: learner.module[new_id].set_state(state))
    if push:
        push_weights(algo, {new_id: state})
    for old in existing:
        if old not in keep:
            algo.remove_module(old, new_agent_to_module_mapping_fn=LeagueMapping(tuple(keep)),
                               new_should_module_be_updated=[LEARNER])
    return new_id


def learner_state(algo: Any, module_id: str) -> dict[str, Any]:
    """The numpy state of ``module_id`` as the (first) learner holds it."""
    return _on_learners(algo, lambda learner: learner.module[module_id].get_state())[0]


def _on_learners(algo: Any, func: Any) -> list[Any]:
    """``func(learner)`` on every learner; errors raised here, not swallowed."""
    return [call.get() for call in algo.learner_group.foreach_learner(func)]


def push_weights(algo: Any, states: dict[str, dict[str, Any]]) -> None:
    """Set module weights on every env runner (the local one included)."""
    def apply(runner: Any) -> None:
        for module_id, state in states.items():
            runner.module[module_id].set_state(state)
    algo.env_runner_group.foreach_env_runner(apply, local_env_runner=True)


def runner_states(algo: Any, module_id: str) -> list[dict[str, Any]]:
    """``module_id``'s weights on each remote env runner (or the local one if none)."""
    remote = algo.env_runner_group.num_remote_env_runners() > 0
    return algo.env_runner_group.foreach_env_runner(
        lambda runner: runner.module[module_id].get_state(), local_env_runner=not remote)


def start_ray(address: str | None = None, results_dir: str | None = None,
              temp_dir: str | None = None, num_cpus: int | None = None) -> Any:
    """Connect to the Ray cluster at ``address``, or start a local one.

    ``results_dir`` receives RLlib's per-algorithm result folders (default
    ``~/ray_results``); ``temp_dir`` a local instance's session logs (default
    Ray's, ``/tmp/ray``; keep it short: Ray puts sockets inside). A local
    instance runs without an auth-token file. Returns Ray's context; when Ray
    is already connected, returns ``None`` and changes nothing.
    """
    import os
    from pathlib import Path

    import ray
    if ray.is_initialized():
        return None
    if results_dir is not None:
        _redirect_results(Path(results_dir).resolve())
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "configure_logging": False}
    if address is None:
        os.environ.setdefault("RAY_AUTH_MODE", "disabled")
        kwargs.update(num_cpus=num_cpus, _temp_dir=temp_dir)
    return ray.init(address=address, **kwargs)


def _redirect_results(folder: Any) -> None:
    """Send RLlib's per-algorithm result folders to ``folder`` (default ``~/ray_results``)."""
    from ray.tune.trainable import trainable
    folder.mkdir(parents=True, exist_ok=True)
    trainable.DEFAULT_STORAGE_PATH = str(folder)
