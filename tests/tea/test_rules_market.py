"""Rule tests of Formosa Tea selling: the Global Market and merchants (TEA-9), the refill
of the display and the Domestic Market (TEA-10).

Each docstring cites the rule of ``seeds/tea.md`` and the rulebook section it checks.
3 players; player 0 acts. The display is all 12 stage-1 cards; rightmost column: S1-04
(2 oolong, 8/5/2), S1-06 (2 black), S1-03 (1 green, 5/3/1), S1-09 (oolong + black).
"""

from __future__ import annotations

import pytest

from formosa_envs.games.tea import actions as A
from formosa_envs.games.tea.scenario import act, answer, chance, kind, nine, scenario
from tests.tea.common import (
    BLACK,
    DODD,
    FIXATION_DISC,
    GREEN,
    LI,
    OOLONG,
    S1_1B,
    S1_1G,
    S1_1O,
    S1_2B,
    S1_2O,
    S1_OB,
    WANG,
    game,
    seat_list,
    space,
)

G = game(3)
DISPLAY = [[4, S1_1O, S1_2O], [6, 7, S1_2B], [9, 11, S1_1G], [10, S1_1B, S1_OB]]
FARMER = A.WORKER0


def wh(**kw) -> list[list[int]]:
    return seat_list(3, nine, p0=nine(**kw))


def sell(s, g_space: int) -> None:
    act(G, s, A.GLOBAL0 + g_space)
    if kind(G, s) == "worker":
        act(G, s, FARMER)


def slot(row: int, col: int) -> int:
    return 3 * row + col


def gone(*deck: int) -> list[list[int]]:
    """Cards of stages 2-3 not in ``deck``, kept by player 2 (out of the deck)."""
    return [[], [], [c for c in range(12, 28) if c not in deck]]


# ----- TEA-9 Global Market -----------------------------------------------------------------

def test_global_market_space_needs_no_own_worker_and_a_payable_card() -> None:
    """TEA-9.1, TEA-9.2, R-21 [IV]: a space without an own worker (others' allowed), and
    only if a rightmost-column card can be paid."""
    s = scenario(G, display=DISPLAY, warehouse=wh(oolong=(0, 2, 0)), market=[[0], [1], []])
    gm = [a - A.GLOBAL0 for a in G.legal_actions(s) if A.GLOBAL0 <= a < A.DOMESTIC0]
    assert gm == [1, 2]
    s = scenario(G, display=DISPLAY)
    assert all(not A.GLOBAL0 <= a < A.DOMESTIC0 for a in G.legal_actions(s))
    s = scenario(G, display=DISPLAY, warehouse=wh(black=(0, 1, 0)))   # S1-02 is in the middle
    assert all(not A.GLOBAL0 <= a < A.DOMESTIC0 for a in G.legal_actions(s))


def test_john_dodd_sells_any_card_then_advances_a_master() -> None:
    """TEA-9.2, TEA-9.6, TEA-3.4 [IV; John Dodd]: any display card; then an optional
    1-space advance of an own Master (with its effect), then the space bonus."""
    s = scenario(G, display=DISPLAY, warehouse=wh(black=(0, 1, 0)), character=[DODD, -1, -1],
                 masters_on=seat_list(3, lambda: [-1] * 4, p0=[0, -1, -1, -1]))
    sell(s, 1)                                   # only S1-02 payable: chosen at once
    assert s.vp[0] == 3 and s.kept[0] == [S1_1B] and s.display[3] == [10, -1, S1_OB]
    assert kind(G, s) == "dodd_advance"
    assert G.legal_actions(s) == [A.DONE, A.TRACK0 + OOLONG]
    act(G, s, A.TRACK0 + OOLONG)
    assert s.master_pos[0][OOLONG] == 1 and kind(G, s) == "tech_any"


