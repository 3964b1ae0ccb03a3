"""Rule tests of Formosa Tea processing (TEA-6), technology tracks and discs (TEA-7) and
Tea Completion (TEA-8).

Each docstring cites the rule of ``seeds/tea.md`` and the rulebook section it checks.
3 players unless noted; player 0 acts.
"""

from __future__ import annotations

import pytest

from formosa_envs.games.tea import actions as A
from formosa_envs.games.tea.scenario import act, answer, factory, kind, nine, scenario
from tests.tea.common import (
    BLACK,
    DRYING_DISC,
    FIXATION_DISC,
    GM_DISC,
    GREEN,
    HSU,
    LAST,
    LI,
    NORMAL,
    OOLONG,
    OXIDATION_DISC,
    POOR,
    ROLLING_DISC,
    S1_1G,
    SCENTED,
    TP_DISC,
    WEI,
    game,
    seat_list,
)

G = game(3)
NONE4 = [-1, -1, -1, -1]


def on(**tracks: int) -> list[list[int]]:
    """Player 0's Masters: ``on(oolong=3)`` puts one on oolong space 3 (0-based)."""
    pos = list(NONE4)
    for name, p in tracks.items():
        pos[("oolong", "black", "green", "scented").index(name)] = p
    return seat_list(3, lambda: list(NONE4), p0=pos)


def p0(value, empty):
    return seat_list(3, empty, p0=value)


# ----- TEA-6 processing ---------------------------------------------------------------------

def test_raw_processing_moves_all_cubes_of_the_type_then_effect_then_reward() -> None:
    """TEA-6.1, TEA-6.4, TEA-7.1, TEA-4.3, R-11, R-15 [II.1.1, II.2]: a Master on space 1;
    every oolong Basket cube moves with its WL; space 1's effect (withering); the reward
    for 3 cubes (oolong tech 1: an Oxidation disc), usable after the action."""
    s = scenario(G, basket=p0(nine(oolong=(1, 1, 1), black=(0, 2, 0)), nine))
    act(G, s, A.PROCESS0 + OOLONG)
    assert s.master_pos[0][OOLONG] == 0 and s.masters[0] == 1
    assert s.basket[0] == nine(black=(0, 2, 0))
    answer(G, s, "lower", A.LOWER0 + 1)                      # withering: a WL-1 cube
    assert s.factory[0][0:4] == [2, 0, 1, 0]
    assert kind(G, s) == "tech_reward" and G.legal_actions(s) == [A.CONFIRM, A.DONE]
    act(G, s, A.CONFIRM)
    assert s.tech[0] == [1, 0, 0] and s.tech_discs[0] == [0, 0, 1, 0]
    assert s.tech_supply == [4, 4, 3, 4]
    assert kind(G, s) == "turn" and G.legal_actions(s) == [A.DONE, A.TECH_DISC0 + OXIDATION_DISC]
    act(G, s, A.TECH_DISC0 + OXIDATION_DISC)                 # only the oolong Factory fits
    assert s.factory[0][0:4] == [2, 0, 0, 1] and s.discs_on[0] == [4 * OOLONG + OXIDATION_DISC]
    assert kind(G, s) == "turn" and G.current_player(s) == 1


def test_processing_reward_two_spaces_each_may_be_declined() -> None:
    """TEA-6.4, R-12, R-13 [II.2]: 5+ cubes offer 2 spaces, each CONFIRM or DONE (lost);
    fewer than 3 cubes offer nothing."""
    s = scenario(G, basket=p0(nine(black=(0, 5, 0)), nine))
    act(G, s, A.PROCESS0 + BLACK)                            # withering forced: WL 1 -> 0
    assert s.factory[0][4:8] == [1, 4, 0, 0]
    answer(G, s, "tech_reward", A.CONFIRM)
    assert s.tech[0][BLACK] == 1 and s.tech_discs[0][ROLLING_DISC] == 1
    answer(G, s, "tech_reward", A.CONFIRM)
    assert s.tech[0][BLACK] == 2
    assert G.legal_actions(s) == [A.DONE, A.TECH_DISC0 + ROLLING_DISC]
    s = scenario(G, basket=p0(nine(black=(0, 5, 0)), nine))
    act(G, s, A.PROCESS0 + BLACK)
    answer(G, s, "tech_reward", A.CONFIRM)
    answer(G, s, "tech_reward", A.DONE)
    assert s.tech[0][BLACK] == 1
    s = scenario(G, basket=p0(nine(black=(0, 5, 0)), nine))
    act(G, s, A.PROCESS0 + BLACK)
    answer(G, s, "tech_reward", A.DONE)
    assert s.tech[0][BLACK] == 0 and kind(G, s) == "turn" and G.current_player(s) == 1
    s = scenario(G, basket=p0(nine(green=(2, 0, 0)), nine))
    act(G, s, A.PROCESS0 + GREEN)
    assert s.tech[0] == [0, 0, 0] and G.current_player(s) == 1


