"""Rule tests of Dadaocheng planning (DDC-4) and the collect / stock cascade (DDC-5).

Each docstring cites the rule of ``seeds/dadaocheng.md`` and the rulebook section it checks.
4 players (every side owned: S = p0, W = p1, N = p2, E = p3) unless noted; player 0 acts.
Grids are written row by row from the North-West corner (``common.py``); storehouse space
``space(side, k)`` faces row or column k.
"""

from __future__ import annotations

import pytest

from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.scenario import act, answer, kind, scenario, space
from tests.dadaocheng.common import (
    QUIET,
    ROW4_GRID,
    T_GRID,
    game,
    hand,
    lines_of,
    seat_list,
)

G4 = game(4)
EMPTY = [0] * 5
START = hand(r=2)               # something to spend, so that Stage 4 asks (not only DONE)

# QUIET with D06 and D14 swapped: K R R K / G W Y Y / W R G Y / K G W K (no line).
PLAN = "D01 D06 D05 D02 / D11 D08 D15 D14 / D09 D07 D12 D16 / D03 D13 D10 D04"

# Row 3 cells 0-2 black: K Y R K / G W Y R / W G G K / K K K Y.
BLACK_ROW = "D01 D14 D05 D02 / D11 D08 D15 D06 / D09 D13 D12 D04 / D03 D07* D10* D16"


def hands(n: int = 4, **at: list[int]) -> list[list[int]]:
    return seat_list(n, lambda: list(START), **at)


def test_the_grids_used_here() -> None:
    """Guards for the grids of this file: their candidate lines, as derived by hand."""
    assert lines_of(G4, QUIET) == [] and lines_of(G4, PLAN) == []
    assert lines_of(G4, T_GRID) == [0, 14] and lines_of(G4, ROW4_GRID) == [2, 12]
    assert lines_of(G4, BLACK_ROW) == [9]


# ----- DDC-4 planning -----------------------------------------------------------------------

def test_two_movements_any_cells_flip_or_swap() -> None:
    """DDC-4.1, DDC-4.4 [Stage 1; l.69]: the active player makes two movements; each is a
    flip of any cell (corners included) or a swap with any other cell, named lower cell
    first (so cell 15 starts no swap)."""
    s = scenario(G4, phase="planning", grid=QUIET, hands=hands())
    assert kind(G4, s) == "move" and G4.current_player(s) == 0
    assert G4.legal_actions(s) == list(range(A.FLIP0, A.FLIP0 + 16)) + list(
        range(A.SWAP0, A.SWAP0 + 15))
    act(G4, s, A.SWAP0 + 5)
    assert kind(G4, s) == "swap_to"
    assert G4.legal_actions(s) == [A.SWAP_TO0 + c for c in range(6, 16)]
    act(G4, s, A.SWAP_TO0 + 15)                  # cells 5 (D08) and 15 (D04) trade places
    assert s.cell_disc[5] == 3 and s.cell_disc[15] == 7
    assert kind(G4, s) == "move" and G4.current_player(s) == 0     # the second movement
    act(G4, s, A.FLIP0 + 0)                      # a corner
    assert s.flipped[0] == 1 and kind(G4, s) == "purchase"


def test_every_swap_of_two_cells_has_exactly_one_id_pair() -> None:
    """DDC-4.1, DDC-4.4: the 120 unordered pairs of cells are each reachable by exactly one
    ``SWAP[a]`` ``SWAP_TO[b]`` sequence (a < b), and every such sequence swaps a and b."""
    s = scenario(G4, phase="planning", grid=QUIET, hands=hands())
    pairs = []
    for first in G4.legal_actions(s):
        if first < A.SWAP0:
            continue
        t = G4.clone(s)
        act(G4, t, first)
        a = first - A.SWAP0
        if kind(G4, t) != "swap_to":              # SWAP[14]: cell 15 is forced (2.2)
            assert a == 14 and (t.cell_disc[14], t.cell_disc[15]) == (s.cell_disc[15],
                                                                    s.cell_disc[14])
            pairs.append((14, 15))
            continue
        for second in G4.legal_actions(t):
            u = G4.clone(t)
            act(G4, u, second)
            b = second - A.SWAP_TO0
            assert (u.cell_disc[a], u.cell_disc[b]) == (s.cell_disc[b], s.cell_disc[a])
            pairs.append((a, b))
    assert len(pairs) == len(set(pairs)) == 120
    assert {frozenset(p) for p in pairs} == {frozenset((a, b)) for a in range(16)
                                             for b in range(a + 1, 16)}


