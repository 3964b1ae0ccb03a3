"""Rule tests of Dadaocheng infinite loops (DDC-6): the check that the cascade cannot end,
the repetition check and the loop resolution.

Each docstring cites the rule of ``seeds/dadaocheng.md`` and the rulebook section it checks
[Stage 2 > Notes > Infinite Loop; l.85]. Unless noted 3 players (S = p0, W = p1, N = p2;
E covered).
"""

from __future__ import annotations

import pytest

from formosa_envs.core.engine import CHANCE
from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.grid import (
    CORNERS,
    candidates,
    groups_at_most_two,
    showing,
)
from formosa_envs.games.dadaocheng.scenario import act, answer, kind, resolve, scenario, space
from tests.dadaocheng.common import (
    LOOP_3X3,
    LOOP_3X4,
    K,
    W,
    colour,
    game,
    hand,
    lines_of,
)

G3 = game(3)
EMPTY = [0] * 5

# A 3 x 3 cycle with exits: G G G W / K K K G / K K K W / Y G K G (candidates rows 0-2
# cells 0-2 and column 2 rows 1-3). Discs: row 0 D06* (G, sun R) D12 (G, back W) D15* (G,
# sun Y) D08; row 1 D07* (K, sun R) D02 (K, back W) D04 (K, back Y) D11; row 2 D01 (K,
# back R) D10* (K, sun W) D16* (K, sun Y) D05*; row 3 D14 D13 D03 (K, back G) D09*.
CYCLE = "D06* D12 D15* D08 / D07* D02 D04 D11 / D01 D10* D16* D05* / D14 D13 D03 D09*"

STOCKED = {space("S", 1): hand(r=1), space("W", 3): hand(w=2), space("N", 2): hand(k=1)}


def colours_of(g, s) -> list[int]:
    return showing([g.discs[d].faces for d in s.cell_disc], s.bits())


def test_the_grids_used_here() -> None:
    """Guards: the candidate lines of the loop grids (§4.1) and of the cycle grid."""
    assert lines_of(G3, LOOP_3X3) == [0, 3, 6] and lines_of(G3, LOOP_3X4) == [2, 5, 8]
    assert lines_of(G3, CYCLE) == [0, 3, 6, 19]


def check_new_layout(g, s, solo: bool = False) -> None:
    """DDC-6.4 step 2: all sun sides up, opium discs in the corners, a valid layout."""
    assert s.flipped == [0] * 16 and sorted(s.cell_disc) == list(range(16))
    assert {s.cell_disc[c] for c in CORNERS} == {0, 1, 2, 3}
    if solo:
        assert groups_at_most_two(colours_of(g, s))
    else:
        assert candidates(colours_of(g, s)) == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_3x3_loop_is_resolved_before_any_collection(seed) -> None:
    """DDC-6.2, DDC-6.4, R-3, R-13: whatever line is taken, the 3 x 3 loop of §4.1 comes
    back to its start, so nothing is collected. Storehouses are emptied (Store markers
    stay), a new layout is drawn, the active player (p1) gains 1 Y, 1 R, 1 G and a cube of
    their choice (black here), a sign cube; then p2 and p0, in turn order from p1, take 2
    cubes each, beyond the hand limit of 6. Stage 2 ends."""
    s = scenario(G3, phase="cascade", grid=LOOP_3X3, turn=1, storehouse=STOCKED,
                 stores=[space("S", 0)], buildings=[[0, 1, 0, 0, 0], [], []],
                 hands=[hand(r=1), hand(w=1), hand(g=6)], sign=[0, 1, 0])
    assert kind(G3, s) == "place_disc" and G3.current_player(s) == CHANCE
    assert s.storehouse == [EMPTY] * 16 and s.remodelled[space("S", 0)] == 1
    assert s.hand[1] == hand(r=1, w=1, g=1, y=1) and s.sign == [0, 2, 0]
    resolve(G3, s, seed)
    check_new_layout(G3, s)
    assert G3.legal_actions(s) == [colour(c) for c in range(5)]
    answer(G3, s, "loop_any", colour(K), player=1)
    assert s.hand[1] == hand(r=1, w=1, g=1, y=1, k=1) and s.opium == [0, 0, 0]
    answer(G3, s, "loop_gift", colour(W), player=2)
    answer(G3, s, "loop_gift", colour(W), player=2)
    answer(G3, s, "loop_gift", colour(K), player=0)
    answer(G3, s, "loop_gift", colour(K), player=0)
    assert s.hand[2] == hand(w=2, g=6) and s.hand[0] == hand(r=1, k=2)
    assert kind(G3, s) == "purchase" and G3.current_player(s) == 1
    assert s.storehouse == [EMPTY] * 16 and s.remodelled[space("S", 0)] == 1


