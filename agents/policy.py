"""A trained policy as a pure-numpy agent (no torch needed to play).

Training exports a MaskablePPO actor to ``.npz`` (see ``training/ppo/export.py``):
``w0, b0, w1, b1, ...`` for the hidden layers (applied as ``act(x @ w.T + b)``),
``w_out, b_out`` for the action logits, and ``activation`` (``tanh`` or
``relu``). :class:`PolicyAgent` runs that forward pass and always respects
the action mask: illegal actions get ``-inf`` logits.

A file may carry ``kinds``, the decision kinds it was trained at (data recorded with
``imitation.data --kinds``): such a network speaks only there, so ``policy:`` refuses it
and the residual agent (:mod:`formosa_envs.agents.residual`) asks it only at those kinds.

A policy only fits the game and player count it was trained for: before its first
move (and on every move, a cheap comparison) the first layer's input width must
equal the game's observation size and the output width its action count, else a
:class:`PolicyMismatchError` names the file, the policy's sizes and the game's.
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from .base import Agent
from .files import (
    AgentFileError,
    AgentFileNotFoundError,
    check_npz_archive,
    read_agent_file,
    stat_agent_file,
)
from .threads import large, one_blas_thread

ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}


class PolicyFileError(AgentFileError):
    """A policy file that cannot be played: not a regular file (a folder, a FIFO, a
    device...), too large, no ``.npz``, missing or bad arrays (an ``AgentSpecError``)."""


class PolicyNotFoundError(PolicyFileError, AgentFileNotFoundError):
    """A policy path where there is no file (also a ``FileNotFoundError``)."""


class PolicyMismatchError(PolicyFileError):
    """A policy exported for another game or player count (its layer sizes do not fit)."""


FitsT = TypeVar("FitsT", bound="LayerFit")


class LayerFit:
    """Layer sizes and the game-fit check of an MLP (``layers``, input first), shared by
    :class:`PolicyAgent` and :class:`formosa_envs.agents.network.Network`; ``noun`` names it in
    errors."""

    noun = "policy"
    layers: list[tuple[np.ndarray, np.ndarray]]
    path: str | None

    @property
    def input_size(self) -> int:
        """Observation values the first layer takes."""
        return int(self.layers[0][0].shape[1])

    @property
    def output_size(self) -> int:
        """Action logits the last layer gives."""
        return int(self.layers[-1][0].shape[0])

    def check_fits(self, observation_size: int, num_actions: int, where: str = "") -> None:
        """Raise :class:`PolicyMismatchError` unless the input width is
        ``observation_size`` and the output width ``num_actions``.

        ``where`` describes the game (e.g. ``tea with 2 players``) in the message.
        """
        if (self.input_size, self.output_size) == (observation_size, num_actions):
            return
        noun = self.noun
        source = f"{noun} {self.path}" if self.path else f"the {noun}"
        game = where or "this game"
        raise PolicyMismatchError(
            f"{source} does not fit {game}: the {noun} takes observations of "
            f"{self.input_size} values and scores {self.output_size} actions, but {game} has "
            f"observations of {observation_size} values and {num_actions} actions (was it "
            "exported for another game or player count?)")

    def bind(self: FitsT, game: Any) -> FitsT:
        """Check that the layers fit ``game`` (an engine); return ``self``."""
        self.check_fits(int(game.observation_size), int(game.num_actions),
                        f"{game.name} with {game.num_players} player"
                        f"{'' if game.num_players == 1 else 's'}")
        return self


class PolicyAgent(LayerFit, Agent):
    """Acts with an exported policy network: masked argmax, or masked sampling."""

    name = "policy"

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str = "tanh",
                 deterministic: bool = True, seed: int | None = None,
                 kinds: tuple[str, ...] = ()) -> None:
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; known: {sorted(ACTIVATIONS)}")
        self.layers = layers
        self.single_blas_thread = large(layers)  # agents/threads.py
        self.activation = activation
        self._act = ACTIVATIONS[activation]
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.path: str | None = None  # the file it was loaded from (named in errors)
        self._transposed: tuple[np.ndarray, np.ndarray] | None = None
        self.kinds = tuple(kinds)
        """The decision kinds the network was trained at (empty: every decision)."""

    def act_on_state(self, game: Any, state: Any) -> int:
        """The move for the deciding seat (the policy must fit ``game``)."""
        self.bind(game)
        return super().act_on_state(game, state)

    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True,
             seed: int | None = None) -> PolicyAgent:
        """Load an exported ``.npz`` policy (cached per path and file version).

        Raises :class:`PolicyFileError` (an :class:`AgentSpecError`) naming the path and
        what is wrong, before the file is opened when it is not a regular file (a
        folder, FIFO, device or socket) or larger than
        :data:`formosa_envs.agents.files.MAX_AGENT_FILE_BYTES`; missing (also a
        ``FileNotFoundError``), unreadable, not an ``.npz`` archive, unpacking past the
        cap, missing arrays, wrong shapes or an unknown activation.
        """
        file = Path(path)
        stat = stat_readable(file, "policy")
        layers, activation, kinds = _load_npz(str(file), stat.st_mtime_ns, stat.st_size)
        agent = cls(layers, activation, deterministic, seed, kinds)
        agent.name = f"policy:{Path(path).stem}"
        agent.path = str(path)
        return agent

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Raw action logits for one observation vector (or a batch of them)."""
        x = np.asarray(observation, dtype=np.float32)
        for w, b in self.layers[:-1]:
            x = self._act(x @ w.T + b)
        w, b = self.layers[-1]
        return x @ w.T + b

    def legal_logits(self, observation: np.ndarray, legal: list[int]) -> np.ndarray:
        """The logits of the ``legal`` actions only (in that order), for one observation:
        the first layer sums the observation's non-zero inputs only and the output layer's
        other rows are never read (the same logits as :meth:`logits` up to float32
        rounding; :meth:`logits` itself keeps the dense pass, so the shipped figures of
        the network alone reproduce exactly)."""
        x = np.asarray(observation, dtype=np.float32)
        hidden = self.layers[:-1]
        if hidden:
            x = self._act(self._sparse_first_layer(x))
        for w, b in hidden[1:]:
            x = self._act(x @ w.T + b)
        w, b = self.layers[-1]
        return w[legal] @ x + b[legal]

    def _sparse_first_layer(self, x: np.ndarray) -> np.ndarray:
        """The first hidden layer's input sum over the observation's non-zero entries only
        (observations are mostly zeros: a 5-player Taiwan one has about 60 of 1,624), read
        from a transposed copy of its weights kept beside them."""
        w, b = self.layers[0]
        if self._transposed is None or self._transposed[0] is not w:
            self._transposed = (w, np.ascontiguousarray(w.T))
        nonzero = np.flatnonzero(x)
        if 4 * len(nonzero) > len(x):
            return x @ w.T + b
        return x[nonzero] @ self._transposed[1][nonzero] + b

    @one_blas_thread
    def act(self, observation: dict[str, np.ndarray]) -> int:
        """The best (or a sampled) legal action."""
        mask = np.asarray(observation["action_mask"]).astype(bool)
        vector = np.asarray(observation["observation"])
        self.check_fits(vector.shape[-1] if vector.ndim else 0, mask.shape[-1] if mask.ndim else 0)
        if not mask.any():
            raise ValueError("PolicyAgent was asked to act with an all-zero action mask")
        logits = np.where(mask, self.logits(vector), -np.inf)
        if self.deterministic:
            return int(np.argmax(logits))
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        return int(self.rng.choice(len(probs), p=probs))


