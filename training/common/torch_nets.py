"""The torch pieces the cloning and expert-iteration networks share: MLP towers, masked
logits, and the export of a policy tower and a value tower to the numpy network format
(:mod:`formosa_envs.training.common.network_export`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from formosa_envs.training.common.network_export import save_network_npz
from torch import nn


def mlp(inputs: int, hidden: list[int], outputs: int, activation: str) -> nn.Sequential:
    """Linear layers of widths ``hidden`` with ``activation`` between them."""
    act = nn.ReLU if activation == "relu" else nn.Tanh
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [nn.Linear(inputs, width), act()]
        inputs = width
    return nn.Sequential(*layers, nn.Linear(inputs, outputs))


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with illegal actions at the float minimum (no NaN, no probability)."""
    return logits.masked_fill(~mask, torch.finfo(logits.dtype).min)


def export(net: Any, activation: str, path: Path, kinds: Sequence[str] = ()) -> Path:
    """Write a network with ``policy`` and ``value`` towers (``nn.Sequential``) as a
    policy-with-value ``.npz``, playable as ``policy:`` and ``az:`` (with ``kinds``, the
    decision kinds it was trained at: as ``residual:`` only)."""
    def layers(seq: nn.Sequential) -> list[tuple[np.ndarray, np.ndarray]]:
        return [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
                for m in seq if isinstance(m, nn.Linear)]
    return save_network_npz(layers(net.policy), layers(net.value), activation, path, kinds)
