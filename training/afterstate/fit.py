"""Train the two-headed afterstate evaluator on play-out labels and export it.

The network maps :func:`formosa_envs.agents.afterstate.afterstate_features` to two outputs:
the final score margin (in units of ``margin_scale`` VP) and the win logit. The loss of a
batch of decisions (each with all its sibling rows) is

* the squared error of the *sibling-centred* margin (prediction and label each less their
  decision's mean): what ranks siblings, free of the luck the siblings share;
* ``absolute_weight`` times the squared error of the raw margin (keeps the output on scale);
* ``win_loss_weight`` times the binary cross-entropy of the win head against the win share.

Whole games are held out (``holdout``); training stops when the held-out loss has not
improved for ``patience`` epochs, and the best epoch's weights are kept. The held-out
decisions also report *pick gain*: the label margin of the network's choice among the
siblings less that of the heuristic's own move (rank 0), beside the best sibling's gain
(what a perfect ranker of these labels would reach).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from formosa_envs.agents.afterstate import (
    CANDIDATE_FEATURES,
    EvaluatorInfo,
    stack_features,
    value_feature_count,
)
from torch import nn

from formosa_envs.games import make_game

from .config import AfterstateConfig


def split_games(labels: dict[str, np.ndarray], holdout: float, seed: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """Row masks of the training and held-out games (whole games either side)."""
    games = np.unique(labels["game"])
    rng = np.random.default_rng(seed)
    held = rng.choice(games, size=max(1, round(len(games) * holdout)), replace=False)
    test = np.isin(labels["game"], held)
    if test.all():
        raise ValueError("every labelled game is held out: label more games")
    return ~test, test


def assemble(labels: dict[str, np.ndarray], num_actions: int) -> np.ndarray:
    """The network inputs of every row, one decision at a time through
    :func:`formosa_envs.agents.afterstate.stack_features` (as the agent builds them)."""
    starts = np.flatnonzero(np.r_[True, np.diff(labels["decision"]) != 0, True])
    parts = [stack_features(labels["x"][lo:hi], labels["action"][lo:hi],
                            labels["value"][lo:hi], num_actions)
             for lo, hi in zip(starts[:-1], starts[1:], strict=True)]
    return np.concatenate(parts).astype(np.float32)


def board_columns(width: int, num_actions: int, reply: bool) -> np.ndarray:
    """The input columns of the observation and the action one-hot, in a row of ``width``
    (what ``observation_inputs = 0`` leaves out)."""
    observation = width - value_feature_count(reply) - num_actions - CANDIDATE_FEATURES
    columns = np.zeros(width, dtype=bool)
    columns[:observation] = True
    columns[width - CANDIDATE_FEATURES - num_actions:width - CANDIDATE_FEATURES] = True
    return columns


class Evaluator(nn.Module):
    """An MLP with dropout and two outputs (margin, win logit)."""

    def __init__(self, inputs: int, hidden: list[int], dropout: float) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = inputs
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU(), nn.Dropout(dropout)]
            width = h
        layers.append(nn.Linear(width, 2))
        self.net = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """``(n, 2)``: margin (scaled) and win logit."""
        return self.net(x)


class Subset:
    """The rows of some decisions as tensors, with a dense decision index."""

    def __init__(self, labels: dict[str, np.ndarray], rows: np.ndarray, scale: float,
                 features: np.ndarray) -> None:
        self.x = torch.from_numpy(features[rows])
        self.margin = torch.from_numpy(labels["margin"][rows] / scale)
        self.win = torch.from_numpy(labels["win"][rows])
        self.rank = labels["rank"][rows]
        _, group = np.unique(labels["decision"][rows], return_inverse=True)
        self.group = torch.from_numpy(group)
        self.decisions = int(group.max()) + 1 if len(group) else 0
        self.starts = np.searchsorted(group, np.arange(self.decisions + 1))

    def batches(self, size: int, rng: np.random.Generator | None) -> list[np.ndarray]:
        """Row indices of batches of ``size`` decisions (shuffled when ``rng`` is given)."""
        order = np.arange(self.decisions) if rng is None else rng.permutation(self.decisions)
        out = []
        for i in range(0, self.decisions, size):
            chosen = order[i:i + size]
            out.append(np.concatenate([np.arange(self.starts[d], self.starts[d + 1])
                                       for d in chosen]))
        return out


def losses(net: Evaluator, data: Subset, rows: np.ndarray, config: AfterstateConfig
           ) -> torch.Tensor:
    """The module docstring's loss over the decisions of ``rows``."""
    out = net(data.x[rows])
    margin, target = out[:, 0], data.margin[rows]
    _, group = torch.unique(data.group[rows], return_inverse=True)
    count = torch.zeros(int(group.max()) + 1).index_add_(0, group, torch.ones_like(target))
    centred = (margin - _group_mean(margin, group, count)) \
        - (target - _group_mean(target, group, count))
    loss = (centred ** 2).mean() + config.absolute_weight * ((margin - target) ** 2).mean()
    bce = nn.functional.binary_cross_entropy_with_logits(out[:, 1], data.win[rows])
    return loss + config.win_loss_weight * bce