def test_processing_needs_a_master_a_free_track_and_cubes() -> None:
    """TEA-6.1, TEA-6.2, TEA-6.3, R-11 [II.1; II notes]: a Master in the supply, none of
    the player's on that track, a cube of that type (scented: a Warehouse cube)."""
    s = scenario(G, basket=p0(nine(oolong=(0, 1, 0), black=(0, 1, 0)), nine),
                 masters_on=on(black=2))
    legal = [a for a in G.legal_actions(s) if A.PROCESS0 <= a < A.COMPLETE0]
    assert legal == [A.PROCESS0 + OOLONG]
    s = scenario(G, basket=p0(nine(oolong=(0, 1, 0)), nine), warehouse=p0(nine(green=(1, 0, 0)),
                 nine), placed=[[0, 2], [0, 0], [0, 0]])
    assert all(not A.PROCESS0 <= a < A.COMPLETE0 for a in G.legal_actions(s))
    s = scenario(G, warehouse=p0(nine(green=(1, 0, 0)), nine))
    assert [a for a in G.legal_actions(s) if A.PROCESS0 <= a < A.COMPLETE0] == [
        A.PROCESS0 + SCENTED]


def test_scented_processing_one_to_six_cubes_of_one_type() -> None:
    """TEA-6.2, R-19, R-12 [II.1.2]: Warehouse cubes of one type, any quality, one at a
    time (DONE after the first; stop when none is left), then Scenting, then the reward
    for the base type."""
    s = scenario(G, warehouse=p0(nine(oolong=(1, 0, 2), black=(0, 1, 0)), nine),
                 buds=p0([1, 1, 0], lambda: [0, 0, 0]))
    act(G, s, A.PROCESS0 + SCENTED)
    assert G.legal_actions(s) == [A.CUBE0 + 0, A.CUBE0 + 2, A.CUBE0 + 4]
    act(G, s, A.CUBE0 + 2)
    assert G.legal_actions(s) == [A.DONE, A.CUBE0 + 0, A.CUBE0 + 2]
    act(G, s, A.CUBE0 + 0, A.CUBE0 + 2)                      # no oolong left: stops
    assert s.scent[0] == [OOLONG, 3, 0, 0, 0] and s.warehouse[0] == nine(black=(0, 1, 0))
    answer(G, s, "scent_bud", A.TYPE0 + OOLONG)
    assert s.scent[0] == [OOLONG, 3, 1, 0, 0]
    answer(G, s, "tech_reward", A.CONFIRM)
    assert s.tech[0] == [1, 0, 0]
    s = scenario(G, warehouse=p0(nine(oolong=(0, 8, 0)), nine))
    act(G, s, A.PROCESS0 + SCENTED)
    for _ in range(6):
        act(G, s, A.CUBE0 + 1)
    assert s.scent[0][:2] == [OOLONG, 6] and s.warehouse[0] == nine(oolong=(0, 2, 0))
    assert kind(G, s) == "tech_reward"                       # 6 cubes: the cap stops it
    s = scenario(G, warehouse=p0(nine(oolong=(0, 3, 0)), nine))
    act(G, s, A.PROCESS0 + SCENTED, A.CUBE0 + 1, A.DONE)
    assert s.scent[0][:2] == [OOLONG, 1] and G.current_player(s) == 1


# ----- TEA-8 completion ------------------------------------------------------------------------

