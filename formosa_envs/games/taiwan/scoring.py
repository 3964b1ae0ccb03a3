"""Taiwan Formosa final scoring: uncompleted cards, Baseball Field, Train Station, regions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import LANDMARK0, TaiwanState

if TYPE_CHECKING:
    from .game import TaiwanGame

UNCOMPLETED_PENALTY = {1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7}
TRAIN_VP = {0: 0, 1: 0, 2: 2, 3: 4, 4: 6}


def area_ranks(markers: list[int]) -> list[int]:
    """Owners ordered by markers (most first), ties to the earliest placement (T-8.3)."""
    counts: dict[int, int] = {}
    first: dict[int, int] = {}
    for i, owner in enumerate(markers):
        counts[owner] = counts.get(owner, 0) + 1
        first.setdefault(owner, i)
    return sorted(counts, key=lambda o: (-counts[o], first[o]))


def area_points(markers: list[int], num_players: int) -> dict[int, int]:
    """VP per player from one region: 2x and 1x the marker count; the neutral never scores."""
    reward = len(markers)
    points: dict[int, int] = {}
    for place, owner in enumerate(area_ranks(markers)[:2]):
        if owner < num_players:
            points[owner] = reward * (2 if place == 0 else 1)
    return points


def uncompleted_vp(vp: int, space: int) -> int:
    """An uncompleted card's VP: printed VP minus 2/3/4/5 on spaces 1/2/3/4 (T-8.1)."""
    return vp - UNCOMPLETED_PENALTY[space]


def final_scoring(game: TaiwanGame, s: TaiwanState) -> None:
    """Add every end-of-game VP to ``s.vp`` (T-8)."""
    n = s.num_players
    trains = sum(s.bought[p][game.type_id["train_station"]] for p in range(n))
    for p in range(n):
        for code, space in s.track[p]:
            s.vp[p] += uncompleted_vp(game.card_vp(code), space)
        completed_buildings = sum(1 for code in s.built[p] if code < LANDMARK0)
        s.vp[p] += s.bought[p][game.type_id["baseball_field"]] * completed_buildings
        s.vp[p] += s.bought[p][game.type_id["train_station"]] * TRAIN_VP[min(trains, 4)]
    for region in s.regions:
        for p, points in area_points(region, n).items():
            s.vp[p] += points
