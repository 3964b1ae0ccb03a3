"""Rule tests of Formosa Tea setup (TEA-1, TEA-2, TEA-3 setup parts) and the scenario builder.

Each docstring cites the rule of ``seeds/tea.md`` and the rulebook section it checks.
Chance events are resolved with a seeded generator except where a test chooses them.
"""

from __future__ import annotations

import numpy as np
import pytest

from formosa_envs.core.engine import CHANCE
from formosa_envs.games.tea import actions as A
from formosa_envs.games.tea.scenario import (
    QUIET_FILLERS,
    act,
    answer,
    events_around,
    kind,
    new_game,
    nine,
    scenario,
)
from tests.tea.common import (
    ARAI,
    BLACK,
    DODD,
    FIXATION_DISC,
    GREEN,
    HSU,
    OOLONG,
    OXIDATION_DISC,
    ROLLING_DISC,
    WANG,
    game,
    space,
)


def drive(g, s, rng, choose: dict[str, list[int]] | None = None, until: str = "turn") -> list:
    """Resolve chance events (seeded, or the outcomes listed per kind) until ``until``;
    returns the ``(kind, ctx)`` of every chance frame met."""
    met, choose = [], {k: list(v) for k, v in (choose or {}).items()}
    while kind(g, s) != until:
        assert g.current_player(s) == CHANCE, kind(g, s)
        d = g.top(s)
        met.append((d.kind, d.ctx))
        picks = choose.get(d.kind)
        g.apply_action(s, picks.pop(0) if picks else g.sample_chance(s, rng))
    return met


# ----- the scenario builder --------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_events_around_builds_a_whole_event_list(n: int) -> None:
    """TEA-2 [Setup]: 6/5/4 distinct events in play, the named one resolved in its round,
    last or followed by another; fillers have no game-end part (TEA-12)."""
    g = game(n)
    for key, last in (("e1865", False), ("e1889", False), ("e1889", True), ("e1936", True)):
        kw = events_around(g, key, last=last, also=["e1925"] if key == "e1936" else ())
        s = scenario(g, **kw)                    # the round's Worker Action phase
        assert len(s.events) == len(set(s.events)) == {2: 6, 3: 5, 4: 4}[n]
        assert g.events[s.events[s.round - 1]].key == key
        assert (s.round == len(s.events)) == last
        assert {g.events[e].key for e in s.events} <= {key, "e1925", *QUIET_FILLERS}
    with pytest.raises(ValueError, match="followed by another"):
        events_around(g, "e1964")
    with pytest.raises(ValueError, match="last"):
        events_around(g, "e1865", last=True)
    with pytest.raises(ValueError, match="distinct keys"):
        events_around(g, "e1865", also=["e1865"])


def test_scenario_is_consistent() -> None:
    """Scenario builder: the bag, buds, supplies, deck and discs follow what is given."""
    g = game(3)
    s = scenario(g, turn=1, weather=[1, 2, 0, 1], cubes={space(1, 1): [2, 1, 0]},
                 occupant={space(0, 1): 0, space(0, 2): 0, space(2, 2): 0},
                 basket=[nine(oolong=(0, 2, 0)), nine(), nine()],
                 masters_on=[[-1] * 4, [-1, 2, -1, -1], [-1] * 4],
                 tech_discs=[[0, 0, 2, 0], [0] * 4, [0] * 4], kept=[[], [3], []],
                 display=[[0, 1, 2], [4, 5, 6], [7, 8, 9], [10, 11, -1]])
    assert [g.water_level(s, c) for c in range(4)] == [1, 2, 0, 1]
    assert s.farmers == [0, 2, 2] and s.masters == [1, 1, 2]      # 3 placed; 1 on a track
    on_table = sum(sum(c) for c in s.cubes)
    assert sum(s.bag) == 84 - on_table - 2
    assert s.tech_supply == [4, 4, 2, 4] and s.action_supply == [8, 4]
    assert s.deck_pools[0] == [] and 3 not in s.deck_pools[0] and len(s.deck_pools[1]) == 8
    assert kind(g, s) == "turn" and g.current_player(s) == 1
    with pytest.raises(ValueError):
        scenario(g, masters_on=[[0, 0, 0, -1], [-1] * 4, [-1] * 4])   # 3 Masters, 2 exist


