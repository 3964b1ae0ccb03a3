"""Rule tests of the 14 Dadaocheng historical events (DDC-11) and their execution in
Stage 4 (DDC-8.7).

Each docstring cites the rule of ``seeds/dadaocheng.md`` and the rulebook line of the card
[Historical Event Card; l.197-210]. 2 players; player 0 acts in Stage 4 of the round of
the event. 1920's scoring is in ``test_scoring.py``.
"""

from __future__ import annotations

from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.scenario import act, answer, kind, scenario, space
from tests.dadaocheng.common import (
    FACE_GREEN,
    FACE_RED,
    FACE_WHITE,
    L01,
    LEVEL2,
    LEVEL3,
    MANSION,
    MARKET,
    STORE,
    G,
    K,
    R,
    W,
    Y,
    colour,
    game,
    hand,
)

G2 = game(2)
ALL = [colour(c) for c in range(5)]
BUILD = [A.BUILDING0 + t for t in range(5)]


def at(event: str, round_no: int = 3, **kw) -> object:
    return scenario(G2, event=event, round_no=round_no, **kw)


def offered(s, action: int) -> bool:
    return action in G2.legal_actions(s)


def test_1851_two_cubes_of_any_colours_once_per_turn_for_each_player() -> None:
    """DDC-11.3, DDC-11.1, DDC-8.7 [l.197; Stage 4; l.107]: take 2 cubes of any colours;
    the event is offered once per turn, and again to the next player on their turn."""
    s = scenario(G2, hands=[hand(r=2), hand(w=2)])
    act(G2, s, A.EVENT)
    answer(G2, s, "take", colour(K), player=0)
    assert G2.legal_actions(s) == ALL
    act(G2, s, colour(Y))
    assert s.hand[0] == hand(r=2, y=1, k=1) and not offered(s, A.EVENT)
    act(G2, s, A.DONE, A.FLIP0, A.FLIP0)        # p1 plans (cell 0 twice: no line)
    assert kind(G2, s) == "purchase" and G2.current_player(s) == 1 and offered(s, A.EVENT)


def test_1853_loss_is_mandatory_after_full_house_and_before_purchases() -> None:
    """DDC-11.2, DDC-3.3, DDC-10.3 [l.198]: after Stage 3 (p0 takes R1 K1 from a Full
    House) p0 must return 1 cube of their choice (no DONE); a black cube lost is not opium.
    With an empty hand there is nothing to lose."""
    store = {space("S", k): hand(w=1) for k in range(3)} | {space("S", 3): hand(r=1, k=1)}
    s = at("e1853", phase="full_house", storehouse=store, hands=[hand(g=1), []])
    answer(G2, s, "full_house", A.SPACE0 + 3, player=0)
    assert kind(G2, s) == "lose" and G2.legal_actions(s) == [colour(R), colour(G), colour(K)]
    act(G2, s, colour(K))
    assert s.hand[0] == hand(r=1, g=1) and s.opium == [0, 0] and kind(G2, s) == "purchase"
    s = at("e1853", hands=[hand(), hand(w=1)], buildings=[[0, 0, 1], []])
    assert s.hand[0] == hand() and kind(G2, s) == "move" and G2.current_player(s) == 1


def test_1853_single_colour_is_lost_without_asking() -> None:
    """DDC-11.2, section 2.2: with only red in hand the red cube goes at once."""
    s = at("e1853", hands=[hand(r=3), []])
    assert s.hand[0] == hand(r=2) and kind(G2, s) == "purchase"


def test_1859_and_1878_free_dice_leave_the_temple_available() -> None:
    """DDC-11.4, DDC-11.7, R-24 [l.199, l.202]: 2 (1859) or 3 (1878) dice without paying,
    gained as at the Temple; the Temple can still be used this turn."""
    for event, faces, gained in (("e1859", (FACE_RED, FACE_GREEN), hand(r=1, g=1)),
                                 ("e1878", (FACE_WHITE,) * 3, hand(w=3))):
        s = at(event, hands=[hand(y=2), []])
        act(G2, s, A.EVENT, *faces)
        assert s.hand[0] == [a + b for a, b in zip(hand(y=2), gained, strict=True)]
        assert offered(s, A.TEMPLE0 + 1) and not offered(s, A.EVENT)


