"""Pure rating, confidence-interval and summary helpers for tournaments (stdlib only).

This is the only module importing ``openskill`` (inside :func:`openskill_ratings`),
so everything else here works without the ``train`` extra. Ranks and win shares take
per-seat sort keys: a game's ``ranking_keys`` (its tie-breaks included) or plain
scores; both come from :mod:`formosa_envs.core.ranking`, as the envs' rewards do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from formosa_envs.core.errors import ConfigError
from formosa_envs.core.ranking import ranks_of, shares_of, top_positions, wilson_interval


def mean_ci(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean with a normal-approximation confidence interval.

    Uses the sample standard deviation (ddof=1); a single value gives a
    zero-width interval. Raises ``ValueError`` on an empty sequence.
    """
    n = len(values)
    if n == 0:
        raise ValueError("mean_ci needs at least one value")
    mean = math.fsum(values) / n
    if n == 1:
        return mean, mean, mean
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def rank_of(keys: Sequence[Any]) -> list[float]:
    """Rank of each seat: 1 = best (highest key); tied keys share their average rank.

    ``keys`` are scores or a game's ``ranking_keys`` (tuples with its tie-breaks):
    ``rank_of([10, 20, 20, 5]) == [3.0, 1.5, 1.5, 4.0]``,
    ``rank_of([(9, 3), (9, 7)]) == [2.0, 1.0]``.
    """
    return ranks_of(keys)


def win_shares(keys: Sequence[Any]) -> list[float]:
    """Each seat's share of the victory: 1/k for each of the k top keys, else 0."""
    return shares_of(top_positions(keys), len(keys))


@dataclass
class AgentStats:
    """One agent's results over all its seat appearances."""

    name: str
    spec: str
    games: int = 0
    wins: float = 0.0
    win_rate: float = 0.0
    win_low: float = 0.0
    win_high: float = 1.0
    mean_score: float = 0.0
    score_low: float = 0.0
    score_high: float = 0.0
    mean_rank: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0
    seat_games: list[int] = field(default_factory=list)


def agent_stats(name: str, spec: str, seen: list[tuple[float, float, float, int]],
                num_players: int) -> AgentStats:
    """One agent's summary from its seat appearances ``(score, rank, win_share, seat)``.

    Ratings (mu, sigma, ordinal) stay 0 here: see :func:`openskill_ratings`.
    """
    st = AgentStats(name, spec, seat_games=[0] * num_players)
    if not seen:
        return st
    scores, ranks, wins, seats = zip(*seen, strict=True)
    st.games, st.wins = len(seen), math.fsum(wins)
    st.win_rate = st.wins / st.games
    st.win_low, st.win_high = wilson_interval(min(st.wins, st.games), st.games)
    st.mean_score, st.score_low, st.score_high = mean_ci(scores)
    st.mean_rank = math.fsum(ranks) / st.games
    for seat in seats:
        st.seat_games[seat] += 1
    return st


def head_to_head(games: list[tuple[list[str], list[float]]]
                 ) -> dict[str, dict[str, dict[str, float]]]:
    """``h2h[a][b]``: games, wins and win rate of a against b, from 2-player games.

    Each game is ``(names, win_shares)`` with two seats.
    """
    h2h: dict[str, dict[str, dict[str, float]]] = {}
    for names, wins in games:
        for me, other in ((0, 1), (1, 0)):
            cell = h2h.setdefault(names[me], {}).setdefault(
                names[other], {"games": 0, "wins": 0.0, "win_rate": 0.0})
            cell["games"] += 1
            cell["wins"] += wins[me]
            cell["win_rate"] = cell["wins"] / cell["games"]
    return h2h


def openskill_ratings(games: list[tuple[list[str], list[Any]]]
                      ) -> dict[str, tuple[float, float]]:
    """Plackett-Luce ratings ``{name: (mu, sigma)}`` from games fed in the given order.

    Each game is ``(names, keys)`` with one entry per seat: scores or ranking keys
    (higher is better, equal keys are ties). See :func:`openskill_from_ranks`.
    """
    return openskill_from_ranks([(names, rank_of(keys)) for names, keys in games])


def openskill_from_ranks(games: list[tuple[list[str], list[float]]]
                         ) -> dict[str, tuple[float, float]]:
    """Plackett-Luce ratings ``{name: (mu, sigma)}`` from games fed in the given order.

    Each game is ``(names, ranks)`` with one entry per seat, rank 1 the best and
    tied seats sharing a rank (a game's ``ranks``, tie-breaks applied). A game needs
    at least two seats (a rating compares players). A name may sit in several
    seats of one game (an agent facing copies of itself): every copy is rated from
    the same prior, the agent's mu moves by the sum of its copies' changes and its
    variance shrinks by the product of their shrink factors, as if each seat were
    an observation of its own.
    """
    for names, _ in games:
        if len(names) < 2:
            raise ConfigError(f"ratings compare players: every game needs at least two "
                              f"seats, got {list(names)}")
    model = _plackett_luce()
    ratings: dict[str, Any] = {}
    for names, ranks in games:
        for name in names:
            if name not in ratings:
                ratings[name] = model.rating(name=name)
        teams = [[ratings[name]] for name in names]
        new = model.rate(teams, ranks=list(ranks))
        _merge_copies(model, ratings, names, [team[0] for team in new])
    return {name: (float(r.mu), float(r.sigma)) for name, r in ratings.items()}


def _merge_copies(model: Any, ratings: dict[str, Any], names: list[str],
                  updated: list[Any]) -> None:
    """Fold the per-seat updates of one game back into one rating per name."""
    changes: dict[str, tuple[float, float]] = {}
    for name, rating in zip(names, updated, strict=True):
        old = ratings[name]
        dmu, shrink = changes.get(name, (0.0, 1.0))
        changes[name] = (dmu + rating.mu - old.mu, shrink * rating.sigma / old.sigma)
    for name, (dmu, shrink) in changes.items():
        old = ratings[name]
        ratings[name] = model.rating(mu=old.mu + dmu, sigma=old.sigma * shrink, name=name)


def _plackett_luce() -> Any:
    """A default PlackettLuce model, or a clear ImportError naming the extra to install."""
    try:
        from openskill.models import PlackettLuce
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("skill ratings need the 'openskill' package, a dependency of "
                          "formosa_envs: pip install 'openskill>=6,<7'") from exc
    return PlackettLuce()