# ----- TEA-2 setup -------------------------------------------------------------------------

@pytest.mark.parametrize(("n", "spaces", "buds"), [(2, 12, (5, 4, 3)), (3, 12, (5, 4, 3)),
                                                    (4, 16, (6, 5, 5))])
def test_setup_columns_buds_and_cubes(n: int, spaces: int, buds: tuple) -> None:
    """TEA-2.1-2.3, TEA-1.2, TEA-1.3 [Setup 1-2]: 4 columns with 4 players, columns 2-4
    otherwise; one bud per space in play (6/5/5 or 5/4/3) and 3 cubes on each."""
    g = game(n)
    s = g.new_initial_state()
    assert kind(g, s) == "place_bud"
    total = sum(buds)
    assert g.chance_outcomes(s) == [(c, pytest.approx(k / total)) for c, k in enumerate(buds)]
    g.apply_action(s, 0)
    assert kind(g, s) == "draw_cube"
    assert g.chance_outcomes(s) == [(0, pytest.approx(35 / 84)), (1, pytest.approx(28 / 84)),
                                    (2, pytest.approx(21 / 84))]
    drive(g, s, np.random.default_rng(n))
    in_play = [sp for sp in range(16) if sum(s.cubes[sp])]
    assert len(in_play) == spaces and all(sum(s.cubes[sp]) == 3 for sp in in_play)
    assert all(sp % 4 != 0 for sp in in_play) or n == 4
    assert [s.bud.count(c) for c in range(3)] == list(buds) and s.bud.count(-1) == 16 - spaces
    assert sum(s.bag) == 84 - 3 * spaces - 2 * n
    g.check_invariants(s)


def test_setup_weather_tiles_random_order_and_face() -> None:
    """TEA-2.4, R-5 [Setup 3]: 4 tiles on the 4 weather spaces, any order, either face."""
    g = game(2)
    s = g.new_initial_state()
    met = drive(g, s, np.random.default_rng(1), until="weather")
    assert all(k != "weather" for k, _ in met)
    assert g.chance_outcomes(s) == [(o, pytest.approx(1 / 8)) for o in range(8)]
    g.apply_action(s, 2 * 2 + 1)                  # tile W2, face B (WL 0)
    assert g.chance_outcomes(s) == [(o, pytest.approx(1 / 6)) for o in (0, 1, 2, 3, 6, 7)]
    drive(g, s, np.random.default_rng(1))
    assert s.weather[0] == 2 and g.water_level(s, 0) == 0 and sorted(s.weather) == [0, 1, 2, 3]


def test_setup_display_from_stage_one_column_by_column() -> None:
    """TEA-2.6, TEA-2.7, R-22 [Setup 7-8]: 12 stage-1 cards; the first 4 drawn fill the
    rightmost column top to bottom, then the middle column, then the left one."""
    g = game(2)
    s = g.new_initial_state()
    met = drive(g, s, np.random.default_rng(2))
    slots = [ctx for k, ctx in met if k == "merchant_draw"]
    assert slots == [(r, c) for c in (2, 1, 0) for r in range(4)]
    assert sorted(c for row in s.display for c in row) == list(range(12))
    assert s.deck_pools[0] == [] and len(s.deck_pools[1]) == 8 and len(s.deck_pools[2]) == 8
    s = g.new_initial_state()
    drive(g, s, np.random.default_rng(2), until="merchant_draw")
    assert g.chance_outcomes(s) == [(c, pytest.approx(1 / 12)) for c in range(12)]


