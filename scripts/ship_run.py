"""Ship a finished ``formosa train`` run as the game's ``pretrained`` network.

``python scripts/ship_run.py GAME RUN_DIR [--eval-games 400] [--eval-seed 14014]``

The run's final model (``RUN_DIR/model.zip``) is exported with its actor and critic as
one network (:func:`formosa_envs.training.ppo.export.export_network`), stored with float16 weights,
checked
(the float16 and float32 actors pick the same move on the held-out observations of the
run's clone data, when the run has them), evaluated against ``random`` and ``heuristic``
(seats rotated, the 32-bit tournament seed ``--eval-seed``, never a training seed) and
written to the package folder with its manifest entry: the run's config, seeds, commit,
training time (the run's ``train_minutes``, warm start included) and the evaluation.

To regenerate a shipped network: ``formosa train GAME --config
training/configs/GAME_ship.toml --out runs/ship/GAME`` (the config the manifest
records), then this script. Networks cloned from the heuristic only (stage 1) come from
``scripts/make_pretrained.py``. Bad input: one line, status 2.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from formosa_envs.agents.pretrained import file_sha256, package_root  # noqa: E402

import formosa_envs  # noqa: E402
from formosa_envs.core.errors import ConfigError  # noqa: E402
from formosa_envs.games import GAMES, make_game  # noqa: E402
from formosa_envs.tools.console import run_console  # noqa: E402
from formosa_envs.tools.usage import (  # noqa: E402
    OneLineParser,
    check_output_folder,
    int_between,
    non_negative_int,
)
from scripts.make_pretrained import (  # noqa: E402
    EVAL_SEED,
    agreements,
    git_commit,
    log,
    stage_eval,
    to_float16,
    write_manifest,
)

PROG = "python scripts/ship_run.py"


def read_run(run: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The run's config and summary; :class:`ConfigError` when it is not a finished run."""
    missing = [n for n in ("config.json", "summary.json", "model.zip") if not (run / n).is_file()]
    if missing:
        raise ConfigError(f"RUN_DIR {run}: not a finished formosa train run (no "
                          f"{', '.join(missing)})")
    return (json.loads((run / "config.json").read_text(encoding="utf-8")),
            json.loads((run / "summary.json").read_text(encoding="utf-8")))


def same_moves(run: Path, f32: Path, f16: Path) -> dict[str, Any]:
    """On (up to 20,000 of) the run's clone-data decisions (a run without them: those of
    100 heuristic games at the run's seat count, made in ``run/ship/check_data``):
    agreement of the float32 and float16 actors with the heuristic teacher, and with each
    other."""
    from formosa_envs.training.imitation.data import DataSettings, generate, load_data
    folder = run / "clone" / "data"
    if not (folder / "manifest.json").is_file():
        config = json.loads((run / "config.json").read_text(encoding="utf-8"))
        folder = run / "ship" / "check_data"
        if not (folder / "manifest.json").is_file():
            generate(DataSettings(game=config["game"], games=100,
                                  num_players=config["num_players"], seed=config["seed"]),
                     folder, workers=1, show_progress=False)
    data = load_data(folder)
    rows = np.arange(0, len(data.action), max(len(data.action) // 20_000, 1))
    return {"observations": int(len(rows)), **agreements(data, rows, f32, f16)}


def entry_for(game: str, target: Path, config: dict[str, Any], summary: dict[str, Any],
              check: dict[str, Any], evals: dict[str, Any]) -> dict[str, Any]:
    """The manifest record of the shipped run (see agents/pretrained.py)."""
    info, built = GAMES[game], make_game(game, num_players=config["num_players"])
    method = "MaskablePPO against the heuristic"
    if config.get("clone_games"):
        method += f", warm-started from {config['clone_games']:,} cloned heuristic games"
    if config.get("init"):
        method += f", warm-started from the network {config['init']}"
    if config.get("player_counts"):
        counts = sorted(set(config["player_counts"]))
        method += f", trained at {', '.join(map(str, counts))} players at once"
    return {
        "file": target.name, "sha256": file_sha256(target.read_bytes()),
        "bytes": target.stat().st_size,
        "format": "formosa_envs.training.common.network_export .npz (policy + value head), "
                  "float16 weights",
        "observation_size": int(built.observation_size), "num_actions": int(built.num_actions),
        "env_id": info.env_id, "formosa_envs_version": formosa_envs.__version__,
        "trained_players": sorted(set(config.get("player_counts") or [])) or config["num_players"],
        "serves_players": list(range(info.min_players, info.max_players + 1)),
        "method": method, "teacher": "heuristic" if config.get("clone_games") else None,
        "training": {"config": config, "timesteps": summary["timesteps"],
                     "train_minutes": summary["train_minutes"], "seed": config["seed"]},
        "float16": check, "evaluation": evals, "commit": git_commit(),
        "generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "wall_s": round(summary["train_minutes"] * 60
                        + sum(e["wall_s"] for e in evals.values()), 1)}


def main(argv: list[str] | None = None) -> int:
    """Export, check, evaluate and ship one run."""
    from formosa_envs.training.ppo.export import export_network, load_checkpoint
    p = OneLineParser(prog=PROG, description="Ship a formosa train run as pretrained.")
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("run", type=Path, help="a finished formosa train --out folder")
    p.add_argument("--eval-games", type=int_between(2, 100_000), default=400)
    p.add_argument("--eval-seed", type=non_negative_int, default=EVAL_SEED)
    p.add_argument("--workers", type=int_between(1, 64), default=2)
    p.add_argument("--out", type=Path, default=None, help="default: agents/pretrained/")
    args = p.parse_args(argv)
    config, summary = read_run(args.run)
    if config.get("game") != args.game:
        raise ConfigError(f"RUN_DIR {args.run}: a run for {config.get('game')!r}, not "
                          f"{args.game!r}")
    out = args.out or Path(str(package_root()))
    check_output_folder(out, "--out")            # before anything is exported or played
    out.mkdir(parents=True, exist_ok=True)
    work = args.run / "ship"
    work.mkdir(exist_ok=True)
    full = export_network(load_checkpoint(args.run / "model.zip"), work / "network32.npz")
    shipped = work / "ship.npz"
    to_float16(full, shipped)
    check = same_moves(args.run, full, shipped)
    evals = {f"vs_{o}": stage_eval(args.game, work, shipped, o, args)
             for o in ("random", "heuristic")}
    target = out / f"{args.game}.npz"
    target.write_bytes(shipped.read_bytes())
    write_manifest(out, args.game, entry_for(args.game, target, config, summary, check, evals))
    log(f"{args.game}: shipped {target} ({target.stat().st_size / 1e6:.2f} MB)")
    return 0


def cli(argv: list[str] | None = None) -> int:
    """:func:`main` with bad input reported as one line and status 2."""
    return run_console(PROG, main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())
