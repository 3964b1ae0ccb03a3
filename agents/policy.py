"""A trained policy as a pure-numpy agent (no torch needed to play).

Training exports a MaskablePPO actor to ``.npz`` (see ``training/export.py``):
``w0, b0, w1, b1, ...`` for the hidden layers (applied as ``act(x @ w.T + b)``),
``w_out, b_out`` for the action logits, and ``activation`` (``tanh`` or
``relu``). :class:`PolicyAgent` runs that forward pass and always respects
the action mask: illegal actions get ``-inf`` logits.
"""

from __future__ import annotations

import os
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .base import Agent
from .specs import AgentSpecError

ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}


class PolicyFileError(AgentSpecError):
    """A policy file that cannot be played: a folder, no ``.npz``, missing or bad arrays."""


class PolicyNotFoundError(PolicyFileError, FileNotFoundError):
    """A policy path where there is no file (also a ``FileNotFoundError``)."""


class PolicyAgent(Agent):
    """Acts with an exported policy network: masked argmax, or masked sampling."""

    name = "policy"

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str = "tanh",
                 deterministic: bool = True, seed: int | None = None) -> None:
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; known: {sorted(ACTIVATIONS)}")
        self.layers = layers
        self.activation = activation
        self._act = ACTIVATIONS[activation]
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True,
             seed: int | None = None) -> PolicyAgent:
        """Load an exported ``.npz`` policy (cached per path and file version).

        Raises :class:`PolicyFileError` (an :class:`AgentSpecError`) naming the path and
        what is wrong: missing (also a ``FileNotFoundError``), a folder, unreadable, not
        an ``.npz`` archive, missing arrays, wrong shapes or an unknown activation.
        """
        file = Path(path)
        if file.is_dir():
            raise PolicyFileError(f"policy {file}: is a folder, not an exported .npz policy")
        try:
            stat = file.stat()
        except FileNotFoundError:
            raise PolicyNotFoundError(f"policy file not found: {file}") from None
        except OSError as exc:
            raise PolicyFileError(f"policy {file}: cannot be read ({exc.strerror})") from None
        if not os.access(file, os.R_OK):
            raise PolicyFileError(f"policy {file}: cannot be read (permission denied)")
        layers, activation = _load_npz(str(file), stat.st_mtime_ns, stat.st_size)
        agent = cls(layers, activation, deterministic, seed)
        agent.name = f"policy:{Path(path).stem}"
        return agent

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Raw action logits for one observation vector."""
        x = np.asarray(observation, dtype=np.float32)
        for w, b in self.layers[:-1]:
            x = self._act(x @ w.T + b)
        w, b = self.layers[-1]
        return x @ w.T + b

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """The best (or a sampled) legal action."""
        mask = np.asarray(observation["action_mask"]).astype(bool)
        if not mask.any():
            raise ValueError("PolicyAgent was asked to act with an all-zero action mask")
        logits = np.where(mask, self.logits(observation["observation"]), -np.inf)
        if self.deterministic:
            return int(np.argmax(logits))
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        return int(self.rng.choice(len(probs), p=probs))


@lru_cache(maxsize=32)
def _load_npz(path: str, mtime_ns: int, size: int
              ) -> tuple[list[tuple[np.ndarray, np.ndarray]], str]:
    """Arrays of one version of a policy file (the file's mtime and size key the cache)."""
    with _open_archive(Path(path)) as data:
        arrays = {key: data[key] for key in data.files}
    return _layers_of(arrays, path), _activation_of(arrays, path)


def _open_archive(file: Path) -> np.lib.npyio.NpzFile:
    """The file as an ``.npz`` archive (a zip of arrays, no pickled objects)."""
    prefix = f"{file} is not an exported formosa policy"
    if not zipfile.is_zipfile(file):
        raise PolicyFileError(f"{prefix}: not an .npz policy archive (python -m "
                              "training.export MODEL.zip OUT.npz writes one)")
    try:
        return np.load(file, allow_pickle=False)
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as exc:
        raise PolicyFileError(f"{prefix}: the .npz archive cannot be read ({exc})") from None


def _layers_of(arrays: dict[str, Any], path: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """``(w, b)`` per layer, input first; the shapes must chain ``w_i: (out, in)``."""
    prefix = f"{path} is not an exported formosa policy"
    hidden = sorted(int(k[1:]) for k in arrays if k.startswith("w") and k[1:].isdigit())
    names = [(f"w{i}", f"b{i}") for i in range(len(hidden))] + [("w_out", "b_out")]
    missing = [n for pair in names for n in pair if n not in arrays]
    if missing or hidden != list(range(len(hidden))):
        raise PolicyFileError(f"{prefix}: missing arrays {', '.join(missing) or 'w0..'} "
                              "(it needs w0, b0, w1, b1, ..., w_out, b_out and activation), "
                              f"has {', '.join(sorted(arrays)) or 'none'}")
    layers: list[tuple[np.ndarray, np.ndarray]] = []
    for w_name, b_name in names:
        w, b = arrays[w_name], arrays[b_name]
        problem = _layer_problem(w_name, w, b_name, b, layers[-1][0].shape[0] if layers else None)
        if problem:
            raise PolicyFileError(f"{prefix}: {problem}")
        layers.append((w, b))
    return layers


def _layer_problem(w_name: str, w: np.ndarray, b_name: str, b: np.ndarray,
                   width: int | None) -> str:
    """What is wrong with one ``(w, b)`` pair after a layer of ``width`` units ('' if fine)."""
    if not (np.issubdtype(w.dtype, np.floating) and np.issubdtype(b.dtype, np.floating)):
        return f"{w_name} and {b_name} must be float arrays, got {w.dtype} and {b.dtype}"
    if w.ndim != 2 or min(w.shape) < 1:
        return f"{w_name} must be a non-empty 2-D weight matrix (outputs, inputs), got " \
               f"shape {w.shape}"
    if b.shape != (w.shape[0],):
        return f"{b_name} has shape {b.shape}, but {w_name} {w.shape} needs ({w.shape[0]},)"
    if width is not None and w.shape[1] != width:
        return f"{w_name} has shape {w.shape}: it takes {w.shape[1]} inputs, but the layer " \
               f"before it has {width} units"
    if not (np.isfinite(w).all() and np.isfinite(b).all()):
        return f"{w_name} or {b_name} holds NaN or infinity"
    return ""


def _activation_of(arrays: dict[str, Any], path: str) -> str:
    prefix = f"{path} is not an exported formosa policy"
    value = arrays.get("activation")
    if value is None or value.shape != () or value.dtype.kind != "U" \
            or str(value) not in ACTIVATIONS:
        shown = "missing" if value is None else repr(value.tolist())
        raise PolicyFileError(f"{prefix}: activation must be one of "
                              f"{', '.join(sorted(ACTIVATIONS))}, got {shown}")
    return str(value)
