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
    ranks: list[float] = field(default_factory=list)
    """Each seat's place by the game's own ordering (its tie-breaks): 1 = first."""
    wins: list[float] = field(default_factory=list)
    """Each seat's share of the victory by the game's ordering (``Game.win_shares``)."""


@dataclass
class SimulationSummary:
    """Aggregates over many games (see :func:`summarize`)."""

    game: str
    num_players: int
    records: list[GameRecord] = field(default_factory=list)


def play_game(game: Any, agents: list[Any], seed: int,
              steps: list[list[Any]] | None = None) -> GameRecord:
    """Play one game: chance from ``seed``, each seat's agent acting on the engine.

    With ``steps``, every step is appended as ``[player, action, label]``
    (player -1 for chance): the same draws and moves, written down.
    """
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for agent in agents:
        agent.reset()
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        player = game.current_player(state)
        if steps is not None:
            _recorded_step(game, state, agents, rng, steps)
        elif player == CHANCE:
            game.resolve_chance(state, rng)
        else:
            game.apply_action(state, chosen_move(game, state, agents, player))
    return GameRecord(seed, game.scores(state), state.decisions,
                      getattr(state, "round", 0), not game.is_terminal(state),
                      game.ranks(state), game.win_shares(state))


def chosen_move(game: Any, state: Any, agents: list[Any], player: int) -> int:
    """``player``'s agent's move at ``state``, told to every agent before it is applied."""
    action = agents[player].act_on_state(game, state)
    tell_all(agents, game, state, player, action)
    return action


def tell_all(agents: list[Any], game: Any, state: Any, player: int, action: int) -> None:
    """Tell every agent at the table that ``player`` chose ``action`` at ``state``
    (``Agent.inform``; seats without that method, such as a person's, are skipped)."""
    for agent in agents:
        inform = getattr(agent, "inform", None)
        if inform is not None:
            inform(game, state, player, action)


def _recorded_step(game: Any, state: Any, agents: list[Any], rng: np.random.Generator,
                   steps: list[list[Any]]) -> None:
    """One chance outcome or one move, applied and written down with its label."""
    player = game.current_player(state)
    if player == CHANCE:
        action = game.sample_chance(state, rng)
    else:
        action = chosen_move(game, state, agents, player)
    steps.append([int(player), int(action), game.action_label(state, action)])
    game.apply_action(state, action)


def random_position(game: Any, seed: int, moves: int) -> Any:
    """The state after ``moves`` uniformly random legal moves (fewer if the game ends),
    chance resolved on the way, all from one generator seeded ``seed``."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    game.resolve_chance(state, rng)
    done = 0
    while done < moves and not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
            continue
        game.apply_action(state, int(rng.choice(game.legal_actions(state))))
        done += 1
        if not game.is_terminal(state) and game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
    return state


def simulate(game_name: str, num_players: int, games: int, seed: int,
             agents: list[Any], show_progress: bool = True, record_dir: str | None = None,
             names: list[str] | None = None, **options: Any) -> SimulationSummary:
    """Play ``games`` seeded games (seed, seed+1, ...) and collect their results.

    With ``record_dir``, each game is also saved there as ``game_<k>.json``
    (a game record; ``names`` are the agents' specs written into it). The folder is
    checked before the first game (:func:`~.record.check_record_folder`).
    """
    game = make_game(game_name, num_players=num_players, **options)
    if record_dir:
        from .record import check_record_folder
        check_record_folder(record_dir)
    summary = SimulationSummary(game_name, num_players)
    for k in progress(range(games), games, f"simulating {game_name}", enabled=show_progress):
        steps: list[list[Any]] | None = [] if record_dir else None
        result = play_game(game, agents, seed + k, steps=steps)
        summary.records.append(result)
        if record_dir and steps is not None:
            _save_simulated(record_dir, k, game_name, options, result, steps,
                            names or [getattr(a, "name", "agent") for a in agents])
    return summary


def _save_simulated(folder: str, k: int, game_name: str, options: dict[str, Any],
                    result: GameRecord, steps: list[list[Any]], names: list[str]) -> None:
    from .record import new_record, save_record
    record = new_record(game_name, len(names), options, result.seed, names, steps,
                        result.scores, result.truncated)
    save_record(record, f"{folder}/game_{k:05d}.json")


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
             _stat_line("top score", scores.max(axis=1)),
             "win share by seat (ties split; 95% CI):"]
    wins = np.array([r.wins for r in recs], dtype=float)
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
