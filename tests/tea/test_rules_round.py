"""Rule tests of the Formosa Tea Preparation phase (TEA-11), the 11 historical events
(TEA-12) and the end of the game with final scoring (TEA-14).

Each docstring cites the rule of ``seeds/tea.md`` and the rulebook section it checks.
3 players unless noted. Every position holds the 5 events of a 3-player game: the event
under test is the round's own (``events_around``: the other events resolved earlier or
come later, none of them with a game-end part), or 1889 (no immediate effect) in rounds
that test the Preparation phase itself.
"""

from __future__ import annotations

import pytest

from formosa_envs.core.engine import CHANCE
from formosa_envs.games.tea import actions as A
from formosa_envs.games.tea.scenario import (
    act,
    answer,
    events_around,
    factory,
    kind,
    nine,
    scenario,
    tiles_for,
)
from tests.tea.common import (
    ARAI,
    BLACK,
    GREEN,
    LAST,
    OOLONG,
    OXIDATION_DISC,
    S1_1G,
    S1_2B,
    S1_2G,
    S1_2O,
    S1_BG,
    S1_OB,
    S1_OG,
    SCENTED,
    game,
    seat_list,
    space,
)

G = game(3)
NONE4 = [-1, -1, -1, -1]
FACES = [(0, 1), (1, 2), (2, 0), (1, 1)]        # weather tiles W0-W3 (frozen test data)
QUIET = events_around(G, "e1889")             # this round's event has no immediate effect


def to_turn(s, outcome: int | None = None) -> list[tuple[int, ...]]:
    """Resolve chance events (``outcome`` when legal, else the first) up to a player
    decision; returns the contexts of the ``draw_cube`` frames met."""
    met = []
    while not G.is_terminal(s) and G.current_player(s) == CHANCE:
        if kind(G, s) == "draw_cube":
            met.append(G.top(s).ctx)
        legal = G.legal_actions(s)
        act(G, s, outcome if outcome in legal else legal[0])
    return met


def event_round(key: str, **kw):
    """The Preparation phase of the round whose event is ``key`` (another event follows)."""
    s = scenario(G, phase="preparation", **events_around(G, key), **kw)
    assert G.events[s.events[s.round - 1]].key == key and s.round < len(s.events)
    return s


def own(value, empty, seat: int = 0):
    return seat_list(3, empty, **{f"p{seat}": value})


# ----- TEA-11 Preparation -------------------------------------------------------------------

def test_preparation_track_advance_executes_only_the_last_space() -> None:
    """TEA-11.1, R-28 [Preparation 1]: every Master moves N = workers on its row and only
    the space it stops on acts; rows without workers stay; no Arai extra space."""
    occupant = {space(1, 1): 1, space(1, 2): 2, space(2, 1): 0, space(2, 2): 1,
                space(2, 3): 2, space(3, 1): 0}
    s = scenario(G, phase="preparation", **QUIET, occupant=occupant, character=[-1, -1, ARAI],
                 masters_on=[[-1, 0, 1, -1], [3, -1, -1, -1], [-1, 2, -1, 3]],
                 factories=[factory(black=(0, 1, 1, 0)), factory(), factory(black=(0, 0, 2, 0))])
    assert s.master_pos == [[-1, 2, LAST[GREEN], -1], [3, -1, -1, -1],
                            [-1, 4, -1, LAST[SCENTED]]]
    assert s.factory[0][4:8] == [0, 1, 0, 1]      # space 3 oxidation only, not rolling
    assert s.factory[2][4:8] == [0, 0, 1, 1]      # space 5 oxidation
    to_turn(s)
    assert s.round == QUIET["round_no"] + 1
    assert s.occupant == [-1] * 16 and s.farmers == [2, 2, 2]
    assert s.masters == [0, 1, 0] and s.placed == [[0, 0]] * 3


def test_workers_return_weather_slides_start_player_passes() -> None:
    """TEA-11.4, TEA-11.5, TEA-11.7 [Preparation 3, 4, 6]: workers come home (Masters on
    tracks stay); tiles slide left and the leftmost is flipped onto the right; the start
    player marker moves one seat clockwise."""
    levels = [1, 0, 2, 1]
    order, face = tiles_for(G, levels)
    flipped = FACES[order[0]][1 - face[order[0]]]
    s = scenario(G, phase="preparation", start_player=2, weather=levels, market=[[1], [], [0]],
                 occupant={space(0, 1): 0}, placed=[[2, 0], [1, 0], [0, 0]],
                 masters_on=own([-1, 1, -1, -1], lambda: list(NONE4)), **QUIET)
    to_turn(s)
    assert [G.water_level(s, c) for c in range(4)] == [0, 2, 1, flipped]
    assert s.weather == [*order[1:], order[0]]
    assert s.market == [[], [], []] and s.farmers == [2, 2, 2] and s.masters == [1, 2, 2]
    assert s.master_pos[0][BLACK] == 1
    assert s.start_player == 0 and kind(G, s) == "turn" and G.current_player(s) == 0


