"""The afterstate evaluator's play-time forward pass: one decision's candidates scored
with a handful of array operations.

The network's input row is ``[observation, value features, action one-hot, candidate
features]`` (:func:`formosa_envs.agents.afterstate.stack_features`). At play time that row
is never assembled: the first layer is the sum of three parts computed from their pieces,

* the observation part over only the columns some candidate sets (sibling afterstates:
  Tea's rows have ~190 of 979 observation features nonzero, and they share most of them),
* the six value and candidate features against their six weight rows,
* the action's weight row, picked rather than multiplied by a one-hot,

and the later layers are small products on all candidates at once. The result equals the
network on the assembled rows up to float rounding (the test compares them). The number of
numpy calls is what a decision pays here, not arithmetic: measured in Tea games, the
assembled-row path (features, then a sparse first layer) spent 0.07 ms of a 0.49 ms mean
decision.
"""

from __future__ import annotations

import numpy as np

Layers = list[tuple[np.ndarray, np.ndarray]]


class CandidateScorer:
    """The score ``margin + win_weight * P(win)`` of each candidate of a decision."""

    def __init__(self, layers: Layers, observation_size: int, num_actions: int,
                 margin_scale: float, win_weight: float) -> None:
        """Split the first layer of ``layers`` (a ReLU network with two outputs) by input
        piece for an observation of ``observation_size`` and ``num_actions`` actions."""
        if len(layers) < 2:
            raise ValueError("a candidate scorer needs a hidden layer")
        rows = np.ascontiguousarray(layers[0][0].T)
        values_end = rows.shape[0] - num_actions - 2
        self.observation_rows = rows[:observation_size]
        self.reads_observation = bool(self.observation_rows.any())
        """False for a network whose observation weights are all zero (a board-free fit):
        the caller may then pass zeros instead of encoding the afterstates."""
        self.action_rows = rows[values_end:values_end + num_actions]
        self.extra_rows = np.ascontiguousarray(
            np.concatenate([rows[observation_size:values_end], rows[-2:]]))
        self.first_bias = layers[0][1]
        self.later = [(np.ascontiguousarray(w.T), b) for w, b in layers[1:]]
        self.margin_scale, self.win_weight = float(margin_scale), float(win_weight)

    def scores(self, observations: np.ndarray, extras: np.ndarray,
               actions: np.ndarray) -> np.ndarray:
        """The score of each row: ``observations`` (k, observation size), ``extras`` (k,
        value and candidate features, in the row's order) and ``actions`` (k ints)."""
        used = np.flatnonzero(observations.any(axis=0))
        hidden = observations[:, used] @ self.observation_rows[used]
        hidden += extras @ self.extra_rows
        hidden += self.action_rows[actions]
        hidden += self.first_bias
        for weights, bias in self.later:
            np.maximum(hidden, 0.0, out=hidden)
            hidden = hidden @ weights
            hidden += bias
        return hidden[:, 0] * self.margin_scale + self.win_weight / (1.0 + np.exp(-hidden[:, 1]))