def _group_mean(values: torch.Tensor, group: torch.Tensor, count: torch.Tensor) -> torch.Tensor:
    sums = torch.zeros_like(count).index_add_(0, group, values)
    return (sums / count)[group]


def pick_gain(net: Evaluator, data: Subset, config: AfterstateConfig) -> dict[str, float]:
    """Held-out ranking: mean label margin (VP) of the net's pick and of the best sibling,
    each less the heuristic's own move's."""
    net.eval()
    with torch.no_grad():
        out = net(data.x).numpy()
    score = out[:, 0] * config.margin_scale \
        + config.win_weight / (1.0 + np.exp(-out[:, 1]))
    label = data.margin.numpy() * config.margin_scale
    gains, best = [], []
    for d in range(data.decisions):
        lo, hi = data.starts[d], data.starts[d + 1]
        base = label[lo:hi][data.rank[lo:hi] == 0]
        if not len(base):
            continue
        gains.append(label[lo + int(np.argmax(score[lo:hi]))] - base[0])
        best.append(label[lo:hi].max() - base[0])
    return {"pick_gain_vp": float(np.mean(gains)), "best_sibling_gain_vp": float(np.mean(best)),
            "agreement_with_heuristic": float(np.mean(np.asarray(gains) == 0.0))}


def fit_evaluator(labels: dict[str, np.ndarray], num_actions: int, config: AfterstateConfig,
                  log: Any = print) -> tuple[Evaluator, dict[str, Any]]:
    """Train on ``labels`` (:mod:`.data`) of a game with ``num_actions`` actions; the best
    epoch's network and its report."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    features = assemble(labels, num_actions)
    if not config.observation_inputs:
        features[:, board_columns(features.shape[1], num_actions, bool(config.reply))] = 0.0
    train_rows, test_rows = split_games(labels, config.holdout, config.seed)
    train = Subset(labels, train_rows, config.margin_scale, features)
    test = Subset(labels, test_rows, config.margin_scale, features)
    net = Evaluator(train.x.shape[1], config.hidden, config.dropout)
    optim = torch.optim.AdamW(net.parameters(), lr=config.learning_rate,
                              weight_decay=config.weight_decay)
    rng = np.random.default_rng(config.seed)
    best, best_state, best_epoch, history, start = np.inf, None, 0, [], time.perf_counter()
    for epoch in range(1, config.epochs + 1):
        net.train()
        for rows in train.batches(config.batch_size, rng):
            optim.zero_grad()
            losses(net, train, rows, config).backward()
            optim.step()
        held = _held_out_loss(net, test, config)
        history.append({"epoch": epoch, "held_out_loss": held, **pick_gain(net, test, config)})
        log(f"epoch {epoch}: held-out loss {held:.4f}, pick gain "
            f"{history[-1]['pick_gain_vp']:+.2f} VP")
        if held < best:
            best, best_epoch = held, epoch
            best_state = {k: v.clone() for k, v in net.state_dict().items()}
        elif epoch - best_epoch >= config.patience:
            break
    net.load_state_dict(best_state)  # type: ignore[arg-type]
    report = {"rows": int(len(labels["margin"])), "train_decisions": train.decisions,
              "held_out_decisions": test.decisions, "best_epoch": best_epoch,
              "held_out_loss": best, **pick_gain(net, test, config), "history": history,
              "wall_s": round(time.perf_counter() - start, 1)}
    return net, report


def _held_out_loss(net: Evaluator, data: Subset, config: AfterstateConfig) -> float:
    net.eval()
    with torch.no_grad():
        return float(losses(net, data, np.arange(len(data.margin)), config))


def export_evaluator(net: Evaluator, game_name: str, config: AfterstateConfig,
                     path: str | Path) -> Path:
    """Write ``net`` as an ``afterstate:`` file (:mod:`formosa_envs.agents.afterstate`);
    with ``observation_inputs = 0`` the weights of the columns it never saw (the
    observation and the action) are written as zeros."""
    linears = [m for m in net.net if isinstance(m, nn.Linear)]
    arrays: dict[str, np.ndarray] = {}
    for i, layer in enumerate(linears[:-1]):
        arrays[f"w{i}"] = layer.weight.detach().numpy().astype(np.float32)
        arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float32)
    if not config.observation_inputs:
        game = make_game(game_name, num_players=config.num_players)
        columns = board_columns(arrays["w0"].shape[1], game.num_actions, bool(config.reply))
        arrays["w0"][:, columns] = 0.0
    arrays["w_out"] = linears[-1].weight.detach().numpy().astype(np.float32)
    arrays["b_out"] = linears[-1].bias.detach().numpy().astype(np.float32)
    info = EvaluatorInfo(game_name, linears[0].in_features, config.margin_scale,
                         config.top_k, config.win_weight, bool(config.reply))
    path = Path(path)
    np.savez(path, activation=np.array("relu"), evaluator=np.array(info.to_text()), **arrays)
    return path