def test_growth_from_the_rightmost_column_up_to_three() -> None:
    """TEA-11.6 [Preparation 5]: columns from the right, top to bottom; 1/1/2 cubes for a
    new WL of 0/1/2, never above 3; an empty bag stops the growth."""
    levels = [1, 0, 2, 1]                        # after the slide: 0 | 2 | 1 | flipped
    order, face = tiles_for(G, levels)
    flipped = FACES[order[0]][1 - face[order[0]]]
    col3 = 2 if flipped == 2 else 1
    cubes = {space(0, 1): [1, 0, 0], space(1, 1): [2, 0, 0], space(2, 1): [0, 0, 0],
             space(3, 1): [3, 0, 0]}
    s = scenario(G, phase="preparation", weather=levels, empty_plantation=True, cubes=cubes,
                 **QUIET)
    met = to_turn(s, OOLONG)
    expected = ([space(r, 3) for r in range(4) for _ in range(col3)]
                + [space(r, 2) for r in range(4)]
                + [space(0, 1), space(0, 1), space(1, 1), space(2, 1), space(2, 1)])
    assert [ctx[1] for ctx in met] == expected
    assert [sum(s.cubes[space(r, 1)]) for r in range(4)] == [3, 3, 2, 3]
    assert all(sum(s.cubes[space(r, 2)]) == 1 for r in range(4))
    assert s.cubes[space(0, 0)] == [0, 0, 0]      # column 1 is not in play
    stock = nine(oolong=(29, 0, 0), black=(28, 0, 0), green=(19, 0, 0))
    s = scenario(G, phase="preparation", weather=levels, empty_plantation=True, cubes=cubes,
                 **QUIET, warehouse=own(stock, nine, seat=2))
    assert s.bag == [0, 0, 2]
    met = to_turn(s)
    assert [ctx[1] for ctx in met] == expected[:2] and s.bag == [0, 0, 0]
    assert sum(map(sum, s.cubes)) == 6 + 2


# ----- TEA-12 events -------------------------------------------------------------------------

@pytest.mark.parametrize(("key", "vp"), [("e1865", 0), ("e1867", 2), ("e1869", 6)])
def test_discard_events_in_turn_order(key: str, vp: int) -> None:
    """TEA-12.1, TEA-12.2, TEA-12.4, TEA-11.2, R-26 [Events; Preparation 2]: from the start
    player clockwise, each player may discard an oolong Warehouse cube for the VP and an
    oolong tech advance; no oolong, no question."""
    stock = seat_list(3, nine, p0=nine(oolong=(1, 0, 1)), p1=nine(oolong=(0, 1, 0)))
    s = event_round(key, start_player=1, warehouse=stock)
    bag = s.bag[OOLONG]
    answer(G, s, "event_discard", A.CUBE0 + 1, player=1)
    answer(G, s, "event_discard", A.DONE, player=0)        # player 2 has no oolong
    assert s.vp == [0, vp, 0] and s.tech == [[0, 0, 0], [1, 0, 0], [0, 0, 0]]
    assert s.tech_discs[1][OXIDATION_DISC] == 1 and s.bag[OOLONG] == bag + 1
    assert s.warehouse[0] == nine(oolong=(1, 0, 1)) and s.warehouse[1] == nine()


def test_1868_oolong_master_or_oolong_tech() -> None:
    """TEA-12.3 [Events 1868]: the oolong Master 1 space (its effect executed) or the
    oolong tech 1 space; automatic when only the tech is possible."""
    s = event_round("e1868", masters_on=[[0, -1, -1, -1], NONE4, [LAST[OOLONG], -1, -1, -1]],
                    factories=own(factory(oolong=(0, 0, 1, 0)), factory))
    assert G.legal_actions(s) == [A.TRACK0 + OOLONG, A.TECH0 + OOLONG]
    act(G, s, A.TRACK0 + OOLONG)                  # oolong space 2: oxidation
    assert s.master_pos[0][OOLONG] == 1 and s.factory[0][0:4] == [0, 0, 0, 1]
    assert s.tech == [[0, 0, 0], [1, 0, 0], [1, 0, 0]]


