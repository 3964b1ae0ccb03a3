"""Rule tests of the Taiwan Formosa engine, one per rule of ``seeds/taiwan.md``.

Each docstring cites the rule (T-x.y / R-n) and the rulebook section it checks.
Positions are built with ``scenario``; chance events (type draws, reveals, the
start player, dice) are resolved by choosing the outcome ourselves. Colours of
the rulebook examples are seats: red 0, green 1, blue 2.
"""

from __future__ import annotations

import numpy as np
import pytest

from formosa_envs.core.engine import CHANCE, TERMINAL
from formosa_envs.core.errors import IllegalActionError
from formosa_envs.games.taiwan import actions as A
from formosa_envs.games.taiwan import make_game
from formosa_envs.games.taiwan.cards import BUILDING_KEYS
from formosa_envs.games.taiwan.payment import (
    FACTORY0,
    HAND0,
    HAND_WORKER,
    MERCHANT_TILE,
    PURSE,
    TRIBAL_WORKER,
    WAREHOUSE0,
)
from formosa_envs.games.taiwan.scenario import (
    building_id,
    landmark_code,
    landmark_id,
    scenario,
)
from formosa_envs.games.taiwan.scoring import final_scoring
from formosa_envs.games.taiwan.state import LANDMARK0

G3 = make_game(num_players=3)
G2 = make_game(num_players=2)
B = {key: building_id(G3, key) for key in BUILDING_KEYS}
SANSIANTAI = landmark_id(G3, "Sansiantai")            # deck 0, 5 stone, time 4, east, 5 VP
SUN_MOON_LAKE = landmark_id(G3, "Sun Moon Lake")      # deck 0, time 4
WOOD, BRICK, STEEL, STONE = range(4)
NORTH, CENTRAL, SOUTH, EAST = range(4)
FACE_WORKER, FACE_MERCHANT = 4, 5
TAX, COURT, UDB, DEMOLITION = "tax_bureau", "judicial_court", "urban_development_bureau", \
    "demolition_company"
# A scenario puts exactly 12 types in play (T-2.1): a test buying a type names it.
TRAIN, ART = [B["train_station"]], [B["public_art_installation"]]
HOT, LOTTERY = [B["hot_spring_hotel"]], [B["lottery_office"]]


# ----- helpers ---------------------------------------------------------------------------

def res(wood: int = 0, brick: int = 0, steel: int = 0, stone: int = 0) -> list[int]:
    return [wood, brick, steel, stone]


def none3(value, **at):
    """Three seats' values: ``value`` everywhere except the seats named p0/p1/p2."""
    out = [value() if callable(value) else value for _ in range(3)]
    for name, v in at.items():
        out[int(name[1:])] = v
    return out


def kind(game, s) -> str:
    return "terminal" if game.is_terminal(s) else game.top(s).kind


def labels(game, s) -> list[str]:
    return [game.action_label(s, a) for a in game.legal_actions(s)]


def act(game, s, action: int) -> None:
    """Apply a legal action (failing with the legal labels otherwise) and check invariants."""
    legal = game.legal_actions(s)
    assert action in legal, (game.action_label(s, action), labels(game, s))
    game.apply_action(s, action)
    game.check_invariants(s)


def pay_all(game, s, *prefer: int) -> list[int]:
    """Answer pay decisions: the first legal source of ``prefer``, else the first legal one."""
    chosen = []
    while kind(game, s) == "pay":
        legal = [a - A.PAY0 for a in game.legal_actions(s)]
        source = next((p for p in prefer if p in legal), legal[0])
        chosen.append(source)
        act(game, s, A.PAY0 + source)
    return chosen


def buy(game, s, key: str, *prefer: int) -> list[int]:
    act(game, s, A.BUY_B0 + B[key])
    return pay_all(game, s, *prefer)


def to_round_end(game, s) -> None:
    """Play on until the round number changes or the game ends: 2 dice (worker faces),
    PASS, the first legal answer to anything else."""
    start = s.round
    while not game.is_terminal(s) and s.round == start:
        k = kind(game, s)
        if k == "roll":
            game.apply_action(s, FACE_WORKER)
        elif k == "declare":
            game.apply_action(s, A.DICE0)
        elif k == "act":
            game.apply_action(s, A.PASS)
        else:
            game.apply_action(s, game.legal_actions(s)[0])
        game.check_invariants(s)


def to_act(game, s, seat: int) -> None:
    """Play on (as ``to_round_end``) until ``seat``'s ``act`` decision."""
    while not (kind(game, s) == "act" and game.current_player(s) == seat):
        k = kind(game, s)
        if k == "roll":
            game.apply_action(s, FACE_WORKER)
        elif k == "declare":
            game.apply_action(s, A.DICE0)
        elif k == "act":
            game.apply_action(s, A.PASS)
        else:
            game.apply_action(s, game.legal_actions(s)[0])


def setup_to_start(game, types: list[int]) -> object:
    """A new game with ``types`` drawn and each deck's lowest card revealed."""
    s = game.new_initial_state()
    for t in types:
        assert kind(game, s) == "draw_type"
        game.apply_action(s, t)
    for _ in range(5):
        assert kind(game, s) == "reveal"
        game.apply_action(s, min(game.legal_actions(s)))
    return s


# ----- scenario ----------------------------------------------------------------------------

def test_scenario_is_consistent() -> None:
    """Scenario builder: piles, bought, decks and supplies follow the given cards/markers."""
    s = scenario(G3, turn=1, start_player=2,
                 track=[[[B["train_station"], 2], [landmark_code(G3, "Sansiantai"), 3]], [], []],
                 built=[[B["train_station"]], [B["sawmill"]], []],
                 regions=[[0, 1], [], [2], [0]])
    G3.check_invariants(s)
    assert s.piles[B["train_station"]] == 2 and s.bought[0][B["train_station"]] == 2
    assert s.piles[B["sawmill"]] == 3 and s.bought[1][B["sawmill"]] == 1
    assert SANSIANTAI not in s.decks[0] and s.face_up[0] != SANSIANTAI
    assert s.markers == [5, 6, 6]
    assert kind(G3, s) == "act" and G3.current_player(s) == 1
    act(G3, s, A.PASS)          # turn order from start player 2: 2, 0, 1 -> 1 was last
    assert kind(G3, s) == "declare" and s.round == 2
    with pytest.raises(ValueError):
        scenario(G3, regions=[[0], [], [], []], markers=[7, 7, 7])
    s = scenario(G3, in_game=list(range(12)), res=none3(res, p0=res(0, 2, 2, 0)),
                 workers=[1, 0, 0])
    assert s.piles == [4] * 12 + [0] * 6 and sum(s.in_game) == 12
    assert A.BUY_B0 + B["train_station"] not in G3.legal_actions(s)   # type 14: not drawn


# ----- T-2 setup -------------------------------------------------------------------------

def test_setup_draws_twelve_types_of_four_copies() -> None:
    """T-2.1, R-6 [Game Setup 1]: 12 of the 18 types, drawn uniformly, form piles of 4."""
    s = G3.new_initial_state()
    drawn = [0, 2, 4, 6, 8, 10, 12, 14, 16, 17, 1, 3]
    for i, t in enumerate(drawn):
        outcomes = G3.chance_outcomes(s)
        assert G3.current_player(s) == CHANCE and kind(G3, s) == "draw_type"
        assert len(outcomes) == 18 - i and all(p == pytest.approx(1 / (18 - i))
                                               for _, p in outcomes)
        G3.apply_action(s, t)
    assert sum(s.in_game) == 12 and kind(G3, s) == "reveal"
    assert [s.piles[t] for t in drawn] == [4] * 12
    assert all(s.piles[t] == 0 for t in range(18) if t not in drawn)


