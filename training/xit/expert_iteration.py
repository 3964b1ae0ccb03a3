"""Expert iteration: AlphaZero-style self-play for every game, one code path.

``python -m formosa_envs.training.xit.expert_iteration GAME --init BC.npz --out RUN_DIR [--config
TOML]
[--iterations N] [--resume]`` repeats, from the network ``--init`` (a policy with a value
head, e.g. ``formosa_envs.training.imitation.bc``'s ``best.npz``):

1. **Self-play** (:mod:`formosa_envs.training.xit.selfplay`, worker processes): ``games`` games
whose
   seats search with :class:`~formosa_envs.agents.az.AZAgent` on the incumbent network (root noise,
   sampled early moves; a ``league_fraction`` of games seats one ``league`` opponent). Each
   learner decision records the observation, the legal mask, the normalised visit counts
   and the seat's own final return.
2. **Training** (torch, CPU): from the latest network, fresh Adam for ``epochs`` passes
   over the samples of the last ``replay_iterations`` iterations: masked cross-entropy
   against the visit distribution (soft targets) plus ``value_weight`` times the squared
   error of ``tanh(value)`` against the return.
3. **Gating** (``eval_games`` per match, tournament seed ``eval_seed + i``; tournament chance
   seeds are 32-bit, self-play's 64-bit with bit 63 set, so they never meet): the new
   network as ``az:N`` against the incumbent as ``az:N``, and as ``az:N`` and as the raw
   policy against the heuristic (Wilson 95% intervals). The new network becomes the
   incumbent when its share against the old one is at least ``gate_win_rate``.

Run folder: ``config.json``, ``networks/iter-0000.npz`` (the init) ... ``iter-NNNN.npz`` (each
iteration's export, the ``.npz`` format of :mod:`formosa_envs.training.common.network_export`),
``data/iter-NNNN.npz``
(self-play samples), ``history.json`` (one report per iteration, wall times included),
``state.json`` (written last: the iteration reached, incumbent, best), ``latest.npz`` and
``best.npz`` (the highest az:N share against the heuristic). ``--resume`` continues at the
next iteration, to the same networks as an uninterrupted run.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch
from formosa_envs.agents.files import read_agent_file
from formosa_envs.agents.network import Network
from formosa_envs.agents.policy import policy_errors
from formosa_envs.training.common.torch_nets import export, masked_logits, mlp
from formosa_envs.training.xit.config import (
    RESUMABLE,
    XitConfig,
    check_league,
    default_config_path,
    load_xit_config,
)
from formosa_envs.training.xit.selfplay import SAMPLE_KEYS, SelfPlayTask, play_selfplay_chunk
from torch import nn

from formosa_envs.core.errors import ConfigError
from formosa_envs.evaluation.evaluate import run_tournament, win_share
from formosa_envs.games import GAMES, make_game
from formosa_envs.tools.console import run_console
from formosa_envs.tools.progress import progress
from formosa_envs.tools.usage import MAX_WORKERS, OneLineParser, check_output_folder, int_between

PROG = "python -m formosa_envs.training.xit.expert_iteration"
FORMAT = "formosa-xit/1"


class XitNet(nn.Module):
    """The policy tower (logits) and value tower (before tanh) of an exported network."""

    def __init__(self, network: Network) -> None:
        super().__init__()
        act = network.activation
        self.policy = _tower(network.layers, act)
        self.value = _tower(network.value_layers or [], act)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Action logits and value in [-1, 1] for a batch of observations."""
        return self.policy(x), torch.tanh(self.value(x)).squeeze(-1)


def _tower(layers: list[tuple[np.ndarray, np.ndarray]], activation: str) -> nn.Sequential:
    hidden = [int(w.shape[0]) for w, _ in layers[:-1]]
    seq = mlp(int(layers[0][0].shape[1]), hidden, int(layers[-1][0].shape[0]), activation)
    linears = [m for m in seq if isinstance(m, nn.Linear)]
    with torch.no_grad():
        for module, (w, b) in zip(linears, layers, strict=True):
            module.weight.copy_(torch.from_numpy(np.asarray(w, np.float32)))
            module.bias.copy_(torch.from_numpy(np.asarray(b, np.float32)))
    return seq


def soft_cross_entropy(logits: torch.Tensor, mask: torch.Tensor, target: torch.Tensor
                       ) -> torch.Tensor:
    """Per-row ``-sum(target * log softmax(masked logits))`` (illegal actions get no mass)."""
    logp = torch.log_softmax(masked_logits(logits, mask), dim=1)
    return -torch.where(target > 0, target * logp, torch.zeros_like(logp)).sum(dim=1)