def test_1860_two_red_for_three_cubes() -> None:
    """DDC-11.5, DDC-10.1 [l.200]: pay 2 red units (a black may pay one: asked, 1 opium),
    then take 3 cubes of any colours. Not offered with 1 red and no black."""
    s = at("e1860", hands=[hand(r=1, k=1), []])
    act(G2, s, A.EVENT)
    answer(G2, s, "pay", colour(K), player=0)
    assert s.hand[0] == hand() and s.opium == [1, 0]
    act(G2, s, colour(G), colour(G), colour(W))
    assert s.hand[0] == hand(w=1, g=2) and s.opium == [1, 0]
    s = at("e1860", hands=[hand(r=1, w=3), []])
    assert not offered(s, A.EVENT)


def test_1865_green_and_1891_white() -> None:
    """DDC-11.6, DDC-11.9 [l.201, l.204]: gain 1 green / 1 white, once per turn."""
    for event, gained in (("e1865", hand(r=2, g=1)), ("e1891", hand(r=2, w=1))):
        s = at(event, hands=[hand(r=2), []])
        act(G2, s, A.EVENT)
        assert s.hand[0] == gained and not offered(s, A.EVENT)


def test_1884_mansions_cost_one_yellow_fewer() -> None:
    """DDC-11.8, R-32 [l.203]: every Mansion this round costs 1R 1W 1G (two bought with
    R2 W2 G2); other buildings keep their cost (the Den's 1R 1W 1G 1Y is not offered)."""
    s = at("e1884", hands=[hand(r=2, w=2, g=2), []])
    assert BUILD[MANSION] in G2.legal_actions(s) and not offered(s, BUILD[4])
    assert not offered(s, A.EVENT)
    act(G2, s, BUILD[MANSION])
    assert s.hand[0] == hand(r=1, w=1, g=1)
    act(G2, s, BUILD[MANSION])
    assert s.buildings[0][MANSION] == 2 and s.hand[0] == hand()
    s = at("e1891", hands=[hand(r=2, w=2, g=2), []])
    assert not offered(s, BUILD[MANSION])


def test_1895_no_level_3_ship() -> None:
    """DDC-11.10, R-41 [l.205]: no level-3 ship may be bought in this round (p0 has the
    credit and the cubes for L01); level 2 still can."""
    cubes = [hand(r=3, w=2, g=4, y=1), []]
    owned = [["L02", "L04"], []]                # credit 8
    s = at("e1895", ship_up=["J01", "S01", "L01"], ships=owned, hands=cubes)
    assert offered(s, A.SHIP0 + LEVEL2) and not offered(s, A.SHIP0 + LEVEL3)
    s = at("e1895", ship_up=["J01", "S01", "L01"], ships=owned[::-1], hands=cubes[::-1],
           turn=1)                               # p1's turn of the same round (R-41)
    assert offered(s, A.SHIP0 + LEVEL2) and not offered(s, A.SHIP0 + LEVEL3)
    s = at("e1891", ship_up=["J01", "S01", "L01"], ships=owned, hands=cubes)
    assert offered(s, A.SHIP0 + LEVEL3)
    act(G2, s, A.SHIP0 + LEVEL3)
    assert L01 in s.ships[0]


def test_1898_white_lowers_opium_by_two() -> None:
    """DDC-11.11, R-28 [l.206]: pay 1 white, opium used falls by 2 (3 -> 1); paid with black
    from 1 it goes 1 + 1 - 2 = 0; not offered with opium 0 or without white or black."""
    s = at("e1898", hands=[hand(w=1, g=1), []], opium=[3, 2])
    act(G2, s, A.EVENT)
    assert s.opium == [1, 2] and s.hand[0] == hand(g=1)
    s = at("e1898", hands=[hand(g=1, k=1), []], opium=[1, 0])
    act(G2, s, A.EVENT)
    assert s.opium == [0, 0] and s.hand[0] == hand(g=1)
    s = at("e1898", hands=[hand(w=1, g=1), []], opium=[0, 4])
    assert not offered(s, A.EVENT)
    s = at("e1898", hands=[hand(g=2), []], opium=[2, 0])
    assert not offered(s, A.EVENT)