def test_setup_turns_up_one_landmark_per_deck() -> None:
    """T-2.2, R-2, R-28 [Game Setup 2]: 5 decks, one face-up card each, uniform reveals."""
    s = G3.new_initial_state()
    for t in range(12):
        G3.apply_action(s, t)
    for d in range(5):
        assert kind(G3, s) == "reveal" and G3.top(s).ctx == (d,)
        outcomes = G3.chance_outcomes(s)
        assert sorted(c for c, _ in outcomes) == G3.deck_cards[d]
        assert all(p == pytest.approx(1 / len(G3.deck_cards[d])) for _, p in outcomes)
        G3.apply_action(s, G3.deck_cards[d][-1])
    assert s.face_up == [cards[-1] for cards in G3.deck_cards]
    assert [len(d) for d in s.decks] == [len(c) - 1 for c in G3.deck_cards]
    assert sum(len(d) for d in s.decks) + 5 == 16


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_holdings_and_random_start_player(n: int) -> None:
    """T-2.3, T-2.4, R-24, R-37 [Game Setup 3-5]: 40 coins, 7 markers, no items; the start
    player is a uniform chance event and declares first."""
    game = make_game(num_players=n)
    s = setup_to_start(game, list(range(12)))
    assert kind(game, s) == "start"
    assert game.chance_outcomes(s) == [(p, pytest.approx(1 / n)) for p in range(n)]
    game.apply_action(s, n - 1)
    assert kind(game, s) == "declare" and game.current_player(s) == n - 1
    assert s.coins == [40] * n and s.markers == [7] * n and s.vp == [0] * n
    assert s.res == [[0] * 4] * n and s.workers == [0] * n and s.merchants == [0] * n
    game.check_invariants(s)


def test_two_player_neutral_marker_first_in_every_region() -> None:
    """T-2.5, R-11 [Two-Player Rules]: the neutral (owner 2) starts every region; 3p: none."""
    s = setup_to_start(G2, list(range(12)))
    G2.apply_action(s, 0)
    assert s.regions == [[2], [2], [2], [2]] and s.markers == [7, 7]
    s3 = setup_to_start(G3, list(range(12)))
    G3.apply_action(s3, 0)
    assert s3.regions == [[], [], [], []]


# ----- T-3 dice ---------------------------------------------------------------------------

def test_declare_two_to_seven_dice_paying_five_per_extra() -> None:
    """T-3.1 [1. Dice Phase]: 2..7 dice, 5 coins per die beyond 2, then that many rolls."""
    s = scenario(G3, phase="dice")
    assert G3.legal_actions(s) == [A.DICE0 + k for k in range(6)]
    act(G3, s, A.DICE0 + 3)                      # 5 dice
    assert s.coins[0] == 25 and kind(G3, s) == "roll" and G3.top(s).count == 5


def test_cannot_declare_unaffordable_dice() -> None:
    """T-3.1, R-20 [1. Dice Phase]: only counts the player can pay for are legal."""
    s = scenario(G3, phase="dice", coins=[12, 40, 40])
    assert G3.legal_actions(s) == [A.DICE0, A.DICE0 + 1, A.DICE0 + 2]
    s = scenario(G3, phase="dice", coins=[0, 40, 40])
    assert G3.legal_actions(s) == [A.DICE0]


def test_each_face_gives_its_item() -> None:
    """T-3.2, T-1.5, R-20 [1. Dice Phase]: six equally likely faces, each gives its item."""
    s = scenario(G3, phase="dice", coins=[25, 40, 40])
    act(G3, s, A.DICE0 + 5)                      # 7 dice for 25 coins
    for face in (0, 1, 2, 3, 4, 5, 0):
        assert kind(G3, s) == "roll"
        assert G3.chance_outcomes(s) == [(f, pytest.approx(1 / 6)) for f in range(6)]
        G3.apply_action(s, face)
    assert s.res[0] == res(2, 1, 1, 1) and s.workers[0] == 1 and s.merchants[0] == 1
    assert s.coins[0] == 0
    assert kind(G3, s) == "declare" and G3.current_player(s) == 1


def test_lottery_office_four_coins_per_merchant_per_copy() -> None:
    """T-3.3, T-9.5, R-26, R-30 [A. Lottery Office]: 4 coins per merchant rolled, per
    completed copy, only on the owner's own roll."""
    lottery = B["lottery_office"]
    s = scenario(G3, phase="dice", built=[[lottery, lottery], [], [lottery]],
                 coins=[0, 0, 0])
    act(G3, s, A.DICE0)
    G3.apply_action(s, FACE_MERCHANT)
    G3.apply_action(s, FACE_MERCHANT)
    assert s.coins == [16, 0, 0] and s.merchants[0] == 2
    act(G3, s, A.DICE0)                          # player 1: no Lottery Office
    G3.apply_action(s, FACE_MERCHANT)
    G3.apply_action(s, 0)
    assert s.coins == [16, 0, 0]


# ----- T-4 actions ------------------------------------------------------------------------

def test_one_action_turn_each_then_building_phase() -> None:
    """T-4.1, R-21 [2. Action Phase]: each player takes one turn from the start player;
    PASS ends it; after the last one the round moves on."""
    s = scenario(G3, turn=2, start_player=2, coins=[10, 10, 10])
    assert G3.legal_actions(s)[0] == A.PASS
    act(G3, s, A.PASS)
    assert kind(G3, s) == "act" and G3.current_player(s) == 0
    act(G3, s, A.PASS)
    assert kind(G3, s) == "act" and G3.current_player(s) == 1
    act(G3, s, A.PASS)
    assert kind(G3, s) == "declare" and s.round == 2 and s.coins == [25, 25, 25]


def test_buy_building_train_station_example() -> None:
    """T-4.5 [2-1 and its example]: 2 brick + 2 steel + 1 worker buy a Train Station,
    placed on space 3; the pile shrinks and the purchase is counted."""
    ts = B["train_station"]
    s = scenario(G3, in_game=TRAIN, res=none3(res, p0=res(0, 2, 2, 0)), workers=[1, 0, 0],
                 coins=[0, 0, 0])
    buy(G3, s, "train_station")
    assert s.track[0] == [[ts, 3]] and s.piles[ts] == 3 and s.bought[0][ts] == 1
    assert s.res[0] == res() and s.workers[0] == 0
    assert kind(G3, s) == "act" and G3.current_player(s) == 0   # the turn goes on


def test_buy_building_needs_whole_cost_and_allows_copies() -> None:
    """T-4.3, T-4.5 [2-1]: no purchase without the worker or a resource; several copies of
    one type may be bought."""
    ts = A.BUY_B0 + B["train_station"]
    assert ts not in G3.legal_actions(
        scenario(G3, in_game=TRAIN, res=none3(res, p0=res(0, 2, 2, 0))))
    assert ts not in G3.legal_actions(
        scenario(G3, in_game=TRAIN, res=none3(res, p0=res(0, 2, 1, 0)), workers=[1, 0, 0]))
    s = scenario(G3, in_game=TRAIN, res=none3(res, p0=res(0, 4, 4, 0)), workers=[2, 0, 0])
    buy(G3, s, "train_station")
    buy(G3, s, "train_station")
    assert s.piles[B["train_station"]] == 2 and s.bought[0][B["train_station"]] == 2


def test_empty_pile_cannot_be_bought() -> None:
    """T-4.5 [2-1]: only piles that still have a copy are offered."""
    ts = B["train_station"]
    s = scenario(G3, built=[[ts, ts], [ts, ts], []], res=none3(res, p2=res(0, 2, 2, 0)),
                 workers=[0, 0, 1], turn=2)
    assert s.piles[ts] == 0 and A.BUY_B0 + ts not in G3.legal_actions(s)


