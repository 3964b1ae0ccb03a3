"""Conservation laws of a Formosa Tea state (used by tests and by ``from_json``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import BUDS, CUBES, SCENTED, TeaState, in_play

if TYPE_CHECKING:
    from .game import TeaGame


def check_state(game: TeaGame, s: TeaState) -> None:
    """Raise ``AssertionError`` naming the first broken law."""
    n = s.num_players
    assert len(s.basket) == n and len(s.vp) == n, "player count does not match"
    _check_cubes(s, n)
    _check_buds(s, n)
    _check_workers(game, s, n)
    _check_discs(s, n)
    _check_cards(game, s, n)


def _check_cubes(s: TeaState, n: int) -> None:
    for tea in range(3):
        where = [s.bag[tea], sum(c[tea] for c in s.cubes)]
        for p in range(n):
            where += [sum(s.basket[p][3 * tea:3 * tea + 3]),
                      sum(s.factory[p][4 * tea:4 * tea + 4]),
                      sum(s.warehouse[p][3 * tea:3 * tea + 3]),
                      s.scent[p][1] if s.scent[p][0] == tea else 0]
        assert min(where) >= 0, f"negative cube count for tea {tea}: {where}"
        assert sum(where) == CUBES[tea], f"tea {tea} cubes: {sum(where)} != {CUBES[tea]}"
    for sp in range(16):
        assert in_play(s, sp) or sum(s.cubes[sp]) == 0, f"cubes on unused space {sp}"


def _check_buds(s: TeaState, n: int) -> None:
    for colour in range(3):
        total = s.bud_pool[colour] + s.bud.count(colour) + s.buds_gone[colour] + sum(
            s.buds[p][colour] + s.scent[p][2 + colour] for p in range(n))
        assert total == BUDS[n][colour], f"buds of colour {colour}: {total}"


def _check_workers(game: TeaGame, s: TeaState, n: int) -> None:
    masters = 3 if n == 2 else 2
    for p in range(n):
        on_tracks = sum(1 for pos in s.master_pos[p] if pos >= 0)
        assert s.farmers[p] + s.placed[p][0] == 2, f"player {p} farmers lost"
        total = s.masters[p] + s.placed[p][1] + on_tracks + s.parked[p]
        assert total == masters, f"player {p} masters: {total} != {masters}"
        assert min(s.farmers[p], s.masters[p]) >= 0
        for t in range(4):
            assert -1 <= s.master_pos[p][t] <= game.last[t], f"master off track {t}"
        assert (s.master_pos[p][SCENTED] >= 0) == (s.scent[p][1] > 0) or s.scent[p][1] == 0
    placed = sum(1 for o in s.occupant if o >= 0) + sum(len(m) for m in s.market)
    assert placed <= sum(sum(pl) for pl in s.placed), "workers on the board not accounted"


def _check_discs(s: TeaState, n: int) -> None:
    for kind in range(2):
        held = sum(s.action_discs[p][kind] for p in range(n))
        assert held + s.action_supply[kind] == (8, 4)[kind], f"action discs of kind {kind}"
    for kind in range(4):
        held = sum(s.tech_discs[p][kind] + sum(1 for c in s.discs_on[p] if c % 4 == kind)
                   for p in range(n))
        assert held + s.tech_supply[kind] == 4, f"tech discs of kind {kind}"
    for p in range(n):
        for t in range(3):
            on = sum(1 for c in s.discs_on[p] if c // 4 == t)
            assert on <= 2, f"player {p} has {on} discs on factory {t}"


def _check_cards(game: TeaGame, s: TeaState, n: int) -> None:
    cards = [c for pool in s.deck_pools for c in pool] + s.deck_tail
    cards += [c for row in s.display for c in row if c >= 0]
    cards += [c for p in range(n) for c in s.kept[p]]
    expected = sorted(c for pool in game.stage_pools for c in pool)
    assert sorted(cards) == expected, "merchant cards lost or duplicated"
