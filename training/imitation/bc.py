"""Behaviour cloning: a policy and a value network from teacher data.

``python -m formosa_envs.training.imitation.bc DATA_DIR --out RUN_DIR [--config
training/configs/GAME_bc.toml]``
reads a data folder of :mod:`formosa_envs.training.imitation.data` and trains, with Adam on
mini-batches
(torch, CPU):

* a **policy** MLP (``hidden``): masked cross-entropy on the teacher's action (illegal
  actions get no probability), or on the teacher's root visit shares when the data has
  them (``--visit-targets``), or on a softmax of its root values (``--value-targets``;
  joined with hard-label data, those rows count as one-hot);
* a **value** MLP (``value_hidden``, its own tower): ``tanh`` output, mean squared error
  on the seat's final return, weighted by ``value_weight``.

The games (not the decisions) are split: ``holdout`` of them, drawn with ``seed``, are
held out. Each epoch reports the train and held-out cross-entropy (and the held-out
uniform-over-legal baseline), the held-out agreement with the teacher (masked argmax
equal to its action) and the held-out value MSE. Training stops early after
``patience`` epochs without a better held-out cross-entropy.

Run folder: ``checkpoint.pt`` (torch state after every epoch: ``--resume`` continues
from it, to the same result as an uninterrupted run), ``history.json`` (the epoch
reports), ``best.npz`` (the policy tower of the epoch with the best held-out
cross-entropy, the value tower of the epoch with the best held-out value MSE) and
``final.npz`` (the last epoch), both in the format of
:mod:`formosa_envs.training.common.network_export`,
playable as ``policy:RUN_DIR/best.npz``. Deterministic given the data, config and seed.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch
from formosa_envs.agents.files import AgentFileError, read_agent_file
from formosa_envs.training.common.torch_nets import export, masked_logits, mlp
from formosa_envs.training.imitation.config import BCConfig, default_config_path, load_bc_config
from formosa_envs.training.imitation.dataset import (
    ImitationData,
    data_layout,
    load_data,
    read_manifest,
)
from torch import nn

from formosa_envs.core.errors import ConfigError, DataError
from formosa_envs.tools.console import run_console
from formosa_envs.tools.usage import OneLineParser, check_output_folder, positive_int

PROG = "python -m formosa_envs.training.imitation.bc"
CHECKPOINT = "checkpoint.pt"
EVAL_BATCH = 8192


class CloneNet(nn.Module):
    """A policy tower (action logits) and a value tower (one number, before tanh)."""

    def __init__(self, inputs: int, actions: int, config: BCConfig) -> None:
        super().__init__()
        self.policy = mlp(inputs, config.hidden, actions, config.activation)
        self.value = mlp(inputs, config.value_hidden, 1, config.activation)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Action logits and value (in [-1, 1]) for a batch of observations."""
        return self.policy(x), torch.tanh(self.value(x)).squeeze(-1)