def test_forced_units_are_paid_without_a_decision() -> None:
    """T-4.4, R-8 [2-1]: a unit with a single possible source is paid automatically; a
    worker held both in hand and on a Tribal Village is the player's choice."""
    s = scenario(G3, in_game=TRAIN, res=none3(res, p0=res(0, 2, 2, 0)), workers=[1, 0, 0])
    act(G3, s, A.BUY_B0 + B["train_station"])
    assert kind(G3, s) == "act"
    s = scenario(G3, in_game=TRAIN, res=none3(res, p0=res(0, 2, 2, 0)), workers=[1, 0, 0],
                 tribal=[1, 0, 0])
    act(G3, s, A.BUY_B0 + B["train_station"])
    assert kind(G3, s) == "pay"
    assert G3.legal_actions(s) == [A.PAY0 + HAND_WORKER, A.PAY0 + TRIBAL_WORKER]
    act(G3, s, A.PAY0 + TRIBAL_WORKER)
    assert s.tribal[0] == 0 and s.workers[0] == 1 and kind(G3, s) == "act"


def test_no_other_action_between_payment_steps() -> None:
    """R-8, T-4.3: once chosen, an action is paid in full: only PAY actions are legal, and
    anything else is rejected."""

    s = scenario(G3, res=none3(res, p0=res(wood=3)), workers=[1, 0, 0])
    act(G3, s, A.EX_ITEMS0)
    assert kind(G3, s) == "pay"
    assert all(A.PAY0 <= a < A.PAY0 + 16 for a in G3.legal_actions(s))
    for bad in (A.PASS, A.EX_COINS0, A.DISCARD0):
        with pytest.raises(IllegalActionError):
            G3.apply_action(s, bad)


def test_pay_offers_only_sources_that_keep_the_cost_payable() -> None:
    """T-4.4, R-8: with 6 coins, 1 spare wood and a Sawmill, a 7-coin cost can always be
    finished: the last coin is forced onto the Sawmill."""
    s = scenario(G3, built=none3(list, p0=[B["sawmill"]]), res=none3(res, p0=res(wood=2)),
                 coins=[6, 0, 0], workers=[1, 0, 0])
    chosen = buy(G3, s, "night_market", PURSE)   # 1 wood + 7 coins
    assert chosen == [PURSE] * 6                 # then the Sawmill was the only source left
    assert s.coins[0] == 0 and s.res[0] == res() and s.factory_used[0][WOOD] == 1


def test_buy_landmark_sansiantai_example() -> None:
    """T-4.6 [2-2 and its example]: 5 stone + 1 worker buy Sansiantai: space 4, a marker in
    Eastern Taiwan after the earlier ones, and the deck's next card is revealed."""
    s = scenario(G3, face_up=[SANSIANTAI, 4, 7, 10, 13], res=none3(res, p0=res(stone=5)),
                 workers=[1, 0, 0], coins=[0, 0, 0], regions=[[], [], [], [2, 1]])
    assert A.BUY_L0 + 0 in G3.legal_actions(s)
    act(G3, s, A.BUY_L0 + 0)
    assert s.track[0] == [[LANDMARK0 + SANSIANTAI, 4]]
    assert s.regions[EAST] == [2, 1, 0] and s.markers[0] == 6
    assert s.res[0] == res() and s.workers[0] == 0 and s.face_up[0] == -1
    assert kind(G3, s) == "reveal" and G3.current_player(s) == CHANCE
    assert sorted(c for c, _ in G3.chance_outcomes(s)) == [0, 1, 2]
    G3.apply_action(s, 2)
    assert s.face_up[0] == 2 and s.decks[0] == [0, 1]
    assert kind(G3, s) == "act" and G3.current_player(s) == 0
    G3.check_invariants(s)


def test_landmark_with_empty_supply_places_no_marker() -> None:
    """T-4.6 step 3, R-3 [2-2; FAQ]: with all 7 markers placed a landmark can still be
    bought; the marker step is skipped."""
    s = scenario(G3, face_up=[SANSIANTAI, 4, 7, 10, 13], res=none3(res, p0=res(stone=5)),
                 workers=[1, 0, 0], regions=[[0] * 7, [], [], []])
    act(G3, s, A.BUY_L0 + 0)
    assert s.track[0] == [[LANDMARK0 + SANSIANTAI, 4]] and s.regions[EAST] == []
    assert s.markers[0] == 0


def test_last_landmark_of_a_deck_leaves_it_empty() -> None:
    """T-4.6 step 4, R-39 [2-2]: no reveal when the deck has no card left; it is empty and
    nothing can be bought from it."""
    others = [LANDMARK0 + c for c in G3.deck_cards[0] if c != SANSIANTAI]
    s = scenario(G3, built=[[], others, []], res=none3(res, p0=res(stone=10)),
                 workers=[2, 0, 0])
    assert s.face_up[0] == SANSIANTAI and s.decks[0] == []
    act(G3, s, A.BUY_L0 + 0)
    assert kind(G3, s) == "act" and s.face_up[0] == -1
    assert all(a != A.BUY_L0 + 0 for a in G3.legal_actions(s))


def test_exchange_three_items_rulebook_example() -> None:
    """T-4.7a [2-3 example]: 2 wood + 1 worker are exchanged for 1 steel, into the hand."""
    s = scenario(G3, res=none3(res, p0=res(wood=2)), workers=[1, 0, 0], coins=[0, 0, 0])
    act(G3, s, A.EX_ITEMS0 + A.OUTPUTS.index("steel"))
    pay_all(G3, s)
    assert s.res[0] == res(steel=1) and s.workers[0] == 0


def test_exchange_three_items_player_chooses_which() -> None:
    """T-4.4, T-4.7a, R-8, R-29, R-32: the 3 items are chosen unit by unit from hand
    resources, workers, merchants, Tribal Village workers and Warehouse resources."""
    s = scenario(G3, res=none3(res, p0=res(wood=2, brick=1)), workers=[1, 0, 0],
                 merchants=[1, 0, 0], tribal=[1, 0, 0],
                 warehouse=none3(res, p0=res(stone=1)))
    act(G3, s, A.EX_ITEMS0 + A.OUTPUTS.index("wood"))
    assert kind(G3, s) == "pay"
    assert G3.legal_actions(s) == [A.PAY0 + src for src in (
        HAND_WORKER, TRIBAL_WORKER, MERCHANT_TILE, HAND0 + WOOD, HAND0 + BRICK,
        WAREHOUSE0 + STONE)]
    for src in (TRIBAL_WORKER, WAREHOUSE0 + STONE, MERCHANT_TILE):
        act(G3, s, A.PAY0 + src)
    assert kind(G3, s) == "act"
    assert s.res[0] == res(wood=3, brick=1) and s.workers[0] == 1
    assert s.tribal[0] == 0 and s.merchants[0] == 0 and s.warehouse[0] == res()


def test_exchange_nine_coins() -> None:
    """T-4.7b, R-1 [2-3 rate table]: 9 coins buy 1 worker or resource; 8 do not."""
    s = scenario(G3, coins=[9, 0, 0])
    act(G3, s, A.EX_COINS0 + A.OUTPUTS.index("stone"))
    assert s.coins[0] == 0 and s.res[0] == res(stone=1)
    s = scenario(G3, coins=[8, 0, 0], res=none3(res, p0=res(1, 1, 1, 1)))
    assert not any(A.EX_COINS0 <= a < A.EX_COINS0 + 5 for a in G3.legal_actions(s))


