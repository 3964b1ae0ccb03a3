"""Rule tests of Dadaocheng final scoring (DDC-13) and the single-player game's objectives,
challenges and result (DDC-14, DDC-15).

Each docstring cites the rule of ``seeds/dadaocheng.md`` and the rulebook section it checks.
Prestige values (``common.py``): J01 2 PP / credit 1, J02 2 / 1, J04 1 / 2, J05 1 / 2,
S01 4 / 2, L01 9 / 3, L02 8 / 4; Store 2, Market 1, Workshop 1, Opium Den 4.
"""

from __future__ import annotations

import pytest

from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.scenario import act, scenario
from formosa_envs.games.dadaocheng.scoring import mansion_vp, solo_tier
from tests.dadaocheng.common import game, hand

SETS = {0: 0, 1: 4, 2: 10, 3: 16, 4: 23, 5: 31, 6: 39, 7: 39 + 4, 8: 39 + 10, 9: 39 + 16,
        10: 39 + 23, 11: 39 + 31, 12: 78, 13: 82}


@pytest.mark.parametrize(("m", "pp"), sorted(SETS.items()))
def test_mansion_sets(m, pp) -> None:
    """DDC-13.3, R-40 [Mansion; l.189]: 1-6 Mansions score 4/10/16/23/31/39; every 6 and
    the remainder score as separate sets (13 = 39 + 39 + 4)."""
    assert mansion_vp(m) == pp


def test_ships_buildings_credit_and_mansions() -> None:
    """DDC-13.1-13.4 [Scoring; l.123-125]: p0: J01 + S01 + L01 = 2 + 4 + 9 PP, credit
    1 + 2 + 3 = 6 -> 1 PP, Store + Market + Workshop = 2 + 1 + 1 -> 20; p1: 13 Mansions
    (4 players: 24 in the game) -> 82."""
    g = game(4)
    s = scenario(g, ships=[["J01", "S01", "L01"], [], [], []],
                 buildings=[[0, 1, 1, 1], [13], [], []])
    assert s.credit[0] == 6
    assert g.prestige(s) == [20, 82, 0, 0]


def test_opium_and_den_penalty_rounds_up_per_den() -> None:
    """DDC-13.5, DDC-13.6, R-22, R-23 [Scoring; Opium Den; l.126-127, l.191]: 4 players,
    opium 3 + 2 = 5 in all -> each Den costs ceil(5 / 4) = 2: p0 4 - 3 - 2 = -1, p1
    4 - 2 - 2 = 0. With 8 in all (4 + 4) a player with 2 Dens pays 2 twice: 8 - 4 - 4."""
    g = game(4)
    s = scenario(g, opium=[3, 2, 0, 0], buildings=[[0, 0, 0, 0, 1], [0, 0, 0, 0, 1], [], []])
    assert g.prestige(s) == [-1, 0, 0, 0]
    s = scenario(g, opium=[4, 4, 0, 0], buildings=[[0, 0, 0, 0, 2], [], [], []])
    assert g.prestige(s) == [0, -4, 0, 0]
    g = game(3)
    s = scenario(g, opium=[0, 0, 1], buildings=[[0, 0, 0, 0, 1], [], []])
    assert g.prestige(s) == [4 - 1, 0, -1]
    s = scenario(g, opium=[0, 0, 0], buildings=[[0, 0, 0, 0, 1], [], []])
    assert g.prestige(s) == [4, 0, 0]


def test_loop_sign_cubes() -> None:
    """DDC-13.7, DDC-6.5 [Scoring; l.128]: 3 PP per cube on the storehouse sign."""
    g = game(2)
    assert g.prestige(scenario(g, sign=[2, 1])) == [6, 3]


def test_1920_bonus_to_every_leader_in_buildings() -> None:
    """DDC-13.8, R-30 [Scoring; l.129; l.210]: once 1920 has been revealed, the players with
    the most building cards (Mansions count) score 5 each: p0 (2 Mansions: 10) and p1
    (Store + Market: 3) tie with 2 cards; p2 has 1 Mansion (4). Without 1920 no bonus; with
    no building at all, nobody scores it."""
    g = game(3)
    owned = [[2], [0, 1, 1], [1]]
    s = scenario(g, round_no=4, events=["e1851", "e1920", "e1853", "e1891"], buildings=owned)
    assert g.prestige(s) == [15, 8, 4]
    s = scenario(g, round_no=2, event="e1920", buildings=owned)
    assert g.prestige(s) == [15, 8, 4]
    s = scenario(g, round_no=4, events=["e1851", "e1908", "e1853", "e1891"], buildings=owned)
    assert g.prestige(s) == [10, 3, 4]
    s = scenario(g, round_no=2, event="e1920")
    assert g.prestige(s) == [0, 0, 0]


def end_game(g, **kw) -> object:
    """The last turn of the game (2 players, round 10, p1), ended with DONE."""
    s = scenario(g, turn=1, round_no=10, event="e1891", **kw)
    act(g, s, A.DONE)
    assert g.is_terminal(s)
    return s