def split_by_game(games: np.ndarray, holdout: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Row indices of the training and held-out games (``holdout`` of the games, at least 1)."""
    ids = np.unique(games)
    if len(ids) < 2:
        raise ConfigError(f"cloning needs data from at least 2 games (one is held out), got "
                          f"{len(ids)}")
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0xBC,)))
    count = min(len(ids) - 1, max(1, round(holdout * len(ids))))
    held = rng.choice(ids, size=count, replace=False)
    is_held = np.isin(games, held)
    return np.flatnonzero(~is_held), np.flatnonzero(is_held)


class Tensors:
    """The data as torch tensors (shared with the numpy arrays, no copy)."""

    def __init__(self, data: ImitationData) -> None:
        self.obs = torch.from_numpy(data.obs)
        self.mask = torch.from_numpy(data.mask)
        self.action = torch.from_numpy(data.action.astype(np.int64))
        self.ret = torch.from_numpy(data.ret)
        self.target = None if data.target is None else torch.from_numpy(data.target)

    def batch(self, rows: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """``obs, mask, action, ret`` of ``rows``, and the visit-share ``target`` (as
        float32) when the data has one."""
        out = (self.obs[rows], self.mask[rows], self.action[rows], self.ret[rows])
        return out if self.target is None else (*out, self.target[rows].float())


def losses(net: CloneNet, batch: tuple[torch.Tensor, ...]
           ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Per-row cross-entropy (against the visit shares when the batch has them, else the
    recorded action), per-row squared value error, per-row agreement (0/1) with the
    recorded action."""
    obs, mask, action, ret = batch[:4]
    logits, value = net(obs)
    logits = masked_logits(logits, mask)
    if len(batch) > 4:
        ce = -(batch[4] * torch.log_softmax(logits, dim=1)).sum(dim=1)
    else:
        ce = nn.functional.cross_entropy(logits, action, reduction="none")
    agree = (logits.argmax(dim=1) == action).float()
    return ce, (value - ret) ** 2, agree


def train_epoch(net: CloneNet, opt: torch.optim.Optimizer, data: Tensors, rows: np.ndarray,
                config: BCConfig, epoch: int) -> float:
    """One pass over ``rows`` in a shuffled order fixed by (seed, epoch); mean train CE."""
    net.train()
    gen = torch.Generator().manual_seed(config.seed * 100_003 + epoch)
    order = torch.from_numpy(rows)[torch.randperm(len(rows), generator=gen)]
    total, count = 0.0, 0
    for start in range(0, len(order), config.batch_size):
        batch = data.batch(order[start:start + config.batch_size])
        ce, sq, _ = losses(net, batch)
        loss = ce.mean() + config.value_weight * sq.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total, count = total + float(ce.detach().sum()), count + len(ce)
    return total / max(count, 1)


@torch.no_grad()
def evaluate(net: CloneNet, data: Tensors, rows: np.ndarray) -> dict[str, float]:
    """Held-out cross-entropy, agreement with the teacher, value MSE and the uniform
    baseline (mean log of the number of legal actions)."""
    net.eval()
    sums = np.zeros(4)
    index = torch.from_numpy(rows)
    for start in range(0, len(index), EVAL_BATCH):
        batch = data.batch(index[start:start + EVAL_BATCH])
        ce, sq, agree = losses(net, batch)
        uniform = torch.log(batch[1].sum(dim=1).float())
        sums += [float(ce.sum()), float(agree.sum()), float(sq.sum()), float(uniform.sum())]
    n = max(len(rows), 1)
    return {"held_ce": sums[0] / n, "agreement": sums[1] / n, "value_mse": sums[2] / n,
            "uniform_ce": sums[3] / n}


def load_datasets(folders: str | Path | list[str | Path]) -> ImitationData:
    """One data folder, or several of the same game and sizes joined (a DAgger round with
    the teacher's own games); game indices are offset so the held-out split stays by game.
    Raises ``DataError`` naming the folder that does not match the first."""
    paths = [folders] if isinstance(folders, (str, Path)) else list(folders)
    parts = [load_data(p) for p in paths]
    first = parts[0].manifest
    for path, part in zip(paths[1:], parts[1:], strict=True):
        if data_layout(part.manifest) != data_layout(first):
            theirs = ", ".join(f"{k} {v}" for k, v in data_layout(part.manifest).items())
            ours = ", ".join(f"{k} {v}" for k, v in data_layout(first).items())
            raise DataError(f"imitation data {path}: {theirs} differs from {paths[0]} "
                            f"({ours}); only data of one game and layout can be joined")
    if len(parts) == 1:
        return parts[0]
    offsets = np.cumsum([0] + [int(p.game.max()) + 1 for p in parts[:-1]])
    manifest = {**first, "rows": sum(len(p) for p in parts),
                "games": sum(int(p.manifest.get("games", 0)) for p in parts),
                "sources": [str(p) for p in paths]}
    joined = {k: np.concatenate([getattr(p, k) for p in parts])
              for k in ("obs", "mask", "action", "seat", "ret")}
    if any(p.target is not None for p in parts):  # one-hot targets for hard-label parts
        joined["target"] = np.concatenate([_targets(p) for p in parts])
    game = np.concatenate([p.game + o for p, o in zip(parts, offsets, strict=True)])
    return ImitationData(manifest, game=game, **joined)


def _targets(data: ImitationData) -> np.ndarray:
    """The data's visit-share targets, or the one-hot of its actions (float16)."""
    if data.target is not None:
        return data.target
    onehot = np.zeros(data.mask.shape, np.float16)
    onehot[np.arange(len(data)), data.action] = 1.0
    return onehot


def train_bc(data_dir: str | Path | list[str | Path], run_dir: str | Path,
             config: BCConfig | None = None,
             resume: bool = False, log: Any = print,
             init: str | Path | None = None) -> dict[str, Any]:
    """Clone the teacher of ``data_dir`` into ``run_dir`` (module docstring); the report.

    ``init``: an exported network (``best.npz`` of an earlier run) whose policy and value
    towers are the starting weights instead of random ones, so that new teacher data
    fine-tunes it (a distillation step); its layer shapes must be this config's. A
    resumed run continues from its checkpoint and ignores ``init``.

    Raises :class:`ConfigError` for bad settings, a run folder that already holds a
    checkpoint (without ``resume``) or a checkpoint of another run, and ``DataError``
    for unusable data — all before any training.
    """
    config = config or BCConfig()
    config.validate()
    run = check_output_folder(run_dir, "--out")
    state = _start_state(run, config, resume)
    data = load_datasets(data_dir)
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    m = {**data.manifest, "init": None if init is None else str(init)}
    net = CloneNet(m["observation_size"], m["num_actions"], config)
    opt = torch.optim.Adam(net.parameters(), lr=config.learning_rate,
                           weight_decay=config.weight_decay)
    if state:
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
    elif init is not None:
        start_from(net, Path(init))
    train_rows, held_rows = split_by_game(data.game, config.holdout, config.seed)
    tensors = Tensors(data)
    history: list[dict[str, Any]] = state.get("history", []) if state else []
    best = state.get("best") if state else None
    run.mkdir(parents=True, exist_ok=True)
    log(f"cloning {m['game']}: {len(train_rows):,} training and {len(held_rows):,} held-out "
        f"decisions ({len(np.unique(data.game[held_rows]))} held-out games)")
    while len(history) < config.epochs and not _stopped(history, best, config.patience):
        epoch = len(history)
        start = time.perf_counter()
        train_ce = train_epoch(net, opt, tensors, train_rows, config, epoch)
        report = {"epoch": epoch + 1, "train_ce": train_ce, **evaluate(net, tensors, held_rows),
                  "seconds": time.perf_counter() - start}
        history.append(report)
        best = _update_best(best, report, net)
        _save(run, net, opt, config, history, best, m)
        log(_line(report))
    return _finish(run, net, config, history, best, m)


def start_from(net: CloneNet, path: Path) -> None:
    """Copy the policy and value towers of exported network ``path`` into ``net``.

    Raises :class:`ConfigError` naming the file when it cannot be read as an exported
    network, has no value tower, or a layer's shape differs from ``net``'s."""
    from formosa_envs.agents.policy import PolicyAgent, PolicyFileError
    from formosa_envs.training.common.network_export import load_value_layers
    try:
        policy, value = PolicyAgent.load(path).layers, load_value_layers(path)
    except (PolicyFileError, FileNotFoundError) as exc:
        raise ConfigError(f"--init: {exc}") from None
    if not value:
        raise ConfigError(f"--init: {path} has no value tower (vw0 ... vw_out); export "
                          "a cloning run's best.npz")
    for name, tower, layers in (("policy", net.policy, policy), ("value", net.value, value)):
        linear = [m for m in tower if isinstance(m, nn.Linear)]
        shapes = [tuple(m.weight.shape) for m in linear]
        theirs = [tuple(np.shape(w)) for w, _ in layers]
        if shapes != theirs:
            raise ConfigError(f"--init: {path}'s {name} layers are {theirs}, this config's "
                              f"{shapes} (set hidden/value_hidden to the file's widths)")
        with torch.no_grad():
            for m, (w, b) in zip(linear, layers, strict=True):
                m.weight.copy_(torch.from_numpy(np.asarray(w, np.float32)))
                m.bias.copy_(torch.from_numpy(np.asarray(b, np.float32)))


def _start_state(run: Path, config: BCConfig, resume: bool) -> dict[str, Any]:
    """The checkpoint to resume from ({} for a fresh run), checked against ``config``."""
    path = run / CHECKPOINT
    if not resume:
        if path.exists():
            raise ConfigError(f"--out {run}: holds a cloning checkpoint already; pass --resume "
                              "to continue it, or give a new folder")
        return {}
    if not os.path.lexists(path):
        raise ConfigError(f"--resume: no {CHECKPOINT} in {run} to continue")
    try:  # a regular file within the cap, read once (agents.files), or refused unopened
        data = read_agent_file(path, "--resume: cloning checkpoint")
    except AgentFileError as exc:
        raise ConfigError(str(exc)) from None
    try:
        state = torch.load(io.BytesIO(data), map_location="cpu", weights_only=False)
    except (OSError, RuntimeError, EOFError, ValueError) as exc:
        raise ConfigError(f"--resume: {path} cannot be loaded ({exc})") from None
    saved = dict(state.get("config", {}))
    now = asdict(config)
    changed = [k for k in now if k not in ("epochs", "patience") and saved.get(k) != now[k]]
    if changed:
        raise ConfigError(f"--resume: the checkpoint in {run} was trained with another "
                          f"{changed[0]} ({saved.get(changed[0])!r}, now {now[changed[0]]!r}); "
                          "only epochs and patience may change on resume")
    return state


def _update_best(best: dict[str, Any] | None, report: dict[str, Any], net: CloneNet
                 ) -> dict[str, Any]:
    """The best epoch so far: the policy tower of the lowest held-out cross-entropy and,
    separately, the value tower of the lowest held-out value MSE."""
    best = dict(best or {})
    if "held_ce" not in best or report["held_ce"] < best["held_ce"]:
        best.update(report, policy_state=_copy(net.policy))
    if "value_state" not in best or report["value_mse"] < best["best_value_mse"]:
        best.update(value_epoch=report["epoch"], best_value_mse=report["value_mse"],
                    value_state=_copy(net.value))
    return best


def _copy(module: nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in module.state_dict().items()}


def _stopped(history: list[dict[str, Any]], best: dict[str, Any] | None, patience: int) -> bool:
    return best is not None and history[-1]["epoch"] - best["epoch"] >= patience


def _save(run: Path, net: CloneNet, opt: torch.optim.Optimizer, config: BCConfig,
          history: list[dict[str, Any]], best: dict[str, Any], manifest: dict[str, Any]) -> None:
    tmp = run / f".{CHECKPOINT}.tmp"
    torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "config": asdict(config),
                "history": history, "best": best, "game": manifest["game"]}, tmp)
    tmp.replace(run / CHECKPOINT)
    (run / "history.json").write_text(json.dumps(history, indent=2) + "\n", encoding="utf-8")


