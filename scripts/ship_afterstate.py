"""Ship a finished ``formosa train GAME --backend afterstate`` run as ``pretrained``.

``python scripts/ship_afterstate.py GAME RUN_DIR [--eval FINAL_EVAL.json] [--players N]``

The run's ``evaluator.npz`` is copied (unchanged: the shipped file is the evaluated one)
to ``agents/pretrained/GAME_afterstate.npz`` and recorded as the ``afterstate`` part of
the game's manifest entry: its sha256 and size, the feature size, the method, the run's
config, its label and fit reports, the run's own evaluation, the final evaluation
(``--eval``: the JSON of ``benchmarks/learned_agents.py ... --out``) and the commit. From
then on ``pretrained`` (and ``pretrained:GAME``) plays the heuristic's candidates ranked
by that evaluator; ``pretrained:net`` still plays the game's network alone. With
``--players N`` the evaluator is shipped as ``GAME_afterstate_Np.npz``, the part
``afterstate_at[N]`` of the entry, played at tables of N seats only (e.g. one trained on
solo games); the game must already ship its main ``afterstate`` part.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from formosa_envs.agents.afterstate import AfterstateEvaluator  # noqa: E402
from formosa_envs.agents.pretrained import (  # noqa: E402
    file_sha256,
    manifest_entry,
    manifest_path,
    package_root,
)

from formosa_envs.core.errors import ConfigError  # noqa: E402
from formosa_envs.games import GAMES  # noqa: E402
from formosa_envs.tools.console import run_console  # noqa: E402
from formosa_envs.tools.usage import OneLineParser  # noqa: E402
from scripts.make_pretrained import git_commit, write_manifest  # noqa: E402

METHOD = ("afterstate evaluator: the heuristic's candidate turns (top K by its own value) "
          "scored by an MLP trained on truncated heuristic play-out labels of sibling "
          "moves (formosa train GAME --backend afterstate)")


def afterstate_part(game: str, run: Path, target: Path, final: dict[str, Any] | None
                    ) -> dict[str, Any]:
    """The manifest's ``afterstate`` part for the evaluator copied to ``target``."""
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    config = json.loads((run / "config.json").read_text(encoding="utf-8"))
    data = target.read_bytes()
    info = AfterstateEvaluator.from_bytes(data, str(target)).info
    fit = {k: v for k, v in report["fit"].items() if k != "history"}
    return {"file": target.name, "sha256": file_sha256(data), "bytes": len(data),
            "format": "formosa-afterstate/1 (agents/afterstate.py), float32 weights",
            "feature_size": info.feature_size, "top_k": info.top_k, "method": METHOD,
            "config": config, "label_s": report["label_s"], "fit": fit,
            "run_evaluation": report.get("evaluation"), "final_evaluation": final,
            "commit": git_commit()}


def main(argv: list[str] | None = None) -> int:
    """Copy the run's evaluator into the package and record it in the manifest."""
    p = OneLineParser(prog="python scripts/ship_afterstate.py", description=__doc__)
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("run", type=Path, help="the run folder (evaluator.npz, report.json)")
    p.add_argument("--eval", type=Path, default=None,
                   help="benchmarks/learned_agents.py --out JSON of the final evaluation")
    p.add_argument("--players", type=int, default=0,
                   help="ship it for tables of this many seats only (afterstate_at)")
    args = p.parse_args(argv)
    source = args.run / "evaluator.npz"
    if not source.is_file() or not (args.run / "report.json").is_file():
        raise ConfigError(f"{args.run}: not a finished afterstate run (needs evaluator.npz "
                          "and report.json)")
    entry = manifest_entry(args.game)
    final = json.loads(args.eval.read_text(encoding="utf-8")) if args.eval else None
    suffix = f"_{args.players}p" if args.players else ""
    target = Path(str(package_root())) / f"{args.game}_afterstate{suffix}.npz"
    if args.players:
        info = GAMES[args.game]
        if not info.min_players <= args.players <= info.max_players or "afterstate" not in entry:
            raise ConfigError(f"--players {args.players}: {args.game} seats "
                              f"{info.min_players}-{info.max_players} and must ship a main "
                              "afterstate part first")
    shutil.copyfile(source, target)
    part = afterstate_part(args.game, args.run, target, final)
    if args.players:
        entry.setdefault("afterstate_at", {})[str(args.players)] = part
    else:
        entry["afterstate"] = part
    write_manifest(manifest_path().parent, args.game, entry)
    print(f"shipped {target} ({part['bytes']:,} bytes): pretrained now plays it for "
          f"{args.game}" + (f" at {args.players} players" if args.players else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(run_console("python scripts/ship_afterstate.py", main))
