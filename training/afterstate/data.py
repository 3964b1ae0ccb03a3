"""Play-out labels of the heuristic's sibling afterstates.

Game ``g`` is heuristic self-play from its own seeds (:func:`game_seeds`: chance 64-bit
with bit 63 set, never a tournament deal). At a share ``label_rate`` of the decisions where
the heuristic weighs whole moves (:func:`formosa_envs.agents.candidates.candidate_generator`),
the ``top_k`` candidates it values most are each played out ``playouts`` times by the
heuristic in every seat: to the end of the game (``horizon`` 0), or for ``horizon`` more
turns of the decider, where the heuristic's own value of the position is read (a truncated
play-out: the first own turns after a move are what separates siblings, and the luck of a
whole game's draws, which full play-outs add, swamps it; measured in
docs/learned-agents.md). Siblings share their play-out seeds (common random numbers: the
same seeds for the draws and tie-breaks after each sibling). Each labelled candidate is one row:

* ``x``: :func:`formosa_envs.agents.afterstate.afterstate_features` of the afterstate from the
  decider's view (float16), ``action`` and ``value`` (the heuristic's value of it; with
  the action they complete the input, :func:`formosa_envs.agents.afterstate.stack_features`);
* ``margin``: the decider's final score less the best other seat's (VP; solo: the score) or,
  truncated, the same difference of the heuristic's values, averaged over the play-outs;
  ``win``: its win share (ties split; truncated: whether it leads), averaged;
* ``decision``: the decision's number (rows of one decision are siblings), ``game``, and
  ``rank``: the candidate's place in the heuristic's own order (0: the heuristic's move).

The heuristic's move is then played and the game goes on, so the labelled positions are the
ones the heuristic reaches.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import numpy as np
from formosa_envs.agents.afterstate import afterstate_features, top_candidates
from formosa_envs.agents.candidates import TURN_STARTS, candidate_generator, seat_values
from formosa_envs.agents.heuristics import HeuristicAgent

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.tools.progress import ProgressBar

from .config import AfterstateConfig

LABEL_STREAM = 0xAF7E  # spawn-key tag of the label seeds (any fixed value; kept so data reproduce)
ROW_KEYS = ("x", "action", "value", "margin", "win", "decision", "game", "rank")


def game_seeds(seed: int, g: int, num_players: int) -> tuple[int, list[int], int]:
    """Game ``g``'s chance seed (64-bit, bit 63 set), its seats' agent seeds and the seed of
    its label sampling and play-outs."""
    root = np.random.SeedSequence(seed, spawn_key=(LABEL_STREAM, g))
    chance, agents, labels = root.spawn(3)
    value = int(chance.generate_state(1, np.uint64)[0]) | (1 << 63)
    return (value, [int(s) for s in agents.generate_state(num_players)],
            int(labels.generate_state(1, np.uint64)[0]))


def play_out(game: Any, game_name: str, after: Any, me: int, seed: int, playouts: int,
             horizon: int = 0) -> tuple[float, float]:
    """Mean margin and win share of seat ``me`` over heuristic play-outs of ``after``.

    ``horizon`` 0 plays to the end of the game (the final score margin, the win share);
    otherwise a play-out stops when ``me`` is about to take its ``horizon + 1``-th turn
    after ``after`` (or the game ends; ``-1``: its first, so only the other seats'
    replies are played), and the margin is the heuristic's value of ``me`` less the best
    other seat's there (``win``: 1 if that margin is positive, 0.5 if nil).
    """
    margins, wins = [], []
    for p in range(playouts):
        seeds = np.random.SeedSequence(seed, spawn_key=(p,)).generate_state(
            game.num_players + 1, np.uint64)
        rng = np.random.default_rng(int(seeds[0]))
        agents = [HeuristicAgent(game_name, seed=int(s)) for s in seeds[1:]]
        s = _play(game, after.clone(), me, rng, agents, horizon, TURN_STARTS[game_name])
        margin, win = _outcome(game, game_name, s, me)
        margins.append(margin)
        wins.append(win)
    return float(np.mean(margins)), float(np.mean(wins))


def _play(game: Any, s: Any, me: int, rng: np.random.Generator, agents: list[Any],
          horizon: int, turn_start: Callable[[Any], bool] | None = None) -> Any:
    """Play ``s`` on by ``agents`` up to the horizon (:func:`play_out`) or the end; a turn
    starts where ``turn_start`` says (default: a Formosa Tea ``turn`` frame)."""
    turn_start = turn_start or is_turn
    turns = 0
    while not game.is_terminal(s) and s.decisions < game.max_game_length:
        seat = game.current_player(s)
        if seat == CHANCE:
            game.resolve_chance(s, rng)
            continue
        if horizon and seat == me and turn_start(s):
            turns += 1
            if turns > max(horizon, 0):
                break
        game.apply_legal_action(s, agents[seat].act_on_state(game, s))
    return s


def is_turn(state: Any) -> bool:
    """Whether the deciding seat is at the start of a whole turn (a ``turn`` frame)."""
    return state.stack[-1].kind == "turn"


def _outcome(game: Any, game_name: str, s: Any, me: int) -> tuple[float, float]:
    """``me``'s margin and win share at the end of a play-out (module docstring)."""
    if game.is_terminal(s):
        scores = game.scores(s)
        others = [v for i, v in enumerate(scores) if i != me]
        return scores[me] - (max(others) if others else 0.0), game.win_shares(s)[me]
    values = seat_values(game_name, game, s)
    others = [v for i, v in enumerate(values) if i != me]
    margin = values[me] - (max(others) if others else 0.0)
    return margin, 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def label_game(config: AfterstateConfig, game_name: str, g: int) -> dict[str, list]:
    """Play game ``g`` and label its sampled decisions (module docstring)."""
    game = make_game(game_name, num_players=config.num_players)
    generate = candidate_generator(game_name)
    chance_seed, agent_seeds, label_seed = game_seeds(config.seed, g, config.num_players)
    agents = [HeuristicAgent(game_name, seed=s) for s in agent_seeds]
    rng, labels = np.random.default_rng(chance_seed), np.random.default_rng(label_seed)
    rows: dict[str, list] = {k: [] for k in ROW_KEYS}
    state, decision = game.new_initial_state(), 0
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        seat = game.current_player(state)
        if seat == CHANCE:
            game.resolve_chance(state, rng)
            continue
        candidates = generate(game, state, seat, config.top_k)
        if candidates and labels.random() < config.label_rate:
            seed = int(labels.integers(2**63))
            for rank, c in enumerate(top_candidates(candidates, config.top_k)):
                margin, win = play_out(game, game_name, c.after, seat, seed, config.playouts,
                                       config.horizon)
                row = (afterstate_features(game, game_name, c.after, seat, c.value,
                                           bool(config.reply)).astype(np.float16),
                       c.action, c.value, margin, win, decision, g, rank)
                for key, value in zip(ROW_KEYS, row, strict=True):
                    rows[key].append(value)
            decision += 1
        game.apply_legal_action(state, agents[seat].act_on_state(game, state))
    return rows


