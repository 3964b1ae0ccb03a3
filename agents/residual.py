"""The heuristic, overruled by a network only where the network is sure it knows better.

Spec ``residual:PATH.npz[:MARGIN]``. The agent plays the game's heuristic's move, except
where the exported policy network ``PATH`` (:mod:`formosa_envs.agents.policy`), run on the
seat's observation, puts its best legal action's logit more than ``MARGIN`` (default
:data:`DEFAULT_MARGIN`) above the logit of the heuristic's move: then it plays the
network's. A network trained on value
targets (``imitation.data --value-targets T`` with a ``flat:M`` teacher: a softmax of each
move's play-out value over ``T``) has logit differences that estimate value differences
over ``T``, so ``MARGIN`` is the advantage, in units of ``T``, the network must see before
it deviates. With a large margin the agent is the heuristic; a student cannot lose what
the heuristic already plays well by copying it imperfectly (a clone of the 4-player
Flowers heuristic agrees with it on 84% of decisions and wins less than it does).

Its time per decision is at most the heuristic's plus one forward pass at decisions with
a choice; the heuristic is not asked where its answer cannot matter: a forced move, or a
network move that leads every other legal move by more than the margin (then it leads
the heuristic's move too, whichever that is).
With ``at_players`` (seat count -> margin; the shipped agent's ``residual_at`` parts,
:mod:`formosa_envs.agents.pretrained`) it overrules the heuristic only at tables of those
seat counts, each with its margin, and plays the network alone at the others.

A network file with ``kinds`` (trained only at those decision kinds, e.g. Flowers'
``keep_or_cash``: :mod:`formosa_envs.agents.policy`) is asked only at decisions of those
kinds; the heuristic plays every other decision.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from .base import StateAgent
from .heuristics import HeuristicAgent
from .policy import PolicyAgent, PolicyMismatchError
from .specs import AgentSpecError
from .threads import one_blas_thread

DEFAULT_MARGIN = 1.0
"""The logit lead a network's move needs over the heuristic's before the agent plays it."""


class ResidualAgent(StateAgent):
    """The heuristic's move unless the network's best legal move leads it by ``margin``."""

    name = "residual"

    def __init__(self, game: str, policy: PolicyAgent, margin: float = DEFAULT_MARGIN,
                 seed: int | None = None, at_players: dict[int, float] | None = None) -> None:
        """``policy`` must fit ``game`` (checked at the first decision); margins >= 0."""
        for value in [margin, *(at_players or {}).values()]:
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"margin must be a finite number >= 0, got {value!r}")
        if policy.kinds and at_players is not None:
            raise ValueError("a network trained only at some decision kinds "
                             f"({', '.join(policy.kinds)}) cannot play alone at other seat "
                             "counts: give no at_players")
        self.heuristic = HeuristicAgent(game, seed=seed)
        self.policy = policy
        self.single_blas_thread = policy.single_blas_thread
        self.margin = float(margin)
        self.at_players = None if at_players is None else dict(at_players)
        self.choices = 0
        """Decisions with a choice the network was asked at so far (the agent's life):
        every one, unless the network's file names decision kinds."""
        self.deviations = 0
        """Of those, the decisions the network's lead decided (its move played because it
        led the heuristic's move, or every other move, by more than the margin)."""

    def reset(self) -> None:
        """Nothing per game (the heuristic keeps its generator running)."""
        self.heuristic.reset()

    @one_blas_thread
    def act_on_state(self, game: Any, state: Any) -> int:
        """The heuristic's move, or the network's where it leads by more than the margin."""
        margin = self.margin
        if self.at_players is not None:
            if game.num_players not in self.at_players:
                return self.policy.act_on_state(game, state)
            margin = self.at_players[game.num_players]
        legal = game.legal_actions(state)
        if len(legal) < 2:
            return legal[0]
        self.policy.bind(game)
        if self.policy.kinds and not self._network_decides(game, state):
            return self.heuristic.act_on_state(game, state)
        seat = game.current_player(state)
        scores = self.policy.legal_logits(np.asarray(game.observe(state, seat), np.float32),
                                          legal)
        best = int(np.argmax(scores))
        self.choices += 1
        if scores[best] - np.partition(scores, -2)[-2] > margin:
            self.deviations += 1  # it leads every other move: the heuristic's cannot matter
            return int(legal[best])
        move = self.heuristic.act_on_state(game, state)
        if scores[best] - scores[legal.index(move)] > margin:
            self.deviations += 1
            return int(legal[best])
        return move

    def _network_decides(self, game: Any, state: Any) -> bool:
        """Whether the pending decision is of a kind the network was trained at (the
        kinds must all be kinds of ``game``: else :class:`PolicyMismatchError`)."""
        unknown = set(self.policy.kinds) - set(game.handlers)
        if unknown:
            raise PolicyMismatchError(
                f"policy {self.policy.path or ''} was trained at decisions "
                f"{', '.join(sorted(unknown))} that {game.name} does not have")
        return state.stack[-1].kind in self.policy.kinds


def build_residual(spec: str, arg: str, game: str, seed: int | None) -> ResidualAgent:
    """The agent of spec ``residual:PATH.npz[:MARGIN]``."""
    path, sep, margin_text = arg.rpartition(":")
    if not sep or not _is_number(margin_text):
        path, margin_text = arg, ""
    if not path:
        raise AgentSpecError(f"agent spec {spec!r} needs a path: residual:PATH.npz[:MARGIN]")
    margin = float(margin_text) if margin_text else DEFAULT_MARGIN
    if not math.isfinite(margin) or margin < 0 or len(margin_text) > 12:
        raise AgentSpecError(f"agent spec {spec!r}: the margin must be a number >= 0 "
                             f"(a logit lead), got {margin_text!r}")
    policy = PolicyAgent.load(path, seed=seed)
    policy.name = f"residual:{Path(path).stem}"
    return ResidualAgent(game, policy, margin, seed)


def _is_number(text: str) -> bool:
    """Whether ``text`` reads as a plain decimal number (a margin, not part of a path)."""
    try:
        float(text)
    except ValueError:
        return False
    return text.lstrip("+-").replace(".", "", 1).isdigit()