def test_lowest_quality_decides_and_poor_cards_go_under_the_deck() -> None:
    """TEA-9.3-9.5, R-4, R-46 [IV and note]: the player picks each cube's quality; the
    lowest paid sets the VP; Poor returns the card under the deck, better keeps it."""
    s = scenario(G, display=DISPLAY, warehouse=wh(oolong=(1, 0, 2)))
    bag = s.bag[OOLONG]
    sell(s, 1)
    assert kind(G, s) == "pay" and G.legal_actions(s) == [A.CUBE0 + 0, A.CUBE0 + 2]
    act(G, s, A.CUBE0 + 2, A.CUBE0 + 0)
    assert s.vp[0] == 2 and s.kept[0] == [] and s.deck_tail == [S1_2O]
    assert s.warehouse[0] == nine(oolong=(0, 0, 1)) and s.bag[OOLONG] == bag + 2
    assert s.display[0] == [4, S1_1O, -1]
    s = scenario(G, display=DISPLAY, warehouse=wh(oolong=(0, 1, 1)))
    sell(s, 1)
    act(G, s, A.CUBE0 + 2)                       # the last unit has one quality left
    assert s.vp[0] == 5 and s.kept[0] == [S1_2O] and s.deck_tail == []
    s = scenario(G, display=DISPLAY, warehouse=wh(oolong=(0, 0, 2)))
    sell(s, 1)                                   # one quality only: paid automatically
    assert s.vp[0] == 8 and s.kept[0] == [S1_2O]


@pytest.mark.parametrize(("character", "tech", "kept", "stock", "vp"), [
    (WANG, 3, [], dict(oolong=(0, 0, 2)), 8 + 3),           # demand includes oolong
    (WANG, 3, [], dict(green=(0, 0, 1)), 5),                # no oolong demanded
    (LI, 0, [5, 7], dict(oolong=(0, 0, 2)), 8 + 2),         # kept before this sale
    (LI, 0, [5, 7], dict(oolong=(2, 0, 0)), 2 + 2),         # also when Poor
])
def test_wang_and_li_sale_bonuses(character: int, tech: int, kept: list[int], stock: dict,
                                  vp: int) -> None:
    """TEA-9.4, TEA-3.4, R-23, R-30 [Wang Shui Jing; Li Chun Sheng]: Wang adds his oolong
    tech level for an oolong demand; Li adds 1 per card kept before this sale."""
    display = [[S1_1O, 4, S1_2O], [6, 12, 13], [9, 11, S1_1G], [10, S1_1B, S1_OB]]
    s = scenario(G, display=display, warehouse=wh(**stock), character=[character, -1, -1],
                 tech=seat_list(3, lambda: [0, 0, 0], p0=[tech, 0, 0]),
                 kept=seat_list(3, list, p0=kept))
    sell(s, 1)
    assert s.vp[0] == vp


def test_global_market_bonus_actions_are_optional() -> None:
    """TEA-9.6, TEA-9.7, R-7, R-13 [IV, Bonus Actions]: space 1 Masters (up to 2 steps),
    space 2 technology (any track), space 3 harvest of a free space (no worker, no
    advance); each may be declined."""
    base = dict(display=DISPLAY, warehouse=wh(oolong=(0, 3, 0)),
                masters_on=seat_list(3, lambda: [-1] * 4, p0=[0, -1, -1, -1]))
    s = scenario(G, **base)
    sell(s, 0)
    assert kind(G, s) == "bonus_advance" and G.legal_actions(s) == [A.DONE, A.TRACK0 + OOLONG]
    act(G, s, A.TRACK0 + OOLONG, A.TRACK0 + OOLONG)
    assert s.master_pos[0][OOLONG] == 2
    s = scenario(G, **base)
    sell(s, 1)
    assert sorted(G.legal_actions(s)) == [A.DONE, A.TECH0, A.TECH0 + 1, A.TECH0 + 2]
    act(G, s, A.TECH0 + GREEN)
    assert s.tech[0] == [0, 0, 1] and s.tech_discs[0][FIXATION_DISC] == 1
    s = scenario(G, **base)
    sell(s, 1)
    act(G, s, A.DONE)                            # no disc to use: the turn ends
    assert s.tech[0] == [0, 0, 0] and kind(G, s) == "merchant_draw"
    a, b = space(0, 1), space(0, 2)
    s = scenario(G, **base, cubes={a: [0, 2, 0], b: [0, 0, 0]}, occupant={space(0, 3): 1},
                 weather=[1, 2, 0, 1])
    sell(s, 2)
    assert kind(G, s) == "bonus_space"
    offered = [x - A.SPACE0 for x in G.legal_actions(s) if x != A.DONE]
    assert a in offered and b in offered and space(0, 3) not in offered  # any free space
    act(G, s, A.SPACE0 + a, A.TAKE0 + BLACK)
    assert s.basket[0] == nine(black=(0, 0, 2)) and s.occupant[a] == -1
    assert s.master_pos[0][OOLONG] == 0             # a harvest without a worker: no advance