def test_lines_are_looked_for_only_after_the_second_movement() -> None:
    """DDC-4.2, DDC-4.3, R-36 [Stage 1; Stage 2; l.69, l.73]: a line made by the first
    movement is not collected; the second may undo it (same disc), then nothing is."""
    s = scenario(G4, phase="planning", grid=PLAN, hands=hands())
    act(G4, s, A.FLIP0 + 5)                      # row 1: G Y Y Y, a line
    assert kind(G4, s) == "move" and s.hand[0] == START
    act(G4, s, A.FLIP0 + 5)                      # back to G W Y Y
    assert s.flipped == [0] * 16 and s.hand[0] == START
    assert s.storehouse == [EMPTY] * 16 and kind(G4, s) == "purchase"


def test_a_swapped_disc_keeps_its_side_and_the_cascade_repeats() -> None:
    """DDC-4.1, DDC-5.2-5.9 [Stage 1; Stage 2 > Exhaustion; l.69, l.79]: flip cell 13 (D13
    G -> Y) and swap it with cell 5 (D08, W): row 1 shows G Y Y Y. Collect 1 Y, stock E
    space 1; exhaustion flips cells 5-7 (D13 back to G, D15 Y -> G, D14 Y -> R): row 1
    G G G R is a new line: 1 G, stock W space 1; flipping cells 4-6 leaves no line."""
    s = scenario(G4, phase="planning", grid=PLAN, hands=hands())
    act(G4, s, A.FLIP0 + 13, A.SWAP0 + 5, A.SWAP_TO0 + 13)
    assert s.cell_disc[5] == 12 and s.cell_disc[13] == 7          # D13, D08
    assert s.hand[0] == hand(r=2, g=1, y=1)
    assert s.storehouse[space("E", 1)] == hand(y=1)
    assert s.storehouse[space("W", 1)] == hand(g=1)
    assert sum(map(sum, s.storehouse)) == 2
    assert [s.flipped[c] for c in (4, 5, 6, 7, 13)] == [1, 1, 0, 1, 0]
    assert kind(G4, s) == "purchase"


# ----- DDC-5 candidates, collecting and stocking ----------------------------------------------

def test_a_t_asks_which_line_and_a_run_of_four_gives_two_cubes_to_both_ends() -> None:
    """DDC-5.1, DDC-5.4-5.6, R-7, R-9 [Stage 2; Notes; l.73-75, l.84]: row 0 cells 0-2 and
    column 0 rows 0-3 share cell 0: the player chooses. The column of 4 gives 2 G and
    stocks N space 0 (p2) and S space 0 (p0); all four discs flip and no line is left."""
    s = scenario(G4, phase="cascade", grid=T_GRID, hands=hands())
    assert kind(G4, s) == "line" and G4.current_player(s) == 0
    assert G4.legal_actions(s) == [A.LINE0 + 0, A.LINE0 + 14]
    act(G4, s, A.LINE0 + 14)
    assert s.hand[0] == hand(r=2, g=2)
    assert s.storehouse[space("N", 0)] == hand(g=1) and s.storehouse[space("S", 0)] == hand(g=1)
    assert sum(map(sum, s.storehouse)) == 2
    assert [s.flipped[c] for c in (0, 4, 8, 12)] == [1, 0, 0, 0]
    assert kind(G4, s) == "purchase"