def stat_readable(file: Path, noun: str) -> os.stat_result:
    """The stat of exported ``.npz`` file ``file``; raises :class:`PolicyFileError` naming
    the ``noun`` (``policy``, ``network``) and the path when it is missing
    (:class:`PolicyNotFoundError`), not a regular file, over the size cap or unreadable
    (:func:`formosa_envs.agents.files.stat_agent_file`: nothing is opened)."""
    with policy_errors():
        return stat_agent_file(file, f"{noun} file")


@contextmanager
def policy_errors() -> Iterator[None]:
    """Raise the refusals of :mod:`formosa_envs.agents.files` as :class:`PolicyFileError` (missing:
    :class:`PolicyNotFoundError`), the class callers of the loaders catch."""
    try:
        yield
    except PolicyFileError:
        raise
    except AgentFileNotFoundError as exc:
        raise PolicyNotFoundError(str(exc)) from None
    except AgentFileError as exc:
        raise PolicyFileError(str(exc)) from None


@lru_cache(maxsize=32)
def _load_npz(path: str, mtime_ns: int, size: int
              ) -> tuple[list[tuple[np.ndarray, np.ndarray]], str, tuple[str, ...]]:
    """Arrays of one version of a policy file (the file's mtime and size key the cache)."""
    arrays = read_archive(Path(path), "policy")
    return _layers_of(arrays, path), _activation_of(arrays, path), kinds_of(arrays, path)


def kinds_of(arrays: dict[str, Any], path: str) -> tuple[str, ...]:
    """The file's ``kinds`` (decision kinds it was trained at; empty if absent)."""
    value = arrays.get("kinds")
    if value is None:
        return ()
    names = value.tolist() if value.dtype.kind == "U" and value.ndim == 1 else None
    if not names or not all(n.isidentifier() for n in names) or len(names) > 64:
        raise PolicyFileError(f"{path} is not an exported formosa policy: kinds must be a "
                              "1-D array of 1-64 decision kind names, got "
                              f"{value.dtype} of shape {value.shape}")
    return tuple(names)


def read_archive(file: Path, noun: str) -> dict[str, np.ndarray]:
    """The arrays of exported ``.npz`` file ``file``, read once through
    :func:`formosa_envs.agents.files.read_agent_file` (a regular file within the cap, opened
    non-blocking) and parsed from memory; see :func:`archive_arrays`."""
    with policy_errors():
        data = read_agent_file(file, f"{noun} file")
    return archive_arrays(data, file, noun)


def archive_arrays(data: bytes, file: Path | str, noun: str = "policy"
                   ) -> dict[str, np.ndarray]:
    """The arrays of the ``.npz`` bytes ``data`` of ``file`` (a zip of arrays, no pickled
    objects, unpacking to at most the cap); :class:`PolicyFileError` naming ``file``."""
    kind = "policy" if noun in ("policy", "network") else noun  # a network is a policy's
    prefix = f"{file} is not an exported formosa {kind}"
    if not zipfile.is_zipfile(io.BytesIO(data)):
        hint = (" (python -m formosa_envs.training.ppo.export MODEL.zip OUT.npz writes one)"
                if kind == "policy" else "")
        raise PolicyFileError(f"{prefix}: not an .npz {kind} archive{hint}")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive, policy_errors():
            check_npz_archive(archive, file, f"{noun} file")
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            return {key: npz[key] for key in npz.files}
    except PolicyFileError:
        raise
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
        layers.append((_float32(w), _float32(b)))
    return layers


def _float32(array: np.ndarray) -> np.ndarray:
    """A float16 array (a shipped network's storage) as float32: numpy multiplies float16
    matrices many times slower."""
    return array.astype(np.float32) if array.dtype == np.float16 else array


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
