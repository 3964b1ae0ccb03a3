"""Rule tests of Dadaocheng Stage 4 purchases: paying (DDC-8.2, DDC-10), ships (DDC-8.3,
DDC-9.2) and buildings (DDC-8.4, DDC-9.3).

Each docstring cites the rule of ``seeds/dadaocheng.md`` and the rulebook section it checks.
2 players (S = p0, N = p1) unless noted; player 0 acts in Stage 4 of round 1 (event 1851).
Costs and values: see ``common.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng import make_game
from formosa_envs.games.dadaocheng.scenario import act, answer, kind, scenario, space
from tests.dadaocheng.common import (
    DATA,
    DEN,
    FILES,
    J01,
    J02,
    J04,
    J05,
    J07,
    L01,
    LEVEL1,
    LEVEL2,
    LEVEL3,
    MANSION,
    MARKET,
    S01,
    STORE,
    WORKSHOP,
    G,
    K,
    R,
    W,
    colour,
    game,
    hand,
)

G2 = game(2)
UP = ["J01", "S01", "L01"]
SHIP = [A.SHIP0 + level for level in range(3)]
BUILD = [A.BUILDING0 + t for t in range(5)]


def ships_offered(g, s) -> list[int]:
    return [a - A.SHIP0 for a in g.legal_actions(s) if A.SHIP0 <= a < A.SHIP0 + 3]


def buildings_offered(g, s) -> list[int]:
    return [a - A.BUILDING0 for a in g.legal_actions(s) if A.BUILDING0 <= a < A.BUILDING0 + 5]


# ----- ships ---------------------------------------------------------------------------------

def test_a_ship_needs_its_required_credit_and_a_payable_cost() -> None:
    """DDC-8.3, R-18 [Buy Ship Cards; l.100]: S01 (required credit 3) is offered only with
    credit 3 or more (J04 + J05 = 4, not J04 alone = 2) and only if its 1R 1W 2G can be
    paid; L01 needs credit 7."""
    cubes = [hand(r=2, w=2, g=3, y=1), []]
    s = scenario(G2, ship_up=UP, ships=[["J04"], []], hands=cubes)
    assert s.credit == [2, 0] and ships_offered(G2, s) == [LEVEL1]
    s = scenario(G2, ship_up=UP, ships=[["J04", "J05"], []], hands=cubes)
    assert s.credit == [4, 0] and ships_offered(G2, s) == [LEVEL1, LEVEL2]
    s = scenario(G2, ship_up=UP, ships=[["J04", "J05"], []], hands=[hand(w=1, g=2), []])
    assert ships_offered(G2, s) == []


def test_buying_a_ship_adds_its_credit_and_reveals_the_next_card() -> None:
    """DDC-8.3, DDC-2.4, R-19 [Buy Ship Cards; l.100]: S01 paid with exactly its cubes (no
    question), credit 4 + 2, then the next level-2 card is revealed, uniformly among the 11
    level-2 cards nobody holds."""
    s = scenario(G2, ship_up=UP, ships=[["J04", "J05"], []], hands=[hand(r=1, w=1, g=2, y=2), []])
    act(G2, s, SHIP[LEVEL2])
    assert kind(G2, s) == "ship_reveal"
    outcomes = G2.chance_outcomes(s)
    assert [c for c, _ in outcomes] == [c for c in range(12, 24) if c != S01]
    assert all(p == pytest.approx(1 / 11) for _, p in outcomes)
    act(G2, s, S01 + 4)                         # S05 turns face up
    assert s.ships[0] == [J04, J05, S01] and s.credit[0] == 6 and s.hand[0] == hand(y=2)
    assert s.ship_up == [J01, S01 + 4, L01]
    assert G2.prestige(s)[0] == 1 + 1 + 4 + 6 // 5
    assert kind(G2, s) == "purchase"


def test_opium_pays_any_unit_and_moves_the_track() -> None:
    """DDC-8.2, DDC-10.1, DDC-10.2 [Opium; l.105]: J01 (1R 1G) with R1 K2: the red unit may
    be paid red or black (either keeps the green unit payable): asked; black chosen, the
    green unit can only be black. Opium used 2."""
    s = scenario(G2, ship_up=UP, hands=[hand(r=1, y=2, k=2), []])
    act(G2, s, SHIP[LEVEL1])
    assert kind(G2, s) == "pay" and G2.legal_actions(s) == [colour(R), colour(K)]
    act(G2, s, colour(K))
    assert kind(G2, s) == "ship_reveal"
    assert s.hand[0] == hand(r=1, y=2) and s.opium == [2, 0] and s.ships[0] == [J01]


def test_no_pay_question_when_only_one_source_keeps_the_rest_payable() -> None:
    """DDC-8.2: J01 with R1 K1: paying red with black would leave the green unit unpaid, so
    red pays red and black pays green, without a question (opium 1)."""
    s = scenario(G2, ship_up=UP, hands=[hand(r=1, y=2, k=1), []])
    act(G2, s, SHIP[LEVEL1])
    assert kind(G2, s) == "ship_reveal"
    assert s.hand[0] == hand(y=2) and s.opium == [1, 0]


def test_pay_questions_unit_by_unit_in_colour_order() -> None:
    """DDC-8.2: a Mansion (1R 1W 1G 1Y) with R W G Y K: red, white and green are asked in
    that order while a black is left; once black paid green, yellow is paid yellow."""
    s = scenario(G2, hands=[hand(r=1, w=1, g=1, y=1, k=1), []])
    act(G2, s, BUILD[MANSION])
    answer(G2, s, "pay", colour(R), player=0)
    answer(G2, s, "pay", colour(W), player=0)
    assert G2.legal_actions(s) == [colour(G), colour(K)]
    act(G2, s, colour(K))
    assert s.hand[0] == hand(g=1) and s.opium == [1, 0] and s.buildings[0][MANSION] == 1


def test_solo_piles_reveal_at_most_six_cards() -> None:
    """DDC-14.2, R-19 [Single Player > Card Setup; l.139]: J06 is the 6th level-1 card
    revealed (J01-J05 bought): after buying it the pile is empty, although 6 level-1 cards
    were never revealed; with 2 players the next card comes from those 6 (1/6 each)."""
    owned = [["J01", "J02", "J03", "J04", "J05"]]
    g1 = game(1)
    s = scenario(g1, ships=owned, ship_up=["J06", "S01", "L01"], hands=[hand(r=1, y=1, g=2)])
    assert s.revealed == [6, 1, 1]
    act(g1, s, SHIP[LEVEL1])
    assert s.ship_up[0] == -1 and len(s.ship_pool[0]) == 6 and kind(g1, s) == "purchase"
    assert LEVEL1 not in ships_offered(g1, s)
    s = scenario(G2, ships=owned + [[]], ship_up=["J06", "S01", "L01"],
                 hands=[hand(r=1, y=1, g=2), []])
    act(G2, s, SHIP[LEVEL1])
    assert G2.chance_outcomes(s) == [(c, pytest.approx(1 / 6)) for c in range(J07, J07 + 6)]


def test_workshop_removes_one_green_once_per_turn() -> None:
    """DDC-9.2, R-20 [Workshop; l.177]: with one Workshop, J01 (1R 1G) costs 1R; the next
    ship, J02 (1W 1G), pays its green: the Workshop is used up for this turn."""
    s = scenario(G2, ship_up=UP, buildings=[[0, 0, 0, 1], []], hands=[hand(r=1, w=1, g=1, y=2), []])
    act(G2, s, SHIP[LEVEL1])
    assert s.hand[0] == hand(w=1, g=1, y=2)
    act(G2, s, J02)                             # revealed
    act(G2, s, SHIP[LEVEL1])
    assert s.hand[0] == hand(y=2) and s.ships[0] == [J01, J02]


def test_two_workshops_and_ships_without_green() -> None:
    """DDC-9.2, R-20: a ship without green (J04) uses no Workshop; two Workshops then serve
    J01 and J02, one green each."""
    s = scenario(G2, ship_up=["J04", "S01", "L01"], buildings=[[0, 0, 0, 2], []],
                 hands=[hand(r=2, w=2, y=2), []])
    act(G2, s, SHIP[LEVEL1], J01, SHIP[LEVEL1], J02, SHIP[LEVEL1])
    assert s.ships[0] == [J04, J01, J02] and s.hand[0] == hand(y=2)


# ----- buildings ----------------------------------------------------------------------------

def test_one_store_market_workshop_den_per_turn_any_number_of_mansions() -> None:
    """DDC-8.4 [Buy Building Cards; l.101]: 4 players; after a Market, a Workshop, a Store
    and a Den none of those is offered again this turn; Mansions stay on offer."""
    g = game(4)
    cubes = hand(r=9, w=6, g=6, y=6)
    s = scenario(g, hands=[cubes, [], [], []])
    assert buildings_offered(g, s) == [0, 1, 2, 3, 4]
    act(g, s, BUILD[MARKET], BUILD[MANSION], BUILD[MANSION], BUILD[WORKSHOP])
    act(g, s, BUILD[STORE])
    answer(g, s, "store_space", A.SPACE0 + 2)
    act(g, s, BUILD[DEN])
    assert s.buildings[0] == [2, 1, 1, 1, 1] and s.piles == [22, 5, 5, 5, 1]
    assert buildings_offered(g, s) == [MANSION]
    assert s.hand[0] == hand(r=3, w=1, g=1, y=1)      # each still affordable


def test_at_most_two_opium_dens(tmp_path: Path) -> None:
    """DDC-8.4, DDC-9.5, R-22 [Opium Den; l.191]: a player may own 2 Dens, not 3 (a content
    file with 3 Dens for 4 players, so that a third is left in the pile)."""
    text = (DATA / "buildings.toml").read_text()
    text = text.replace("piles = [1, 1, 1, 2]", "piles = [1, 1, 1, 3]")
    path = tmp_path / "buildings.toml"
    path.write_text(text)
    g = make_game(num_players=4, **{**FILES, "building_file": str(path)})
    s = scenario(g, buildings=[[0, 0, 0, 0, 1], [], [], []], hands=[hand(r=2, w=2, g=2, y=2)] +
                 [[]] * 3)
    assert DEN in buildings_offered(g, s)
    s = scenario(g, buildings=[[0, 0, 0, 0, 2], [], [], []], hands=[hand(r=2, w=2, g=2, y=2)] +
                 [[]] * 3)
    assert s.piles[DEN] == 1 and DEN not in buildings_offered(g, s)


def test_store_needs_an_empty_space_and_remodels_it() -> None:
    """DDC-8.4, DDC-9.3, R-16 [Store; l.185]: p0's spaces: 0 holds a cube, 1 is a Store, 2
    and 3 are empty: the player chooses 2 or 3 and that space becomes a Store. With no empty
    non-Store space the Store is not offered."""
    store = {space("S", 0): hand(w=1), space("S", 3): hand()}
    s = scenario(G2, storehouse=store, stores=[space("S", 1)], buildings=[[0, 1], []],
                 hands=[hand(r=2, w=1, y=1), []])
    act(G2, s, BUILD[STORE])
    assert kind(G2, s) == "store_space"
    assert G2.legal_actions(s) == [A.SPACE0 + 2, A.SPACE0 + 3]
    act(G2, s, A.SPACE0 + 3)
    assert s.remodelled[:4] == [0, 1, 0, 1] and s.buildings[0][STORE] == 2
    assert s.hand[0] == hand(y=1)
    full = {space("S", k): hand(g=1) for k in (0, 2, 3)}
    s = scenario(G2, storehouse=full, stores=[space("S", 1)], buildings=[[0, 1], []],
                 hands=[hand(r=4, w=2), []])
    assert STORE not in buildings_offered(G2, s)


def test_an_ability_works_in_the_turn_the_building_is_bought() -> None:
    """DDC-8.4, DDC-9.2 [Buy Building Cards; l.101]: a Workshop bought now reduces the next
    ship (J01 for 1R)."""
    s = scenario(G2, ship_up=UP, hands=[hand(r=2, g=1, y=1, w=1), []])
    act(G2, s, BUILD[WORKSHOP])
    assert s.hand[0] == hand(r=1, w=1)
    assert ships_offered(G2, s) == [LEVEL1]
    act(G2, s, SHIP[LEVEL1])
    assert s.hand[0] == hand(w=1) and s.ships[0] == [J01]


def test_an_empty_pile_offers_nothing() -> None:
    """DDC-8.3, DDC-8.4 [Buy Building Cards; l.101]: no Den left (p1 holds the only one with
    2 players) and no level-3 ship left (p0 holds L01-L03, credit 10; p1 the other nine):
    neither is offered."""
    level3 = [f"L{i:02d}" for i in range(1, 13)]
    s = scenario(G2, ship_up=["J06", "S01", None], ships=[level3[:3], level3[3:]],
                 buildings=[[], [0, 0, 0, 0, 1]], hands=[hand(r=3, w=3, g=3, y=3), []])
    assert s.piles[DEN] == 0 and s.credit[0] == 10 and s.ship_pool[LEVEL3] == []
    assert DEN not in buildings_offered(G2, s) and LEVEL3 not in ships_offered(G2, s)
    assert buildings_offered(G2, s) == [MANSION, STORE, MARKET, WORKSHOP]
