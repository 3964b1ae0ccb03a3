"""Rule tests of Dadaocheng Stage 3, the Full House reward (DDC-7), and the end-of-turn hand
limit (DDC-12.1).

Each docstring cites the rule of ``seeds/dadaocheng.md`` and the rulebook section it checks.
3 players (S = p0 spaces 0-3, W = p1 spaces 4-7, N = p2 spaces 8-11; E covered) unless
noted.
"""

from __future__ import annotations

from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.scenario import act, answer, kind, scenario, space
from tests.dadaocheng.common import (
    T_GRID,
    G,
    K,
    R,
    W,
    Y,
    colour,
    game,
    hand,
    seat_list,
)

G3 = game(3)
EMPTY = [0] * 5
SPACES = [A.SPACE0 + k for k in range(4)]


def region(side: str, *cubes: list[int]) -> dict[int, list[int]]:
    """The spaces of one side, k = 0, 1, ... (empty lists stay empty)."""
    return {space(side, k): c for k, c in enumerate(cubes) if sum(c)}


def test_every_player_from_the_active_one_and_the_non_active_cap() -> None:
    """DDC-7.1-7.3, R-14, R-39 [Stage 3; Notes; l.89, l.94]: p1 is active; p1, p2, p0 (in
    turn order from p1) each take one chosen space; the others' spaces stay. p2 (5 in hand)
    takes 2 cubes and, not active, returns 1 of their choice; p1 goes to 8 (no cap before
    the end of the turn)."""
    store = {**region("S", hand(r=1), hand(w=1), hand(g=1), hand(y=1)),
             **region("W", hand(k=1), hand(r=2), hand(w=1), hand(g=1)),
             **region("N", hand(y=1), hand(r=1, k=1), hand(w=1), hand(g=1))}
    s = scenario(G3, phase="full_house", turn=1, storehouse=store,
                 hands=[hand(), hand(w=6), hand(g=5)])
    answer(G3, s, "full_house", SPACES[1], player=1)
    assert s.hand[1] == hand(r=2, w=6) and s.storehouse[space("W", 1)] == EMPTY
    assert G3.legal_actions(s) == SPACES
    answer(G3, s, "full_house", SPACES[1], player=2)
    assert s.hand[2] == hand(r=1, g=5, k=1)
    assert G3.legal_actions(s) == [colour(c) for c in (R, G, K)]
    answer(G3, s, "discard", colour(G), player=2)
    assert s.hand[2] == hand(r=1, g=4, k=1)
    answer(G3, s, "full_house", SPACES[3], player=0)
    assert s.hand[0] == hand(y=1)
    assert s.storehouse[space("S", 0)] == hand(r=1) and s.storehouse[space("N", 0)] == hand(y=1)
    assert sum(map(sum, s.storehouse)) == 12 - 3
    assert kind(G3, s) == "purchase" and G3.current_player(s) == 1 and sum(s.hand[1]) == 8


def test_stores_lower_the_requirement_and_four_stores_never_qualify() -> None:
    """DDC-7.1, DDC-9.3, R-15 [Stage 3 > Notes; l.93]: p0 with a Store on space 0 and cubes
    on 1-3 has a full house and may take only 1-3; p1 with 4 Stores has none; p2 missing one
    cube has none. (3 players have 4 Store cards: p0's was converted by 1905, R-29.)"""
    store = {**region("S", [], hand(r=1), hand(w=1), hand(g=2)),
             **region("N", hand(y=1), hand(y=1), [], hand(y=1))}
    s = scenario(G3, phase="full_house", storehouse=store,
                 stores=[space("S", 0), *(space("W", k) for k in range(4))],
                 buildings=[[1], [0, 4], []], hands=[hand(r=2), [], []])
    assert kind(G3, s) == "full_house" and G3.current_player(s) == 0
    assert G3.legal_actions(s) == SPACES[1:]
    act(G3, s, SPACES[3])
    assert s.hand[0] == hand(r=2, g=2)
    assert kind(G3, s) == "purchase" and G3.current_player(s) == 0


def test_a_single_qualifying_space_is_taken_without_asking() -> None:
    """DDC-7.2, section 2.2 (a decision with one legal option is not asked): p1 with 3
    Stores takes its one other space at once."""
    s = scenario(G3, phase="full_house", storehouse=region("W", [], [], [], hand(k=2)),
                 stores=[space("W", k) for k in range(3)], buildings=[[], [0, 3], []],
                 hands=[hand(r=2), [], []])
    assert s.hand[1] == hand(k=2) and s.storehouse[space("W", 3)] == EMPTY
    assert kind(G3, s) == "purchase" and G3.current_player(s) == 0