def test_exchange_merchant_and_two_coins() -> None:
    """T-4.7c [2-3; 1. Dice Phase > Merchant]: 1 merchant + 2 coins -> 1 worker."""
    s = scenario(G3, coins=[2, 0, 0], merchants=[1, 0, 0])
    act(G3, s, A.EX_MERCH0 + A.OUTPUTS.index("worker"))
    assert s.coins[0] == 0 and s.merchants[0] == 0 and s.workers[0] == 1
    for coins, merchants in ((1, 1), (40, 0)):
        s = scenario(G3, coins=[coins, 0, 0], merchants=[merchants, 0, 0])
        assert not any(A.EX_MERCH0 <= a < A.EX_MERCH0 + 5 for a in G3.legal_actions(s))


def test_exchange_outputs_are_a_worker_or_a_resource() -> None:
    """R-32 [2-3]: each rate offers exactly 5 outputs: a worker or one of the 4 resources."""
    s = scenario(G3, coins=[40, 0, 0], merchants=[1, 0, 0], workers=[3, 0, 0])
    legal = G3.legal_actions(s)
    for first in (A.EX_ITEMS0, A.EX_COINS0, A.EX_MERCH0):
        assert [a - first for a in legal if first <= a < first + 5] == [0, 1, 2, 3, 4]
    assert A.OUTPUTS == ("worker", "wood", "brick", "steel", "stone")


def test_work_overtime_rulebook_example() -> None:
    """T-4.8, R-4, R-38 [2-4 example]: 2 workers + 4 coins move Sansiantai from 4 to 2."""
    code = landmark_code(G3, "Sansiantai")
    s = scenario(G3, track=none3(list, p0=[[code, 4]]), workers=[2, 0, 0], coins=[4, 0, 0])
    act(G3, s, A.OVERTIME0 + 0)
    act(G3, s, A.OVERTIME0 + 0)
    assert s.track[0] == [[code, 2]] and s.workers[0] == 0 and s.coins[0] == 0
    assert A.OVERTIME0 not in G3.legal_actions(s)


def test_overtime_on_a_card_bought_this_turn() -> None:
    """R-38, T-4.8: overtime may target a card bought in the same turn."""
    s = scenario(G3, in_game=TRAIN, res=none3(res, p0=res(0, 2, 2, 0)), workers=[2, 0, 0],
                 coins=[2, 0, 0])
    buy(G3, s, "train_station")
    act(G3, s, A.OVERTIME0)
    assert s.track[0] == [[B["train_station"], 2]]


def test_overtime_never_from_space_one_but_from_six() -> None:
    """T-4.8, R-4, R-38 [2-4; 1. Dice Phase > Worker]: space 1 cannot be chosen (so overtime
    never completes a card); space 6 can."""
    s = scenario(G3, track=none3(list, p0=[[B["sawmill"], 1], [B["temple"], 2],
                                           [landmark_code(G3, "Kenting"), 6]]),
                 workers=[1, 0, 0], coins=[2, 0, 0])
    overtime = [a - A.OVERTIME0 for a in G3.legal_actions(s)
                if A.OVERTIME0 <= a < A.OVERTIME0 + A.TRACK_SLOTS]
    assert overtime == [1, 2]
    act(G3, s, A.OVERTIME0 + 2)
    assert s.track[0][2][1] == 5


@pytest.mark.parametrize(("region", "cost"), [
    (NORTH, (res(steel=2), 5)), (CENTRAL, (res(brick=2), 5)),
    (SOUTH, (res(wood=2), 3)), (EAST, (res(stone=2), 5))])
def test_charitable_contribution_prices(region: int, cost: tuple[list[int], int]) -> None:
    """T-4.9 [2-5 and its example]: each region's price places 1 marker there; a coin or a
    resource less and it is not offered."""
    resources, coins = cost
    s = scenario(G3, res=none3(res, p0=resources), coins=[coins, 0, 0])
    act(G3, s, A.CHARITY0 + region)
    assert s.regions[region] == [0] and s.markers[0] == 6
    assert s.res[0] == res() and s.coins[0] == 0
    short = [r - 1 if r else 0 for r in resources]
    for r_, c_ in ((resources, coins - 1), (short, coins)):
        s = scenario(G3, res=none3(res, p0=r_), coins=[c_, 0, 0])
        assert A.CHARITY0 + region not in G3.legal_actions(s)


def test_charity_needs_a_marker_in_the_supply() -> None:
    """T-4.9, R-3 [FAQ]: with all 7 markers placed no contribution is possible."""
    s = scenario(G3, res=none3(res, p0=res(2, 2, 2, 2)), regions=[[0] * 7, [], [], []])
    assert not any(A.CHARITY0 <= a < A.CHARITY0 + 4 for a in G3.legal_actions(s))


# ----- T-9 abilities during the action turn ---------------------------------------------

def test_temple_once_per_round_per_completed_copy() -> None:
    """T-9.3, R-26 [A. Temple]: 2 coins -> 2 VP, once per round per completed Temple; an
    uncompleted Temple gives nothing."""
    temple = B["temple"]
    s = scenario(G3, built=none3(list, p0=[temple, temple]), coins=[10, 0, 0])
    act(G3, s, A.TEMPLE)
    act(G3, s, A.TEMPLE)
    assert s.vp[0] == 4 and s.coins[0] == 6 and A.TEMPLE not in G3.legal_actions(s)
    s = scenario(G3, track=none3(list, p0=[[temple, 2]]), coins=[10, 0, 0])
    assert A.TEMPLE not in G3.legal_actions(s)
    s = scenario(G3, built=none3(list, p0=[temple]), coins=[1, 0, 0])
    assert A.TEMPLE not in G3.legal_actions(s)


def test_temple_available_again_next_round() -> None:
    """T-7.3 [5. Cleanup Phase; A. Basic]: once-per-round uses reset for the next round."""
    s = scenario(G3, built=none3(list, p0=[B["temple"]]), coins=[10, 0, 0])
    act(G3, s, A.TEMPLE)
    act(G3, s, A.PASS)
    to_act(G3, s, 0)
    assert s.round == 2 and A.TEMPLE in G3.legal_actions(s)


def test_factory_pays_a_purchase_coin_as_a_pay_choice() -> None:
    """T-9.2, R-7, R-29 [A. Sawmill]: a completed Sawmill lets 1 hand wood pay 1 coin of a
    card purchase; it is offered as a pay choice, never used automatically."""
    s = scenario(G3, built=none3(list, p0=[B["sawmill"]]), res=none3(res, p0=res(wood=1, stone=1)),
                 coins=[7, 0, 0], workers=[1, 0, 0])
    act(G3, s, A.BUY_B0 + B["lottery_office"])   # 1 stone + 4 coins
    assert kind(G3, s) == "pay"
    assert G3.legal_actions(s) == [A.PAY0 + PURSE, A.PAY0 + FACTORY0 + WOOD]
    act(G3, s, A.PAY0 + FACTORY0 + WOOD)
    assert kind(G3, s) == "act"
    assert s.coins[0] == 4 and s.res[0] == res() and s.factory_used[0] == [1, 0, 0, 0]


