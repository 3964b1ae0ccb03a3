"""Write a policy network with an optional value head as one numpy ``.npz``.

The file is the actor format that ``formosa_envs.agents.policy.PolicyAgent`` plays (see
``training/ppo/export.py``): ``w0, b0, w1, b1, ..., w_out, b_out`` applied as
``act(x @ w.T + b)`` (no activation after ``w_out``: those are the action logits), and
``activation`` (``relu`` or ``tanh``). The value head, when present, is a second
network of the same layout with the prefix ``v``: ``vw0, vb0, ..., vw_out, vb_out``
(``vw_out`` has shape ``(1, hidden)``), the same activation between its layers, and
``value = tanh(output)``: the deciding seat's predicted final return
(``Game.returns``, in [-1, 1]). ``PolicyAgent``'s loader reads only ``w<digits>``,
``b<digits>``, ``w_out``, ``b_out`` and ``activation``, so it ignores the value arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from formosa_envs.tools.usage import make_folder

Layers = list[tuple[np.ndarray, np.ndarray]]
"""``(weight (out, in), bias (out,))`` per linear layer, input first."""


def network_arrays(policy: Layers, value: Layers | None, activation: str,
                   kinds: Sequence[str] = ()) -> dict[str, np.ndarray]:
    """The ``.npz`` arrays of a policy (and value) network, as float32, with ``kinds``
    (the decision kinds it was trained at) when it was trained at some kinds only."""
    arrays: dict[str, np.ndarray] = {"activation": np.array(activation)}
    if kinds:
        arrays["kinds"] = np.array(list(kinds), dtype=str)
    for prefix, layers in (("", policy), ("v", value or [])):
        for i, (w, b) in enumerate(layers):
            tag = "_out" if i == len(layers) - 1 else str(i)
            arrays[f"{prefix}w{tag}"] = np.asarray(w, np.float32)
            arrays[f"{prefix}b{tag}"] = np.asarray(b, np.float32)
    return arrays


def save_network_npz(policy: Layers, value: Layers | None, activation: str,
                     path: str | Path, kinds: Sequence[str] = ()) -> Path:
    """Write the network to ``path`` atomically (a reader never sees half a file)."""
    if value is not None and value[-1][0].shape[0] != 1:
        raise ValueError(f"the value head's last layer must have 1 output, got "
                         f"{value[-1][0].shape[0]}")
    path = Path(path)
    make_folder(path.parent, "the output folder")  # only the last folder is made
    tmp = path.with_name(f".{path.stem}.tmp.npz")
    np.savez(tmp, **network_arrays(policy, value, activation, kinds))
    tmp.replace(path)
    return path


def forward(layers: Layers, activation: str, x: np.ndarray) -> np.ndarray:
    """The network's output for ``x`` (one vector or a batch), numpy only."""
    act = np.tanh if activation == "tanh" else (lambda v: np.maximum(v, 0.0))
    for w, b in layers[:-1]:
        x = act(x @ w.T + b)
    w, b = layers[-1]
    return x @ w.T + b


def load_value_layers(path: str | Path) -> Layers:
    """The value head ``vw0, vb0, ..., vw_out, vb_out`` of an exported ``.npz`` ([] if none).

    The file is read as ``formosa_envs.agents.network.Network.load`` reads it (a regular file within
    the size cap, else a ``PolicyFileError`` naming it).
    """
    from formosa_envs.agents.policy import read_archive
    arrays = read_archive(Path(path), "network")
    count = sum(1 for k in arrays if k.startswith("vw") and k[2:].isdigit())
    if "vw_out" not in arrays:
        return []
    names = [f"v{{}}{i}" for i in range(count)] + ["v{}_out"]
    return [(arrays[n.format("w")], arrays[n.format("b")]) for n in names]