def test_1905_up_to_two_conversions_back_to_their_piles() -> None:
    """DDC-11.12, R-29 [l.207]: p0 converts a Store, then a Market: each card goes back to
    its pile and a Mansion comes from the Mansion pile; DONE is offered only after the
    first. The Store's space stays remodelled."""
    s = at("e1905", buildings=[[0, 1, 1], []], stores=[space("S", 2)], hands=[hand(r=2), []])
    act(G2, s, A.EVENT)
    assert kind(G2, s) == "convert" and G2.legal_actions(s) == [BUILD[STORE], BUILD[MARKET]]
    act(G2, s, BUILD[STORE])
    assert sorted(G2.legal_actions(s)) == [A.DONE, BUILD[MARKET]]
    act(G2, s, BUILD[MARKET])
    assert s.buildings[0] == [2, 0, 0, 0, 0] and s.piles == [10, 3, 3, 3, 1]
    assert s.remodelled[space("S", 2)] == 1 and kind(G2, s) == "purchase"
    s = at("e1905", buildings=[[0, 0, 1], []], hands=[hand(r=2), []])
    act(G2, s, A.EVENT)                          # the only building: converted at once
    assert s.buildings[0] == [1, 0, 0, 0, 0] and kind(G2, s) == "purchase"


def test_1905_needs_a_building_and_a_mansion() -> None:
    """DDC-11.12, R-29: not offered without a non-Mansion building, nor when the Mansion
    pile is empty (p1 holds all 12)."""
    s = at("e1905", buildings=[[3], []], hands=[hand(r=2), []])
    assert not offered(s, A.EVENT)
    s = at("e1905", buildings=[[0, 0, 1], [12]], hands=[hand(r=2), []])
    assert not offered(s, A.EVENT)


def test_1908_up_to_two_exchanges_of_another_colour() -> None:
    """DDC-11.13, R-21, R-38 [l.208]: give 1 (black: not opium), take 1 of another colour;
    then a second exchange or DONE."""
    s = at("e1908", hands=[hand(r=1, k=1), []])
    act(G2, s, A.EVENT)
    answer(G2, s, "give", colour(K), player=0)
    assert G2.legal_actions(s) == [colour(c) for c in (R, W, G, Y)]
    act(G2, s, colour(W))
    assert kind(G2, s) == "exchange_more"
    assert G2.legal_actions(s) == [A.DONE, colour(R), colour(W)]
    act(G2, s, colour(R))
    assert G2.legal_actions(s) == [colour(c) for c in (W, G, Y, K)]
    act(G2, s, colour(G))
    assert s.hand[0] == hand(w=1, g=1) and s.opium == [0, 0] and kind(G2, s) == "purchase"
    s = at("e1908", hands=[hand(r=1, w=1), []])
    act(G2, s, A.EVENT, colour(R), colour(Y), A.DONE)
    assert s.hand[0] == hand(w=1, y=1) and kind(G2, s) == "purchase"


def test_1915_lowers_opium_by_two_not_below_zero() -> None:
    """DDC-11.14, R-28 [l.209]: opium used 3 -> 1 and 1 -> 0 (the other player's 5 stays);
    not offered at 0."""
    for before, after in ((3, 1), (1, 0)):
        s = at("e1915", hands=[hand(r=2), []], opium=[before, 5])
        act(G2, s, A.EVENT)
        assert s.opium == [after, 5] and s.hand[0] == hand(r=2)
    s = at("e1915", hands=[hand(r=2), []], opium=[0, 5])
    assert not offered(s, A.EVENT)


def test_automatic_events_offer_no_action() -> None:
    """DDC-11.1, DDC-11.15, R-27: 1884, 1895 and 1920 have nothing to execute."""
    for event in ("e1884", "e1895", "e1920"):
        s = at(event, hands=[hand(r=2, w=2), []])
        assert not offered(s, A.EVENT)