@pytest.mark.parametrize(("batch", "quality", "vp", "hsu_vp"), [
    ((0, 1, 1, 2), POOR, 0, 0),          # W = 3
    ((1, 0, 1, 3), NORMAL, 0, 0),        # W = 2: no flavor bonus
    ((2, 0, 0, 1), NORMAL, 0, 0),        # W = 0 but 1 Flavor cube
    ((1, 0, 0, 2), 2, 0, 0),             # Good, 2 Flavor
    ((0, 0, 0, 3), 2, 3, 6),
    ((1, 0, 0, 4), 2, 6, 12),
    ((0, 0, 0, 5), 2, 10, 20),
    ((0, 0, 0, 6), 2, 15, 30),
    ((0, 0, 0, 8), 2, 15, 30),           # 7-8 Flavor score as 6
])
def test_completion_quality_and_flavor_bonus(batch: tuple, quality: int, vp: int,
                                             hsu_vp: int) -> None:
    """TEA-8.1-8.5, R-18 [III.1-3]: Poor if W >= 3, Good if W = 0 and F >= 2, Normal
    otherwise; Good scores 3/6/10/15 for 3/4/5/6 Flavor (Hsu doubles); all cubes go to
    the Warehouse at that quality; the Master returns to the supply."""
    for character, expected in ((-1, vp), (HSU, hsu_vp)):
        s = scenario(G, masters_on=on(green=LAST[GREEN]), vp=[4, 0, 0],
                     factories=p0(factory(green=batch), factory),
                     character=[character, -1, -1])
        assert A.COMPLETE0 + GREEN in G.legal_actions(s)
        act(G, s, A.COMPLETE0 + GREEN)
        assert s.vp[0] == 4 + expected
        assert s.warehouse[0][3 * GREEN + quality] == sum(batch) and sum(s.warehouse[0]) == sum(
            batch)
        assert s.factory[0] == factory() and s.master_pos[0][GREEN] == -1 and s.masters[0] == 2


def test_completion_only_from_the_last_space_and_discs_return_to_owner() -> None:
    """TEA-8.1, TEA-8.5, TEA-7.6, R-39 [III; Tea Technology discs]: COMPLETE needs the
    Master on the last space; the batch's discs return to the owner, not the supply."""
    s = scenario(G, masters_on=on(black=LAST[BLACK] - 1))
    assert A.COMPLETE0 + BLACK not in G.legal_actions(s)
    s = scenario(G, masters_on=on(black=LAST[BLACK], oolong=2),
                 factories=p0(factory(oolong=(1, 0, 0, 0), black=(2, 0, 0, 1)), factory),
                 discs_on=p0([4 * BLACK + ROLLING_DISC, 4 * BLACK + OXIDATION_DISC,
                              4 * OOLONG + DRYING_DISC], list))
    act(G, s, A.COMPLETE0 + BLACK)
    assert s.tech_discs[0] == [0, 1, 1, 0] and s.discs_on[0] == [4 * OOLONG + DRYING_DISC]
    assert s.tech_supply == [4, 3, 3, 3] and s.warehouse[0] == nine(black=(0, 3, 0))


@pytest.mark.parametrize(("scent", "character", "vp"), [
    ([OOLONG, 3, 1, 1, 0], -1, 9),       # 3 cubes x (2 matching + 1 other)
    ([BLACK, 2, 1, 2, 1], -1, 12),       # 2 x (1 + 2 + 2 + 1)
    ([OOLONG, 3, 1, 1, 0], WEI, 15),     # 3 x (3 + 2)
    ([GREEN, 4, 0, 0, 0], -1, 0),        # no bud: 0, the advance still comes
])
def test_scented_completion(scent: list[int], character: int, vp: int) -> None:
    """TEA-8.6, R-20 [III, Scented Tea; Wei Jing Shi]: cubes x the sum of bud values (2
    matching, 1 not, +1 each for Wei); the base type's tech +1; cubes to the bag; buds
    leave the game."""
    s = scenario(G, masters_on=on(scented=LAST[SCENTED]), scent=p0(scent, lambda: [-1, 0, 0,
                 0, 0]), character=[character, -1, -1])
    bag, gone = s.bag[:], s.buds_gone[:]
    act(G, s, A.COMPLETE0 + SCENTED)
    tea, cubes = scent[0], scent[1]
    assert s.vp[0] == vp and s.tech[0][tea] == 1 and s.scent[0] == [-1, 0, 0, 0, 0]
    assert s.bag[tea] == bag[tea] + cubes
    assert s.buds_gone == [gone[c] + scent[2 + c] for c in range(3)]


# ----- TEA-7 technology tracks -------------------------------------------------------------------

