"""The learned afterstate evaluator: the heuristic's own candidates, scored by a network.

Spec ``afterstate:PATH.npz[:K]``. At a decision where the search heuristic weighs whole
moves (:mod:`formosa_envs.agents.candidates`: a Formosa Tea turn, a Dadaocheng turn's
two-movement plan, which it then plays through), the agent builds the
same afterstates the heuristic builds, keeps the ``K`` the heuristic values most (default:
the file's ``top_k``), encodes each one from the deciding seat's view with its move and
its heuristic value (:func:`afterstate_features`, :func:`stack_features`: the input rows
training builds) and scores them all in one batched numpy forward pass
(:mod:`.afterstate_scoring`, which computes the first layer from those pieces without
assembling the rows); it plays the move whose afterstate has the best predicted final
score margin plus ``win_weight`` times its predicted win probability. Everywhere else it
plays the heuristic's own answer. This is rollout policy improvement (Tesauro & Galperin 1996)
amortised: the network is trained on heuristic play-out outcomes of sibling afterstates
(:mod:`formosa_envs.training.afterstate`), so it ranks the heuristic's candidates by what
the play-outs say instead of by the heuristic's hand-made value.

The file is an exported formosa network (:mod:`formosa_envs.agents.network`: ``w0, b0, ...,
w_out, b_out`` and ``activation``; a ReLU network with a hidden layer) whose two outputs
are the margin (in units of ``margin_scale`` VP) and the win logit, plus an ``evaluator``
array holding its JSON description (:data:`FORMAT`, the game, the feature size,
``margin_scale``, ``top_k``, ``win_weight``). It is read like every agent file (regular
files within the cap, no pickles) and checked against the game before the first move.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .afterstate_scoring import CandidateScorer
from .base import StateAgent
from .candidates import REPLY_VALUES, Candidate, candidate_generator, reply_value, seat_values
from .heuristics import HeuristicAgent
from .network import Network
from .policy import PolicyFileError, archive_arrays, read_archive
from .specs import AgentSpecError, int_arg

FORMAT = "formosa-afterstate/1"
EXTRA_FEATURES = 4
"""Features after the observation: the seat's heuristic value, the best other seat's and
their difference (VP / 100, the difference / 20), and the seat count / 4."""
CANDIDATE_FEATURES = 2
"""Features after the action's one-hot: the candidate's heuristic value less the best
candidate's (/ 5 VP) and its place in the heuristic's order (/ 8)."""


REPLY_FEATURES = 1
"""With ``reply`` (an evaluator's option): after the value features, the next seat's
best reply to the afterstate (:data:`~formosa_envs.agents.candidates.REPLY_VALUES`, / 10 VP)."""


def feature_size(game: Any, reply: bool = False) -> int:
    """The network input width for ``game`` (``reply``: with the reply feature)."""
    return (game.observation_size + value_feature_count(reply) + game.num_actions
            + CANDIDATE_FEATURES)


def value_feature_count(reply: bool) -> int:
    """How many features follow the observation (:func:`value_features`)."""
    return EXTRA_FEATURES + REPLY_FEATURES * bool(reply)


def afterstate_features(game: Any, game_name: str, after: Any, me: int,
                        mine: float | None = None, reply: bool = False) -> np.ndarray:
    """The position part of a candidate's input: afterstate ``after`` from seat ``me``'s
    view (its observation, egocentric, what ``me`` may see) and the heuristic's values of
    the seats (``mine``: ``me``'s, when the caller has it already). The other seats'
    values matter: they are how a move that hurts an opponent shows (the heuristic's own
    value reads only its seat), and leaving them out cost a third of the win share.
    ``reply`` adds the next seat's best reply (:data:`REPLY_FEATURES`)."""
    return afterstate_positions(game, game_name, [after], me, [mine], reply)[0]


def afterstate_positions(game: Any, game_name: str, afters: list[Any], me: int,
                         mines: list[float | None], reply: bool = False) -> np.ndarray:
    """:func:`afterstate_features` of each of ``afters`` (one row each, the same bytes),
    the observations encoded at once (:meth:`~formosa_envs.core.engine.Game.observe_many`)."""
    obs = np.asarray(game.observe_many(afters, me), dtype=np.float32)
    extra = np.array([value_features(game, game_name, after, me, mine, reply)
                      for after, mine in zip(afters, mines, strict=True)], dtype=np.float32)
    return np.concatenate([obs, extra.reshape(len(afters), value_feature_count(reply))], axis=1)


def value_features(game: Any, game_name: str, after: Any, me: int,
                   mine: float | None, reply: bool = False) -> list[float]:
    """The :data:`EXTRA_FEATURES` of one afterstate, the seats' heuristic values, and with
    ``reply`` the :data:`REPLY_FEATURES`."""
    values = seat_values(game_name, game, after, None if mine is None else {me: mine})
    mine = values[me]
    best_other = max((v for i, v in enumerate(values) if i != me), default=mine)
    out = [mine / 100.0, best_other / 100.0, (mine - best_other) / 20.0,
           game.num_players / 4.0]
    if reply:
        out.append(reply_value(game_name, game, after, me) / 10.0)
    return out


def stack_features(positions: np.ndarray, actions: np.ndarray, values: np.ndarray,
                   num_actions: int) -> np.ndarray:
    """The inputs of one decision's candidates, in the heuristic's order (best first):
    each position part (:func:`afterstate_features`), the action as a one-hot and the
    candidate features (:data:`CANDIDATE_FEATURES`). Training assembles its rows with the
    same function."""
    k = len(actions)
    onehot = np.zeros((k, num_actions), dtype=np.float32)
    onehot[np.arange(k), np.asarray(actions, dtype=np.intp)] = 1.0
    return np.concatenate([np.asarray(positions, dtype=np.float32), onehot,
                           candidate_features(values)], axis=1)


def candidate_features(values: Any) -> np.ndarray:
    """The :data:`CANDIDATE_FEATURES` of candidates of heuristic ``values``, best first."""
    values = np.asarray(values, dtype=np.float32)
    extra = np.stack([(values - values.max()) / 5.0, np.arange(len(values)) / 8.0], axis=1)
    return extra.astype(np.float32)


@dataclass(frozen=True)
class EvaluatorInfo:
    """The JSON description stored in an evaluator file."""

    game: str
    feature_size: int
    margin_scale: float
    top_k: int
    win_weight: float
    reply: bool = False
    """Whether the input holds the reply feature (:data:`REPLY_FEATURES`; absent in older
    files: False)."""

    @classmethod
    def parse(cls, text: str, path: str) -> EvaluatorInfo:
        """Read and check the ``evaluator`` array's text; :class:`PolicyFileError` if bad."""
        try:
            meta = json.loads(text)
            if meta.get("format") != FORMAT:
                raise ValueError(f"format {meta.get('format')!r}, expected {FORMAT!r}")
            info = cls(str(meta["game"]), int(meta["feature_size"]),
                       float(meta["margin_scale"]), int(meta["top_k"]),
                       float(meta["win_weight"]), meta.get("reply", False))
            if not isinstance(info.reply, bool):
                raise ValueError(f"reply must be true or false, got {info.reply!r}")
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise PolicyFileError(f"{path}: not an afterstate evaluator file ({exc})") from None
        if info.top_k < 1 or not info.margin_scale > 0:
            raise PolicyFileError(f"{path}: top_k must be >= 1 and margin_scale > 0")
        return info

    def to_text(self) -> str:
        """The JSON text stored in the file."""
        return json.dumps({"format": FORMAT, **self.__dict__}, sort_keys=True)


class AfterstateEvaluator:
    """A loaded evaluator: the numpy network and its description."""

    def __init__(self, network: Network, info: EvaluatorInfo, path: str) -> None:
        outputs = network.layers[-1][0].shape[0]
        inputs = network.layers[0][0].shape[1]
        if network.activation != "relu" or len(network.layers) < 2:
            raise PolicyFileError(f"{path}: an evaluator is a ReLU network with a hidden "
                                  f"layer; this one is {network.activation} with "
                                  f"{len(network.layers) - 1} hidden layers")
        if outputs != 2 or inputs != info.feature_size:
            raise PolicyFileError(f"{path}: an evaluator maps {info.feature_size} features to 2 "
                                  f"outputs; this network maps {inputs} to {outputs}")
        self.network, self.info, self.path = network, info, path

    @classmethod
    def load(cls, path: str | Path) -> AfterstateEvaluator:
        """Read an evaluator file (refusals as :class:`PolicyFileError`, naming the path)."""
        return cls.from_arrays(read_archive(Path(path), "evaluator"), str(path))

    @classmethod
    def from_bytes(cls, data: bytes, path: str) -> AfterstateEvaluator:
        """The evaluator of ``.npz`` bytes already read from ``path`` (package data)."""
        return cls.from_arrays(archive_arrays(data, path, "evaluator"), path)

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], path: str) -> AfterstateEvaluator:
        """Check the arrays of an evaluator file (float16 weights are upcast)."""
        arrays = {k: (v.astype(np.float32) if v.dtype.kind == "f" else v)
                  for k, v in arrays.items()}
        if "evaluator" not in arrays:
            raise PolicyFileError(f"{path}: not an afterstate evaluator file (no 'evaluator' "
                                  "array; policy:/az: play exported policies)")
        info = EvaluatorInfo.parse(str(arrays.pop("evaluator")), str(path))
        return cls(Network.from_arrays(arrays, str(path)), info, str(path))

    def predict(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Predicted margin (VP) and win probability of each row of ``features``."""
        out = rowwise_forward(self.network.layers, features)
        margin = out[:, 0] * self.info.margin_scale
        win = 1.0 / (1.0 + np.exp(-out[:, 1]))
        return margin, win

    def scorer(self, game: Any) -> CandidateScorer:
        """The play-time forward pass for ``game`` (:mod:`.afterstate_scoring`)."""
        return CandidateScorer(self.network.layers, game.observation_size, game.num_actions,
                               self.info.margin_scale, self.info.win_weight)

    def check_game(self, game_name: str, game: Any) -> None:
        """Refuse a game other than the one the evaluator was trained for."""
        size = feature_size(game, self.info.reply)
        if self.info.reply and game_name not in REPLY_VALUES:
            raise PolicyFileError(f"{self.path}: reads the next seat's reply, which only "
                                  f"{', '.join(REPLY_VALUES)} has, not {game_name}")
        if game_name != self.info.game or size != self.info.feature_size:
            raise PolicyFileError(
                f"{self.path}: an evaluator for {self.info.game} ({self.info.feature_size} "
                f"features) cannot play {game_name} ({size} features)")


def rowwise_forward(layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> np.ndarray:
    """The ReLU MLP on a small batch, one matrix-vector product per row and layer.

    At the 4-16 rows a decision scores, a matrix-matrix product hands the work to the BLAS
    thread pool, which on a busy 2-core machine costs several times the arithmetic
    (measured: 0.8 ms against 0.18 ms per row loop for the first layer at 6 rows);
    matrix-vector products stay on the calling thread.
    """
    rows = [np.asarray(r, dtype=np.float32) for r in x]
    for i, (w, b) in enumerate(layers):
        rows = [w @ r + b for r in rows]
        if i < len(layers) - 1:
            rows = [np.maximum(r, 0.0) for r in rows]
    return np.stack(rows)


class CandidateAgent(StateAgent):
    """Plays one of the heuristic's candidates where it has them (:meth:`choose`, for a
    subclass to define), then the chosen candidate's committed actions
    (:attr:`Candidate.then`) while they are due and legal, and the heuristic elsewhere."""

    def __init__(self, game_name: str, top_k: int, seed: int | None = None) -> None:
        self.game_name, self.top_k = game_name, top_k
        self.generate = candidate_generator(game_name)
        self.heuristic = HeuristicAgent(game_name, seed=seed)
        self.pending: list[int] = []
        """The chosen candidate's committed next actions (``Candidate.then``)."""
        self.pending_at = -1
        """The decision count at which the next pending action is due."""

    def reset(self) -> None:
        """Forget a committed plan (a new game)."""
        self.pending, self.pending_at = [], -1
        self.heuristic.reset()

    def act_on_state(self, game: Any, state: Any) -> int:
        """The chosen candidate, or the heuristic's answer where it has no candidates."""
        self._set_up(game)
        committed = self._committed(game, state)
        if committed is not None:
            return committed
        me = game.current_player(state)
        with paused_gc():
            candidates = self.generate(game, state, me, self.top_k)
            if not candidates:
                return self.heuristic.act_on_state(game, state)
            chosen = self.choose(game, candidates, me)
        self.pending, self.pending_at = list(chosen.then), state.decisions + 1
        return chosen.action

    def choose(self, game: Any, candidates: list[Candidate], me: int) -> Candidate:
        """The candidate to play among ``candidates`` (the generator's, for seat ``me``)."""
        raise NotImplementedError

    def _set_up(self, game: Any) -> None:
        """Prepare for ``game`` before a decision (nothing by default)."""

    def _committed(self, game: Any, state: Any) -> int | None:
        """The chosen plan's next action, if it is due now and legal; else None (and the
        plan is dropped)."""
        if not self.pending:
            return None
        action = self.pending.pop(0)
        if state.decisions == self.pending_at and action in game.legal_actions(state):
            self.pending_at += 1
            return action
        self.pending = []
        return None


