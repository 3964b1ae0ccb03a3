"""Regenerate the networks shipped as ``pretrained`` (``agents/pretrained/``).

``python scripts/make_pretrained.py [--games flowers,tea] [--budget-minutes 8]``

For each game, in the work folder ``--work/GAME`` (default ``runs/pretrained/GAME``):

1. **data**: heuristic games (:mod:`formosa_envs.training.imitation.data`, ``--players`` seats,
every
   seat the teacher, data seed ``--seed``). The number of games is ``--data-games``,
   or what fits in 45% of the budget (timed on two games first), capped per game
   (:data:`MAX_DATA_GAMES`, which keeps the data in memory small);
2. **cloning**: :func:`formosa_envs.training.imitation.bc.train_bc` with the shipping config
   (:data:`SHIP_LAYERS`: networks small enough to ship), stopped after the epoch that
   passes 30% of the budget (or ``--max-epochs``); the best held-out epoch is kept;
3. **float16**: the weights are stored as float16; the agreement with the teacher on
   the held-out games of float32 and float16 weights is measured and recorded;
4. **evaluation**: ``--eval-games`` games against ``random`` and as many against
   ``heuristic`` (:func:`formosa_envs.evaluation.evaluate.run_tournament`, seats rotated, seed
   ``--eval-seed``). Tournament chance seeds are 32-bit, the data's are 64-bit with bit
   63 set, so evaluation deals never repeat training deals;
5. the ``.npz`` goes to ``--out`` (default the package folder) and its manifest entry
   (sha256, sizes, env id, config, seeds, counts, commit, wall times, evaluation) to
   ``--out/manifest.json``.

Resumable per game: finished stages are read back from the work folder (data manifest,
cloning report or checkpoint, evaluation files); a game whose shipped file already
matches a finished work folder is skipped unless ``--force``. Bad input: one line,
status 2.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from formosa_envs.agents.pretrained import FORMAT, MANIFEST, file_sha256, package_root  # noqa: E402

import formosa_envs  # noqa: E402
from formosa_envs.core.errors import ConfigError  # noqa: E402
from formosa_envs.games import GAMES, make_game  # noqa: E402
from formosa_envs.tools.console import run_console  # noqa: E402
from formosa_envs.tools.usage import (  # noqa: E402
    OneLineParser,
    int_between,
    non_negative_int,
    positive_float,
)

PROG = "python scripts/make_pretrained.py"
TEACHER = "heuristic"
EVAL_SEED = 14_014
MAX_DATA_GAMES = {"flowers": 4000, "taiwan": 2500, "tea": 1200, "dadaocheng": 600}
SHIP_LAYERS = {"flowers": ([256, 256], [128, 128]), "taiwan": ([256, 256], [64, 64]),
               "tea": ([256, 256], [128, 128]), "dadaocheng": ([256, 256], [128, 128])}
DATA_SHARE, TRAIN_SHARE = 0.45, 0.30


class _Budget(Exception):
    """Raised from the cloning log when the training budget is spent."""


def log(message: str) -> None:
    """One progress line, flushed."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def data_games(game: str, players: int, budget_s: float, workers: int) -> int:
    """Games that fit in ``DATA_SHARE`` of the budget (two timed games), capped."""
    from formosa_envs.training.imitation.data import DataSettings, play_recorded
    settings = DataSettings(game, 2, TEACHER, num_players=players)
    built = make_game(game, num_players=players)
    start = time.perf_counter()
    for g in range(2):
        play_recorded(built, settings, g)
    per_game = (time.perf_counter() - start) / 2
    fit = int(DATA_SHARE * budget_s * workers * 0.8 / max(per_game, 1e-6))
    return max(50, min(MAX_DATA_GAMES[game], fit))


