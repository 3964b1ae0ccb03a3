"""Export a MaskablePPO actor to a numpy ``.npz`` that ``formosa_envs.agents.PolicyAgent`` plays.

Only the actor is exported: the policy MLP (``mlp_extractor.policy_net``) and
the action head. The observation goes in flat (our observations are 1-D
vectors), so no feature extractor weights are needed.
"""

from __future__ import annotations

import io
import pickle
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import torch

from formosa_envs.core.errors import ConfigError
from formosa_envs.tools.console import OneLineParser, run_console
from formosa_envs.tools.usage import UsageError, check_input_file, check_output_file, make_folder

CHECKPOINT_ERRORS = (ValueError, KeyError, AssertionError, EOFError, OSError,
                     zipfile.BadZipFile, pickle.UnpicklingError, RuntimeError)
"""What stable-baselines3 raises for a file that is not a loadable checkpoint."""


def actor_layers(model: Any) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    """The actor's linear layers as numpy ``(weight, bias)`` pairs and the activation name."""
    policy = model.policy
    hidden = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    acts = {type(m).__name__ for m in policy.mlp_extractor.policy_net
            if not isinstance(m, torch.nn.Linear)}
    names = {"Tanh": "tanh", "ReLU": "relu"}
    if len(acts) > 1 or not acts <= set(names):
        raise ConfigError(f"cannot export activations {sorted(acts)}; use tanh or relu")
    activation = names[acts.pop()] if acts else "tanh"
    layers = [_numpy(m) for m in hidden] + [_numpy(policy.action_net)]
    return layers, activation


def export_policy(model: Any, path: str | Path) -> Path:
    """Write the actor of ``model`` to ``path`` (.npz) and return the path."""
    layers, activation = actor_layers(model)
    return save_policy_npz(layers, activation, path)


def critic_layers(model: Any) -> list[tuple[np.ndarray, np.ndarray]]:
    """The critic's linear layers (value MLP and value head) as numpy pairs."""
    policy = model.policy
    hidden = [m for m in policy.mlp_extractor.value_net if isinstance(m, torch.nn.Linear)]
    return [_numpy(m) for m in hidden] + [_numpy(policy.value_net)]


def export_network(model: Any, path: str | Path) -> Path:
    """Write the actor and the critic of ``model`` as one network ``.npz``
    (:mod:`formosa_envs.training.common.network_export`: the critic is the value head, read through
    ``tanh`` by ``formosa_envs.agents.network.Network``), playable as ``policy:`` and ``az:``."""
    from formosa_envs.training.common.network_export import save_network_npz
    layers, activation = actor_layers(model)
    return save_network_npz(layers, critic_layers(model), activation, path)


def save_policy_npz(layers: list[tuple[np.ndarray, np.ndarray]], activation: str,
                    path: str | Path) -> Path:
    """Write ``(weight, bias)`` layers (input first) as a ``PolicyAgent`` ``.npz``."""
    arrays: dict[str, np.ndarray] = {}
    for i, (w, b) in enumerate(layers[:-1]):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    arrays["w_out"], arrays["b_out"] = layers[-1]
    path = Path(path)
    make_folder(path.parent, "the output folder")  # only the last folder is made
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez(tmp, activation=np.array(activation), **arrays)
    tmp.replace(path)  # atomic: env workers never read a half-written snapshot
    return path


def _numpy(layer: torch.nn.Linear) -> tuple[np.ndarray, np.ndarray]:
    return (layer.weight.detach().cpu().numpy().astype(np.float32),
            layer.bias.detach().cpu().numpy().astype(np.float32))


def load_checkpoint(path: str | Path, **kwargs: Any) -> Any:
    """A saved MaskablePPO; :class:`ConfigError` naming the file when it is not one.

    The file is read once into memory through ``formosa_envs.agents.files.read_agent_file``: a path
    that is not a regular file (a FIFO, a device, a folder) or is larger than the cap on
    agent files is refused before it is opened.
    """
    from formosa_envs.agents.files import AgentFileError, read_agent_file
    from sb3_contrib import MaskablePPO
    try:
        data = read_agent_file(path, "checkpoint")
    except AgentFileError as exc:
        raise ConfigError(str(exc)) from None
    try:
        return MaskablePPO.load(io.BytesIO(data), device="cpu", **kwargs)
    except CHECKPOINT_ERRORS as exc:
        raise ConfigError(f"{path} is not a MaskablePPO checkpoint that can be loaded here "
                          f"({type(exc).__name__}: {exc})") from None


def main(argv: list[str] | None = None) -> int:
    """``python -m formosa_envs.training.ppo.export MODEL.zip OUT.npz``: export a saved MaskablePPO
    actor.

    Bad arguments exit with status 2 (one line); an unusable checkpoint or destination
    raises a :class:`FormosaError` (:func:`cli` prints it as one line), checked before
    anything is written.
    """
    parser = OneLineParser(prog="python -m formosa_envs.training.ppo.export",
                           description="Export a MaskablePPO checkpoint for "
                                       "formosa_envs.agents.PolicyAgent (policy:OUT.npz).")
    parser.add_argument("model", help="a MaskablePPO .zip (e.g. runs/flowers/model.zip)")
    parser.add_argument("out", help="the .npz to write")
    args = parser.parse_args(argv)
    check_input_file(args.model, "MODEL")
    check_output_file(args.out, "OUT")
    if Path(args.out).suffix != ".npz":
        raise UsageError(f"OUT {args.out}: the policy file must end in .npz "
                         "(agents load it as policy:PATH.npz)")
    path = export_policy(load_checkpoint(args.model), args.out)
    print(f"wrote {path}; use it as the agent spec policy:{path}")
    return 0


def cli(argv: list[str] | None = None) -> int:
    """``python -m formosa_envs.training.ppo.export``: :func:`main`, bad input as one line and
    status 2."""
    return run_console("python -m formosa_envs.training.ppo.export", main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())
