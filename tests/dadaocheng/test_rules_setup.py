"""Rule tests of Dadaocheng setup (DDC-2), rounds and turns (DDC-3) and the end of the
game (DDC-12.2, DDC-12.3).

Each docstring cites the rule of ``seeds/dadaocheng.md`` and the rulebook section it checks.
"""

from __future__ import annotations

import pytest

from formosa_envs.core.engine import CHANCE
from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.grid import (
    CORNERS,
    candidates,
    groups_at_most_two,
    showing,
)
from formosa_envs.games.dadaocheng.scenario import act, event_id, kind, new_game, scenario
from tests.dadaocheng.common import game, hand

OPIUM_DISCS = {0, 1, 2, 3}          # D01-D04: black on the sun side


def colours_of(g, s) -> list[int]:
    return showing([g.discs[d].faces for d in s.cell_disc], s.bits())


@pytest.mark.parametrize(("n", "options", "sides", "covered"), [
    (1, {}, [0], [0, 1, 1, 1]),
    (2, {}, [0, 2], [0, 1, 0, 1]),
    (2, {"two_player_sides": "adjacent"}, [0, 1], [0, 0, 1, 1]),
    (3, {}, [0, 1, 2], [0, 0, 0, 1]),
    (4, {}, [0, 1, 2, 3], [0, 0, 0, 0]),
])
def test_seats_own_sides_clockwise_from_south(n, options, sides, covered) -> None:
    """DDC-2.1, R-8 [Setup 6; l.59]: seats own S, W, N, E in order (2 players S and N, or
    S and W); unused regions are covered."""
    s = new_game(game(n, **options))
    assert s.sides_of == sides and s.covered == covered


@pytest.mark.parametrize(("n", "piles"), [
    (1, [12, 2, 2, 2, 1]), (2, [12, 3, 3, 3, 1]), (3, [16, 4, 4, 4, 1]), (4, [24, 6, 6, 6, 2]),
])
def test_building_piles_per_player_count(n, piles) -> None:
    """DDC-2.5, DDC-14.3, R-17 [Setup 4; l.57; Single Player; l.140]: Stores, Markets,
    Workshops 6/4/3 (solo 2), Dens 2/1/1 (solo 1), Mansions 24/16/12 (solo 12)."""
    assert new_game(game(n)).piles == piles


def test_setup_chance_order_and_uniform_draws() -> None:
    """DDC-2.3, DDC-2.4, DDC-2.9 [Setup 2-3; Gameplay; l.55-56, l.65]: corners take the 4
    opium discs first (1/4 each), then the start player (uniform over 4 seats), then one
    face-up card per ship level (uniform over its 12 cards)."""
    g = game(4)
    s = g.new_initial_state()
    for cell in CORNERS:
        assert kind(g, s) == "place_disc" and s.stack[-1].ctx == (cell,)
        outcomes = g.chance_outcomes(s)
        assert {d for d, _ in outcomes} == OPIUM_DISCS - set(s.cell_disc)
        assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)
        act(g, s, outcomes[0][0])
    while kind(g, s) == "place_disc":
        act(g, s, g.chance_outcomes(s)[0][0])
    assert kind(g, s) == "start_player"
    assert g.chance_outcomes(s) == [(p, 0.25) for p in range(4)]
    act(g, s, 2)
    for level in range(3):
        assert kind(g, s) == "ship_reveal"
        outcomes = g.chance_outcomes(s)
        assert [c for c, _ in outcomes] == [c.id for c in g.ships if c.level == level + 1]
        assert all(p == pytest.approx(1 / 12) for _, p in outcomes)
        act(g, s, outcomes[3][0])
    assert s.ship_up == [3, 15, 27] and s.revealed == [1, 1, 1]
    assert [len(pool) for pool in s.ship_pool] == [11, 11, 11]
    assert s.start_player == 2 and s.turn == 2 and kind(g, s) == "move"
    assert g.current_player(s) == 2


@pytest.mark.parametrize("n", [2, 3, 4])
def test_start_layout_multiplayer(n) -> None:
    """DDC-2.2, R-5 [Setup 2; l.55]: all sun sides up, opium discs in the corners, no row or
    column with 3 consecutive cells of one colour (so no candidate line)."""
    g = game(n)
    for seed in range(12):
        s = new_game(g, seed)
        assert s.flipped == [0] * 16
        assert {s.cell_disc[c] for c in CORNERS} == OPIUM_DISCS
        assert candidates(colours_of(g, s)) == []


