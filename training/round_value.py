"""``python -m formosa_envs.training.round_value``: learn the round-start value table of
2-player Formosa Flowers (:mod:`formosa_envs.agents.round_value`) from heuristic self-play.

1. **Games**: ``games`` 2-player heuristic games from seed ``seed`` (game ``i`` plays seed
   ``seed + i``), on ``workers`` processes; each round records the scores at its start,
   who started it and each seat's gain.
2. **Round outcomes**: the frequencies of (own gain, other's gain) by who starts and by
   how far each seat is from the target (:data:`NEED_EDGES`: the heuristic cashes out as
   soon as it reaches the target, so a round near it ends differently).
3. **Solve**: from the highest scores down, the expected final return of every (own
   score, other's score, own seat starts), a round that reaches the target ending the
   game (a tie shares it: 0); a round in which nobody scores passes the start on.

The last ``holdout`` share of the games is left out of step 2 and scored: the mean
squared error of the table's prediction of each seat's final return at each round start
(a constant 0 scores 1.0), reported with the file.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from formosa_envs.agents.round_value import FORMAT
from tqdm import tqdm

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import DataError
from formosa_envs.games import make_game
from formosa_envs.tools.console import run_console
from formosa_envs.tools.usage import MAX_WORKERS, OneLineParser, int_between

NEED_EDGES = (5, 10, 20)
"""A seat's distance from the target is bucketed as <= 5, <= 10, <= 20 VP or more."""
Round = tuple[list[int], int, list[int]]
"""One round: the scores at its start, the seat that started it, each seat's gain."""
Outcomes = dict[tuple[int, int, int], Counter]
PROG = "python -m formosa_envs.training.round_value"


def play_rounds(seed: int) -> tuple[list[Round], list[float]]:
    """The rounds and the final returns of one 2-player heuristic game of ``seed``."""
    from formosa_envs.agents.heuristics import heuristic_module
    from formosa_envs.agents.mcts import _resolve_chance

    game, rng = make_game("flowers", num_players=2), np.random.default_rng(seed)
    choose, state, rounds = heuristic_module("flowers").choose, game.new_initial_state(), []
    start = (list(state.scores), state.round_start, state.round)
    while not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            _resolve_chance(game, state, rng)
            continue
        game.apply_action(state, choose(game, state, rng))
        if state.round != start[2] or game.is_terminal(state):
            gains = [b - a for a, b in zip(start[0], state.scores, strict=True)]
            rounds.append((start[0], start[1], gains))
            start = (list(state.scores), state.round_start, state.round)
    return rounds, list(game.returns(state))


def need_bucket(score: int, target: int) -> int:
    """The :data:`NEED_EDGES` bucket of a seat ``target - score`` VP from the target."""
    need = target - score
    return next((i for i, edge in enumerate(NEED_EDGES) if need <= edge), len(NEED_EDGES))


def round_outcomes(games: list[tuple[list[Round], list[float]]], target: int) -> Outcomes:
    """(own bucket, other's bucket, own seat starts) -> Counter of (own gain, other's gain),
    from both seats' views."""
    out: Outcomes = {}
    for rounds, _ in games:
        for scores, starter, gains in rounds:
            for me, other in ((0, 1), (1, 0)):
                key = (need_bucket(scores[me], target), need_bucket(scores[other], target),
                       int(starter == me))
                out.setdefault(key, Counter())[(gains[me], gains[other])] += 1
    return out


def solve(outcomes: Outcomes, target: int) -> np.ndarray:
    """The ``(target, target, 2)`` table of expected final returns (module docstring)."""
    values = np.zeros((target, target, 2))
    for total in range(2 * target - 2, -1, -1):
        for own in range(max(0, total - target + 1), min(target - 1, total) + 1):
            values[own, total - own] = _solve_cell(values, outcomes, own, total - own, target)
    return values


def _solve_cell(values: np.ndarray, outcomes: Outcomes, own: int, other: int,
                target: int) -> tuple[float, float]:
    """Both entries (own seat starts or not) of one cell: a round with no gain passes the
    start to the other seat, so the two entries are solved together."""
    moved, still = [0.0, 0.0], [0.0, 0.0]
    for starts in (0, 1):
        key = (need_bucket(own, target), need_bucket(other, target), starts)
        counts = outcomes.get(key)
        if not counts:
            raise DataError(f"no round in the games starts from bucket {key} (own and "
                            f"other's distance from the target, own seat starts): play more "
                            f"games (--games)")
        total = sum(counts.values())
        for (gain, other_gain), n in counts.items():
            p, a, b = n / total, own + gain, other + other_gain
            if gain == other_gain == 0:
                still[starts] += p
            elif max(a, b) >= target:
                moved[starts] += p * float(np.sign(a - b))
            else:
                moved[starts] += p * values[a, b, 1 - starts]
    return tuple((moved[s] + still[s] * moved[1 - s]) / (1 - still[s] * still[1 - s])
                 for s in (0, 1))


def holdout_error(values: np.ndarray, games: list[tuple[list[Round], list[float]]]) -> float:
    """Mean squared error of the table's prediction of each seat's final return at every
    round start of ``games``."""
    errors = [(values[s[me], s[1 - me], int(starter == me)] - returns[me]) ** 2
              for rounds, returns in games for s, starter, _ in rounds for me in (0, 1)]
    return float(np.mean(errors))


def learn(games: int, seed: int, workers: int, holdout: float = 0.2,
          show_progress: bool = True) -> tuple[np.ndarray, dict[str, Any]]:
    """Play, count and solve; the table and a report of the run."""
    start = time.perf_counter()
    seeds = range(seed, seed + games)
    with ProcessPoolExecutor(workers) as pool:
        played = list(tqdm(pool.map(play_rounds, seeds, chunksize=200), total=games,
                           desc="flowers round values (games)", disable=not show_progress))
    cut = games - int(games * holdout)
    target = make_game("flowers", num_players=2).config.target_vp
    values = solve(round_outcomes(played[:cut], target), target)
    report = {"format": FORMAT, "games": games, "seed": seed, "holdout_games": games - cut,
              "holdout_mse": round(holdout_error(values, played[cut:]), 4),
              "wall_s": round(time.perf_counter() - start, 1)}
    return values, report


def save(values: np.ndarray, report: dict[str, Any], out: Path) -> None:
    """Write the table file (the format of :mod:`formosa_envs.agents.round_value`)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as handle:
        np.savez(handle, values=values, target_vp=np.int64(values.shape[0]),
                 format=np.str_(FORMAT), report=np.str_(json.dumps(report, sort_keys=True)))


def main(argv: list[str] | None = None) -> int:
    """Learn a table and write it to ``--out``; print the report."""
    p = OneLineParser(prog=PROG, description="The round-start value table of 2-player "
                      "Formosa Flowers, from heuristic self-play.")
    p.add_argument("--games", type=int_between(100, 10_000_000), default=40_000)
    p.add_argument("--seed", type=int_between(0, 2**32 - 1), default=30_000_000,
                   help="game i plays seed + i (default: 30,000,000, never an evaluation's)")
    p.add_argument("--workers", type=int_between(1, MAX_WORKERS), default=2)
    p.add_argument("--out", default="runs/flowers_round_value.npz")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    values, report = learn(args.games, args.seed, args.workers, show_progress=not args.quiet)
    save(values, report, Path(args.out))
    print(json.dumps(report, sort_keys=True))
    return 0


def cli(argv: list[str] | None = None) -> int:
    """``python -m formosa_envs.training.round_value``: :func:`main`, bad input as one line."""
    return run_console(PROG, main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())
