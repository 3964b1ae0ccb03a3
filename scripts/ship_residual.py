"""Make ``pretrained`` the residual agent of a game at one seat count.

``python scripts/ship_residual.py GAME --players N --margin M --eval FINAL.json
[--eval MORE.json] [--timing TIMING.json] [--validation TEXT] [--network RUN/best.npz
[--run RUN] [--data DATA]] [--out DIR]``

Records the part ``residual_at[N]`` of the game's manifest entry: at tables of N seats
``pretrained`` (and ``pretrained:GAME``) then plays the game's heuristic, overruled by the
game's shipped network where the network's best legal move leads the heuristic's move by
more than ``M`` logits (:mod:`formosa_envs.agents.residual`); ``pretrained:net`` still
plays the network alone. Without ``--network`` no file is copied: the part names the
shipped network, whose sha256 is checked as before. With ``--network`` (a network trained
for that seat count, e.g. at some decision kinds only: ``imitation.data --kinds``) the
file is copied beside the others as ``GAME_Np_residual.npz`` and the part records its
file, sha256, size and kinds, with the training report of ``--run`` (``bc``'s
``report.json``, or a JAX run's ``summary.json`` and ``config.json``) and the manifest
of ``--data``. Every ``--eval`` (and ``--timing``)
is a JSON written by ``benchmarks/learned_agents.py ... --out`` for the agent
``residual:...:M`` at the game, checked before anything is written; ``--validation``
says how the margin was chosen. ``--out`` writes the manifest of another folder holding
the package's networks (a copy; default: the package's own).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from formosa_envs.agents.policy import PolicyAgent  # noqa: E402
from formosa_envs.agents.pretrained import (  # noqa: E402
    file_sha256,
    manifest_entry,
    manifest_path,
)

from formosa_envs.core.errors import ConfigError  # noqa: E402
from formosa_envs.games import GAMES, make_game  # noqa: E402
from formosa_envs.tools.console import run_console  # noqa: E402
from formosa_envs.tools.usage import OneLineParser  # noqa: E402
from scripts.make_pretrained import git_commit, write_manifest  # noqa: E402

METHOD = ("residual: the game's heuristic, overruled by the shipped network where the "
          "network's best legal move leads the heuristic's move by more than the margin "
          "(agents/residual.py)")


def read_evaluation(path: Path, game: str, margin: float) -> dict[str, Any]:
    """A ``learned_agents.py --out`` JSON of the residual agent at ``margin`` in ``game``
    (:class:`ConfigError` naming the file otherwise)."""
    if not path.is_file():
        raise ConfigError(f"{path}: not a regular file (an evaluation JSON)")
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: not a readable evaluation JSON ({exc})") from None
    agent = str(report.get("agent", "")) if isinstance(report, dict) else ""
    kind, _, margin_text = agent.rpartition(":")
    if report.get("game") != game or not kind.startswith("residual:"):
        raise ConfigError(f"{path}: an evaluation of {agent or 'no agent'!r} in "
                          f"{report.get('game')!r}, not of a residual agent in {game}")
    try:
        measured = float(margin_text)
    except ValueError:
        measured = math.nan
    if measured != margin:
        raise ConfigError(f"{path}: evaluates the margin {margin_text!r}, not {margin:g}")
    return report


def own_network(args: Any, folder: Path) -> dict[str, Any]:
    """Copy ``--network`` into ``folder`` (checked: a playable policy of the game) and
    return the part's record of it; ``--run``/``--data`` add the training and data. Every
    input is read and checked before the copy is written."""
    game = make_game(args.game, num_players=args.players)
    policy = PolicyAgent.load(args.network).bind(game)  # AgentSpecError names a bad file
    name = f"{args.game}_{args.players}p_residual.npz"
    data = args.network.read_bytes()
    record: dict[str, Any] = {"file": name, "network": name, "sha256": file_sha256(data),
                              "bytes": len(data), "kinds": list(policy.kinds),
                              "source": str(args.network)}
    if args.run is not None:
        record["training"] = run_report(args.run)
    if args.data is not None:
        manifest = _json_file(args.data / "manifest.json", "--data")
        record["data"] = {k: v for k, v in manifest.items() if k != "shards"}
    (folder / name).write_bytes(data)
    return record


def run_report(run: Path) -> dict[str, Any]:
    """A cloning run's ``report.json``, else a JAX run's summary and config."""
    if (run / "report.json").is_file() or not (run / "summary.json").is_file():
        return _json_file(run / "report.json", "--run")
    return {"summary": _json_file(run / "summary.json", "--run"),
            "config": _json_file(run / "config.json", "--run")}


def _json_file(path: Path, flag: str) -> dict[str, Any]:
    """A JSON object from ``path`` (:class:`ConfigError` naming ``flag`` otherwise)."""
    try:
        value = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
    except (OSError, ValueError):
        value = None
    if not isinstance(value, dict):
        raise ConfigError(f"{flag}: {path} is not a readable JSON file")
    return value


def main(argv: list[str] | None = None) -> int:
    """Record the residual part in the manifest."""
    p = OneLineParser(prog="python scripts/ship_residual.py", description=__doc__)
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--players", type=int, required=True, help="the seat count it serves")
    p.add_argument("--margin", type=float, required=True, help="the logit lead (>= 0)")
    p.add_argument("--eval", type=Path, action="append", required=True,
                   help="benchmarks/learned_agents.py --out JSON of a final evaluation")
    p.add_argument("--timing", type=Path, default=None, help="its --timing JSON")
    p.add_argument("--validation", default="", help="how the margin was chosen")
    p.add_argument("--network", type=Path, default=None,
                   help="a network trained for this seat count (copied beside the others)")
    p.add_argument("--run", type=Path, default=None, help="its training run folder")
    p.add_argument("--data", type=Path, default=None, help="its training data folder")
    p.add_argument("--out", type=Path, default=None,
                   help="the folder whose manifest.json to write (default: the package's)")
    args = p.parse_args(argv)
    info = GAMES[args.game]
    if not info.min_players <= args.players <= info.max_players:
        p.error(f"--players {args.players}: {args.game} seats "
                f"{info.min_players}-{info.max_players}")
    if not 0 <= args.margin < math.inf:
        p.error(f"--margin {args.margin}: must be a finite number >= 0")
    if args.network is None and (args.run is not None or args.data is not None):
        p.error("--run and --data describe a --network; give the network too")
    finals = [read_evaluation(path, args.game, args.margin) for path in args.eval]
    timing = read_evaluation(args.timing, args.game, args.margin) if args.timing else None
    folder = args.out or manifest_path().parent
    entry = manifest_entry(args.game, folder)
    part = {"margin": args.margin, "method": METHOD, "network": entry["file"],
            "validation": args.validation, "final_evaluation": finals, "timing": timing,
            "commit": git_commit()}
    if args.network is not None:
        part.update(own_network(args, folder))
    entry.setdefault("residual_at", {})[str(args.players)] = part
    write_manifest(folder, args.game, entry)
    print(f"pretrained now plays the residual agent (margin {args.margin:g}) for "
          f"{args.game} at {args.players} players")
    return 0


def cli(argv: list[str] | None = None) -> int:
    """:func:`main` with one-line errors and exit status 2 for bad input."""
    return run_console("python scripts/ship_residual.py", main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())
