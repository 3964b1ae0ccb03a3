"""Copy imitation data folders into one, keeping only some decisions.

``python scripts/filter_imitation.py OUT DATA [DATA ...] [--actions 0:54] [--hard]``

Joins the folders (as cloning does, :func:`formosa_envs.training.imitation.bc.load_datasets`)
and writes one data folder ``OUT`` (one shard, format ``formosa-imitation/1``) with:

* ``--actions LO:HI``: only the decisions with a choice (two or more legal actions) whose
  legal actions include one of ids ``LO`` to ``HI - 1`` (Formosa Flowers: ``0:54``, the
  play-a-card decisions, as in docs/learned-agents.md's 4-player distillation);
* ``--hard``: the visit-share targets dropped, so cloning trains on the recorded moves.

The manifest is the first folder's, with the row count, the sources and the filter.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from formosa_envs.training.imitation.bc import load_datasets

from formosa_envs.core.errors import DataError


def action_range(text: str) -> tuple[int, int]:
    """``LO:HI`` with 0 <= LO < HI (an argparse type)."""
    try:
        low, high = (int(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not LO:HI (e.g. 0:54)") from None
    if not 0 <= low < high:
        raise argparse.ArgumentTypeError(f"{text!r}: need 0 <= LO < HI")
    return low, high


def main(argv: list[str] | None = None) -> int:
    """Write the filtered folder."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path, help="a new folder")
    p.add_argument("data", nargs="+", help="imitation data folders")
    p.add_argument("--actions", type=action_range, default=None)
    p.add_argument("--hard", action="store_true", help="drop visit-share targets")
    args = p.parse_args(argv)
    if args.out.exists():
        p.error(f"{args.out} exists; give a new folder")
    try:
        data = load_datasets(args.data)
    except DataError as exc:
        p.error(str(exc))
    keep = np.ones(len(data), bool)
    if args.actions is not None:
        low, high = args.actions
        if high > data.mask.shape[1]:
            p.error(f"--actions {low}:{high}: the game has {data.mask.shape[1]} actions")
        keep = data.mask[:, low:high].any(axis=1) & (data.mask.sum(axis=1) > 1)
    if not keep.any():
        p.error("no decision matches the filter; nothing written")
    arrays = {"obs": data.obs[keep], "mask": np.packbits(data.mask[keep], axis=1),
              "action": data.action[keep], "seat": data.seat[keep],
              "game": data.game[keep], "ret": data.ret[keep]}
    soft = data.target is not None and not args.hard
    if soft:
        arrays["target"] = data.target[keep]
    (args.out / "shards").mkdir(parents=True)
    np.savez_compressed(args.out / "shards" / "shard-00000.npz", **arrays)
    rows = int(keep.sum())
    kinds = {"visit_targets": soft and bool(data.manifest.get("visit_targets")),
             "value_temperature": data.manifest.get("value_temperature", 0.0) if soft else 0.0}
    manifest = {**data.manifest, "rows": rows, **kinds, "sources": args.data,
                "filter": {"actions": args.actions, "hard": args.hard},
                "shards": [{"file": "shards/shard-00000.npz", "rows": rows,
                            "games": len(np.unique(arrays["game"])), "decisions": rows}]}
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"kept {rows:,} of {len(data):,} decisions in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