@pytest.mark.parametrize(("n", "count"), [(2, 6), (3, 5), (4, 4)])
def test_setup_events_by_player_count_sorted_by_year(n: int, count: int) -> None:
    """TEA-2.8, TEA-2.13 [Setup 9; Round Overview]: 6/5/4 events drawn uniformly, laid out
    by year; the others leave the game."""
    g = game(n)
    s = g.new_initial_state()
    drive(g, s, np.random.default_rng(3), until="event_draw")
    assert g.chance_outcomes(s) == [(e, pytest.approx(1 / 11)) for e in range(11)]
    drive(g, s, np.random.default_rng(3), choose={"event_draw": [10, 0, 5, 3, 8, 1][:count]})
    expected = sorted([10, 0, 5, 3, 8, 1][:count])
    assert s.events == expected
    years = [g.events[e].year for e in s.events]
    assert years == sorted(years) and len(s.events) == count
    assert sorted(s.event_pool) == [e for e in range(11) if e not in expected]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_workers_markers_discs_and_starting_cubes(n: int) -> None:
    """TEA-2.5, TEA-2.9, TEA-2.10, TEA-2.11, TEA-2.12 [Setup 4-5, 10-12]: 2 Farmers and 2
    Masters in the supply (2 players: a third Master parked); markers on 0; full disc
    supply; a uniform start player who acts first; 2 bag cubes per Basket at WL 1."""
    g = game(n)
    s = g.new_initial_state()
    met = drive(g, s, np.random.default_rng(4), until="start_player")
    assert g.chance_outcomes(s) == [(p, pytest.approx(1 / n)) for p in range(n)]
    met += drive(g, s, np.random.default_rng(4), choose={"start_player": [n - 1]})
    assert [ctx for k, ctx in met if k == "draw_cube" and ctx[0] == 1] == [
        (1, p) for p in range(n) for _ in range(2)]
    assert s.farmers == [2] * n and s.masters == [2] * n
    assert s.parked == [1 if n == 2 else 0] * n
    for p in range(n):
        assert sum(s.basket[p]) == 2 and sum(s.basket[p][3 * t + 1] for t in range(3)) == 2
    assert s.vp == [0] * n and s.tech == [[0, 0, 0]] * n and s.domestic == [0] * n
    assert s.action_supply == [8, 4] and s.tech_supply == [4, 4, 4, 4]
    assert s.character == [-1] * n
    assert kind(g, s) == "turn" and g.current_player(s) == n - 1 and s.round == 1


def test_two_player_parked_master_returns_in_round_three() -> None:
    """TEA-2.10, TEA-11.7, R-38 [Setup 10]: the parked Master is out in rounds 1-2 and
    joins the supply at the start of round 3."""
    g = game(2)
    # the 6 events of a 2-player game; 1865 and 1867 (rounds 1, 2) ask nothing without
    # oolong in a Warehouse
    events = ["e1865", "e1867", "e1868", "e1869", "e1874", "e1936"]
    s = scenario(g, phase="preparation", round_no=1, events=events)
    drive(g, s, np.random.default_rng(5))
    assert s.round == 2 and s.masters == [2, 2] and s.parked == [1, 1]
    s = scenario(g, phase="preparation", round_no=2, events=events)
    drive(g, s, np.random.default_rng(5))
    assert s.round == 3 and s.masters == [3, 3] and s.parked == [0, 0]
    g.check_invariants(s)


# ----- TEA-3 advanced setup --------------------------------------------------------------

