"""Rule tests of the Dadaocheng Stage 4 actions that turn cubes into cubes: the Temple
(DDC-8.5), 2-for-1 (DDC-8.6), the Market (DDC-9.4) and the Opium Den (DDC-9.5), with
what counts as using opium (DDC-10.2, DDC-10.3).

Each docstring cites the rule of ``seeds/dadaocheng.md`` and the rulebook section it checks.
2 players; player 0 acts in Stage 4 of round 1. Temple dice: outcome 0-5 = face 1-6 gives
red, white, green, yellow, black, any.
"""

from __future__ import annotations

import pytest

from formosa_envs.core.engine import CHANCE
from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.scenario import act, answer, kind, scenario
from tests.dadaocheng.common import (
    FACE_ANY,
    FACE_BLACK,
    FACE_RED,
    FACE_WHITE,
    FACE_YELLOW,
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
TEMPLE_WHITE, TEMPLE_ANY = A.TEMPLE0, A.TEMPLE0 + 1
ALL = [colour(c) for c in range(5)]


def roll(s, *faces: int) -> None:
    for face in faces:
        assert kind(G2, s) == "die" and G2.current_player(s) == CHANCE
        assert G2.chance_outcomes(s) == [(f, pytest.approx(1 / 6)) for f in range(6)]
        act(G2, s, face)


def test_temple_one_white_rolls_two_dice_once_per_turn() -> None:
    """DDC-8.5 [Temple; l.103]: pay 1 white, roll 2 dice, gain a cube per face (red,
    yellow); afterwards neither Temple option is offered this turn."""
    s = scenario(G2, hands=[hand(r=1, w=1, y=1), []])
    assert {TEMPLE_WHITE, TEMPLE_ANY} <= set(G2.legal_actions(s))
    act(G2, s, TEMPLE_WHITE)
    roll(s, FACE_RED, FACE_YELLOW)
    assert s.hand[0] == hand(r=2, y=2) and s.opium == [0, 0]
    assert kind(G2, s) == "purchase"
    assert not {TEMPLE_WHITE, TEMPLE_ANY} & set(G2.legal_actions(s))


def test_temple_white_paid_with_opium() -> None:
    """DDC-8.5, DDC-10.1, DDC-10.2: without white, a black cube pays the Temple's white
    (offered; paid without a question) and counts 1 opium used."""
    s = scenario(G2, hands=[hand(r=1, k=1), []])
    act(G2, s, TEMPLE_WHITE)
    roll(s, FACE_WHITE, FACE_WHITE)
    assert s.hand[0] == hand(r=1, w=2) and s.opium == [1, 0]


def test_temple_two_cubes_roll_three_dice_black_given_is_opium_any_face_asks() -> None:
    """DDC-8.5, DDC-10.2, R-3, R-21 [Temple; Opium; l.103, l.105]: give 2 cubes of any
    colours (black and red: the black counts 1 opium), roll 3 dice; the "any" face lets the
    player choose the colour (green), black gives black."""
    s = scenario(G2, hands=[hand(r=2, k=1), []])
    act(G2, s, TEMPLE_ANY)
    answer(G2, s, "give", colour(K), player=0)   # then red, the only colour left: not asked
    assert s.hand[0] == hand(r=1) and s.opium == [1, 0]
    roll(s, FACE_ANY)
    assert kind(G2, s) == "take" and G2.current_player(s) == 0
    assert G2.legal_actions(s) == ALL
    act(G2, s, colour(G))
    roll(s, FACE_BLACK, FACE_WHITE)
    assert s.hand[0] == hand(r=1, w=1, g=1, k=1) and s.opium == [1, 0]


def test_two_for_one_any_number_of_times_black_not_opium() -> None:
    """DDC-8.6, DDC-10.3 [2-for-1; Opium; l.104, l.106]: give 2 cubes (a black among them:
    no opium used), take 1 of any colour (even one just given); it can be repeated."""
    s = scenario(G2, hands=[hand(r=2, y=1, k=1), []])
    act(G2, s, A.EXCHANGE)
    assert G2.legal_actions(s) == [colour(c) for c in (R, Y, K)]
    act(G2, s, colour(K), colour(Y))
    assert kind(G2, s) == "take" and G2.legal_actions(s) == ALL
    act(G2, s, colour(K))
    assert s.hand[0] == hand(r=2, k=1) and s.opium == [0, 0]
    act(G2, s, A.EXCHANGE, colour(R), colour(R), colour(W))
    assert s.hand[0] == hand(w=1, k=1) and s.opium == [0, 0]
    assert A.EXCHANGE in G2.legal_actions(s)    # 2 cubes are enough
    act(G2, s, A.EXCHANGE, colour(W), colour(Y))  # K, the last cube, given without asking
    assert s.hand[0] == hand(y=1) and A.EXCHANGE not in G2.legal_actions(s)


def test_market_gives_another_colour_once_per_market() -> None:
    """DDC-9.4, R-38 [Market; l.181; Opium; l.106]: give 1 cube, take 1 of another colour
    (black allowed); giving black is not opium. Each Market once per turn: 2 Markets, 2
    uses."""
    s = scenario(G2, buildings=[[0, 0, 2], []], hands=[hand(w=1, k=1), []])
    act(G2, s, A.MARKET)
    answer(G2, s, "give", colour(K), player=0)
    assert kind(G2, s) == "take" and G2.legal_actions(s) == [colour(c) for c in (R, W, G, Y)]
    act(G2, s, colour(Y))
    assert s.hand[0] == hand(w=1, y=1) and s.opium == [0, 0]
    act(G2, s, A.MARKET, colour(W), colour(K))
    assert s.hand[0] == hand(y=1, k=1) and s.opium == [0, 0]
    assert A.MARKET not in G2.legal_actions(s)


def test_market_needs_a_market() -> None:
    """DDC-9.4, DDC-8.1: without a Market, MARKET is not offered."""
    s = scenario(G2, hands=[hand(w=2), []])
    assert A.MARKET not in G2.legal_actions(s) and A.DEN not in G2.legal_actions(s)


def test_opium_den_black_for_two_any_counts_opium() -> None:
    """DDC-9.5, R-22 [Opium Den; l.191]: give 1 black (automatic), take 2 cubes of any
    colours; 1 opium used; once per Den per turn; not offered without black."""
    s = scenario(G2, buildings=[[0, 0, 0, 0, 1], []], hands=[hand(r=1, k=2), []])
    act(G2, s, A.DEN)
    answer(G2, s, "take", colour(W), player=0)
    assert G2.legal_actions(s) == ALL
    act(G2, s, colour(K))
    assert s.hand[0] == hand(r=1, w=1, k=2) and s.opium == [1, 0]
    assert A.DEN not in G2.legal_actions(s)
    s = scenario(G2, buildings=[[0, 0, 0, 0, 1], []], hands=[hand(r=1, y=1), []])
    assert A.DEN not in G2.legal_actions(s)