def test_the_other_arm_is_checked_again_after_exhaustion() -> None:
    """DDC-5.4, DDC-5.6, DDC-5.9, R-9 [Notes; l.84]: taking row 0 (1 G, W space 0) flips cell
    0 to R; column 0 then shows R G G G, whose rows 1-3 are a line taken without asking
    (1 G, S space 0)."""
    s = scenario(G4, phase="cascade", grid=T_GRID, hands=hands())
    act(G4, s, A.LINE0 + 0)
    assert s.hand[0] == hand(r=2, g=2)
    assert s.storehouse[space("W", 0)] == hand(g=1) and s.storehouse[space("S", 0)] == hand(g=1)
    assert s.storehouse[space("N", 0)] == EMPTY
    assert [s.flipped[c] for c in (0, 1, 2, 4, 8, 12)] == [1, 1, 1, 0, 0, 0]
    assert kind(G4, s) == "purchase"


def test_row_lines_stock_west_and_east() -> None:
    """DDC-5.6 [Stock Resources; l.75]: row 0 of 4 (G G G G) stocks W and E space 0 and gives
    2 G. Column 0 rows 0-2 instead stocks N space 0 (1 G); its exhaustion leaves row 0
    R G G G, whose cells 1-3 stock E space 0 (1 G)."""
    s = scenario(G4, phase="cascade", grid=ROW4_GRID, hands=hands())
    act(G4, s, A.LINE0 + 2)
    assert s.hand[0] == hand(r=2, g=2)
    assert s.storehouse[space("W", 0)] == hand(g=1) and s.storehouse[space("E", 0)] == hand(g=1)
    assert sum(map(sum, s.storehouse)) == 2
    s = scenario(G4, phase="cascade", grid=ROW4_GRID, hands=hands())
    act(G4, s, A.LINE0 + 12)
    assert s.hand[0] == hand(r=2, g=2)
    assert s.storehouse[space("N", 0)] == hand(g=1) and s.storehouse[space("E", 0)] == hand(g=1)
    assert sum(map(sum, s.storehouse)) == 2


@pytest.mark.parametrize(("n", "options", "stocked"), [
    (3, {}, ["W"]),                                 # E covered
    (2, {}, []),                                    # S and N own: W and E covered
    (2, {"two_player_sides": "adjacent"}, ["W"]),   # S and W own
])
def test_covered_sides_are_never_stocked(n, options, stocked) -> None:
    """DDC-2.1, DDC-5.6, R-8, R-11 [Setup 6; l.59]: a covered region takes no cube and nobody
    gets it instead; the line still gives its cubes."""
    g = game(n, **options)
    s = scenario(g, phase="cascade", grid=ROW4_GRID, hands=hands(n))
    act(g, s, A.LINE0 + 2)
    assert s.hand[0] == hand(r=2, g=2)
    assert [s.storehouse[space(side, 0)] for side in "WE"] == [
        hand(g=1) if side in stocked else EMPTY for side in "WE"]
    assert sum(map(sum, s.storehouse)) == len(stocked)
    assert s.hand[1:] == [START] * (n - 1)


def test_solo_only_the_own_storehouse_is_stocked() -> None:
    """DDC-14.7, R-33 [Single Player > Gameplay; l.152]: the column of 4 stocks S space 0
    only (N is covered); the 2 G are collected."""
    g = game(1)
    s = scenario(g, phase="cascade", grid=T_GRID, hands=hands(1))
    act(g, s, A.LINE0 + 14)
    assert s.hand[0] == hand(r=2, g=2) and s.storehouse[space("S", 0)] == hand(g=1)
    assert sum(map(sum, s.storehouse)) == 1


