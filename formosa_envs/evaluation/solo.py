"""Evaluating agents in a single-player game (Dadaocheng's solo mode).

A solo game has no opponent to beat: an agent is measured by its score and by how
often it reaches the objective (the game's ``returns`` are +1 for a won game and
-1 otherwise, see ``DadaochengGame.solo_result``). Used by ``formosa train`` when
``num_players == 1``, in place of the head-to-head tournament.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from formosa_envs.agents import make_agent
from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import ConfigError
from formosa_envs.evaluation import ratings as rt
from formosa_envs.games import make_game
from formosa_envs.tools.usage import MAX_GAMES


def play_solo(game: Any, agent: Any, seed: int) -> dict[str, Any]:
    """One seeded solo game; the game's final info (score, tier, won, ...)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    agent.reset()
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
        else:
            game.apply_action(state, agent.act_on_state(game, state))
    info = game.final_info(state, 0)
    info["won"] = game.returns(state)[0] > 0 if game.is_terminal(state) else False
    return info


def solo_share(game_name: str, spec: str, games: int, seed: int,
               **options: Any) -> dict[str, Any]:
    """``spec``'s objective rate (with a Wilson 95% CI), mean score and tier counts.

    Raises :class:`ConfigError` unless ``games`` is from 1 to ``MAX_GAMES`` and ``seed``
    a whole number >= 0 (and the game's own errors for a game without a solo mode).
    """
    return solo_summary(solo_infos(game_name, spec, games, seed, **options))


def solo_summary(infos: list[dict[str, Any]]) -> dict[str, Any]:
    """The objective rate (Wilson 95% CI), mean score and tier counts of solo games'
    final infos (:func:`solo_infos`)."""
    games = len(infos)
    wins = sum(1 for info in infos if info["won"])
    low, high = rt.wilson_interval(wins, games)
    scores = [float(info["score"]) for info in infos]
    return {"games": games, "wins": wins, "win_rate": wins / games, "win_low": low,
            "win_high": high, "mean_score": float(np.mean(scores)),
            "score_sd": float(np.std(scores)),
            "tiers": dict(Counter(str(info.get("tier", "none")) for info in infos))}


def solo_infos(game_name: str, spec: str, games: int, seed: int,
               **options: Any) -> list[dict[str, Any]]:
    """The final info of each of ``games`` solo games of ``spec``, game ``k`` dealt from
    seed ``seed + k`` (checked as in :func:`solo_share`)."""
    _check_count("games", games, 1, MAX_GAMES)
    _check_count("seed", seed, 0, None)
    game = make_game(game_name, num_players=1, **options)
    agent = make_agent(spec, game_name, seed)
    return [play_solo(game, agent, seed + k) for k in range(games)]


def paired_scores(game_name: str, spec: str, baseline: str, games: int, seed: int,
                  **options: Any) -> dict[str, Any]:
    """``spec``'s solo score against ``baseline``'s on the same deals
    (:func:`paired_difference`)."""
    ours = solo_infos(game_name, spec, games, seed, **options)
    theirs = solo_infos(game_name, baseline, games, seed, **options)
    return {**paired_difference(ours, theirs), "seed": seed, "baseline": baseline}


def paired_difference(ours: list[dict[str, Any]], theirs: list[dict[str, Any]]
                      ) -> dict[str, Any]:
    """Both mean scores of solo games played on the same deals, the mean per-deal
    difference and its 95% interval (normal approximation, paired)."""
    a = np.array([float(info["score"]) for info in ours])
    b = np.array([float(info["score"]) for info in theirs])
    if len(a) != len(b) or not len(a):
        raise ConfigError(f"paired solo scores need the same deals on both sides, got "
                          f"{len(a)} and {len(b)} games")
    diff, games = a - b, len(a)
    half = 1.96 * float(diff.std(ddof=1)) / np.sqrt(games) if games > 1 else float("inf")
    mean = float(diff.mean())
    return {"games": games, "mean_score": float(a.mean()), "baseline_mean_score": float(b.mean()),
            "mean_difference": mean, "difference_ci95": [mean - half, mean + half]}


def _check_count(name: str, value: Any, low: int, high: int | None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low \
            or (high is not None and value > high):
        allowed = f"from {low} to {high:,}" if high is not None else f">= {low}"
        raise ConfigError(f"solo evaluation: {name} must be a whole number {allowed}, "
                          f"got {value!r}")


def format_solo_table(rows: dict[str, dict[str, Any]]) -> str:
    """A text table: one line per agent."""
    lines = [f"{'agent':40s} {'games':>5s} {'objective':>10s} {'95% CI':>13s} "
             f"{'mean score':>10s}  tiers"]
    for spec, r in rows.items():
        tiers = ", ".join(f"{k} {v}" for k, v in sorted(r["tiers"].items()))
        lines.append(f"{spec[-40:]:40s} {r['games']:5d} {r['win_rate']:10.1%} "
                     f"{r['win_low']:6.1%}-{r['win_high']:5.1%} {r['mean_score']:10.1f}  {tiers}")
    return "\n".join(lines)