def stage_data(game: str, work: Path, args: Any) -> dict[str, Any]:
    """The data folder's manifest (generated unless a finished one is there)."""
    from formosa_envs.training.imitation.data import DataSettings, generate
    folder = work / "data"
    if (folder / "manifest.json").is_file():
        log(f"{game}: data already there ({folder})")
        return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    if folder.exists():
        shutil.rmtree(folder)  # an interrupted generation: its shards are redone
    games = args.data_games or data_games(game, args.players, args.budget_s, args.workers)
    log(f"{game}: generating {games:,} {TEACHER} games ({args.players} players)")
    settings = DataSettings(game, games, TEACHER, num_players=args.players, seed=args.seed)
    manifest = generate(settings, folder, args.workers, show_progress=False)
    log(f"{game}: {manifest['rows']:,} decisions in {manifest['elapsed_s']:.0f} s")
    return manifest


def ship_config(game: str, args: Any) -> Any:
    """The cloning config: the game's ``_bc.toml`` with the shipping layer widths."""
    from formosa_envs.training.imitation.config import default_config_path, load_bc_config
    hidden, value_hidden = SHIP_LAYERS[game]
    return load_bc_config(default_config_path(game), hidden=hidden, value_hidden=value_hidden,
                          epochs=args.max_epochs, threads=1)