def test_factory_once_per_round_per_copy() -> None:
    """T-9.2, R-26 [A. Sawmill: once per round]: one Sawmill swaps once; two swap twice."""
    lottery = "lottery_office"
    s = scenario(G3, built=none3(list, p0=[B["sawmill"]]), res=none3(res, p0=res(2, 0, 0, 2)),
                 coins=[10, 0, 0], workers=[2, 0, 0])
    buy(G3, s, lottery, FACTORY0 + WOOD)
    act(G3, s, A.BUY_B0 + B[lottery])
    assert kind(G3, s) == "act"                  # the second coin question never comes
    assert s.res[0] == res(wood=1) and s.coins[0] == 10 - 3 - 4   # 1 stone + 4 coins each
    s = scenario(G3, built=none3(list, p0=[B["sawmill"]] * 2),
                 res=none3(res, p0=res(wood=2, stone=1)), coins=[2, 0, 0], workers=[1, 0, 0])
    buy(G3, s, lottery)
    assert s.res[0] == res() and s.coins[0] == 0 and s.factory_used[0] == [2, 0, 0, 0]


def test_factories_combine_on_one_purchase() -> None:
    """T-9.2 [A. factories: effects may be combined]: a Sawmill and a Brickworks pay two
    coins of one purchase."""
    s = scenario(G3, built=none3(list, p0=[B["sawmill"], B["brickworks"]]),
                 res=none3(res, p0=res(1, 1, 0, 1)), coins=[2, 0, 0], workers=[1, 0, 0])
    buy(G3, s, "lottery_office")   # 1 stone + 4 coins
    assert s.res[0] == res() and s.coins[0] == 0 and s.track[0] == [[B["lottery_office"], 1]]


def test_factories_only_help_card_purchases() -> None:
    """T-4.4, R-7 [A. factories]: no factory for dice, exchanges, overtime, charity or the
    Temple."""
    built = none3(list, p0=[B["sawmill"], B["temple"]])
    s = scenario(G3, built=built, res=none3(res, p0=res(wood=5)), coins=[1, 0, 0],
                 workers=[1, 0, 0], track=none3(list, p0=[[B["temple"], 3]]))
    legal = G3.legal_actions(s)
    assert A.TEMPLE not in legal and A.OVERTIME0 not in legal
    assert not any(A.EX_COINS0 <= a < A.EX_COINS0 + 5 for a in legal)
    s = scenario(G3, built=built, res=none3(res, p0=res(wood=5)), coins=[2, 0, 0])
    assert A.CHARITY0 + SOUTH not in G3.legal_actions(s)         # 2 wood + 3 coins
    s = scenario(G3, phase="dice", built=built, res=none3(res, p0=res(wood=5)),
                 coins=[4, 0, 0])
    assert G3.legal_actions(s) == [A.DICE0]


def test_factory_needs_a_hand_resource() -> None:
    """R-29 [A. Warehouse]: Warehouse resources cannot be turned into coins."""
    s = scenario(G3, in_game=LOTTERY, built=none3(list, p0=[B["sawmill"]]),
                 res=none3(res, p0=res(stone=1)),
                 warehouse=none3(res, p0=res(wood=3)), coins=[1, 0, 0], workers=[1, 0, 0])
    assert A.BUY_B0 + B["lottery_office"] not in G3.legal_actions(s)


def test_tribal_village_workers() -> None:
    """T-9.7, T-5.3, T-7.2 [A. Tribal Village]: completion puts 3 workers on it; they pay
    worker units and are kept through cleanup, while hand workers are lost."""
    s = scenario(G3, phase="build", track=none3(list, p0=[[B["tribal_village"], 1]]),
                 workers=[2, 0, 0])
    assert s.round == 2 and s.tribal[0] == 3 and s.workers[0] == 0
    assert s.built[0] == [B["tribal_village"]]
    s = scenario(G3, in_game=TRAIN, res=none3(res, p0=res(0, 2, 2, 0)), tribal=[3, 0, 0])
    buy(G3, s, "train_station")
    assert s.tribal[0] == 2 and s.track[0] == [[B["train_station"], 3]]
    tv = B["tribal_village"]                     # two copies, pooled stock
    s = scenario(G3, phase="build", track=none3(list, p0=[[tv, 1], [tv, 1]]))
    assert s.tribal[0] == 6


def test_warehouse_completion_choice_and_use() -> None:
    """T-9.8, T-5.3 [A. Warehouse]: on completion the owner picks a type and 3 of it go on
    the card; they pay resource units."""
    s = scenario(G3, phase="build", track=none3(list, p0=[[B["warehouse"], 1]]))
    assert kind(G3, s) == "warehouse" and G3.current_player(s) == 0
    assert G3.legal_actions(s) == [A.WAREHOUSE0 + r for r in range(4)]
    act(G3, s, A.WAREHOUSE0 + STEEL)
    assert s.warehouse[0] == res(steel=3) and s.round == 2
    s = scenario(G3, in_game=TRAIN, warehouse=none3(res, p0=res(0, 2, 2, 0)), workers=[1, 0, 0])
    buy(G3, s, "train_station")
    assert s.warehouse[0] == res() and s.track[0] == [[B["train_station"], 3]]


def test_each_completed_warehouse_gets_its_own_stock() -> None:
    """T-9.8, R-26, T-5.3: two Warehouses completed in one Building phase are two copies,
    each receiving its owner's choice of 3 resources."""
    wh = B["warehouse"]
    s = scenario(G3, phase="build", track=none3(list, p0=[[wh, 1], [wh, 1]]))
    chosen = 0
    while kind(G3, s) == "warehouse":
        act(G3, s, A.WAREHOUSE0 + (WOOD if chosen == 0 else STONE))
        chosen += 1
    assert chosen == 2 and s.warehouse[0] == res(wood=3, stone=3)


def test_warehouse_choices_in_turn_order() -> None:
    """R-35, T-5.3: Warehouse choices are made in turn order from the start player."""
    wh = B["warehouse"]
    s = scenario(G3, phase="build", start_player=2,
                 track=[[[wh, 1]], [[wh, 1]], [[wh, 1]]])
    order = []
    while kind(G3, s) == "warehouse":
        order.append(G3.current_player(s))
        act(G3, s, A.WAREHOUSE0)
    assert order == [2, 0, 1]


def test_public_art_places_two_markers_where_none_yet() -> None:
    """T-9.16, R-5, R-31 [D. Public Art Installation]: after buying it, 2 markers go to one
    region of the buyer's choice without their markers."""
    s = scenario(G3, in_game=ART, res=none3(res, p0=res(2, 1, 0, 1)), workers=[1, 0, 0],
                 regions=[[0], [1], [], []])
    buy(G3, s, "public_art_installation")
    assert kind(G3, s) == "region" and G3.current_player(s) == 0
    assert G3.legal_actions(s) == [A.REGION0 + r for r in (CENTRAL, SOUTH, EAST)]
    act(G3, s, A.REGION0 + CENTRAL)
    assert s.regions[CENTRAL] == [1, 0, 0] and s.markers[0] == 4
    assert kind(G3, s) == "act"


def test_public_art_short_supply_or_no_free_region() -> None:
    """T-9.16, R-5, R-31 [D. Public Art; FAQ]: one marker left -> one placed; no free region
    or an empty supply -> nothing happens and no region is asked for."""
    cost = none3(res, p0=res(2, 1, 0, 1))
    s = scenario(G3, in_game=ART, res=cost, workers=[1, 0, 0], regions=[[0] * 6, [], [], []])
    buy(G3, s, "public_art_installation")
    act(G3, s, A.REGION0 + SOUTH)
    assert s.regions[SOUTH] == [0] and s.markers[0] == 0
    for regions in ([[0] * 3, [0], [0], [0]], [[0] * 7, [], [], []]):
        s = scenario(G3, in_game=ART, res=cost, workers=[1, 0, 0], regions=regions)
        buy(G3, s, "public_art_installation")
        assert kind(G3, s) == "act" and s.regions == regions
        assert s.track[0] == [[B["public_art_installation"], 3]]