def xit_losses(net: XitNet, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-row soft policy cross-entropy and squared value error of ``batch``."""
    logits, value = net(batch["obs"])
    return soft_cross_entropy(logits, batch["mask"], batch["policy"]), (value - batch["ret"]) ** 2


def train_network(net: XitNet, samples: dict[str, np.ndarray], config: XitConfig,
                  iteration: int, num_actions: int) -> dict[str, float]:
    """``epochs`` Adam passes over ``samples`` (order fixed by seed and iteration); the
    mean policy CE and value MSE of the first and last pass."""
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed * 10_007 + iteration)
    data = {"obs": torch.from_numpy(samples["obs"]), "policy": torch.from_numpy(samples["policy"]),
            "ret": torch.from_numpy(samples["ret"]),
            "mask": torch.from_numpy(np.unpackbits(samples["mask"], axis=1,
                                                   count=num_actions).astype(bool))}
    opt = torch.optim.Adam(net.parameters(), lr=config.learning_rate,
                           weight_decay=config.weight_decay)
    gen = torch.Generator().manual_seed(config.seed * 10_007 + iteration)
    passes = []
    net.train()
    for _ in range(config.epochs):
        order = torch.randperm(len(data["ret"]), generator=gen)
        sums = np.zeros(2)
        for start in range(0, len(order), config.batch_size):
            rows = order[start:start + config.batch_size]
            ce, sq = xit_losses(net, {k: v[rows] for k, v in data.items()})
            loss = ce.mean() + config.value_weight * sq.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sums += [float(ce.detach().sum()), float(sq.detach().sum())]
        passes.append(sums / max(len(order), 1))
    return {"policy_ce_first": float(passes[0][0]), "value_mse_first": float(passes[0][1]),
            "policy_ce": float(passes[-1][0]), "value_mse": float(passes[-1][1])}


# ----- the run folder -----------------------------------------------------------------------

def _net_path(run: Path, i: int) -> Path:
    return run / "networks" / f"iter-{i:04d}.npz"


def _data_path(run: Path, i: int) -> Path:
    return run / "data" / f"iter-{i:04d}.npz"


def _write_json(path: Path, value: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)


def _load_init(path: str | Path, game: Any, data: bytes | None = None) -> Network:
    """The network at ``path`` (or of its bytes ``data``, read already), fit to ``game``
    and with a value head; ``PolicyFileError`` / ``ConfigError`` naming the file."""
    network = Network.load(path) if data is None else Network.from_bytes(data, path)
    network.bind(game)
    if not network.has_value:
        raise ConfigError(f"--init {path}: the network has no value head (vw0 ... vw_out); "
                          "clone one with python -m formosa_envs.training.imitation.bc "
                          "(value_weight > 0)")
    return network


def _read_init(path: str | Path) -> bytes:
    """The bytes of ``--init`` network ``path``, read once (a regular file within the cap
    on agent files: ``formosa_envs.agents.files``), so the file checked is the file copied."""
    with policy_errors():
        return read_agent_file(path, "--init network file")


def _start(run: Path, game: str, init: str | Path | None, config: XitConfig,
           resume: bool, init_data: bytes | None = None) -> dict[str, Any]:
    """Create (or check, on resume) the run folder; the saved state ({} for a fresh run).
    ``init_data``: the bytes of ``init`` (read by :func:`_read_init`)."""
    settings = {"format": FORMAT, "game": game, **asdict(config)}
    if not resume:
        if run.exists() and any(run.iterdir()):
            raise ConfigError(f"--out {run}: the folder is not empty; pass --resume to continue "
                              "an expert-iteration run there, or give a new folder")
        if init is None:
            raise ConfigError("--init is required to start a run (an exported .npz network "
                              "with a value head, e.g. a cloning run's best.npz)")
        (run / "networks").mkdir(parents=True, exist_ok=True)
        (run / "data").mkdir(exist_ok=True)
        _net_path(run, 0).write_bytes(_read_init(init) if init_data is None else init_data)
        _write_json(run / "config.json", settings)
        return {}
    if not (run / "state.json").is_file() or not (run / "config.json").is_file():
        raise ConfigError(f"--resume: {run} holds no expert-iteration run (no state.json)")
    saved = json.loads((run / "config.json").read_text(encoding="utf-8"))
    changed = [k for k in settings if k not in RESUMABLE and saved.get(k) != settings[k]]
    if changed:
        raise ConfigError(f"--resume: the run in {run} has another {changed[0]} "
                          f"({saved.get(changed[0])!r}, now {settings[changed[0]]!r}); only "
                          f"{', '.join(RESUMABLE)} may change on resume")
    if init is not None and (_read_init(init) if init_data is None else init_data) \
            != _net_path(run, 0).read_bytes():
        raise ConfigError(f"--resume: --init {init} is not the network the run in {run} "
                          "started from (leave --init out to resume)")
    return json.loads((run / "state.json").read_text(encoding="utf-8"))


# ----- one iteration ------------------------------------------------------------------------

def self_play(run: Path, game: str, config: XitConfig, i: int, incumbent: int,
              workers: int, show_progress: bool) -> tuple[dict[str, np.ndarray], dict[str, int]]:
    """Iteration ``i``'s self-play games in ``workers`` processes; samples and counts."""
    past = tuple(str(_net_path(run, k).resolve()) for k in range(i) if k != incumbent)
    tasks = [SelfPlayTask(game, {}, config, i, first, min(first + config.chunk, config.games),
                          str(_net_path(run, incumbent).resolve()), past)
             for first in range(0, config.games, config.chunk)]
    label = f"{game} self-play {i}"
    if workers == 1 or len(tasks) == 1:
        results = list(progress(map(play_selfplay_chunk, tasks), len(tasks), label,
                                enabled=show_progress))
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
            futures = {pool.submit(play_selfplay_chunk, t): k for k, t in enumerate(tasks)}
            done = {futures[f]: f.result() for f in progress(
                as_completed(futures), len(tasks), label, enabled=show_progress)}
        results = [done[k] for k in range(len(tasks))]
    samples = {key: np.concatenate([r[0][key] for r in results]) for key in SAMPLE_KEYS}
    counts = {k: sum(r[1][k] for r in results) for k in ("games", "decisions", "samples")}
    return samples, counts


def replay_window(run: Path, i: int, config: XitConfig) -> dict[str, np.ndarray]:
    """The samples of iterations ``max(1, i - replay_iterations + 1) .. i``, in order."""
    parts = []
    for k in range(max(1, i - config.replay_iterations + 1), i + 1):
        with np.load(_data_path(run, k), allow_pickle=False) as data:
            parts.append({key: data[key] for key in SAMPLE_KEYS})
    return {key: np.concatenate([p[key] for p in parts]) for key in SAMPLE_KEYS}


def gate(run: Path, game: str, config: XitConfig, i: int, incumbent: int,
         workers: int) -> dict[str, Any]:
    """The gating matches of iteration ``i`` (empty when ``eval_games`` is 0)."""
    if config.eval_games == 0:
        return {}
    new, old = _net_path(run, i).resolve(), _net_path(run, incumbent).resolve()
    n = config.simulations
    matches = {"az_vs_incumbent": (f"az:{new}:{n}", f"az:{old}:{n}"),
               "az_vs_heuristic": (f"az:{new}:{n}", "heuristic"),
               "raw_vs_heuristic": (f"policy:{new}", "heuristic")}
    report = {}
    for name, (a, b) in matches.items():
        start = time.perf_counter()
        result = run_tournament(game, [a, b], config.num_players, config.eval_games,
                                seed=config.eval_seed + i, workers=workers,
                                show_progress=False)
        report[name] = {**win_share(result, a), "seconds": time.perf_counter() - start}
    return report


def run_iteration(run: Path, game: str, config: XitConfig, state: dict[str, Any],
                  workers: int, show_progress: bool) -> dict[str, Any]:
    """Self-play, train, export and gate iteration ``state['iteration'] + 1``; its report."""
    i = state["iteration"] + 1
    incumbent = state["incumbent"]
    engine = make_game(game, num_players=config.num_players)
    t0 = time.perf_counter()
    samples, counts = self_play(run, game, config, i, incumbent, workers, show_progress)
    tmp = _data_path(run, i).with_name(f".iter-{i:04d}.tmp.npz")
    np.savez_compressed(tmp, **samples)
    tmp.replace(_data_path(run, i))
    t1 = time.perf_counter()
    net = XitNet(Network.load(_net_path(run, i - 1)))
    losses = train_network(net, replay_window(run, i, config), config, i, engine.num_actions)
    export(net, Network.load(_net_path(run, 0)).activation, _net_path(run, i))
    t2 = time.perf_counter()
    evaluation = gate(run, game, config, i, incumbent, workers)
    share = evaluation.get("az_vs_incumbent", {}).get("win_rate", 1.0)
    accepted = share >= config.gate_win_rate
    return {"iteration": i, **counts, "selfplay_network": incumbent, "accepted": accepted,
            "losses": losses, "evaluation": evaluation, "selfplay_s": t1 - t0,
            "train_s": t2 - t1, "eval_s": time.perf_counter() - t2,
            "seconds": time.perf_counter() - t0}


def _advance(run: Path, state: dict[str, Any], report: dict[str, Any]) -> dict[str, Any]:
    """The run's state after ``report``: incumbent, best, wall time; files written."""
    i = report["iteration"]
    score = report["evaluation"].get("az_vs_heuristic", {}).get("win_rate", 0.0)
    best, best_score = state["best"], state["best_score"]
    if best_score is None or score >= best_score:
        best, best_score = i, score
    wall = state["wall_s"] + report["seconds"]
    report["wall_s"] = wall
    history = [*state["history"], report]
    new = {"iteration": i, "incumbent": i if report["accepted"] else state["incumbent"],
           "best": best, "best_score": best_score, "wall_s": wall, "history": history}
    shutil.copyfile(_net_path(run, i), run / ".latest.npz.tmp")
    (run / ".latest.npz.tmp").replace(run / "latest.npz")
    shutil.copyfile(_net_path(run, best), run / ".best.npz.tmp")
    (run / ".best.npz.tmp").replace(run / "best.npz")
    _write_json(run / "history.json", history)
    _write_json(run / "state.json", new)
    return new


def run_xit(game: str, out: str | Path, init: str | Path | None = None,
            config: XitConfig | None = None, resume: bool = False, workers: int | None = None,
            show_progress: bool = True, log: Any = print) -> dict[str, Any]:
    """Run (or resume) expert iteration up to ``config.iterations`` (module docstring).

    Everything is checked before the first game: bad settings, league specs, an unusable
    ``--init`` network, a non-empty ``out`` without ``resume`` or a resume with other
    settings raise a :class:`ConfigError` (or ``AgentSpecError``) naming the culprit.
    Returns the final state (``history``: one report per iteration).
    """
    if game not in GAMES:
        raise ConfigError(f"game must be one of {', '.join(sorted(GAMES))}, got {game!r}")
    config = config or XitConfig()
    config.validate()
    check_league(config, game)
    workers = (os.cpu_count() or 1) if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise ConfigError(f"workers must be a whole number from 1 to {MAX_WORKERS}, "
                          f"got {workers!r}")
    engine = make_game(game, num_players=config.num_players)
    init_data = None if init is None else _read_init(init)
    if init is not None:
        _load_init(init, engine, init_data)
    run = check_output_folder(out, "--out")
    state = _start(run, game, init, config, resume, init_data) or {
        "iteration": 0, "incumbent": 0, "best": 0, "best_score": None, "wall_s": 0.0,
        "history": []}
    if not state["history"]:
        _load_init(_net_path(run, 0), engine)
    while state["iteration"] < config.iterations:
        report = run_iteration(run, game, config, state, workers, show_progress)
        state = _advance(run, state, report)
        log(_line(report))
    return state


def _line(r: dict[str, Any]) -> str:
    parts = [f"iteration {r['iteration']}: {r['games']} games, {r['samples']:,} samples, "
             f"policy CE {r['losses']['policy_ce']:.3f}, value MSE {r['losses']['value_mse']:.3f}"]
    for name, e in r["evaluation"].items():
        parts.append(f"{name} {e['win_rate']:.1%} [{e['win_low']:.1%}, {e['win_high']:.1%}]")
    return ", ".join(parts) + f", {r['seconds']:.1f} s"


def main(argv: list[str] | None = None) -> int:
    """``python -m formosa_envs.training.xit.expert_iteration GAME --init NPZ --out RUN_DIR``."""
    p = OneLineParser(prog=PROG, description="AlphaZero-style expert iteration.")
    p.add_argument("game", choices=sorted(GAMES), help="the game")
    p.add_argument("--init", default=None, help="the starting network (.npz with a value "
                   "head, e.g. a cloning run's best.npz); needed unless --resume")
    p.add_argument("--out", required=True, help="the run folder")
    p.add_argument("--config", default=None,
                   help="a TOML file (default training/configs/GAME_xit.toml)")
    p.add_argument("--iterations", type=int_between(1, 10_000), default=None,
                   help="override iterations")
    p.add_argument("--workers", type=int_between(1, MAX_WORKERS), default=None,
                   help="worker processes (default: every CPU)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out")
    args = p.parse_args(argv)
    config = load_xit_config(args.config or default_config_path(args.game),
                             iterations=args.iterations)
    state = run_xit(args.game, args.out, args.init, config, args.resume, args.workers)
    print(f"{state['iteration']} iterations; best network: iteration {state['best']}, "
          f"{Path(args.out) / 'best.npz'} (play it as az:{Path(args.out) / 'best.npz'}:"
          f"{config.simulations})")
    return 0


def cli(argv: list[str] | None = None) -> int:
    """:func:`main` with bad input reported as one line and status 2."""
    return run_console(PROG, main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())