def test_advanced_starting_harvest_two_different_spaces() -> None:
    """TEA-3.1, R-31 [Setup 13]: in turn order from the start player each player takes 1
    cube from each of 2 different spaces (mandatory), at the column's WL; an emptied
    space gives its bud; no worker, no advance."""
    g = game(3, advanced=True)
    s = g.new_initial_state()
    drive(g, s, np.random.default_rng(6), choose={"start_player": [1]}, until="setup_space")
    a, b = space(0, 3), space(2, 1)
    for sp in (a, b):                          # make them: 1 green + bud / 1 oolong + 1 black
        for c in range(3):
            s.bag[c] += s.cubes[sp][c]
    s.cubes[a], s.cubes[b] = [0, 0, 1], [1, 1, 0]
    s.bag = [s.bag[0] - 1, s.bag[1] - 1, s.bag[2] - 1]
    colour = s.bud[a]
    g.check_invariants(s)
    wl = [g.water_level(s, c) for c in range(4)]
    before = [row[:] for row in s.basket]
    assert g.current_player(s) == 1 and A.DONE not in g.legal_actions(s)
    act(g, s, A.SPACE0 + a)                    # one colour: taken at once
    assert s.cubes[a] == [0, 0, 0] and s.bud[a] == -1
    assert s.buds[1] == [int(c == colour) for c in range(3)]
    assert kind(g, s) == "setup_space" and A.SPACE0 + a not in g.legal_actions(s)
    act(g, s, A.SPACE0 + b)
    answer(g, s, "setup_colour", A.TYPE0 + BLACK, player=1)
    assert s.cubes[b] == [1, 0, 0]
    assert s.basket[1][3 * GREEN + wl[3]] == before[1][3 * GREEN + wl[3]] + 1
    assert s.basket[1][3 * BLACK + wl[1]] == before[1][3 * BLACK + wl[1]] + 1
    assert sum(s.basket[1]) == 4
    assert kind(g, s) == "setup_space" and g.current_player(s) == 2
    assert s.occupant == [-1] * 16 and s.master_pos[1] == [-1] * 4


def test_advanced_draft_from_the_last_player_with_starting_advances() -> None:
    """TEA-3.2, TEA-3.3, R-30 [Setup 14; Characters]: players + 1 characters; the player
    before the start player picks first, counter-clockwise; the last card is discarded;
    a "+1 tech" character gets the space-1 reward (a tech disc)."""
    g = game(3, advanced=True)
    s = g.new_initial_state()
    drive(g, s, np.random.default_rng(7), choose={"start_player": [1]}, until="setup_space")
    while kind(g, s) in ("setup_space", "setup_colour"):
        act(g, s, g.legal_actions(s)[0])
    assert kind(g, s) == "character_draw"
    drive(g, s, np.random.default_rng(7), choose={"character_draw": [WANG, ARAI, HSU, DODD]},
          until="draft")
    assert sorted(s.draft_pool) == [WANG, DODD, ARAI, HSU]
    answer(g, s, "draft", A.CHARACTER0 + ARAI, player=0)        # seat before start player 1
    answer(g, s, "draft", A.CHARACTER0 + HSU, player=2)         # counter-clockwise
    assert g.legal_actions(s) == [A.CHARACTER0 + WANG, A.CHARACTER0 + DODD]
    answer(g, s, "draft", A.CHARACTER0 + WANG, player=1)        # the start player last
    assert s.character == [ARAI, WANG, HSU] and s.draft_pool == []
    assert s.tech == [[0, 1, 0], [1, 0, 0], [0, 0, 1]]
    assert s.tech_discs[0][ROLLING_DISC] == 1 and s.tech_discs[1][OXIDATION_DISC] == 1
    assert s.tech_discs[2][FIXATION_DISC] == 1 and s.tech_supply == [3, 3, 3, 4]
    assert kind(g, s) == "turn" and g.current_player(s) == 1
    assert s.tech[1][OOLONG] == 1


def test_merchant_deck_28_or_24_cards_by_stage() -> None:
    """TEA-1.7, TEA-2.6, R-3 [Components; Setup 7]: 28 cards split 12/8/8; the 24-card
    option drops S2-07, S2-08, S3-07 and S3-08 (12/6/6)."""
    assert [len(p) for p in game(2).stage_pools] == [12, 8, 8]
    g = game(2, cards=24)
    assert [len(p) for p in g.stage_pools] == [12, 6, 6]
    assert {18, 19, 26, 27}.isdisjoint(c for pool in g.stage_pools for c in pool)
    s = new_game(g, seed=9)
    assert sorted(c for row in s.display for c in row) == list(range(12))
    assert sorted(s.deck_pools[1] + s.deck_pools[2]) == [12, 13, 14, 15, 16, 17,
                                                         20, 21, 22, 23, 24, 25]
