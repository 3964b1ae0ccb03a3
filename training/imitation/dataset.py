"""Reading a data folder of :mod:`formosa_envs.training.imitation.data` (its format, the
arrays of a shard and the checks made on load)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from formosa_envs.core.errors import DataError

FORMAT = "formosa-imitation/1"
PROG = "python -m formosa_envs.training.imitation.data"  # the command that writes a folder
SHARD_KEYS = ("obs", "mask", "action", "seat", "game", "ret")


def shard_keys(soft_targets: bool) -> tuple[str, ...]:
    """The arrays of a shard (``target`` only in data with visit or value targets)."""
    return SHARD_KEYS + ("target",) if soft_targets else SHARD_KEYS


def has_soft_targets(manifest: dict[str, Any]) -> bool:
    """Whether a data folder's manifest says its shards hold ``target``."""
    return bool(manifest.get("visit_targets") or manifest.get("value_temperature"))


@dataclass
class ImitationData:
    """A loaded data folder: its manifest and every shard's rows concatenated (game order);
    ``mask`` is unpacked to bool (D, A)."""

    manifest: dict[str, Any]
    obs: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    seat: np.ndarray
    game: np.ndarray
    ret: np.ndarray
    target: np.ndarray | None = None
    """Visit-share targets (float16 (D, A)) when the data has them."""

    def __len__(self) -> int:
        return int(len(self.action))


def load_data(folder: str | Path) -> ImitationData:
    """Read a data folder written by :func:`generate`.

    Raises :class:`DataError` naming the folder (or shard) and what is wrong: no
    manifest, another format, a missing shard, arrays that disagree with the manifest, or
    teacher actions that the recorded mask calls illegal.
    """
    root = Path(folder)
    manifest = read_manifest(root)
    keys = shard_keys(has_soft_targets(manifest))
    parts: dict[str, list[np.ndarray]] = {k: [] for k in keys}
    for shard in manifest["shards"]:
        arrays = _read_shard(root, shard, manifest)
        for key in keys:
            parts[key].append(arrays[key])
    joined = {k: np.concatenate(v) for k, v in parts.items()}
    mask = np.unpackbits(joined.pop("mask"), axis=1,
                         count=manifest["num_actions"]).astype(bool)
    if not mask[np.arange(len(mask)), joined["action"]].all():
        raise DataError(f"imitation data {root}: some recorded actions are illegal by their "
                        "recorded masks (the data is corrupt)")
    target = joined.get("target")
    if target is not None and (target[~mask] != 0).any():
        raise DataError(f"imitation data {root}: some soft targets give illegal actions a "
                        "share (the data is corrupt)")
    return ImitationData(manifest, mask=mask, **joined)


def data_layout(manifest: dict[str, Any]) -> dict[str, Any]:
    """What two data folders must share to be joined: the game, the observation and action
    sizes and the recorded decision kinds (a folder written before ``--kinds`` existed
    holds every kind)."""
    return {"game": manifest["game"], "observation_size": manifest["observation_size"],
            "num_actions": manifest["num_actions"], "kinds": manifest.get("kinds") or []}


def read_manifest(root: Path) -> dict[str, Any]:
    """The checked ``manifest.json`` of data folder ``root`` (:class:`DataError` if unusable)."""
    path = root / "manifest.json"
    if not path.is_file():
        raise DataError(f"imitation data {root}: no manifest.json (write the folder with "
                        f"{PROG} GAME --games N --out {root})")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"imitation data {path}: cannot be read as JSON ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise DataError(f"imitation data {path}: format must be {FORMAT!r}, got "
                        f"{manifest.get('format') if isinstance(manifest, dict) else manifest!r}")
    needed = ("game", "num_players", "observation_size", "num_actions", "shards", "rows")
    missing = [k for k in needed if k not in manifest]
    if missing or not manifest["shards"]:
        raise DataError(f"imitation data {path}: missing {', '.join(missing) or 'shards'}")
    return manifest


def _read_shard(root: Path, shard: dict[str, Any], manifest: dict[str, Any]
                ) -> dict[str, np.ndarray]:
    path = root / str(shard.get("file", ""))
    keys = shard_keys(has_soft_targets(manifest))
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in keys}
    except (OSError, KeyError, ValueError, EOFError) as exc:
        raise DataError(f"imitation shard {path}: cannot be read ({exc})") from None
    rows, width = shard.get("rows"), math.ceil(manifest["num_actions"] / 8)
    shapes = {"obs": (rows, manifest["observation_size"]), "mask": (rows, width),
              "target": (rows, manifest["num_actions"])}
    for key in keys:
        want = shapes.get(key, (rows,))
        if arrays[key].shape != want:
            raise DataError(f"imitation shard {path}: {key} has shape {arrays[key].shape}, "
                            f"the manifest says {want}")
    return arrays