# ----- TEA-9.8 refill ------------------------------------------------------------------------

def test_refill_at_end_of_turn_slides_right_and_draws_by_stage() -> None:
    """TEA-9.8, TEA-9.9, TEA-4.6, R-22 [IV, Refilling; Setup 7]: the row's cards slide
    right, a new card enters at the left; the top stage pool gives a uniform card."""
    s = scenario(G, display=DISPLAY, warehouse=wh(oolong=(0, 2, 0)))
    sell(s, 1)
    assert s.display[0] == [4, S1_1O, -1]       # mid-turn: the slot stays empty
    act(G, s, A.DONE)                           # declines the technology bonus: turn over
    assert kind(G, s) == "merchant_draw" and G.top(s).ctx == (0, 0)
    assert G.chance_outcomes(s) == [(c, pytest.approx(1 / 8)) for c in range(12, 20)]
    chance(G, s, 15)
    assert s.display[0] == [15, 4, S1_1O] and kind(G, s) == "turn" and G.current_player(s) == 1


def test_refill_after_a_middle_card_and_from_later_stages_and_the_tail() -> None:
    """TEA-9.8, TEA-9.9, R-22: a middle card taken (Dodd) is refilled the same way; stage
    pools in order, then the returned cards in the order they went under; an empty deck
    leaves the slot empty."""
    s = scenario(G, display=DISPLAY, warehouse=wh(oolong=(0, 2, 0)), character=[DODD, -1, -1],
                 deck_pools=[[], [], [20, 21]], kept=gone(20, 21))
    sell(s, 1)
    assert G.legal_actions(s) == [A.MERCHANT0 + x for x in (0, 1, 2, slot(2, 1))]
    act(G, s, A.MERCHANT0 + slot(0, 1), A.DONE)
    assert G.chance_outcomes(s) == [(20, pytest.approx(0.5)), (21, pytest.approx(0.5))]
    chance(G, s, 21)
    assert s.display[0] == [21, 4, S1_2O]
    s = scenario(G, display=DISPLAY, warehouse=wh(black=(2, 0, 0)), deck_pools=[[], [], []],
                 deck_tail=[12, 13], kept=gone(12, 13))
    sell(s, 1)
    act(G, s, A.DONE)
    assert s.deck_tail == [12, 13, S1_2B]
    assert G.chance_outcomes(s) == [(12, 1.0)]
    chance(G, s, 12)
    assert s.display[1] == [12, 6, 7] and s.deck_tail == [13, S1_2B]
    s = scenario(G, display=DISPLAY, warehouse=wh(black=(0, 2, 0)), deck_pools=[[], [], []],
                 kept=gone())
    sell(s, 1)
    act(G, s, A.DONE)
    assert s.display[1] == [-1, 6, 7] and kind(G, s) == "turn" and G.current_player(s) == 1


def test_refill_only_rows_that_lost_cards_this_turn() -> None:
    """TEA-9.8, R-22: a row left short by an empty deck is not refilled by a later turn
    in which it lost nothing; the returned card refills the row it came from."""
    display = [[-1, 4, S1_1O], [6, 7, S1_2B], [9, 11, S1_1G], [10, S1_1B, S1_OB]]
    s = scenario(G, display=display, warehouse=wh(black=(2, 0, 0)), deck_pools=[[], [], []],
                 kept=[[], [], [S1_2O, *range(12, 28)]])
    sell(s, 1)                                  # Poor: S1-06 goes under the (empty) deck
    act(G, s, A.DONE)
    chance(G, s, S1_2B)
    assert s.display[0] == [-1, 4, S1_1O] and s.display[1] == [S1_2B, 6, 7]