def test_most_prestige_wins_ties_by_credit_then_shared() -> None:
    """DDC-13.9, R-35 [Scoring; l.131]: p0 J04 + J05 (2 PP, credit 4) and p1 J01 (2 PP,
    credit 1) tie on prestige: p0 wins on credit. J01 against J02 (2 PP, credit 1 each):
    a shared tie. More prestige wins whatever the credit."""
    g = game(2)
    s = end_game(g, ships=[["J04", "J05"], ["J01"]], hands=[[], hand(r=2)])
    assert g.scores(s) == [2.0, 2.0] and g.returns(s) == [1.0, -1.0]
    s = end_game(g, ships=[["J01"], ["J02"]], hands=[[], hand(r=2)])
    assert g.returns(s) == [0.0, 0.0]
    s = end_game(g, ships=[["J04", "J05"], ["J01"]], sign=[0, 1], hands=[[], hand(r=2)])
    assert g.scores(s) == [2.0, 5.0] and g.returns(s) == [-1.0, 1.0]


def test_negative_scores_and_three_player_ranks() -> None:
    """DDC-13.9: scores may be negative; returns rank the players (3 players: mean of the
    pairwise results)."""
    g = game(3)
    s = scenario(g, turn=2, round_no=8, event="e1891", opium=[2, 0, 0], ships=[[], ["J01"], []],
                 hands=[[], [], hand(r=2)])
    act(g, s, A.DONE)
    assert g.scores(s) == [-2.0, 2.0, 0.0] and g.returns(s) == [-1.0, 1.0, 0.0]


# ----- the single-player game -----------------------------------------------------------------

def test_solo_den_costs_one_per_opium_used() -> None:
    """DDC-14.8, DDC-13.6 [Single Player > Scoring; l.156]: 3 opium used: -3 for the opium
    and -3 for the Den (4 PP): -2."""
    g = game(1)
    assert g.prestige(scenario(g, opium=[3], buildings=[[0, 0, 0, 0, 1]])) == [-2]


@pytest.mark.parametrize(("score", "tier"), [
    (-3, "none"), (49, "none"), (50, "apprentice"), (59, "apprentice"), (60, "experienced"),
    (69, "experienced"), (70, "master"), (95, "master"),
])
def test_solo_tiers(score, tier) -> None:
    """DDC-14.9 [Prestige Point Objective; l.159-163]: 50 / 60 / 70 PP."""
    assert solo_tier(score) == tier


def solo_end(challenge: str | None = None, target: int = 50, **kw) -> tuple[object, object]:
    """The solo game's last turn (round 10), ended with DONE."""
    g = game(1, solo_challenge=challenge, solo_target=target)
    s = scenario(g, round_no=10, hands=[hand(r=2)], **kw)
    act(g, s, A.DONE)
    assert g.is_terminal(s)
    return g, s


def test_solo_win_needs_the_target() -> None:
    """DDC-14.9, DDC-15.2: 12 Mansions score 78 (master): won (+1) with target 70, lost (-1)
    with a target of 80; 5 Mansions (31) lose against 50."""
    g, s = solo_end(target=70, buildings=[[12]])
    assert g.scores(s) == [78.0] and g.returns(s) == [1.0]
    assert g.solo_result(s)["tier"] == "master"
    g, s = solo_end(target=80, buildings=[[12]])
    assert g.returns(s) == [-1.0]
    g, s = solo_end(buildings=[[5]])
    assert g.returns(s) == [-1.0] and g.solo_result(s)["tier"] == "none"


def test_solo_ships_challenge() -> None:
    """DDC-15.1, DDC-15.2 [Challenge; l.169]: all 6 level-3 ships without a Workshop; the
    score target still applies. L01-L06: 9 + 8 + 9 + 8 + 10 + 9 = 53 PP and credit 21 -> 4:
    57."""
    six = [f"L0{i}" for i in range(1, 7)]
    g, s = solo_end("ships", ships=[six], ship_up=["J01", "S01", None])
    assert g.scores(s) == [57.0] and g.solo_result(s)["ships_challenge"]
    assert g.returns(s) == [1.0]
    g, s = solo_end("ships", ships=[six], ship_up=["J01", "S01", None], buildings=[[0, 0, 0, 1]])
    assert not g.solo_result(s)["ships_challenge"] and g.returns(s) == [-1.0]
    g, s = solo_end("ships", ships=[six[:5]], ship_up=["J01", "S01", "L07"],
                    buildings=[[6]])
    assert not g.solo_result(s)["ships_challenge"] and g.returns(s) == [-1.0]


def test_solo_buildings_challenge() -> None:
    """DDC-15.1, R-34 [Challenge; l.170]: every Mansion, Store, Market and Workshop of the
    solo game (12 + 2 + 2 + 2; the Den not needed): 78 + 4 + 2 + 2 = 86 PP, won. One Store
    short: lost, however high the score."""
    g, s = solo_end("buildings", buildings=[[12, 2, 2, 2]])
    assert g.scores(s) == [86.0] and g.solo_result(s)["buildings_challenge"]
    assert g.returns(s) == [1.0]
    g, s = solo_end("buildings", buildings=[[12, 1, 2, 2]])
    assert not g.solo_result(s)["buildings_challenge"] and g.returns(s) == [-1.0]
    g, s = solo_end(None, buildings=[[12, 1, 2, 2]])
    assert g.returns(s) == [1.0]                 # no challenge chosen: the score decides


def test_solo_hand2_challenge_is_a_rule_change_only() -> None:
    """DDC-15.1, DDC-15.2: ``hand2`` wins by the score alone (its condition is the hand
    limit of 2, applied during play)."""
    g, s = solo_end("hand2", buildings=[[12]])
    assert g.returns(s) == [1.0] and s.hand[0] == hand(r=2)