def test_tech_rewards_come_from_a_finite_supply() -> None:
    """TEA-7.2, TEA-1.5, R-16 [l.170-173]: a disc reward from an empty supply gives
    nothing (black 1: Rolling disc; black 3: Tea Processing disc)."""
    s = scenario(G, basket=p0(nine(black=(0, 2, 1)), nine),
                 tech_discs=seat_list(3, lambda: [0] * 4, p1=[0, 4, 0, 0]))
    act(G, s, A.PROCESS0 + BLACK, A.LOWER0 + 1, A.CONFIRM)
    assert s.tech[0][BLACK] == 1 and s.tech_discs[0] == [0, 0, 0, 0]
    s = scenario(G, basket=p0(nine(black=(0, 2, 1)), nine), tech=p0([0, 2, 0], lambda: [0] * 3),
                 action_discs=seat_list(3, lambda: [0, 0], p1=[0, 4]))
    act(G, s, A.PROCESS0 + BLACK, A.LOWER0 + 1, A.CONFIRM)
    assert s.tech[0][BLACK] == 3 and s.action_discs[0] == [0, 0] and s.action_supply[1] == 0
    s = scenario(G, basket=p0(nine(black=(0, 2, 1)), nine), tech=p0([0, 2, 0], lambda: [0] * 3))
    act(G, s, A.PROCESS0 + BLACK, A.LOWER0 + 1, A.CONFIRM)
    assert s.action_discs[0] == [0, 1] and s.action_supply == [8, 3]


def test_advance_any_reward_and_the_top_of_a_track() -> None:
    """TEA-7.1-7.3, R-13 [l.168-173]: "advance any" asks which track (no decline), tracks
    at the top are not offered; advances past the top are lost."""
    s = scenario(G, basket=p0(nine(oolong=(3, 0, 0)), nine), tech=p0([3, 0, 8], lambda: [0] * 3))
    act(G, s, A.PROCESS0 + OOLONG, A.CONFIRM)                # withering has nothing to lower
    assert s.tech[0] == [4, 0, 8] and kind(G, s) == "tech_any"
    assert G.legal_actions(s) == [A.TECH0 + OOLONG, A.TECH0 + BLACK]
    act(G, s, A.TECH0 + BLACK)
    assert s.tech[0] == [4, 1, 8] and s.tech_discs[0][ROLLING_DISC] == 1
    s = scenario(G, basket=p0(nine(oolong=(5, 0, 0)), nine), tech=p0([8, 0, 0], lambda: [0] * 3))
    act(G, s, A.PROCESS0 + OOLONG)
    assert s.tech[0] == [8, 0, 0] and kind(G, s) == "turn" and G.current_player(s) == 1


# ----- TEA-7.5 action discs, TEA-7.6 tech discs -------------------------------------------------

def test_global_market_disc_any_card_without_bonus() -> None:
    """TEA-7.5, TEA-4.3, R-44 [Action discs]: a sale of any display card, no worker, no
    space bonus; the disc returns to the supply; the main action is still to come."""
    display = [[0, 1, 3], [S1_1G, 4, 5], [6, 7, 8], [9, 10, 11]]
    s = scenario(G, display=display, warehouse=p0(nine(green=(0, 1, 0)), nine),
                 action_discs=p0([1, 0], lambda: [0, 0]))
    assert all(not A.GLOBAL0 <= a < A.DOMESTIC0 for a in G.legal_actions(s))
    act(G, s, A.ACTION_DISC0 + GM_DISC)                      # only slot 3 payable: automatic
    assert s.vp[0] == 3 and s.kept[0] == [S1_1G] and s.display[1] == [-1, 4, 5]
    assert s.action_discs[0] == [0, 0] and s.action_supply == [8, 4]
    assert s.farmers[0] == 2 and s.masters[0] == 2 and s.tech[0] == [0, 0, 0]
    assert kind(G, s) == "turn" and G.top(s).ctx == (0,) and G.current_player(s) == 0
    s = scenario(G, display=display, action_discs=p0([1, 0], lambda: [0, 0]))
    assert A.ACTION_DISC0 + GM_DISC not in G.legal_actions(s)