def test_1874_scented_master_effect_twice() -> None:
    """TEA-12.5 [Events 1874]: the scented Master moves 1 space and Scenting is executed
    twice (two buds); a Master reaching the last space gets nothing."""
    s = event_round("e1874", masters_on=[[-1, -1, -1, 0], [-1, -1, -1, 3], NONE4],
                    scent=[[OOLONG, 2, 0, 0, 0], [BLACK, 1, 0, 0, 0], [-1, 0, 0, 0, 0]],
                    buds=[[1, 1, 0], [2, 0, 0], [0, 0, 0]])
    answer(G, s, "scent_bud", A.TYPE0 + OOLONG, player=0)  # the second bud is forced
    assert s.scent[0] == [OOLONG, 2, 1, 1, 0] and s.buds[0] == [0, 0, 0]
    assert s.master_pos[0][SCENTED] == 1 and s.master_pos[1][SCENTED] == LAST[SCENTED]
    assert s.scent[1] == [BLACK, 1, 0, 0, 0] and s.buds[1] == [2, 0, 0]


def test_1903_and_1916_immediate_advances() -> None:
    """TEA-12.7, TEA-12.8 [Events 1903, 1916]: 1903 advances the lowest tech track (a
    choice among tied lowest, automatic otherwise); 1916 any track."""
    s = event_round("e1903", tech=[[2, 1, 1], [0, 3, 5], [1, 1, 1]])
    assert sorted(G.legal_actions(s)) == [A.TECH0 + BLACK, A.TECH0 + GREEN]
    act(G, s, A.TECH0 + GREEN)
    assert s.tech[0] == [2, 1, 2] and s.tech[1] == [1, 3, 5]
    answer(G, s, "tech_any", A.TECH0 + BLACK, player=2)
    s = event_round("e1916", tech=[[2, 1, 1], [0, 3, 5], [1, 1, 1]])
    assert sorted(G.legal_actions(s)) == [A.TECH0, A.TECH0 + BLACK, A.TECH0 + GREEN]
    act(G, s, A.TECH0 + GREEN)
    assert s.tech[0] == [2, 1, 2]


@pytest.mark.parametrize(("key", "kept", "vp"), [
    # event VP (black demands 2 / 2 / 0) + 1889 (kept 2 / 2 / 1: 10, 10, 5)
    ("e1936", [[S1_2B, S1_OB], [S1_BG, 6], [S1_1G]], [5 + 10, 5 + 10, 0 + 5]),
    # no black demand: nobody scores 1936; 1889 (1 / 1 / 0: 10, 10, 0)
    ("e1936", [[S1_2O], [S1_1G], []], [10, 10, 0]),
    # green demands 2 / 1 / 1; 1889 (2 / 1 / 1: 10, 5, 5)
    ("e1964", [[S1_BG, S1_1G], [S1_OG], [S1_2G]], [5 + 10, 5, 5]),
])
def test_1936_1964_score_at_the_end_of_their_round(key: str, kept: list, vp: list) -> None:
    """TEA-12.10, TEA-12.11, TEA-12.6, R-23, R-26 [Events 1936, 1964, 1889]: the player(s)
    with the most kept cards demanding black / green score 5 VP when the event resolves
    (here the last round, with 1889's game-end majority on top; the other 3 events have
    no game-end part)."""
    s = scenario(G, phase="preparation", **events_around(G, key, last=True, also=["e1889"]),
                 kept=kept)
    assert G.events[s.events[-1]].key == key and s.round == len(s.events) == 5
    assert G.is_terminal(s) and s.vp == vp


# ----- TEA-14 end of the game ------------------------------------------------------------------

def test_final_scoring_after_the_last_event() -> None:
    """TEA-14.1-14.5, TEA-10.3, TEA-11.3, R-24, R-26, R-27 [Game End; Scoring; Events]:
    the game ends once the last event is resolved (no return, no growth); the VP track
    plus Domestic VP, icon VP at the highest level reached, and the events' game-end
    parts, ties sharing the full award."""
    kept = [[S1_2O, S1_OB, S1_1G], [S1_2B, S1_BG], []]
    s = scenario(G, phase="preparation", round_no=5, vp=[20, 0, 0], kept=kept,
                 events=["e1889", "e1903", "e1916", "e1925", "e1964"],
                 tech=[[5, 0, 2], [8, 8, 0], [1, 1, 1]], domestic=[9, 0, 15],
                 occupant={space(0, 1): 0})
    assert G.is_terminal(s)
    # p0: 1964 5 + icons 2*2 + 1*1 + Domestic 12 + 1889 10 + 1903 3 + 1916 3 + 1925 0
    # p1: 1964 5 + icons 4*2 + 1889 5 + 1903 8 + 1916 6 + 1925 6
    # p2: Domestic 26 + 1903 1 + 1925 3
    assert s.vp == [20 + 5 + 5 + 12 + 10 + 3 + 3, 5 + 8 + 5 + 8 + 6 + 6, 26 + 1 + 3]
    assert s.occupant[space(0, 1)] == 0 and s.round == 5
    assert G.returns(s) == [1.0, 0.0, -1.0]