def test_start_layout_solo_groups_of_at_most_two() -> None:
    """DDC-2.2, DDC-14.5, R-6 [Single Player > Resource disc setup; l.145]: no orthogonally
    connected group of 3+ cells of one colour (stricter than no 3 in a line)."""
    g = game(1)
    for seed in range(12):
        s = new_game(g, seed)
        assert {s.cell_disc[c] for c in CORNERS} == OPIUM_DISCS and s.flipped == [0] * 16
        assert groups_at_most_two(colours_of(g, s))


@pytest.mark.parametrize("n", [1, 2, 4])
def test_empty_start(n) -> None:
    """DDC-2.7, DDC-2.8, R-31 [Setup 7; silent]: round 1, empty hands and storehouses, no
    cards, credit 0, opium 0, no sign cube."""
    s = new_game(game(n), 3)
    assert s.round == 1
    assert s.hand == [hand()] * n and s.ships == [[]] * n and s.buildings == [[0] * 5] * n
    assert s.credit == s.opium == s.sign == [0] * n
    assert s.storehouse == [[0] * 5] * 16 and s.remodelled == [0] * 16


def test_1851_is_round_1_and_solo_has_no_events() -> None:
    """DDC-2.6, DDC-14.4 [Setup 5; l.58; Single Player; l.141]: 1851 is round 1's event,
    the other 13 form the deck; the solo game uses no event."""
    g = game(3)
    s = new_game(g)
    assert s.events == [event_id(g, "e1851")] and len(s.event_pool) == 13
    s = new_game(game(1))
    assert s.events == [] and s.event_pool == [] and s.start_player == 0


def test_shuffled_events_are_drawn_uniformly_at_round_start() -> None:
    """DDC-2.6, DDC-11.1, DDC-12.2 [Setup 5; End of the Round; l.58, l.117]: after the last
    turn of round 1 the round advances and an event is drawn from the 13 left (1/13 each)."""
    g = game(2)
    s = scenario(g, turn=1, start_player=0, hands=[[], hand(r=2)])
    act(g, s, A.DONE)
    assert kind(g, s) == "event_draw" and g.current_player(s) == CHANCE
    outcomes = g.chance_outcomes(s)
    assert sorted(e for e, _ in outcomes) == list(range(1, 14))
    assert all(p == pytest.approx(1 / 13) for _, p in outcomes)
    act(g, s, event_id(g, "e1908"))
    assert s.round == 2 and s.events == [0, event_id(g, "e1908")] and s.turn == 0


def test_chronological_events_take_the_earliest_card() -> None:
    """DDC-2.6 [Setup 5; l.58]: with ``chronological_events`` the next card is the earliest
    year left, without a chance event."""
    g = game(2, chronological_events=True)
    s = scenario(g, turn=1, round_no=2, event="e1884", hands=[[], hand(r=2)])
    assert s.events == [event_id(g, "e1851"), event_id(g, "e1884")]
    act(g, s, A.DONE)
    assert s.round == 3 and s.events[-1] == event_id(g, "e1853") and kind(g, s) == "move"


def test_turn_order_and_the_start_player_keeps_starting() -> None:
    """DDC-3.2, DDC-2.9, R-26 [Gameplay; End of the Round; l.65, l.117]: turns go clockwise
    (increasing seats, wrapping) from the start player, who starts every round."""
    g = game(3, chronological_events=True)
    s = scenario(g, turn=1, start_player=1, hands=[hand(r=1, w=1, g=1)] * 3)
    for expected in (2, 0, 1):
        act(g, s, A.DONE)
        assert kind(g, s) == "move" and g.current_player(s) == expected
        act(g, s, A.FLIP0, A.FLIP0)           # planning: cell 0 flipped and back, no line
    assert s.round == 2 and s.start_player == 1 and s.turn == 1
    assert kind(g, s) == "lose"                 # round 2 is 1853 (chronological)


@pytest.mark.parametrize(("n", "last"), [(1, 10), (2, 10), (3, 8), (4, 8)])
def test_number_of_rounds(n, last) -> None:
    """DDC-3.1, DDC-12.3, DDC-14.1 [Gameplay; l.65; Single Player; l.150]: the game ends
    after the last turn of round 8 (3-4 players) or 10 (1-2 players)."""
    g = game(n, chronological_events=True)
    hands = [hand(r=2)] * n
    s = scenario(g, turn=n - 1, round_no=last - 1, hands=hands,
                 event=None if n == 1 else "e1891")
    act(g, s, A.DONE)
    assert s.round == last and not g.is_terminal(s)
    s = scenario(g, turn=n - 1, round_no=last, hands=hands,
                 event=None if n == 1 else "e1891")
    act(g, s, A.DONE)
    assert g.is_terminal(s) and kind(g, s) == "terminal"