def test_tea_processing_disc_two_single_steps() -> None:
    """TEA-7.5, R-43 [Action discs]: up to 2 single-space advances of own Masters, same or
    different, each executing its effect; legal only with a Master short of the end."""
    s = scenario(G, masters_on=on(oolong=0, black=0), action_discs=p0([0, 1], lambda: [0, 0]),
                 factories=p0(factory(oolong=(0, 0, 2, 0), black=(0, 2, 0, 0)), factory))
    act(G, s, A.ACTION_DISC0 + TP_DISC)
    assert G.legal_actions(s) == [A.DONE, A.TRACK0 + OOLONG, A.TRACK0 + BLACK]
    act(G, s, A.TRACK0 + OOLONG)                              # oolong 2: oxidation
    act(G, s, A.TRACK0 + BLACK)                               # black 2: rolling
    assert s.master_pos[0][:2] == [1, 1]
    assert s.factory[0][0:8] == [0, 0, 1, 1, 0, 1, 0, 1]
    assert s.action_supply == [8, 4] and kind(G, s) == "turn" and G.top(s).ctx == (0,)
    s = scenario(G, masters_on=on(oolong=0), action_discs=p0([0, 1], lambda: [0, 0]))
    act(G, s, A.ACTION_DISC0 + TP_DISC, A.TRACK0 + OOLONG, A.TRACK0 + OOLONG)
    assert s.master_pos[0][OOLONG] == 2 and kind(G, s) == "turn"
    s = scenario(G, masters_on=on(oolong=LAST[OOLONG]), action_discs=p0([0, 1], lambda: [0, 0]))
    assert A.ACTION_DISC0 + TP_DISC not in G.legal_actions(s)


def test_tech_disc_only_on_raw_factories_where_its_first_step_works() -> None:
    """TEA-7.6, R-14 [Tea Technology discs]: a disc goes on an own raw Factory with a batch,
    fewer than 2 discs and a cube its first step can move."""
    g2 = game(2)
    s = scenario(g2, round_no=3, masters_on=[[1, 1, 1, -1], NONE4],
                 factories=[factory(oolong=(0, 1, 0, 0), black=(0, 0, 2, 0),
                                    green=(0, 1, 0, 0)), factory()],
                 tech_discs=[[0, 1, 0, 1], [0] * 4],
                 discs_on=[[4 * GREEN + FIXATION_DISC, 4 * GREEN + DRYING_DISC], []])
    disc_uses = [a for a in g2.legal_actions(s) if A.TECH_DISC0 <= a < A.WORKER0]
    assert disc_uses == [A.TECH_DISC0 + ROLLING_DISC]          # no WL-0 cube for Drying
    act(g2, s, A.TECH_DISC0 + ROLLING_DISC)                     # oolong only: automatic
    assert s.factory[0][0:4] == [0, 0, 0, 1] and s.discs_on[0][-1] == 4 * OOLONG + ROLLING_DISC
    s = scenario(G, tech_discs=p0([1, 1, 1, 1], lambda: [0] * 4))
    assert all(not A.TECH_DISC0 <= a < A.WORKER0 for a in G.legal_actions(s))
    s = scenario(G, masters_on=on(scented=0), scent=p0([OOLONG, 2, 0, 0, 0],
                 lambda: [-1, 0, 0, 0, 0]), tech_discs=p0([1, 1, 1, 1], lambda: [0] * 4))
    assert all(not A.TECH_DISC0 <= a < A.WORKER0 for a in G.legal_actions(s))


def test_fixation_disc_two_steps_second_optional() -> None:
    """TEA-7.6, R-14 [Tea Technology discs]: the Fixation disc lowers water by up to 2
    (one step, then an optional second) on the chosen Factory."""
    s = scenario(G, masters_on=on(oolong=1, black=2),
                 factories=p0(factory(oolong=(0, 0, 1, 0), black=(0, 1, 0, 0)), factory),
                 tech_discs=p0([1, 0, 0, 0], lambda: [0] * 4))
    act(G, s, A.TECH_DISC0 + FIXATION_DISC)
    answer(G, s, "disc_factory", A.TRACK0 + OOLONG)
    assert s.factory[0][0:4] == [0, 1, 0, 0]                   # forced first step 2 -> 1
    answer(G, s, "lower", A.LOWER0 + 1)
    assert s.factory[0][0:4] == [1, 0, 0, 0] and s.factory[0][4:8] == [0, 1, 0, 0]
    assert s.discs_on[0] == [4 * OOLONG + FIXATION_DISC] and s.tech_discs[0] == [0, 0, 0, 0]


def test_li_chun_sheng_flavor_beyond_six_counts_as_six() -> None:
    """R-18 with TEA-3.4 (Li's 8-cube Basket): 8 Flavor cubes score 15."""
    s = scenario(G, masters_on=on(black=LAST[BLACK]), character=[LI, -1, -1],
                 factories=p0(factory(black=(0, 0, 0, 8)), factory))
    act(G, s, A.COMPLETE0 + BLACK)
    assert s.vp[0] == 15 and s.warehouse[0] == nine(black=(0, 0, 8))
