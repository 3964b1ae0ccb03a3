"""Conservation laws of a Dadaocheng state (used by tests and by ``from_json``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import DadaochengState

if TYPE_CHECKING:
    from .game import DadaochengGame


def check_state(game: DadaochengGame, s: DadaochengState) -> None:
    """Raise ``AssertionError`` naming the first broken law (cubes are unlimited, R-1)."""
    n = s.num_players
    assert len(s.hand) == n and len(s.credit) == n, "player count does not match"
    placed = [d for d in s.cell_disc if d >= 0]
    assert len(set(placed)) == len(placed) and all(0 <= d < 16 for d in placed), \
        "a disc is missing or doubled on the grid"
    for p in range(n):
        assert min(s.hand[p]) >= 0, f"player {p} holds a negative number of cubes"
        assert s.opium[p] >= 0 and s.sign[p] >= 0 and min(s.buildings[p]) >= 0
        assert s.credit[p] == sum(game.ships[i].credit for i in s.ships[p]), "credit mismatch"
    for t, building in enumerate(game.buildings):
        owned = sum(s.buildings[p][t] for p in range(n))
        assert s.piles[t] >= 0 and owned + s.piles[t] == building.piles[n - 1], \
            f"{building.key} cards lost"
    ships = [i for pool in s.ship_pool for i in pool] + [i for i in s.ship_up if i >= 0]
    ships += [i for p in range(n) for i in s.ships[p]]
    assert sorted(ships) == list(range(len(game.ships))), "ship cards lost or doubled"
    for space, cubes in enumerate(s.storehouse):
        assert min(cubes) >= 0 and sum(cubes) <= 2, f"storehouse space {space} holds {cubes}"
        assert not (s.covered[space // 4] and sum(cubes)), "a covered space holds cubes"
    assert sorted(s.events + s.event_pool) == (
        [] if game.solo else list(range(len(game.events)))), "events lost"
