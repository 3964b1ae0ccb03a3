"""An exported policy network with an optional value head, run in pure numpy.

The file format is the actor format of :mod:`formosa_envs.agents.policy` (``w0, b0, ..., w_out,
b_out``, each hidden layer applied as ``act(x @ w.T + b)``, and ``activation``) plus
an optional **value head** with the prefix ``v``: ``vw0, vb0, ..., vw_out, vb_out``,
a separate MLP on the same observation with the same activation, whose last layer
``vw_out`` has shape ``(1, hidden)``. The value ``tanh(output)`` is the observing
seat's predicted final rank return (``Game.returns``) in [-1, 1]. A network without a
value head is still valid (:attr:`Network.has_value` is False): a search then values
its leaves another way (see :mod:`formosa_envs.agents.az`).

Both heads take batches: ``logits(x)`` and ``values(x)`` accept one observation
vector or a matrix of them (one row per seat), so one call values every seat.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from formosa_envs.core.errors import ArgumentError

from .policy import (
    ACTIVATIONS,
    LayerFit,
    PolicyFileError,
    _activation_of,
    _layer_problem,
    _layers_of,
    archive_arrays,
    kinds_of,
    read_archive,
    stat_readable,
)

Layers = list[tuple[np.ndarray, np.ndarray]]


class Network(LayerFit):
    """A policy MLP (action logits) and an optional value MLP over one observation."""

    noun = "network"

    def __init__(self, layers: Layers, activation: str = "tanh",
                 value_layers: Layers | None = None, path: str | None = None) -> None:
        """Wrap validated layers (use :meth:`load` or :meth:`from_arrays` for files)."""
        if activation not in ACTIVATIONS:
            raise ArgumentError(f"activation must be one of {sorted(ACTIVATIONS)}, "
                                f"got {activation!r}")
        self.layers = layers
        self.value_layers = value_layers or None
        self.activation = activation
        self._act = ACTIVATIONS[activation]
        self.path = path

    @property
    def has_value(self) -> bool:
        """Whether the file has a value head."""
        return self.value_layers is not None

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Action logits of one observation ``(obs,)`` or a batch ``(k, obs)``."""
        return _forward(self.layers, self._act, np.asarray(x, dtype=np.float32))

    def values(self, x: np.ndarray) -> np.ndarray:
        """Predicted returns in [-1, 1]: a scalar array for one observation, ``(k,)`` for
        a batch. Raises ``ArgumentError`` when the network has no value head."""
        if self.value_layers is None:
            raise ArgumentError(f"{self.path or 'the network'} has no value head "
                                "(vw0, vb0, ..., vw_out, vb_out)")
        out = _forward(self.value_layers, self._act, np.asarray(x, dtype=np.float32))
        return np.tanh(out[..., 0])

    @classmethod
    def from_arrays(cls, arrays: dict[str, Any], path: str = "the arrays") -> Network:
        """Validate a mapping of exported arrays (as in the ``.npz``) into a network.

        Raises :class:`PolicyFileError` naming ``path`` and the array at fault.
        """
        layers = _layers_of(arrays, path)
        activation = _activation_of(arrays, path)
        kinds = kinds_of(arrays, path)
        if kinds:
            raise PolicyFileError(f"{path} was trained only at {', '.join(kinds)} decisions: "
                                  f"it cannot guide a search; play it as residual:{path}")
        values = _value_layers_of(arrays, path, int(layers[0][0].shape[1]))
        return cls(layers, activation, values, path)

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """Load an exported ``.npz`` network (cached per path and file version).

        Raises :class:`PolicyFileError` (an ``AgentSpecError``) naming the path and what is
        wrong: missing (:class:`PolicyNotFoundError`, also a ``FileNotFoundError``), not a
        regular file (a folder, FIFO, device or socket: refused before it is opened),
        larger than :data:`formosa_envs.agents.files.MAX_AGENT_FILE_BYTES`, unreadable, not an
        ``.npz`` archive, missing arrays, bad shapes, an unknown activation, or a value
        head whose shapes do not chain.
        """
        file = Path(path)
        stat = stat_readable(file, "network")
        return _load_cached(str(file), stat.st_mtime_ns, stat.st_size)

    @classmethod
    def from_bytes(cls, data: bytes, path: str | Path) -> Network:
        """The network of ``.npz`` bytes ``data`` already read from ``path`` (e.g. through
        :func:`formosa_envs.agents.files.read_agent_file`); errors as :meth:`load`."""
        return cls.from_arrays(archive_arrays(data, path, "network"), str(path))


@lru_cache(maxsize=16)
def _load_cached(path: str, mtime_ns: int, size: int) -> Network:
    """One version of a network file (its mtime and size key the cache)."""
    return Network.from_arrays(read_archive(Path(path), "network"), path)


def _forward(layers: Layers, act: Any, x: np.ndarray) -> np.ndarray:
    """``act`` after every hidden layer, the last layer linear."""
    for w, b in layers[:-1]:
        x = act(x @ w.T + b)
    w, b = layers[-1]
    return x @ w.T + b


def _value_layers_of(arrays: dict[str, Any], path: str, input_size: int) -> Layers | None:
    """The value head ``vw0, vb0, ..., vw_out, vb_out`` (None when the file has none)."""
    keys = [k for k in arrays if k.startswith(("vw", "vb"))]
    if not keys:
        return None
    prefix = f"{path} is not an exported formosa network"
    hidden = sorted(int(k[2:]) for k in keys if k.startswith("vw") and k[2:].isdigit())
    names = [(f"vw{i}", f"vb{i}") for i in range(len(hidden))] + [("vw_out", "vb_out")]
    missing = [n for pair in names for n in pair if n not in arrays]
    unknown = sorted(set(keys) - {n for pair in names for n in pair})
    if missing or unknown or hidden != list(range(len(hidden))):
        raise PolicyFileError(
            f"{prefix}: its value head needs vw0, vb0, ..., vw_out, vb_out; missing "
            f"{', '.join(missing) or 'none'}, unexpected {', '.join(unknown) or 'none'}")
    layers: Layers = []
    for w_name, b_name in names:
        w, b = arrays[w_name], arrays[b_name]
        width = layers[-1][0].shape[0] if layers else None
        problem = _layer_problem(w_name, w, b_name, b, width)
        if not problem and width is None and w.shape[1] != input_size:
            problem = (f"{w_name} has shape {w.shape}: it takes {w.shape[1]} inputs, but the "
                       f"policy takes observations of {input_size} values")
        if problem:
            raise PolicyFileError(f"{prefix}: {problem}")
        layers.append((w, b))
    if layers[-1][0].shape[0] != 1:
        raise PolicyFileError(f"{prefix}: vw_out must have shape (1, hidden) (one value), "
                              f"got {layers[-1][0].shape}")
    return layers