def test_the_3x4_loop_two_players() -> None:
    """DDC-6.2, DDC-6.4, DDC-6.6: the 3 x 4 loop of §4.1 fires at once too (2 players: the
    other player, p1, takes the 2 cubes)."""
    g = game(2)
    s = scenario(g, phase="cascade", grid=LOOP_3X4, storehouse={space("N", 1): hand(y=2)})
    assert s.storehouse == [EMPTY] * 16 and s.hand[0] == hand(r=1, g=1, y=1)
    resolve(g, s, 4)
    check_new_layout(g, s)
    answer(g, s, "loop_any", colour(W), player=0)
    answer(g, s, "loop_gift", colour(W), player=1)
    answer(g, s, "loop_gift", colour(W), player=1)
    assert s.hand == [hand(r=1, w=1, g=1, y=1), hand(w=2)] and s.sign == [1, 0]
    assert kind(g, s) == "purchase" and g.current_player(s) == 0


def test_a_chosen_cycle_ends_in_the_repetition_check() -> None:
    """DDC-6.3, DDC-6.4 (cubes collected before stay): in CYCLE, taking row 0 (G: flips to
    R W Y), row 1 (K: R W Y), row 2 (K, the only line left: R W Y), column 0 (R: back to
    G K K), column 1 (W: G K K), column 2 (Y, the only line: G K K) brings the grid back to
    its start: a loop. The 6 cubes stay, the stocked ones go back with the others."""
    s = scenario(G3, phase="cascade", grid=CYCLE)
    assert G3.legal_actions(s) == [A.LINE0 + line for line in (0, 3, 6, 19)]
    act(G3, s, A.LINE0 + 0)
    assert G3.legal_actions(s) == [A.LINE0 + line for line in (3, 6, 19)]
    act(G3, s, A.LINE0 + 3)                      # then row 2 without asking
    assert G3.legal_actions(s) == [A.LINE0 + line for line in (12, 15, 18)]
    assert s.hand[0] == hand(g=1, k=2)
    assert [sum(s.storehouse[space("W", k)]) for k in range(3)] == [1, 1, 1]
    act(G3, s, A.LINE0 + 12)
    assert G3.legal_actions(s) == [A.LINE0 + 15, A.LINE0 + 18]
    act(G3, s, A.LINE0 + 15)                     # then column 2 without asking: a repeat
    assert kind(G3, s) == "place_disc"
    # 6 collected (G K K R W Y) plus the loop's Y R G
    assert s.hand[0] == [1 + 1, 1, 1 + 1, 1 + 1, 2]
    assert s.storehouse == [EMPTY] * 16 and s.sign == [1, 0, 0]
    resolve(G3, s, 1)
    check_new_layout(G3, s)
    answer(G3, s, "loop_any", colour(W), player=0)
    assert s.hand[0] == [2, 2, 2, 2, 2]


def test_the_cycle_grid_can_end_so_no_loop_at_first() -> None:
    """DDC-6.2, DDC-5.9: CYCLE is not a loop at its start: row 0 (G; W space 0), column 2
    rows 1-3 (K; S space 2), row 3 cells 1-3 (G; E covered), column 2 rows 0-2 (Y, the only
    line; N space 2), column 2 rows 1-3 (K; S space 2) reach R W G W / K K Y G / K K Y W /
    Y Y G W, which has no line: the cascade ends normally."""
    s = scenario(G3, phase="cascade", grid=CYCLE, hands=[hand(r=2), [], []])
    act(G3, s, A.LINE0 + 0, A.LINE0 + 19, A.LINE0 + 10)
    assert G3.legal_actions(s) == [A.LINE0 + line for line in (3, 6, 19)]
    act(G3, s, A.LINE0 + 19)
    assert s.hand[0] == hand(r=2, g=2, y=1, k=2) and s.sign == [0, 0, 0]
    assert s.storehouse[space("W", 0)] == hand(g=1)
    assert s.storehouse[space("S", 2)] == hand(k=2)
    assert s.storehouse[space("N", 2)] == hand(y=1)
    assert sum(map(sum, s.storehouse)) == 4
    assert candidates(colours_of(G3, s)) == [] and kind(G3, s) == "purchase"


def test_solo_loop_reward_without_gifts_and_a_solo_layout() -> None:
    """DDC-14.5, DDC-14.10: in the solo game the loop gives the active player's reward only,
    and the new layout follows the solo condition (groups of at most 2)."""
    g = game(1)
    for seed in range(3):
        s = scenario(g, phase="cascade", grid=LOOP_3X3, storehouse={space("S", 3): hand(g=2)})
        assert s.storehouse == [EMPTY] * 16 and s.sign == [1]
        resolve(g, s, seed)
        check_new_layout(g, s, solo=True)
        answer(g, s, "loop_any", colour(K), player=0)
        assert s.hand[0] == hand(r=1, g=1, y=1, k=1)
        assert kind(g, s) == "purchase"

