"""Warm start of MaskablePPO from a cloned network (imitation, then reinforcement).

A run with ``clone_games > 0`` (and no ``init``) first plays that many heuristic games
in worker processes (:mod:`formosa_envs.training.imitation.data`) and clones them
(:mod:`formosa_envs.training.imitation.bc`:
optimisation settings from ``training/configs/<game>_bc.toml``, layer sizes and
activation from the run's ``net_arch`` and ``activation``, as many torch threads as the
run's ``workers``: oversubscribed torch threads slow cloning down many times), inside the
run folder::

    clone/data/      the teacher's decisions (reused when the run is resumed)
    clone/bc/        the cloning run; clone/bc/best.npz is the warm start

The PPO policy then starts from that network (or from ``init``, any exported network
with the same layer sizes): the actor's layers and action head are copied, and the value
head too when the file has one (its output is the pre-``tanh`` value, which PPO's linear
value head reads as is). For the first ``value_warmup`` timesteps the actor is frozen and
only the critic learns, so the first policy updates use a critic fitted to the cloned
policy instead of a random one (the guard against forgetting the warm start that the
small learning rate and clip range then keep).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from formosa_envs.training.ppo.config import TrainConfig
from stable_baselines3.common.callbacks import BaseCallback

from formosa_envs.core.errors import ConfigError

INIT_NAME = "clone/bc/best.npz"
"""Where the clone stage leaves the warm-start network, relative to the run folder."""


def clone_stage(config: TrainConfig, run_dir: Path, show_progress: bool = True,
                log: Any = print) -> Path:
    """Generate and clone ``config.clone_games`` heuristic games (skipping what a resumed
    run already has); return the cloned network's path."""
    from formosa_envs.training.imitation.bc import CHECKPOINT, train_bc
    from formosa_envs.training.imitation.config import default_config_path, load_bc_config
    from formosa_envs.training.imitation.data import DataSettings, generate
    best = run_dir / INIT_NAME
    if best.is_file():
        log(f"warm start: reusing {best}")
        return best
    bc_config = load_bc_config(default_config_path(config.game), seed=config.seed,
                               hidden=list(config.net_arch), value_hidden=list(config.net_arch),
                               activation=config.activation, threads=config.workers)
    data = run_dir / "clone" / "data"
    data.parent.mkdir(exist_ok=True)  # the run's own layout (output paths make one level)
    if not (data / "manifest.json").is_file():
        settings = DataSettings(game=config.game, games=config.clone_games,
                                num_players=config.num_players, seed=config.seed)
        log(f"warm start: {config.clone_games:,} heuristic games -> {data}")
        generate(settings, data, workers=config.workers, show_progress=show_progress)
    bc_dir = run_dir / "clone" / "bc"
    report = train_bc(data, bc_dir, bc_config, resume=(bc_dir / CHECKPOINT).is_file(),
                      log=log)
    log(f"warm start: cloned network {best} (held-out agreement "
        f"{report.get('best', {}).get('agreement', float('nan')):.1%})")
    return best


def check_init(path: str | Path) -> Any:
    """The network at ``path``; :class:`ConfigError` naming the file when it is none."""
    from formosa_envs.agents.network import Network
    from formosa_envs.agents.policy import PolicyFileError
    try:
        return Network.load(path)
    except PolicyFileError as exc:
        raise ConfigError(f"warm start: {exc}") from None


def load_init(model: Any, path: str | Path) -> dict[str, bool]:
    """Copy an exported network's actor (and value head, when present) into ``model``.

    Raises :class:`ConfigError` naming the file and the first layer whose shape differs
    from the PPO policy's. Returns which parts were copied.
    """
    network = check_init(path)
    policy = model.policy
    actor = _linears(policy.mlp_extractor.policy_net) + [policy.action_net]
    critic = _linears(policy.mlp_extractor.value_net) + [policy.value_net]
    _check_activation(policy.mlp_extractor.policy_net, network.activation, path)
    pairs = list(zip(actor, network.layers, strict=False))
    _check_layers("actor", actor, network.layers, path)
    if network.value_layers is not None:
        _check_layers("value head", critic, network.value_layers, path)
        pairs += list(zip(critic, network.value_layers, strict=True))
    with torch.no_grad():
        for linear, (w, b) in pairs:
            linear.weight.copy_(torch.as_tensor(np.asarray(w, np.float32)))
            linear.bias.copy_(torch.as_tensor(np.asarray(b, np.float32)))
    return {"actor": True, "value": network.value_layers is not None}


def _linears(sequential: torch.nn.Module) -> list[torch.nn.Linear]:
    return [m for m in sequential if isinstance(m, torch.nn.Linear)]


def _check_activation(sequential: torch.nn.Module, activation: str, path: Any) -> None:
    names = {type(m).__name__.lower() for m in sequential if not isinstance(m, torch.nn.Linear)}
    if names and names != {activation}:
        raise ConfigError(f"warm start: {path} uses {activation}, but the PPO policy uses "
                          f"{', '.join(sorted(names))}; set activation = \"{activation}\"")


def _check_layers(part: str, linears: list[torch.nn.Linear], layers: list[Any],
                  path: Any) -> None:
    """Same number of layers and the same (out, in) shape for each."""
    ours = [tuple(m.weight.shape) for m in linears]
    theirs = [tuple(np.shape(w)) for w, _ in layers]
    if ours != theirs:
        raise ConfigError(f"warm start: the {part} of {path} has layer shapes {theirs}, but "
                          f"the PPO policy's are {ours} (net_arch and the game's observation "
                          "and action sizes must match the file)")


def actor_parameters(model: Any) -> list[torch.nn.Parameter]:
    """The parameters of the actor (policy MLP and action head), not the critic's."""
    policy = model.policy
    return [*policy.mlp_extractor.policy_net.parameters(), *policy.action_net.parameters()]


class ValueWarmup(BaseCallback):
    """Freeze the actor for the updates that start before ``timesteps`` learner steps."""

    def __init__(self, timesteps: int) -> None:
        super().__init__()
        self.timesteps = timesteps
        self.frozen = False

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        """Called just before each PPO update: set the actor trainable or not."""
        frozen = self.num_timesteps <= self.timesteps
        if frozen != self.frozen:
            for p in actor_parameters(self.model):
                p.requires_grad_(not frozen)
            self.frozen = frozen

    def _on_training_end(self) -> None:
        for p in actor_parameters(self.model):
            p.requires_grad_(True)
        self.frozen = False
