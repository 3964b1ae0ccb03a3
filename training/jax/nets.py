"""The networks of the jitted PPO (:mod:`formosa_envs.training.jax.ppo`), in the export format.

An actor MLP (action logits, illegal actions masked) and a separate value MLP whose
``tanh`` is the predicted final return, weights ``(out, in)`` applied as
``act(x @ w.T + b)``: the layout of :mod:`formosa_envs.training.common.network_export`, so
:func:`export_params` writes a file that ``policy:``, ``az:`` and ``formosa tournament``
play in pure numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

Layers = list[tuple[jax.Array, jax.Array]]
NEG = -1e9
"""The logit of an illegal action."""


def init_layers(key: jax.Array, sizes: list[int]) -> Layers:
    """An MLP's layers, orthogonal-style scaled normal weights, zero biases."""
    layers = []
    for i, (fan_in, fan_out) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
        key, sub = jax.random.split(key)
        scale = (0.01 if i == len(sizes) - 2 else 1.0) * np.sqrt(2.0 / fan_in)
        layers.append((jax.random.normal(sub, (fan_out, fan_in)) * scale, jnp.zeros(fan_out)))
    return layers


def forward(layers: Layers, x: jax.Array, activation: str) -> jax.Array:
    """The MLP's output (no activation after the last layer)."""
    act = jnp.tanh if activation == "tanh" else jax.nn.relu
    for w, b in layers[:-1]:
        x = act(x @ w.T + b)
    w, b = layers[-1]
    return x @ w.T + b


def masked_logits(params: dict[str, Layers], obs: jax.Array, mask: jax.Array,
                  activation: str) -> jax.Array:
    """Action logits with the illegal actions at -1e9."""
    return jnp.where(mask, forward(params["actor"], obs, activation), NEG)


def value_of(params: dict[str, Layers], obs: jax.Array, activation: str) -> jax.Array:
    """The predicted final return, ``tanh`` of the value MLP (the export's convention)."""
    return jnp.tanh(forward(params["critic"], obs, activation)[..., 0])


def init_params(key: jax.Array, observation_size: int, num_actions: int,
                hidden: tuple[int, ...]) -> dict[str, Layers]:
    """Fresh actor and critic parameters."""
    k1, k2 = jax.random.split(key)
    hidden = list(hidden)
    return {"actor": init_layers(k1, [observation_size, *hidden, num_actions]),
            "critic": init_layers(k2, [observation_size, *hidden, 1])}


def export_params(params: dict[str, Layers], activation: str, path: Any,
                  kinds: Sequence[str] = ()) -> Any:
    """Write ``params`` as a numpy ``.npz`` network
    (:mod:`formosa_envs.training.common.network_export`; with ``kinds``, the decision
    kinds it learned at: it then plays as ``residual:`` only)."""
    from formosa_envs.training.common.network_export import save_network_npz

    def numpy_layers(layers: Layers) -> list[tuple[np.ndarray, np.ndarray]]:
        return [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
    return save_network_npz(numpy_layers(params["actor"]), numpy_layers(params["critic"]),
                            activation, path, kinds)