# ----- TEA-10 Domestic Market ---------------------------------------------------------------

def test_domestic_sales_rewards_in_track_order() -> None:
    """TEA-10.1, TEA-10.2, R-25 [V]: 2 cubes of one type (+2) or one of each (+3), any
    quality, back to the bag; each space's bonus is optional, action discs automatic."""
    s = scenario(G, display=DISPLAY, domestic=[1, 0, 0],
                 warehouse=wh(oolong=(2, 0, 1), black=(0, 1, 0), green=(1, 0, 0)))
    dom = [a - A.DOMESTIC0 for a in G.legal_actions(s) if A.DOMESTIC0 <= a < A.ACTION_DISC0]
    assert dom == [0, 3]
    bag = s.bag[:]
    act(G, s, A.DOMESTIC0 + 3, FARMER)
    answer(G, s, "pay", A.CUBE0 + 0)            # a Poor oolong; black and green forced
    assert s.domestic[0] == 2 and kind(G, s) == "tech_any"   # space 2: technology bonus
    assert sorted(G.legal_actions(s)) == [A.DONE, A.TECH0, A.TECH0 + 1, A.TECH0 + 2]
    act(G, s, A.TECH0 + GREEN)
    assert s.domestic[0] == 4 and s.tech[0] == [0, 0, 1] and s.action_discs[0] == [1, 0]
    assert s.warehouse[0] == nine(oolong=(1, 0, 1)) and s.bag == [bag[0] + 1, bag[1] + 1,
                                                                  bag[2] + 1]
    assert G.legal_actions(s) == [A.DONE, A.ACTION_DISC0]   # the new disc, this turn
    s = scenario(G, domestic=[13, 14, 0], warehouse=seat_list(3, nine, p0=nine(oolong=(0, 2, 0)),
                                                             p1=nine(oolong=(1, 0, 1),
                                                                     green=(1, 0, 0),
                                                                     black=(1, 0, 0))),
                 placed=[[1, 0], [0, 0], [0, 0]])
    act(G, s, A.DOMESTIC0 + OOLONG, FARMER)
    answer(G, s, "tech_any", A.DONE)            # space 14's bonus declined
    assert s.domestic[0] == 15 and s.tech[0] == [0, 0, 0]
    act(G, s, A.DOMESTIC0 + 3, FARMER, A.CUBE0 + 2)   # player 1: 14 -> 15, the rest lost
    assert s.domestic[1] == 15


def test_global_market_disc_is_a_sale_for_dodd_and_li() -> None:
    """TEA-7.5, R-44, R-30 [Action discs; John Dodd; Li Chun Sheng]: a Global Market disc
    sale earns Li's VP per kept card and John Dodd's advance, but no space bonus."""
    s = scenario(G, display=DISPLAY, warehouse=wh(green=(0, 0, 1)), character=[LI, -1, -1],
                 kept=seat_list(3, list, p0=[12]), action_discs=seat_list(3, lambda: [0, 0],
                                                                         p0=[1, 0]))
    act(G, s, A.ACTION_DISC0)
    assert s.vp[0] == 5 + 1 and s.kept[0] == [12, S1_1G]
    assert kind(G, s) == "turn" and G.top(s).ctx == (0,)
    s = scenario(G, display=DISPLAY, warehouse=wh(green=(0, 0, 1)), character=[DODD, -1, -1],
                 masters_on=seat_list(3, lambda: [-1] * 4, p0=[-1, -1, 2, -1]),
                 action_discs=seat_list(3, lambda: [0, 0], p0=[1, 0]))
    act(G, s, A.ACTION_DISC0)
    answer(G, s, "dodd_advance", A.TRACK0 + GREEN)
    assert s.master_pos[0][GREEN] == 3 and kind(G, s) == "turn" and G.top(s).ctx == (0,)