def label_chunk(config: AfterstateConfig, game_name: str, games: list[int]
                ) -> dict[str, np.ndarray]:
    """The labelled rows of ``games`` as arrays (decisions numbered per game)."""
    parts = [label_game(config, game_name, g) for g in games]
    return _arrays(parts)


def _arrays(parts: list[dict[str, list]]) -> dict[str, np.ndarray]:
    dtypes = {"action": np.int16, "value": np.float32, "margin": np.float32,
              "win": np.float32, "decision": np.int64, "game": np.int32, "rank": np.int16}
    out = {}
    for key in ROW_KEYS:
        values = [v for part in parts for v in part[key]]
        out[key] = np.stack(values) if key == "x" and values else \
            np.asarray(values, dtype=dtypes.get(key, np.float16))
    return out


def generate_labels(config: AfterstateConfig, game_name: str, show_progress: bool = True,
                    first: int = 0) -> dict[str, np.ndarray]:
    """Label games ``first`` to ``config.games - 1`` in ``config.workers`` processes; rows
    in game order, ``decision`` made unique across games. A game's labels depend only on
    the settings and its number, so labels made in parts and :func:`merge` d are the labels
    of one run."""
    chunks = [list(range(i, min(i + config.chunk, config.games)))
              for i in range(first, config.games, config.chunk)]
    bar = ProgressBar(config.games - first, f"{game_name} play-out labels (games)",
                      enabled=show_progress)
    done: dict[int, dict[str, np.ndarray]] = {}
    try:
        if config.workers == 1:
            for i, chunk in enumerate(chunks):
                done[i] = label_chunk(config, game_name, chunk)
                bar.update(sum(len(chunks[j]) for j in done))
        else:
            with ProcessPoolExecutor(max_workers=min(config.workers, len(chunks))) as pool:
                futures = {pool.submit(label_chunk, config, game_name, c): i
                           for i, c in enumerate(chunks)}
                for future in as_completed(futures):
                    done[futures[future]] = future.result()
                    bar.update(sum(len(chunks[j]) for j in done))
    finally:
        bar.close()
    return merge([done[i] for i in range(len(chunks))])


def merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Concatenate label arrays; ``decision`` becomes unique (game-major numbering)."""
    parts = [p for p in parts if len(p["margin"])]
    if not parts:
        raise ValueError("no decision was labelled: raise games or label_rate")
    out = {k: np.concatenate([p[k] for p in parts]) for k in ROW_KEYS}
    key = out["game"].astype(np.int64) * 100_000 + out["decision"]
    _, out["decision"] = np.unique(key, return_inverse=True)
    return out
