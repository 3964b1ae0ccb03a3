"""Final scores with their breakdown, for the end of a web game.

Each game's score is split into the parts its final scoring adds, computed with the
game's own scoring functions from the final state; the part scored during play is what
remains (so the parts always sum to the score shown). A game with no breakdown here
shows its scores alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Parts = list[tuple[str, int]]


def breakdown(game: Any, state: Any) -> list[list[dict[str, Any]]]:
    """Per seat, the ``{"part", "points"}`` rows that sum to its score (non-zero parts)."""
    scores = [int(round(x)) for x in game.scores(state)]
    split = _SPLITS.get(game.name)
    rows = []
    for seat, score in enumerate(scores):
        parts = split(game, state, seat) if split else []
        during = score - sum(points for _, points in parts)
        named = ([(_DURING.get(game.name, "during the game"), during)] if during or not parts
                 else []) + parts
        rows.append([{"part": part, "points": points} for part, points in named if points
                     or len(named) == 1])
    return rows


def _taiwan(game: Any, s: Any, p: int) -> Parts:
    from formosa_envs.games.taiwan.scoring import TRAIN_VP, area_points, uncompleted_vp
    from formosa_envs.games.taiwan.state import LANDMARK0
    trains = sum(s.bought[q][game.type_id["train_station"]] for q in range(s.num_players))
    built = sum(1 for code in s.built[p] if code < LANDMARK0)
    regions = sum(area_points(region, s.num_players).get(p, 0) for region in s.regions)
    return [("uncompleted cards on the track", sum(uncompleted_vp(game.card_vp(code), space)
                                                   for code, space in s.track[p])),
            ("Baseball Field", s.bought[p][game.type_id["baseball_field"]] * built),
            ("Train Station", s.bought[p][game.type_id["train_station"]] *
             TRAIN_VP[min(trains, 4)]),
            ("region majorities", regions)]


def _tea(game: Any, s: Any, p: int) -> Parts:
    from formosa_envs.games.tea.events import end_game_vp
    from formosa_envs.games.tea.scoring import icon_multiplier
    icons = 0
    for tea, row in enumerate(game.board.technology):
        count = sum(1 for c in s.kept[p] if game.merchants[c].icon_index == tea)
        icons += count * icon_multiplier(s.tech[p][tea], row.rewards, row.values)
    return [("Domestic Market", game.board.domestic.vp[s.domestic[p]]),
            ("merchant icons", icons), ("events at the game's end", end_game_vp(game, s)[p])]


def _dadaocheng(game: Any, s: Any, p: int) -> Parts:
    from formosa_envs.games.dadaocheng.content import DEN, MANSION
    from formosa_envs.games.dadaocheng.scoring import (
        den_penalty,
        mansion_vp,
        most_buildings_bonus,
    )
    bonus = most_buildings_bonus([sum(b) for b in s.buildings]) \
        if game.event_index["e1920"] in s.events else [0] * s.num_players
    return [("ships", sum(game.ships[i].prestige for i in s.ships[p])),
            ("buildings", sum(game.buildings[t].prestige * s.buildings[p][t]
                              for t in range(1, 5))),
            ("Mansions", mansion_vp(s.buildings[p][MANSION])),
            ("credit (1 per 5)", s.credit[p] // 5), ("opium used", -s.opium[p]),
            ("Opium Dens", -s.buildings[p][DEN] * den_penalty(sum(s.opium), s.num_players)),
            ("signs", 3 * s.sign[p]), ("1920: most buildings", bonus[p])]


_SPLITS: dict[str, Callable[[Any, Any, int], Parts]] = {
    "taiwan": _taiwan, "tea": _tea, "dadaocheng": _dadaocheng}
_DURING = {"flowers": "VP banked by cashing out", "dadaocheng": "other prestige"}