def test_public_art_ignores_the_neutral() -> None:
    """R-11 [Two-Player Rules; D. Public Art]: the neutral's markers do not block a region."""
    s = scenario(G2, in_game=ART, res=[res(2, 1, 0, 1), res()], workers=[1, 0])
    buy(G2, s, "public_art_installation")
    assert G2.legal_actions(s) == [A.REGION0 + r for r in range(4)]


def test_hot_spring_scores_two_per_marker_already_there() -> None:
    """T-9.17, R-12 [D. Hot Spring Hotel]: 2 VP per marker already in the chosen region, own
    and neutral included; then 1 marker is placed."""
    s = scenario(G2, in_game=HOT, res=[res(3, 1, 2, 2), res()], workers=[1, 0],
                 regions=[[2], [2], [2], [2, 1, 0]])
    buy(G2, s, "hot_spring_hotel")
    assert kind(G2, s) == "region" and G2.legal_actions(s) == [A.REGION0 + r for r in range(4)]
    act(G2, s, A.REGION0 + EAST)
    assert s.vp[0] == 6 and s.regions[EAST] == [2, 1, 0, 0] and s.markers[0] == 5


def test_hot_spring_with_empty_supply_still_scores() -> None:
    """R-12, R-31 [D. Hot Spring Hotel; FAQ]: with no marker left the region is still chosen
    and scored; nothing is placed."""
    s = scenario(G2, in_game=HOT, res=[res(3, 1, 2, 2), res()], workers=[1, 0],
                 regions=[[2] + [0] * 7, [2], [2], [2]])
    buy(G2, s, "hot_spring_hotel")
    act(G2, s, A.REGION0 + NORTH)
    assert s.vp[0] == 16 and len(s.regions[NORTH]) == 8


def test_urban_development_bureau_fee() -> None:
    """T-9.11, R-13 [B. Urban Development Bureau]: others pay its owner 1 coin per card
    bought; without that coin they cannot buy; the owner pays nothing."""
    exc = {UDB: 1}
    cost = none3(res, p0=res(stone=1), p1=res(stone=1))
    s = scenario(G3, in_game=LOTTERY, exclusive=exc, res=cost, coins=[4, 4, 0], workers=[1, 1, 0])
    assert A.BUY_B0 + B["lottery_office"] not in G3.legal_actions(s)   # 1 stone + 4 coins
    s = scenario(G3, exclusive=exc, res=cost, coins=[5, 4, 0], workers=[1, 1, 0])
    buy(G3, s, "lottery_office")
    assert s.coins == [0, 5, 0]
    s = scenario(G3, exclusive=exc, res=cost, coins=[5, 4, 0], workers=[1, 1, 0], turn=1)
    buy(G3, s, "lottery_office")
    assert s.coins == [5, 0, 0]


def test_urban_development_bureau_fee_on_landmarks_and_by_factory() -> None:
    """T-9.11, R-13, R-7: the fee applies to landmarks too; a factory may pay it and the
    owner still receives its coin."""
    s = scenario(G3, exclusive={UDB: 2}, face_up=[SANSIANTAI, 4, 7, 10, 13],
                 res=none3(res, p0=res(stone=5)), workers=[1, 0, 0], coins=[0, 0, 0])
    assert A.BUY_L0 not in G3.legal_actions(s)
    s = scenario(G3, exclusive={UDB: 2}, face_up=[SANSIANTAI, 4, 7, 10, 13],
                 built=none3(list, p0=[B["stone_factory"]]), res=none3(res, p0=res(stone=6)),
                 workers=[1, 0, 0], coins=[0, 0, 0])
    act(G3, s, A.BUY_L0)
    assert s.res[0] == res() and s.coins == [0, 0, 1] and s.factory_used[0][STONE] == 1


def test_demolition_company_adds_one_time_for_others() -> None:
    """T-9.12, R-9, R-14 [B. Demolition Company]: other players' new cards start one space
    higher (a time-4 landmark on space 5); the owner's do not; cards on tracks stay."""
    s = scenario(G3, in_game=TRAIN, exclusive={DEMOLITION: 1},
                 face_up=[SUN_MOON_LAKE, 4, 7, 10, 13],
                 res=[res(2, 6, 3, 0), res(0, 2, 2, 0), res()], workers=[2, 1, 0],
                 track=none3(list, p0=[[B["sawmill"], 2]]))
    buy(G3, s, "train_station")
    act(G3, s, A.BUY_L0)
    G3.apply_action(s, G3.legal_actions(s)[0])   # reveal
    assert s.track[0] == [[B["sawmill"], 2], [B["train_station"], 4],
                          [LANDMARK0 + SUN_MOON_LAKE, 5]]
    act(G3, s, A.PASS)
    buy(G3, s, "train_station")
    assert s.track[1] == [[B["train_station"], 3]]


# ----- T-5 building phase, exclusives --------------------------------------------------------

def test_building_phase_moves_every_track_and_scores_completions() -> None:
    """T-5.1, T-5.2, R-40 [3. Building Phase]: every card of every player moves one space;
    cards reaching 0 are completed and score their VP at once."""
    ts, nm, code = B["train_station"], B["night_market"], landmark_code(G3, "Sansiantai")
    s = scenario(G3, phase="build", track=[[[ts, 3], [nm, 1]], [[code, 1]], [[ts, 5]]])
    assert s.track == [[[ts, 2]], [], [[ts, 4]]]
    assert s.built == [[nm], [code], []] and s.vp == [1, 5, 0]


def test_cards_bought_this_round_move_in_the_building_phase() -> None:
    """T-5.1 [3. Building Phase]: a card bought in the Action phase moves that round."""
    s = scenario(G3, res=none3(res, p0=res(stone=1)), workers=[1, 0, 0])
    buy(G3, s, "lottery_office")
    to_round_end(G3, s)
    assert s.built[0] == [B["lottery_office"]] and s.vp[0] == 1


def test_exclusive_latest_completed_copy_holds_the_ability() -> None:
    """T-9.9, R-16, R-30 [B. Exclusive]: the latest single completion takes the ability from
    earlier copies (whose VP stay); it works in the same round's income."""
    s = scenario(G3, phase="build", exclusive={TAX: 0}, built=none3(list, p0=[B[TAX]]),
                 vp=[3, 0, 0], coins=[0, 0, 0], track=none3(list, p1=[[B[TAX], 1]]))
    assert G3.exclusive_owner(s, TAX) == 1
    assert s.vp == [3, 3, 0] and s.coins == [12, 15, 12]


def test_exclusive_two_copies_in_one_phase_nobody_holds_it() -> None:
    """T-9.9, R-16 [B. Exclusive]: two copies completed in the same round: every copy loses
    the ability, the earlier one included, until a later single completion."""
    s = scenario(G3, phase="build", exclusive={TAX: 0}, built=none3(list, p0=[B[TAX]]),
                 coins=[0, 0, 0], track=[[], [[B[TAX], 1]], [[B[TAX], 1]]])
    assert G3.exclusive_owner(s, TAX) == -1 and s.coins == [15, 15, 15]
    assert s.vp == [0, 3, 3]
    s = scenario(G3, phase="build", built=[[], [B[TAX]], [B[TAX]]],
                 track=none3(list, p0=[[B[TAX], 1]]))
    assert G3.exclusive_owner(s, TAX) == 0


# ----- T-6 income --------------------------------------------------------------------------

def test_income_night_market_and_tax_bureau() -> None:
    """T-6.1, T-9.6, T-9.13, R-23, R-26 [4. Income Phase; A. Night Market; B. Tax Bureau]:
    15 coins, +3 per completed Night Market, -3 for everyone but the Tax Bureau's owner."""
    nm = B["night_market"]
    s = scenario(G3, phase="income", coins=[0, 0, 0], exclusive={TAX: 1},
                 built=[[nm, nm], [B[TAX]], []], track=none3(list, p2=[[nm, 1]]))
    assert s.coins == [18, 15, 12]


