"""The worked examples printed in the Formosa Tea rulebook, replayed on the engine.

Content: the frozen test copy (tests/tea/common.py); 3 players (columns 1-3 in play).
"""

from __future__ import annotations

from formosa_envs.games.tea import actions as A
from formosa_envs.games.tea.scenario import act, events_around, factory, kind, nine, scenario
from tests.tea.common import BLACK, GREEN, OOLONG, ROLLING_DISC, SCENTED, game, space

G = game(3)
NONE4 = [-1, -1, -1, -1]


def test_harvest_example_two_green_and_one_orange() -> None:
    """I.1 example: with 2 green and 1 orange cube, take the 2 green OR 1 green + 1 orange
    (or the single orange, or nothing); the cubes go in at the column's WL (2 here)."""
    sp = space(0, 2)
    s = scenario(G, weather=[1, 1, 2, 0], cubes={sp: [1, 0, 2]}, placed=[[0, 0], [0, 0],
                                                                         [0, 0]])
    act(G, s, A.HARVEST0 + sp, A.WORKER0)
    assert kind(G, s) == "take"
    assert sorted(G.legal_actions(s)) == sorted([A.DONE, A.TAKE0 + OOLONG, A.TAKE0 + GREEN,
                                                 A.TAKE0 + A.ONE_EACH])
    act(G, s, A.TAKE0 + GREEN)
    assert s.basket[0] == nine(green=(0, 0, 2)) and s.cubes[sp] == [1, 0, 0]


def test_four_black_cubes_give_one_technology_step() -> None:
    """II.2 example: processing 4 Black cubes may advance Black technology 1 space, and the
    space's reward is gained (the Rolling disc on our track)."""
    s = scenario(G, basket=[nine(black=(1, 2, 1)), nine(), nine()])
    act(G, s, A.PROCESS0 + BLACK)
    # space 1 of the black track is Withering: the player picks the level first
    while kind(G, s) == "lower":
        act(G, s, A.LOWER0)
    assert kind(G, s) == "tech_reward" and G.top(s).count == 1
    act(G, s, A.CONFIRM)
    assert s.tech[0] == [0, 1, 0] and s.tech_discs[0][ROLLING_DISC] == 1
    assert sum(s.factory[0][4:8]) == 4


def test_scented_example_total_value_five_scores_five_per_cube() -> None:
    """III example: a total Scented Value of 5 scores 5 VP per cube: 2 oolong buds (2 each)
    and 1 green bud (1) on 3 oolong cubes = 15 VP."""
    s = scenario(G, scent=[[OOLONG, 3, 2, 0, 1], [-1, 0, 0, 0, 0], [-1, 0, 0, 0, 0]],
                 masters_on=[[-1, -1, -1, 4], NONE4, NONE4])
    act(G, s, A.COMPLETE0 + SCENTED)
    assert s.vp[0] == 15 and s.scent[0] == [-1, 0, 0, 0, 0]


def test_flavor_bonus_table_on_completion() -> None:
    """III.2: a Good batch with 3/4/5/6 Flavor cubes scores 3/6/10/15 VP at once."""
    for flavor, vp in ((2, 0), (3, 3), (4, 6), (5, 10), (6, 15)):
        s = scenario(G, factories=[factory(green=(0, 0, 0, flavor)), factory(), factory()],
                     masters_on=[[-1, -1, 4, -1], NONE4, NONE4])
        act(G, s, A.COMPLETE0 + GREEN)
        assert s.vp[0] == vp and s.warehouse[0] == nine(green=(0, 0, flavor))


def test_preparation_example_two_workers_in_the_third_row() -> None:
    """Preparation 1 example: 2 workers on row 3 (green) move each green Master 2 spaces,
    and only the space reached acts (green track: fixation, rolling, FIXATION, ...)."""
    s = scenario(G, phase="preparation", **events_around(G, "e1889"),  # no immediate effect
                 occupant={space(2, 1): 1, space(2, 3): 2},
                 masters_on=[[-1, -1, 0, -1], [-1, -1, 0, -1], NONE4],
                 factories=[factory(green=(0, 1, 0, 0)), factory(green=(0, 0, 1, 0)),
                            factory()])
    assert s.master_pos[0][GREEN] == 2 and s.master_pos[1][GREEN] == 2
    # space 2 (0-based) is Fixation: player 0's single WL-1 cube is lowered, no Rolling
    assert s.factory[0][8:12] == [1, 0, 0, 0]