def _finish(run: Path, net: CloneNet, config: BCConfig, history: list[dict[str, Any]],
            best: dict[str, Any] | None, manifest: dict[str, Any]) -> dict[str, Any]:
    kinds = manifest.get("kinds") or ()
    export(net, config.activation, run / "final.npz", kinds)
    if best is not None:
        final_state = _copy(net)
        net.policy.load_state_dict(best["policy_state"])
        net.value.load_state_dict(best["value_state"])
        export(net, config.activation, run / "best.npz", kinds)
        net.load_state_dict(final_state)
    report = {"game": manifest["game"], "num_players": manifest["num_players"],
              "data_rows": manifest["rows"], "data_games": manifest["games"],
              "init": manifest.get("init"), "kinds": list(kinds),
              "config": asdict(config), "epochs": len(history),
              "best": {k: v for k, v in (best or {}).items() if not k.endswith("_state")},
              "final": history[-1] if history else {}, "history": history,
              "train_seconds": sum(h["seconds"] for h in history)}
    (run / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


def _line(r: dict[str, Any]) -> str:
    return (f"epoch {r['epoch']}: train CE {r['train_ce']:.4f}, held-out CE {r['held_ce']:.4f} "
            f"(uniform {r['uniform_ce']:.4f}), agreement {r['agreement']:.1%}, value MSE "
            f"{r['value_mse']:.4f}, {r['seconds']:.1f} s")


def main(argv: list[str] | None = None) -> int:
    """``python -m formosa_envs.training.imitation.bc DATA_DIR --out RUN_DIR``: clone the data's
    teacher."""
    p = OneLineParser(prog=PROG, description="Behaviour cloning of imitation data.")
    p.add_argument("data", nargs="+", help="data folder(s) written by python -m "
                   "formosa_envs.training.imitation.data (several: joined, e.g. a DAgger "
                   "round and its base)")
    p.add_argument("--out", required=True, help="the run folder (checkpoint, exports)")
    p.add_argument("--config", default=None,
                   help="a TOML file (default training/configs/GAME_bc.toml)")
    p.add_argument("--epochs", type=positive_int, default=None, help="override epochs")
    p.add_argument("--seed", type=_seed, default=None, help="override seed")
    p.add_argument("--resume", action="store_true", help="continue the run in --out")
    p.add_argument("--init", default=None, help="start from this exported network (an "
                   "earlier run's best.npz) and fine-tune it on the data")
    args = p.parse_args(argv)
    game = _data_game(args.data[0])
    path = args.config or default_config_path(game)
    config = load_bc_config(path, epochs=args.epochs, seed=args.seed)
    report = train_bc(args.data, args.out, config, resume=args.resume, init=args.init)
    best = report["best"]
    print(f"best epoch {best.get('epoch')}: held-out agreement {best.get('agreement', 0):.1%}; "
          f"play it as {'residual' if report['kinds'] else 'policy'}:"
          f"{Path(args.out) / 'best.npz'}")
    return 0


def _seed(text: str) -> int:
    value = positive_int(text) if text != "0" else 0
    if value > 2**31 - 1:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to 2**31-1, got {text}")
    return value


def _data_game(folder: str) -> str:
    """The game named by a data folder's manifest (checked fully by :func:`load_data`)."""
    return str(read_manifest(Path(folder))["game"])


def cli(argv: list[str] | None = None) -> int:
    """:func:`main` with bad input reported as one line and status 2."""
    return run_console(PROG, main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())