def test_card_completed_this_round_pays_this_income() -> None:
    """R-30, T-5.2 [3. Building Phase]: a Night Market completed in the Building phase
    already pays in that round's Income phase."""
    s = scenario(G3, phase="build", coins=[0, 0, 0],
                 track=none3(list, p0=[[B["night_market"], 1]]))
    assert s.coins == [18, 15, 15]


def test_convenience_store_income() -> None:
    """T-9.15, R-17 [C. Convenience Store]: with k completed stores in all, each completed
    store pays 2/3/4/5 coins for k = 1/2/3/4."""
    cs = B["convenience_store"]
    for built, expected in (([[cs], [], []], [17, 15, 15]),
                            ([[cs], [cs], []], [18, 18, 15]),
                            ([[cs, cs], [cs], []], [23, 19, 15]),
                            ([[cs, cs], [cs], [cs]], [25, 20, 20])):
        s = scenario(G3, phase="income", coins=[0, 0, 0], built=built)
        assert s.coins == expected, built


def test_judicial_court_discards() -> None:
    """T-6.2, R-15, R-35 [B. Judicial Court]: after income, every other player with 2+ hand
    resources discards 1 of their choice, in turn order; Warehouse stock is exempt."""
    s = scenario(G3, phase="income", start_player=2, exclusive={COURT: 0},
                 res=[res(2, 2, 0, 0), res(1, 1, 0, 0), res(0, 0, 2, 0)],
                 warehouse=none3(res, p1=res(stone=3)))
    assert kind(G3, s) == "judicial" and G3.current_player(s) == 2
    assert G3.legal_actions(s) == [A.DISCARD0 + STEEL]
    act(G3, s, A.DISCARD0 + STEEL)
    assert kind(G3, s) == "judicial" and G3.current_player(s) == 1
    assert G3.legal_actions(s) == [A.DISCARD0 + WOOD, A.DISCARD0 + BRICK]
    act(G3, s, A.DISCARD0 + BRICK)
    assert s.res == [res(2, 2, 0, 0), res(1, 0, 0, 0), res(0, 0, 1, 0)]
    assert s.warehouse[1] == res(stone=3) and s.round == 2
    s = scenario(G3, phase="income", exclusive={COURT: 0},
                 res=none3(res, p1=res(wood=1)), warehouse=none3(res, p1=res(stone=3)))
    assert kind(G3, s) == "declare"


# ----- T-7 cleanup and the end ---------------------------------------------------------------

def test_cleanup_discards_down_to_five_owner_chooses() -> None:
    """T-7.1, R-18, R-35 [5. Cleanup Phase 1]: over 5 hand resources, the owner discards one
    chosen tile at a time, in turn order; Warehouse stock does not count."""
    s = scenario(G3, phase="cleanup", start_player=1,
                 res=[res(3, 3, 1, 0), res(6, 0, 0, 0), res(5, 0, 0, 0)],
                 warehouse=none3(res, p2=res(stone=3)))
    assert kind(G3, s) == "cleanup" and G3.current_player(s) == 1
    assert G3.legal_actions(s) == [A.DISCARD0 + WOOD]
    act(G3, s, A.DISCARD0 + WOOD)
    assert G3.current_player(s) == 0 and G3.legal_actions(s) == [
        A.DISCARD0 + WOOD, A.DISCARD0 + BRICK, A.DISCARD0 + STEEL]
    act(G3, s, A.DISCARD0 + BRICK)
    act(G3, s, A.DISCARD0 + BRICK)
    assert s.res == [res(3, 1, 1, 0), res(5, 0, 0, 0), res(5, 0, 0, 0)]
    assert kind(G3, s) == "declare"


def test_cleanup_loses_workers_and_merchants_and_passes_start() -> None:
    """T-7.2, T-7.3, R-24 [5. Cleanup Phase 2-3]: hand workers and merchants are discarded;
    coins, Tribal Village workers and Warehouse stock stay; the start passes left."""
    s = scenario(G3, phase="cleanup", start_player=2, workers=[2, 1, 0], merchants=[1, 0, 3],
                 tribal=[0, 2, 0], warehouse=none3(res, p0=res(wood=3)), coins=[7, 8, 9])
    assert s.workers == [0, 0, 0] and s.merchants == [0, 0, 0]
    assert s.tribal == [0, 2, 0] and s.warehouse[0] == res(wood=3) and s.coins == [7, 8, 9]
    assert s.start_player == 0 and s.round == 2
    assert kind(G3, s) == "declare" and G3.current_player(s) == 0


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_end_trigger_counts_empty_piles_and_decks(n: int) -> None:
    """T-7.4, R-19 [Game End]: N empty piles/decks in an N-player game trigger the end at
    the end of the round; N-1 do not. Piles and decks count together."""
    game = make_game(num_players=n)
    deck1 = [LANDMARK0 + c for c in game.deck_cards[1]]
    for empties, triggered in ((n - 1, False), (n, True)):
        piles = [t for t in range(empties - 1) for _ in range(4)]   # empties-1 piles + deck 1
        built = [piles + deck1] + [[] for _ in range(n - 1)]
        s = scenario(game, phase="build", built=built)
        assert s.final_round is triggered and not game.is_terminal(s)
        assert kind(game, s) == "declare" and s.round == 2


def test_exactly_one_final_round_then_scoring() -> None:
    """T-7.4, R-19, R-36 [Game End]: once triggered, one more full round (income included)
    is played, then final scoring ends the game."""
    empty = [[B["sawmill"]] * 4, [B["stone_factory"]] * 4, [B["brickworks"]] * 4]
    s = scenario(G3, phase="build", built=empty, coins=[0, 0, 0])
    assert s.final_round and s.round == 2 and s.coins == [15, 15, 15]
    to_round_end(G3, s)
    assert G3.is_terminal(s) and G3.current_player(s) == TERMINAL
    assert s.coins == [30, 30, 30] and s.round == 2


def test_truncation_guard_exists() -> None:
    """T-7.5, R-25: ``max_game_length`` caps player decisions (a guard, not a rule)."""
    assert isinstance(G3.max_game_length, int) and G3.max_game_length > 0
    s = scenario(G3)
    decisions = s.decisions
    act(G3, s, A.PASS)
    assert s.decisions == decisions + 1


# ----- T-8 final scoring ----------------------------------------------------------------------

def test_uncompleted_cards_score_vp_minus_space_penalty() -> None:
    """T-8.1, R-9 [Final Scoring 1]: printed VP minus 2/3/4/5 on spaces 1-4 (6/7 on 5/6);
    the result may be negative; completed cards are not counted again (R-40)."""
    one_vp = [B[k] for k in ("sawmill", "stone_factory", "brickworks", "steelworks")]
    lo, code = B["lottery_office"], landmark_code(G3, "Kenting")     # 1 VP; 11 VP
    s = scenario(G3, track=[[[t, i + 1] for i, t in enumerate(one_vp)], [[lo, 5], [lo, 6]],
                            [[code, 3]]], built=none3(list, p0=[B["night_market"]]),
                 vp=[1, 0, 0])
    final_scoring(G3, s)
    assert s.vp == [1 - 1 - 2 - 3 - 4, -5 - 6, 11 - 4]