class AfterstateAgent(CandidateAgent):
    """The heuristic's candidates ranked by a learned evaluator (module docstring)."""

    name = "afterstate"

    def __init__(self, game_name: str, evaluator: AfterstateEvaluator, top_k: int | None = None,
                 seed: int | None = None,
                 by_players: dict[int, AfterstateEvaluator] | None = None) -> None:
        super().__init__(game_name, top_k or evaluator.info.top_k, seed)
        self.evaluator = evaluator
        self.by_players = dict(by_players or {})
        """Evaluators for particular seat counts (e.g. one trained on solo games), played
        at tables of that many seats instead of ``evaluator``."""
        self.given_top_k = top_k
        self.scorer: CandidateScorer | None = None
        self.seats = 0
        """The seat count the scorer (and ``top_k``) were set up for."""

    def evaluator_for(self, num_players: int) -> AfterstateEvaluator:
        """The evaluator played at a table of ``num_players`` seats."""
        return self.by_players.get(num_players, self.evaluator)

    def _set_up(self, game: Any) -> None:
        """Check the evaluator of ``game``'s seat count and build its scorer (once per count)."""
        if self.scorer is not None and self.seats == game.num_players:
            return
        evaluator = self.evaluator_for(game.num_players)
        evaluator.check_game(self.game_name, game)
        self.scorer, self.seats = evaluator.scorer(game), game.num_players
        self.top_k = self.given_top_k or evaluator.info.top_k

    def choose(self, game: Any, candidates: list[Candidate], me: int) -> Candidate:
        """The candidate of the best score among the heuristic's top ``top_k``."""
        self._set_up(game)
        top = top_candidates(candidates, self.top_k)
        observations = game.observe_many([c.after for c in top], me) \
            if self.scorer.reads_observation else \
            np.zeros((len(top), game.observation_size), dtype=np.float32)
        values = [c.value for c in top]
        reply = self.evaluator_for(game.num_players).info.reply
        width = value_feature_count(reply)
        extras = np.empty((len(top), width + CANDIDATE_FEATURES), dtype=np.float32)
        extras[:, :width] = [value_features(game, self.game_name, c.after, me, c.value, reply)
                             for c in top]
        extras[:, width:] = candidate_features(values)
        actions = np.array([c.action for c in top], dtype=np.intp)
        return top[int(np.argmax(self.scorer.scores(observations, extras, actions)))]


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused for one decision (and restored after it).

    A decision keeps every candidate's afterstate (a copy of the whole state, thousands of
    small lists) alive at once, which triggers collections that walk them all; they hold
    no cycles, so reference counting frees them anyway. Measured on 1,000 Tea turns: 0.71
    ms per turn for the candidates with the collector, 0.57 without, 0.58 for the
    heuristic's own search (which keeps one copy at a time). A collector the caller
    disabled stays disabled.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def top_candidates(candidates: list[Candidate], k: int) -> list[Candidate]:
    """The ``k`` candidates of highest heuristic value, best first (stable on ties)."""
    order = sorted(range(len(candidates)), key=lambda i: -candidates[i].value)
    return [candidates[i] for i in order[:k]]


def build_afterstate(spec: str, arg: str, game: str, seed: int | None) -> AfterstateAgent:
    """The agent of spec ``afterstate:PATH.npz[:K]``."""
    path, sep, k_text = arg.rpartition(":")
    if not sep or not k_text.isdigit():
        path, k_text = arg, ""
    if not path:
        raise AgentSpecError(f"agent spec {spec!r} needs a path: afterstate:PATH.npz[:K]")
    top_k = int_arg(spec, k_text, 0) if k_text else None
    try:
        candidate_generator(game)
    except ValueError as exc:
        raise AgentSpecError(f"agent spec {spec!r}: {exc}") from None
    return AfterstateAgent(game, AfterstateEvaluator.load(path), top_k, seed)