def test_a_store_is_not_stocked() -> None:
    """DDC-5.6, DDC-9.3, R-11 [Stage 2 > Notes; l.83]: the column of 4 with S space 0 a
    Store stocks only N space 0."""
    s = scenario(G4, phase="cascade", grid=T_GRID, hands=hands(), stores=[space("S", 0)],
                 buildings=seat_list(4, [0] * 5, p0=[0, 1, 0, 0, 0]))
    act(G4, s, A.LINE0 + 14)
    assert s.hand[0] == hand(r=2, g=2)
    assert s.storehouse[space("S", 0)] == EMPTY and s.storehouse[space("N", 0)] == hand(g=1)


def test_corruption_empties_only_the_spaces_with_three() -> None:
    """DDC-5.7, R-10 [Stage 2 > Corruption; l.77]: N space 0 with 2 cubes gets a third and is
    emptied; S space 0 (1 Y -> 1 Y 1 G) and W space 1 (2 K, not stocked) keep theirs."""
    store = {space("N", 0): hand(r=1, w=1), space("S", 0): hand(y=1), space("W", 1): hand(k=2)}
    s = scenario(G4, phase="cascade", grid=T_GRID, hands=hands(), storehouse=store)
    act(G4, s, A.LINE0 + 14)
    assert s.storehouse[space("N", 0)] == EMPTY
    assert s.storehouse[space("S", 0)] == hand(g=1, y=1)
    assert s.storehouse[space("W", 1)] == hand(k=2)
    assert s.hand[0] == hand(r=2, g=2)


def test_black_lines_give_and_stock_black_without_using_opium() -> None:
    """DDC-5.10, R-37 [Stage 2; l.73]: row 3 cells 0-2 show K: 1 K to the hand and W space
    3; the opium track does not move. The flipped discs show G R W: no line is left."""
    s = scenario(G4, phase="cascade", grid=BLACK_ROW, hands=hands())
    assert s.hand[0] == hand(r=2, k=1) and s.opium == [0] * 4
    assert s.storehouse[space("W", 3)] == hand(k=1)
    assert [s.flipped[c] for c in (12, 13, 14)] == [1, 0, 0]
    assert kind(G4, s) == "purchase"


def test_no_line_after_planning_collects_nothing() -> None:
    """DDC-5.2 [Stage 2 > Exhaustion; l.79]: without a candidate Stage 2 ends at once."""
    s = scenario(G4, phase="cascade", grid=QUIET, hands=hands())
    assert s.hand == [START] * 4 and s.storehouse == [EMPTY] * 16
    answer(G4, s, "purchase", A.DONE, player=0)
    assert kind(G4, s) == "move" and G4.current_player(s) == 1


def test_only_the_active_player_collects() -> None:
    """DDC-5.5 [Collect Resources; l.73]: the cubes of a line go to the active player (here
    player 2); the storehouse spaces follow the line's geometry, whoever is active."""
    s = scenario(G4, phase="cascade", grid=T_GRID, hands=hands(), turn=2)
    act(G4, s, A.LINE0 + 14)
    assert s.hand == [START, START, hand(r=2, g=2), START]
    assert s.storehouse[space("N", 0)] == hand(g=1) and s.storehouse[space("S", 0)] == hand(g=1)
    assert G4.current_player(s) == 2 and kind(G4, s) == "purchase"



def test_a_saved_swap_from_the_last_cell_is_refused() -> None:
    """DDC-4.4: no swap starts at cell 15, so a save pending ``swap_to`` from it is corrupt
    (and one from cell 14 is not a decision: its second cell is forced)."""
    import json

    from formosa_envs.core.errors import StateFormatError
    s = scenario(G4, phase="planning", grid=QUIET, hands=hands())
    act(G4, s, A.SWAP0 + 5)
    saved = json.loads(G4.to_json(s))
    assert saved["state"]["stack"][-1][0] == "swap_to"
    G4.from_json(json.dumps(saved))                       # as saved: loads
    saved["state"]["stack"][-1][-1] = [15]
    with pytest.raises(StateFormatError, match="swap_to"):
        G4.from_json(json.dumps(saved))