def test_baseball_field_counts_completed_building_cards() -> None:
    """T-9.4, T-8.2, R-27, R-26 [A. Baseball Field]: each Baseball Field bought, completed or
    not, scores 1 VP per completed building card (landmarks excluded)."""
    bf, code = B["baseball_field"], landmark_code(G3, "Sansiantai")
    s = scenario(G3, track=[[[bf, 2]], [], []],
                 built=[[B["sawmill"], B["night_market"], B["lottery_office"], code],
                        [bf, B["sawmill"], landmark_code(G3, "Jiufen")], [bf, bf]])
    final_scoring(G3, s)
    assert s.vp == [(1 - 3) + 3, 2, 2 * 2]


@pytest.mark.parametrize(("k", "each"), [(1, 0), (2, 2), (3, 4), (4, 6)])
def test_train_station_scores_by_copies_purchased(k: int, each: int) -> None:
    """T-9.14, T-8.2, R-17 [C. Train Station]: 0/2/4/6 VP per Train Station bought when
    1/2/3/4 were bought in all, completed or not."""
    ts, vp = B["train_station"], G3.buildings[B["train_station"]].vp
    mine = [ts] * (k - k // 2)
    s = scenario(G3, built=[mine, [ts] * (k // 2), []])
    final_scoring(G3, s)
    assert s.vp == [each * len(mine), each * (k // 2), 0]
    s = scenario(G3, track=[[[ts, 1]] * len(mine), [], []], built=[[], [ts] * (k // 2), []])
    final_scoring(G3, s)
    assert s.vp[0] == len(mine) * (each + vp - 2)     # on space 1: its VP - 2 penalty


def test_area_majority_rulebook_example() -> None:
    """T-8.3 [Final Scoring 3 and its example]: Northern holds red, green, blue, green:
    green (seat 1) 1st with 8 VP, red (seat 0) 2nd with 4 VP by its earlier first marker."""
    s = scenario(G3, regions=[[0, 1, 2, 1], [], [], []])
    final_scoring(G3, s)
    assert s.vp == [4, 8, 0]


def test_area_majority_single_colour_and_ties() -> None:
    """T-8.3, R-34: a lone colour takes only the 2x reward; equal counts rank by first
    placement; the third rank scores nothing."""
    s = scenario(G3, regions=[[], [2, 2], [1, 0, 0, 1], [0, 1, 2]])
    final_scoring(G3, s)
    # central: 2 alone -> 4; south: 1 first -> 8, 0 -> 4; east: 0 -> 6, 1 -> 3, 2 -> 0
    assert s.vp == [4 + 6, 8 + 3, 4]


def test_area_majority_neutral_ranks_but_never_scores() -> None:
    """T-8.3, R-11, R-34 [Two-Player Rules]: the neutral counts in the reward and holds its
    rank (ties included); nobody moves up into it."""
    s = scenario(G2, regions=[[2, 0], [2, 1, 1], [2, 0, 0, 1], [2]])
    final_scoring(G2, s)
    # north: neutral 1st (earlier), 0 2nd -> 2; central: 1 -> 6, neutral 2nd;
    # south: 0 -> 8, neutral 2nd (earlier than 1); east: neutral alone
    assert s.vp == [2 + 8, 6]


def test_winner_by_vp_then_coins_else_shared() -> None:
    """T-8.4, R-22 [Final Scoring]: most VP wins; a tie goes to the most coins; a full tie
    is shared."""
    s = scenario(G3, vp=[10, 10, 5], coins=[3, 7, 50])
    assert G3.returns(s) == [0.0, 0.0, 0.0]          # not over yet
    s.over = True
    assert G3.returns(s) == [0.0, 1.0, -1.0]
    s = scenario(G3, vp=[10, 10, 5], coins=[7, 7, 50])
    s.over = True
    assert G3.returns(s) == [0.5, 0.5, -1.0]
    assert G3.scores(s) == [10.0, 10.0, 5.0]


# ----- interface -------------------------------------------------------------------------------

def test_action_labels_are_readable() -> None:
    """Action labels name the card, region, rate or source in words."""
    s = scenario(G3, face_up=[SANSIANTAI, 4, 7, 10, 13], built=none3(list, p0=[B["sawmill"]]),
                 res=none3(res, p0=res(wood=1, stone=1)), workers=[1, 0, 0],
                 track=none3(list, p0=[[landmark_code(G3, "Kenting"), 4]]))
    label = lambda a: G3.action_label(s, a)  # noqa: E731
    assert label(A.PASS) == "pass"
    assert label(A.BUY_B0 + B["train_station"]) == "buy Train Station"
    assert label(A.BUY_L0) == "buy landmark Sansiantai"
    assert label(A.EX_COINS0 + 4) == "exchange 9 coins for 1 stone"
    assert label(A.EX_MERCH0) == "exchange a merchant + 2 coins for 1 worker"
    assert label(A.OVERTIME0) == "work overtime on Kenting (4 -> 3)"
    assert label(A.CHARITY0 + NORTH) == "charitable contribution to Northern Taiwan"
    act(G3, s, A.BUY_B0 + B["lottery_office"])
    assert label(A.PAY0 + FACTORY0 + WOOD) == "pay one coin with Sawmill (wood as a coin)"
    d = scenario(G3, phase="dice")
    assert G3.action_label(d, A.DICE0 + 2) == "roll 4 dice (10 coins)"
    act(G3, d, A.DICE0 + 1)
    assert G3.action_label(d, FACE_MERCHANT) == "roll merchant"


@pytest.mark.parametrize("seed", [0, 1])
def test_is_legal_agrees_with_legal_actions(seed: int) -> None:
    """T-4.3 (engine contract): the single-action legality check agrees with the listed
    legal actions over the whole action space, along random play from rich positions."""

    rng = np.random.default_rng(seed)
    s = scenario(G3, res=[res(3, 2, 2, 3), res(1, 4, 0, 2), res(5, 1, 1, 0)],
                 workers=[2, 1, 1], merchants=[1, 0, 2], tribal=[0, 3, 0],
                 warehouse=none3(res, p2=res(steel=3)), exclusive={UDB: 1, DEMOLITION: 2},
                 built=[[B["sawmill"], B["temple"]], [B["brickworks"], B[UDB]], [B[DEMOLITION]]],
                 track=none3(list, p0=[[B["night_market"], 1], [B["hot_spring_hotel"], 3]]))
    for _ in range(150):
        if G3.is_terminal(s):
            break
        if G3.current_player(s) == CHANCE:
            G3.apply_action(s, G3.sample_chance(s, rng))
            continue
        legal = set(G3.legal_actions(s))
        d = G3.top(s)
        assert legal == {a for a in range(G3.num_actions) if G3.is_legal(s, d, a)}
        G3.apply_action(s, int(rng.choice(sorted(legal))))
        G3.check_invariants(s)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_end_within_the_guard(n: int) -> None:
    """T-7.4, T-7.5: random games reach final scoring well inside ``max_game_length`` with
    every invariant kept."""

    game, rng = make_game(num_players=n), np.random.default_rng(n)
    s = game.new_initial_state()
    while not game.is_terminal(s):
        assert s.decisions < game.max_game_length
        if game.current_player(s) == CHANCE:
            game.apply_action(s, game.sample_chance(s, rng))
        else:
            game.apply_action(s, int(rng.choice(game.legal_actions(s))))
        game.check_invariants(s)
    assert s.final_round and len(game.returns(s)) == n


@pytest.mark.parametrize("options", [{"num_players": 6}, {"num_players": 1},
                                     {"num_players": 3, "colour": "red"}])
def test_bad_config_is_rejected(options: dict) -> None:
    """T-1, §5 config: 2-5 players and known options only; errors are ValueErrors."""
    with pytest.raises(ValueError):
        make_game(**options)