def test_full_house_after_the_cascade_active_first_then_the_others() -> None:
    """DDC-3.3, DDC-7.1 [Stage 3; l.89]: 4 players; the T grid's column of 4 fills the
    last empty space of p0 (S 0) and of p2 (N 0): p0 is asked first, then p2."""
    g = game(4)
    store = {**region("S", [], hand(r=1), hand(r=1), hand(r=1)),
             **region("N", [], hand(w=1), hand(w=1), hand(w=2))}
    s = scenario(g, phase="cascade", grid=T_GRID, storehouse=store,
                 hands=seat_list(4, hand(r=2)))
    act(g, s, A.LINE0 + 14)
    answer(g, s, "full_house", SPACES[0], player=0)
    assert s.hand[0] == hand(r=2, g=3)
    answer(g, s, "full_house", SPACES[3], player=2)
    assert s.hand[2] == hand(r=2, w=2)
    assert kind(g, s) == "purchase" and g.current_player(s) == 0


def test_a_full_house_can_be_taken_again_out_of_turn() -> None:
    """DDC-7.2, DDC-7.4 [Stage 3; l.89]: p0 takes S space 0 on their turn; on p1's turn the
    T grid's column of 4 (p1 flips cell 15 twice, then chooses it) stocks S space 0 again:
    p0 has another full house and chooses a space out of turn."""
    store = region("S", hand(r=1), hand(r=1), hand(r=1), hand(r=2))
    s = scenario(G3, phase="full_house", grid=T_GRID, storehouse=store,
                 hands=[hand(w=2), hand(r=2), []])
    answer(G3, s, "full_house", SPACES[0], player=0)
    act(G3, s, A.DONE, A.FLIP0 + 15, A.FLIP0 + 15)
    answer(G3, s, "line", A.LINE0 + 14, player=1)
    assert s.hand[1] == hand(r=2, g=2)
    answer(G3, s, "full_house", SPACES[3], player=0)
    assert s.hand[0] == hand(r=3, w=2)
    assert kind(G3, s) == "purchase" and G3.current_player(s) == 1


def test_a_full_house_made_by_a_store_is_paid_at_the_next_stage_3() -> None:
    """R-14, DDC-9.3 [Stage 3; Store; l.89, l.185]: p0's Store remodels the only empty space
    in Stage 4: no reward then; in p1's turn Stage 3 finds p0's full house (out of turn)."""
    store = {space("S", 0): hand(w=1), space("S", 1): hand(r=1), space("S", 2): hand(g=1)}
    s = scenario(G3, storehouse=store, hands=[hand(r=2, w=1, y=2), [], []])
    act(G3, s, A.BUILDING0 + 1)                  # the Store: space 3, the only choice
    assert s.remodelled[space("S", 3)] == 1 and kind(G3, s) == "purchase"
    act(G3, s, A.DONE, A.FLIP0, A.FLIP0)          # p1 plans without a line
    answer(G3, s, "full_house", SPACES[0], player=0)
    assert s.hand[0] == hand(w=1, y=2) and G3.current_player(s) == 1


# ----- DDC-12.1 the end-of-turn hand limit --------------------------------------------------

def test_hand_limit_six_at_the_end_of_the_turn_by_owner_choice() -> None:
    """DDC-12.1, R-39 [Stage 4 > Note; l.112]: with 8 cubes at DONE the active player returns
    2 of their choice (any colour held); then the next turn starts."""
    s = scenario(G3, hands=[hand(r=3, w=1, y=2, k=2), [], hand(g=9)])
    act(G3, s, A.DONE)
    assert kind(G3, s) == "discard" and G3.current_player(s) == 0
    assert G3.legal_actions(s) == [colour(c) for c in (R, W, Y, K)]
    act(G3, s, colour(K), colour(W))
    assert s.hand[0] == hand(r=3, y=2, k=1) and s.opium == [0, 0, 0]   # discarding: no opium
    assert kind(G3, s) == "move" and G3.current_player(s) == 1
    assert s.hand[2] == hand(g=9)                # others are limited only on their own turn


def test_hand_limit_exactly_six_keeps_all() -> None:
    """DDC-12.1: 6 cubes are kept without a decision."""
    s = scenario(G3, hands=[hand(r=3, w=3), [], []])
    act(G3, s, A.DONE)
    assert s.hand[0] == hand(r=3, w=3) and kind(G3, s) == "move"


def test_solo_hand_limit_three_and_challenge_two() -> None:
    """DDC-12.1, DDC-14.6, DDC-15.1 [Single Player > Gameplay; Challenge; l.151, l.171]:
    3 cubes in the solo game, 2 with the ``hand2`` challenge; a single colour held is
    returned without asking."""
    g = game(1)
    s = scenario(g, hands=[hand(r=2, w=3)])
    act(g, s, A.DONE)
    act(g, s, colour(W), colour(W))
    assert s.hand[0] == hand(r=2, w=1) and s.round == 2
    g = game(1, solo_challenge="hand2")
    s = scenario(g, hands=[hand(g=5)])
    act(g, s, A.DONE)
    assert s.hand[0] == hand(g=2) and kind(g, s) == "move" and s.round == 2
