"""Ray RLlib support: a multi-agent env, a masked PPO module, and a policy loader.

Needs the ``[rllib]`` extra (ray, torch); nothing else in ``formosa_envs``
imports this module. Pieces:

* :class:`FormosaRLlibEnv` — an RLlib ``MultiAgentEnv`` over the generic AEC
  adapter (:class:`~formosa_envs.envs.aec.FormosaAECEnv`), for any game and
  player count. Agent ids are seats (``player_0``...) or, for league training,
  roles (``learner``, ``opponent_1``...; the learner's seat rotates per
  episode). Seats given to scripted agents (``random``, ``heuristic``) are
  played *inside* the env, where the engine state is at hand.
* :class:`MaskedPPOTorchRLModule` — RLlib's default PPO module reading the
  ``{"observation", "action_mask"}`` dict: illegal actions get the lowest
  float logit, so neither sampling nor greedy play can pick them.
* :func:`load_rllib_agent` — an RLlib checkpoint (or one module folder of it)
  as a numpy :class:`~formosa_envs.agents.policy.PolicyAgent` for ``formosa tournament``
  and ``formosa play`` (agent spec ``rllib:PATH[@MODULE]``, which importing this
  module registers in the agent-spec registry of :mod:`formosa_envs.agents.specs`).

Config building and league snapshots live in :mod:`formosa_envs.envs.rllib_config`.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
    DefaultPPOTorchRLModule,
)
from ray.rllib.core.columns import Columns
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from formosa_envs.agents import AgentSpecError, make_agent, register_agent_kind, split_module
from formosa_envs.agents.files import AgentFileNotFoundError
from formosa_envs.core.engine import TERMINAL
from formosa_envs.core.errors import ConfigError

from .aec import FormosaAECEnv

SCRIPTED_KINDS = ("random", "heuristic")
LEARNER = "learner"
RECORDS_KEPT = 64


class FormosaRLlibEnv(MultiAgentEnv):
    """Any formosa game as an RLlib multi-agent env (see the module docstring).

    ``config`` keys: ``game`` (required), ``num_players``, ``options`` (game
    options), ``reward_mode`` (as the AEC env), ``roles`` (``"seats"`` or
    ``"league"``), ``scripted`` (league only: probability per opponent seat of
    each scripted kind, e.g. ``{"random": 0.35, "heuristic": 0.35}``),
    ``shaping`` (weight of potential-based shaping, as the single-agent view:
    each agent earns ``w * (potential now - potential at its previous
    decision)``, and ``-w * potential`` at the end, so the best policy is
    unchanged) and ``seed`` (used when RLlib resets without one).
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        cfg = dict(config or {})
        if "game" not in cfg:
            raise ConfigError("FormosaRLlibEnv needs env_config['game']")
        self.roles = cfg.get("roles", "seats")
        if self.roles not in ("seats", "league"):
            raise ConfigError(f"roles must be 'seats' or 'league', got {self.roles!r}")
        self.scripted = _check_scripted(cfg.get("scripted", {}), self.roles)
        self.shaping = float(cfg.get("shaping", 0.0))
        if self.shaping < 0:
            raise ConfigError(f"shaping must be >= 0, got {self.shaping}")
        self._potential: dict[str, float] = {}
        self.aec = FormosaAECEnv(cfg["game"], reward_mode=cfg.get("reward_mode", "rank"),
                                 num_players=cfg.get("num_players", 2),
                                 **cfg.get("options", {}))
        self.game = self.aec.game
        self.num_players = self.game.num_players
        self._base_seed = int(cfg.get("seed", 0)) + 7919 * int(getattr(config, "worker_index", 0))
        self._rng = np.random.default_rng(self._base_seed)
        self.possible_agents = _agent_ids(self.roles, self.num_players)
        self.agents = list(self.possible_agents)
        space = self.aec.observation_space(self.aec.possible_agents[0])
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: self.aec.action_space(self.aec.possible_agents[0])
                              for a in self.possible_agents}
        self.seat_agent: list[str | None] = []
        self.scripted_seats: dict[int, Any] = {}
        self.record: list[tuple[str, int]] = []
        self.records: deque[dict[str, Any]] = deque(maxlen=RECORDS_KEPT)  # for inspection
        self.totals = _zero_totals()  # every finished game, for training statistics
        self.episodes_started = 0

    # ----- episode --------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a game; seat the roles; play scripted seats up to the first exposed one."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(2**63))
        self.aec.reset(seed=game_seed)
        self._assign_seats()
        self.record = []
        self.episodes_started += 1
        self._potential = {}
        self._play_scripted()
        agent = self._exposed_agent()
        self._shaped(agent, 0.0)
        return {agent: self.aec.observe(self.aec.agent_selection)}, {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Apply the acting agent's action, then scripted seats, until an exposed one acts."""
        agent = self._exposed_agent()
        if agent not in action_dict:
            raise ValueError(f"step() expects an action for {agent!r} (the agent to act), "
                             f"got actions for {sorted(action_dict)}")
        action = int(action_dict[agent])
        self.aec.step(action)
        self.record.append((agent, action))
        self._play_scripted()
        if self._finished():
            return self._final_step()
        nxt = self._exposed_agent()
        reward = float(self.aec._cumulative_rewards[self.aec.agent_selection])
        rewards = {nxt: self._shaped(nxt, reward)}
        return ({nxt: self.aec.observe(self.aec.agent_selection)}, rewards,
                {"__all__": False}, {"__all__": False}, {})

    def _shaped(self, agent: str, reward: float, final: bool = False) -> float:
        """``reward`` plus the shaping term of ``agent`` since its previous decision."""
        if not self.shaping:
            return reward
        seat = self.seat_agent.index(agent)
        now = 0.0 if final else self.game.potential(self.aec._state, seat)
        before = self._potential.get(agent)
        self._potential[agent] = now
        return reward if before is None else reward + self.shaping * (now - before)

    def _assign_seats(self) -> None:
        """Which agent id (or scripted agent) plays each seat this episode."""
        n = self.num_players
        self.scripted_seats = {}
        if self.roles == "seats":
            self.seat_agent = list(self.possible_agents)
            return
        learner_seat = self.episodes_started % n
        order = [(learner_seat + k) % n for k in range(n)]
        self.seat_agent = [None] * n
        self.seat_agent[learner_seat] = LEARNER
        for k, seat in enumerate(order[1:], start=1):
            kind = self._draw_scripted()
            if kind is None:
                self.seat_agent[seat] = f"opponent_{k}"
            else:
                self.scripted_seats[seat] = make_agent(kind, self.aec.game_name,
                                                       int(self._rng.integers(2**31)))

    def _draw_scripted(self) -> str | None:
        roll = float(self._rng.random())
        for kind in SCRIPTED_KINDS:
            roll -= self.scripted.get(kind, 0.0)
            if roll < 0:
                return kind
        return None

    def _play_scripted(self) -> None:
        """Let scripted seats act until an exposed seat decides or the game ends."""
        while not self._finished():
            seat = self.game.current_player(self.aec._state)
            agent = self.scripted_seats.get(seat)
            if agent is None:
                return
            action = agent.act_on_state(self.game, self.aec._state)
            self.aec.step(action)
            self.record.append((f"scripted_{seat}", int(action)))

    def _finished(self) -> bool:
        aec = self.aec
        return (self.game.current_player(aec._state) == TERMINAL
                or any(aec.truncations.values()))

    def _exposed_agent(self) -> str:
        seat = self.aec._seat_of[self.aec.agent_selection]
        agent = self.seat_agent[seat]
        if agent is None:  # pragma: no cover - _play_scripted guarantees an exposed seat
            raise RuntimeError(f"seat {seat} is scripted but was asked to act")
        return agent

    def _final_step(self) -> tuple[dict, dict, dict, dict, dict]:
        """Final observations, rewards and scores of every exposed agent."""
        aec = self.aec
        truncated = any(aec.truncations.values())
        scores = [float(s) for s in self.game.scores(aec._state)]
        obs, rewards, infos = {}, {}, {}
        for seat, agent in enumerate(self.seat_agent):
            if agent is None:
                continue
            name = aec.possible_agents[seat]
            obs[agent] = aec.observe(name)
            rewards[agent] = self._shaped(agent, 0.0 if truncated else float(aec.rewards[name]),
                                          final=not truncated)
            infos[agent] = {**aec.infos.get(name, {}), "seat": seat, "scores": scores,
                            "episode": self.episodes_started}
        tracked = self.seat_agent.index(LEARNER) if self.roles == "league" else 0
        self.totals["episodes"] += 1
        self.totals["reward"] += float(aec.rewards[aec.possible_agents[tracked]])
        self.totals["decisions"] += int(aec._state.decisions)
        self.records.append({"episode": self.episodes_started, "moves": list(self.record),
                             "seat_agent": list(self.seat_agent), "scores": scores,
                             "rewards": [float(aec.rewards[a]) for a in aec.possible_agents],
                             "decisions": int(aec._state.decisions), "truncated": truncated})
        done = {a: not truncated for a in obs} | {"__all__": not truncated}
        cut = {a: truncated for a in obs} | {"__all__": truncated}
        return obs, rewards, done, cut, infos


    def drain_totals(self) -> dict[str, float]:
        """Games finished since the last call, with the summed final reward of the
        learner (seat 0 outside league mode) and summed decisions; then reset."""
        totals, self.totals = self.totals, _zero_totals()
        return totals

    def drain_records(self) -> list[dict[str, Any]]:
        """The finished games' records kept so far (moves, seats, scores), then forget them."""
        records = list(self.records)
        self.records.clear()
        return records


def _zero_totals() -> dict[str, float]:
    return {"episodes": 0, "reward": 0.0, "decisions": 0}


def _agent_ids(roles: str, num_players: int) -> list[str]:
    if roles == "seats":
        return [f"player_{i}" for i in range(num_players)]
    return [LEARNER, *(f"opponent_{k}" for k in range(1, num_players))]


def _check_scripted(scripted: dict[str, float], roles: str) -> dict[str, float]:
    unknown = sorted(set(scripted) - set(SCRIPTED_KINDS))
    if unknown:
        raise ConfigError(f"scripted opponents must be among {SCRIPTED_KINDS}, got {unknown}")
    values = {k: float(v) for k, v in scripted.items()}
    if any(v < 0 for v in values.values()) or sum(values.values()) > 1 + 1e-9:
        raise ConfigError(f"scripted probabilities must be >= 0 and sum to at most 1, "
                          f"got {values}")
    if values and roles != "league":
        raise ConfigError("scripted opponents need roles='league'")
    return values


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO torch module over ``{"observation", "action_mask"}``.

    The encoder, policy and value heads see the 1-D ``observation`` only; the
    mask sets the logits of illegal actions to the lowest float before any
    action distribution is built (sampling, greedy play and the PPO loss).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        space = kwargs.get("observation_space")
        if not isinstance(space, gym.spaces.Dict) or set(space.spaces) != {
                "observation", "action_mask"}:
            raise ValueError("MaskedPPOTorchRLModule needs a Dict observation space with the "
                             f"keys 'observation' and 'action_mask', got {space}")
        kwargs["observation_space"] = space["observation"]
        super().__init__(*args, **kwargs)
        self.observation_space = space

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = _split_batch(batch)
        return _mask_logits(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = _split_batch(batch)
        return _mask_logits(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        """State values from the observation part of the batch."""
        inner, _ = _split_batch(batch)
        return super().compute_values(inner, embeddings)


def _split_batch(batch: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """A shallow copy of ``batch`` whose observations are the vector, and the mask."""
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict):  # already split (e.g. values after a train forward)
        return batch, None
    inner = dict(batch)
    inner[Columns.OBS] = obs["observation"]
    return inner, obs["action_mask"]


def _mask_logits(output: dict[str, Any], mask: Any) -> dict[str, Any]:
    import torch
    if mask is None:
        return output
    logits = output[Columns.ACTION_DIST_INPUTS]
    lowest = torch.finfo(logits.dtype).min
    output[Columns.ACTION_DIST_INPUTS] = torch.where(mask > 0, logits,
                                                     torch.full_like(logits, lowest))
    return output


def module_layers(state: dict[str, Any]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The actor's ``(weight, bias)`` pairs from a PPO module state, input layer first.

    The default PPO module stores the actor MLP under ``encoder.actor_encoder``
    (or ``encoder.encoder`` when layers are shared) and the logits under ``pi``.
    """
    def linear(prefix: str) -> list[tuple[np.ndarray, np.ndarray]]:
        keys = sorted((k for k in state if k.startswith(prefix) and k.endswith(".weight")),
                      key=_layer_index)
        return [(np.asarray(state[k], np.float32),
                 np.asarray(state[k[:-len("weight")] + "bias"], np.float32)) for k in keys]
    body = linear("encoder.actor_encoder.") or linear("encoder.encoder.")
    head = linear("pi.")
    if not head:
        raise ValueError(f"not a PPO module state (no 'pi.' layers); keys: {sorted(state)[:8]}")
    return body + head


def _layer_index(key: str) -> tuple[int, ...]:
    return tuple(int(p) for p in key.split(".") if p.isdigit())


def load_rllib_agent(path: str | Path, module_id: str | None = None,
                     deterministic: bool = True, seed: int | None = None) -> Any:
    """An RLlib checkpoint's module as a numpy :class:`~formosa_envs.agents.policy.PolicyAgent`.

    ``path`` is an algorithm checkpoint folder (``module_id`` picks the module;
    default: ``learner``, else ``shared``, else the only one) or one module's
    folder. Raises ``FileNotFoundError`` / ``ValueError`` naming what is wrong.
    The actor is read once per module folder version (tournaments build an
    agent per game).

    Before Ray reads it, the module folder must hold only folders and regular files
    within the cap (:func:`formosa_envs.agents.files.checked_agent_folder`; a FIFO or device is an
    ``AgentFileError``). Ray unpickles ``class_and_ctor_args.pkl``: trusted files only.
    """
    from formosa_envs.agents.files import checked_agent_folder, checked_folder
    from formosa_envs.agents.policy import PolicyAgent
    folder = find_module_folder(checked_folder(path, "RLlib checkpoint"), module_id)
    checked_agent_folder(folder, "RLlib checkpoint")
    state_file = next(folder.glob("module_state.*"), None)
    if state_file is None:
        raise ValueError(f"{folder} has no module_state file: an incomplete RLlib checkpoint?")
    layers, activation = _actor_from_checkpoint(str(folder), state_file.stat().st_mtime_ns)
    agent = PolicyAgent(layers, activation, deterministic, seed)
    agent.name = f"rllib:{folder.name}"
    return agent


@lru_cache(maxsize=16)
def _actor_from_checkpoint(folder: str, mtime_ns: int
                           ) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    import logging

    from ray.rllib.core.rl_module.rl_module import RLModule
    rl_logger = logging.getLogger("ray.rllib")
    level = rl_logger.level
    rl_logger.setLevel(logging.ERROR)  # from_checkpoint warns about its own old API use
    try:
        module = RLModule.from_checkpoint(folder)
    finally:
        rl_logger.setLevel(level)
    config = module.model_config
    get = config.get if isinstance(config, dict) else lambda k, d=None: getattr(config, k, d)
    activation = get("fcnet_activation", "tanh")
    if get("head_fcnet_hiddens", []) and get("head_fcnet_activation") != activation:
        raise ValueError(f"{folder}: the policy head's activation differs from the encoder's; "
                         "only one activation per actor can be exported")
    if activation not in ("tanh", "relu"):
        raise ValueError(f"{folder}: activation {activation!r} is not supported (tanh, relu)")
    return module_layers(module.get_state()), activation


def find_module_folder(path: Path, module_id: str | None = None) -> Path:
    """The folder of one RLModule inside an RLlib checkpoint (see :func:`load_rllib_agent`)."""
    if not path.exists():
        raise FileNotFoundError(f"RLlib checkpoint not found: {path}")
    if (path / "module_state.pt").exists() or (path / "module_state.pkl").exists():
        return path
    root = path / "learner_group" / "learner" / "rl_module"
    if not root.is_dir():
        raise ValueError(f"{path} is not an RLlib algorithm checkpoint (no {root})")
    found = sorted(p.name for p in root.iterdir() if p.is_dir())
    if module_id is None:
        preferred = [m for m in (LEARNER, "shared") if m in found]
        module_id = preferred[0] if preferred else (found[0] if len(found) == 1 else None)
    if module_id not in found:
        raise ValueError(f"{path}: choose a module with rllib:PATH@MODULE; modules: {found}")
    return root / module_id


def _agent_from_spec(spec: str, arg: str, game: str, seed: int | None) -> Any:
    """The ``rllib:PATH[@MODULE]`` agent spec (see :func:`load_rllib_agent`)."""
    path, module = split_module(arg)
    if not path:
        raise AgentSpecError(f"agent spec {spec!r} needs a checkpoint: rllib:PATH[@MODULE]")
    try:
        return load_rllib_agent(path, module or None, seed=seed)
    except ValueError as exc:  # a missing path stays a FileNotFoundError too
        kind = AgentFileNotFoundError if isinstance(exc, FileNotFoundError) else AgentSpecError
        raise kind(f"agent spec {spec!r}: {exc}") from None


register_agent_kind("rllib", _agent_from_spec, "rllib:PATH[@MODULE]")