def stage_clone(game: str, work: Path, args: Any) -> dict[str, Any]:
    """The cloning report (training, resumed, or read back), with its wall time."""
    from formosa_envs.training.imitation.bc import train_bc
    run = work / "bc"
    if (run / "report.json").is_file():
        log(f"{game}: cloning already done ({run})")
        return json.loads((run / "report.json").read_text(encoding="utf-8"))
    config = ship_config(game, args)
    deadline = time.perf_counter() + TRAIN_SHARE * args.budget_s
    done = [0]

    def progress(line: str) -> None:
        log(f"{game}: {line}")
        if line.startswith("epoch"):
            done[0] += 1
            if time.perf_counter() > deadline:
                raise _Budget

    resume = (run / "checkpoint.pt").is_file()
    start = time.perf_counter()
    try:
        report = train_bc(work / "data", run, config, resume=resume, log=progress)
    except _Budget:
        log(f"{game}: training budget spent after {done[0]} epoch(s); keeping the best")
        history = json.loads((run / "history.json").read_text(encoding="utf-8"))
        config.epochs = len(history)
        report = train_bc(work / "data", run, config, resume=True, log=lambda _: None)
    report["wall_s"] = round(time.perf_counter() - start, 1)
    (run / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


def to_float16(src: Path, dst: Path) -> None:
    """Write ``src``'s network with float16 weights (compressed) to ``dst``."""
    with np.load(src, allow_pickle=False) as data:
        arrays = {k: (data[k].astype(np.float16) if data[k].dtype.kind == "f" else data[k])
                  for k in data.files}
    tmp = dst.with_name(f".{dst.stem}.tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(dst)


def float16_check(work: Path, config: dict[str, Any], f32: Path, f16: Path) -> dict[str, Any]:
    """Held-out agreement with the teacher of the float32 and float16 weights."""
    from formosa_envs.training.imitation.bc import split_by_game
    from formosa_envs.training.imitation.data import load_data
    data = load_data(work / "data")
    _, held = split_by_game(data.game, config["holdout"], config["seed"])
    return {"held_out_decisions": int(len(held)), **agreements(data, held, f32, f16)}


def agreements(data: Any, rows: np.ndarray, f32: Path, f16: Path) -> dict[str, float]:
    """On ``rows`` of imitation ``data``: how often the float32 and the float16 network
    pick the teacher's move, and how often they pick the same move."""
    from formosa_envs.agents.network import Network
    picks = []
    for path in (f32, f16):
        with np.load(path, allow_pickle=False) as raw:
            arrays = {k: (raw[k].astype(np.float32) if raw[k].dtype.kind == "f" else raw[k])
                      for k in raw.files}
        net = Network.from_arrays(arrays, str(path))
        logits = np.where(data.mask[rows], net.logits(data.obs[rows]), -np.inf)
        picks.append(logits.argmax(axis=1))
    teacher = data.action[rows]
    return {"agreement_float32": float((picks[0] == teacher).mean()),
            "agreement_float16": float((picks[1] == teacher).mean()),
            "float16_same_move": float((picks[0] == picks[1]).mean())}


def stage_eval(game: str, work: Path, network: Path, opponent: str, args: Any
               ) -> dict[str, Any]:
    """``--eval-games`` games of the network against ``opponent`` (read back if done)."""
    from formosa_envs.evaluation.evaluate import run_tournament, win_share
    path = work / f"eval-{opponent}.json"
    sha = file_sha256(network.read_bytes())
    if path.is_file():
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved.get("sha256") == sha and saved.get("games_requested") == args.eval_games:
            log(f"{game}: evaluation against {opponent} already done")
            return saved
    spec = f"policy:{network}"
    log(f"{game}: evaluating against {opponent} ({args.eval_games} games, seed {args.eval_seed})")
    start = time.perf_counter()
    result = run_tournament(game, [spec, opponent], 2, args.eval_games, seed=args.eval_seed,
                            workers=args.workers, show_progress=False)
    share = win_share(result, spec)
    saved = {"opponent": opponent, "players": 2, "seed": args.eval_seed,
             "games_requested": args.eval_games, "games": share["games"],
             "wins": share["wins"], "win_rate": share["win_rate"],
             "win_rate_ci95": [share["win_low"], share["win_high"]],
             "seats": "rotated; each deal played from both seats",
             "wall_s": round(time.perf_counter() - start, 1), "sha256": sha}
    path.write_text(json.dumps(saved, indent=2) + "\n", encoding="utf-8")
    log(f"{game}: vs {opponent} {share['win_rate']:.1%} "
        f"[{share['win_low']:.1%}, {share['win_high']:.1%}]")
    return saved


def git_commit() -> str:
    """``git rev-parse HEAD`` of this checkout ('unknown' outside git)."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, check=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip()


def make_game_network(game: str, args: Any) -> dict[str, Any]:
    """Every stage for ``game``; its manifest entry (the ``.npz`` written to ``--out``)."""
    work = args.work / game
    work.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    data = stage_data(game, work, args)
    report = stage_clone(game, work, args)
    shipped = work / "ship.npz"    # written once: its bytes (and sha256) stay put
    if not shipped.is_file():
        to_float16(work / "bc" / "best.npz", shipped)
    check = float16_check(work, report["config"], work / "bc" / "best.npz", shipped)
    log(f"{game}: held-out agreement float32 {check['agreement_float32']:.2%}, float16 "
        f"{check['agreement_float16']:.2%}")
    evals = {f"vs_{o}": stage_eval(game, work, shipped, o, args) for o in ("random", TEACHER)}
    target = args.out / f"{game}.npz"
    shutil.copyfile(shipped, target)
    entry = manifest_entry(game, target, data, report, check, evals)
    entry["budget_minutes"] = args.budget_minutes
    log(f"{game}: done in {time.perf_counter() - start:.0f} s this run")
    return entry


def manifest_entry(game: str, target: Path, data: dict[str, Any], report: dict[str, Any],
                   check: dict[str, Any], evals: dict[str, Any]) -> dict[str, Any]:
    """The manifest record of one shipped network (see agents/pretrained.py); ``wall_s``
    sums the stages' own times (data, cloning, evaluation), so a resumed run keeps them."""
    wall = data["elapsed_s"] + report.get("wall_s", 0.0) + sum(e["wall_s"] for e in evals.values())
    info, built = GAMES[game], make_game(game, num_players=data["num_players"])
    best = report["best"]
    return {
        "file": target.name, "sha256": file_sha256(target.read_bytes()),
        "bytes": target.stat().st_size,
        "format": "formosa_envs.training.common.network_export .npz (policy + value head), "
                  "float16 weights",
        "observation_size": int(built.observation_size), "num_actions": int(built.num_actions),
        "env_id": info.env_id, "formosa_envs_version": formosa_envs.__version__,
        "trained_players": data["num_players"],
        "serves_players": list(range(info.min_players, info.max_players + 1)),
        "method": "behaviour cloning of the heuristic",
        "teacher": data["teacher"],
        "data": {k: data[k] for k in ("games", "rows", "decisions", "seed", "seed_scheme",
                                      "workers", "elapsed_s")},
        "training": {"config": report["config"], "epochs": report["epochs"],
                     "best_epoch": best.get("epoch"), "value_epoch": best.get("value_epoch"),
                     "held_out_ce": best.get("held_ce"), "uniform_ce": best.get("uniform_ce"),
                     "held_out_agreement": best.get("agreement"),
                     "value_mse": best.get("best_value_mse"), "wall_s": report.get("wall_s")},
        "float16": check, "evaluation": evals, "commit": git_commit(),
        "generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "wall_s": round(wall, 1)}


def write_manifest(out: Path, game: str, entry: dict[str, Any]) -> None:
    """Add (or replace) ``game``'s entry in ``out/manifest.json``, atomically."""
    path = out / MANIFEST
    manifest = {"format": FORMAT, "games": {}}
    if path.is_file():
        manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["games"][game] = entry
    manifest["games"] = dict(sorted(manifest["games"].items()))
    tmp = out / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)


def game_list(text: str) -> list[str]:
    """``flowers,tea`` -> the games (ConfigError naming the unknown one)."""
    games = [g.strip() for g in text.split(",") if g.strip()]
    bad = [g for g in games if g not in GAMES]
    if bad or not games:
        raise ConfigError(f"--games must be a comma-separated list of {', '.join(GAMES)}, "
                          f"got {text!r}")
    return games


def main(argv: list[str] | None = None) -> int:
    """Regenerate the shipped networks of ``--games``."""
    p = OneLineParser(prog=PROG, description="Regenerate the pretrained networks.")
    p.add_argument("--games", default=",".join(GAMES), help="comma-separated (default all)")
    p.add_argument("--budget-minutes", type=positive_float, default=8.0,
                   help="time per game for data and cloning (default 8)")
    p.add_argument("--data-games", type=int_between(2, 1_000_000), default=None,
                   help="heuristic games to clone (default: what fits the budget)")
    p.add_argument("--max-epochs", type=int_between(1, 1000), default=None,
                   help="cloning epochs at most (default: the game's _bc.toml)")
    p.add_argument("--players", type=int_between(2, 4), default=2, help="training seats")
    p.add_argument("--eval-games", type=int_between(2, 100_000), default=200,
                   help="evaluation games per opponent (default 200)")
    p.add_argument("--eval-seed", type=non_negative_int, default=EVAL_SEED)
    p.add_argument("--seed", type=non_negative_int, default=0, help="data seed (default 0)")
    p.add_argument("--workers", type=int_between(1, 64), default=2)
    p.add_argument("--work", type=Path, default=ROOT / "runs" / "pretrained")
    p.add_argument("--out", type=Path, default=None, help="default: agents/pretrained/")
    p.add_argument("--force", action="store_true", help="redo games already shipped")
    args = p.parse_args(argv)
    args.budget_s = args.budget_minutes * 60
    args.out = args.out or Path(str(package_root()))
    args.out.mkdir(parents=True, exist_ok=True)
    for game in game_list(args.games):
        if args.force and (args.work / game).exists():
            shutil.rmtree(args.work / game)
        entry = make_game_network(game, args)
        write_manifest(args.out, game, entry)
        log(f"{game}: shipped {entry['file']} ({entry['bytes'] / 1e6:.2f} MB)")
    return 0


def cli(argv: list[str] | None = None) -> int:
    """:func:`main` with bad input reported as one line and status 2."""
    return run_console(PROG, main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())
