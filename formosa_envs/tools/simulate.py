"""``formosa simulate``: many games between agents on the raw engine, then a summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game

from .progress import progress


@dataclass
class GameRecord:
    """What one simulated game produced."""

    seed: int
    scores: list[float]
    decisions: int
    rounds: int
    truncated: bool


@dataclass
class SimulationSummary:
    """Aggregates over many games (see :func:`summarize`)."""

    game: str
    num_players: int
    records: list[GameRecord] = field(default_factory=list)


def play_game(game: Any, agents: list[Any], seed: int) -> GameRecord:
    """Play one game: chance from ``seed``, each seat's agent acting on the engine."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for agent in agents:
        agent.reset()
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        player = game.current_player(state)
        if player == CHANCE:
            game.resolve_chance(state, rng)
        else:
            game.apply_action(state, agents[player].act_on_state(game, state))
    return GameRecord(seed, game.scores(state), state.decisions,
                      getattr(state, "round", 0), not game.is_terminal(state))


def simulate(game_name: str, num_players: int, games: int, seed: int,
             agents: list[Any], show_progress: bool = True, **options: Any) -> SimulationSummary:
    """Play ``games`` seeded games (seed, seed+1, ...) and collect their records."""
    game = make_game(game_name, num_players=num_players, **options)
    summary = SimulationSummary(game_name, num_players)
    for k in progress(range(games), games, f"simulating {game_name}", enabled=show_progress):
        summary.records.append(play_game(game, agents, seed + k))
    return summary


def summarize(summary: SimulationSummary) -> str:
    """A readable report: decisions and rounds per game, scores, win share by seat."""
    recs = summary.records
    if not recs:
        return "no games were played"
    scores = np.array([r.scores for r in recs])
    decisions = np.array([r.decisions for r in recs])
    rounds = np.array([r.rounds for r in recs])
    lines = [f"{summary.game}, {summary.num_players} players, {len(recs)} games "
             f"({sum(r.truncated for r in recs)} truncated)",
             _stat_line("decisions per game", decisions),
             _stat_line("rounds per game", rounds),
             _stat_line("final score (all seats)", scores.ravel()),
             _stat_line("winning score", scores.max(axis=1)),
             "win share by seat (ties split; 95% CI):"]
    wins = _win_shares(scores)
    for seat in range(summary.num_players):
        share = wins[:, seat].mean()
        half = 1.96 * wins[:, seat].std(ddof=0) / np.sqrt(len(recs))
        lines.append(f"  seat {seat}: {share:6.1%} +/- {half:.1%}  "
                     f"mean score {scores[:, seat].mean():6.1f}")
    return "\n".join(lines)


def _stat_line(name: str, values: np.ndarray) -> str:
    p = np.percentile(values, [0, 25, 50, 75, 100])
    return (f"{name:>24}: mean {values.mean():7.1f}  sd {values.std():6.1f}  "
            f"min {p[0]:.0f}  q1 {p[1]:.0f}  median {p[2]:.0f}  q3 {p[3]:.0f}  max {p[4]:.0f}")


def _win_shares(scores: np.ndarray) -> np.ndarray:
    best = scores.max(axis=1, keepdims=True)
    winners = (scores == best).astype(float)
    return winners / winners.sum(axis=1, keepdims=True)
