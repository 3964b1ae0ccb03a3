"""Rule tests of the Formosa Flowers engine, one per rule of ``seeds/flowers.md``.

Each docstring cites the rule (F-x.y / R-n) and the rulebook section it checks.
Positions are built with ``scenario``; reveals are forced by choosing the chance
outcome (a deck card id) ourselves.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from formosa_envs.core.engine import CHANCE, TERMINAL
from formosa_envs.core.errors import IllegalActionError
from formosa_envs.games.flowers import make_game
from formosa_envs.games.flowers.actions import CAPTURE0, CASH, KEEP, LEAVE, PLAY0
from formosa_envs.games.flowers.cards import DEFAULT_CARD_FILE
from formosa_envs.games.flowers.scenario import cid, scenario

# Default deck ids (data/cards.toml), checked against cid() in the first test.
N1, N6, N9, N10, N12 = 0, 20, 32, 36, 44          # Night icons
B1, B3, B5, B6 = 1, 8, 16, 21                     # Bird icons
A4, A7, A8, A11 = 12, 24, 28, 40                  # Animal icons (not Treasure months)
T2, T10, T12 = 4, 37, 45                          # Animal icons of the Treasure months
W3, W4, W5, W9, W11 = 9, 13, 17, 33, 41           # Weather icons (not Typhoon months)
Y2, Y7, Y8 = 5, 25, 29                            # Weather icons of the Typhoon months
WILD34, WILD910 = 49, 52                           # wild cards 3/4, 9/10


def plain(month: int, k: int = 0) -> int:
    """Id of the k-th plain card of ``month`` (default deck)."""
    return 4 * (month - 1) + 2 + k


def new(n: int = 2, **options):
    options.setdefault("current_month", None)
    return make_game(num_players=n, **options)


def kind(game, s) -> str:
    return "terminal" if game.is_terminal(s) else game.top(s).kind


def play(game, s, card: int) -> None:
    assert kind(game, s) == "play"
    game.apply_action(s, PLAY0 + card)


def reveal(game, s, card: int) -> None:
    assert kind(game, s) == "reveal" and game.current_player(s) == CHANCE
    game.apply_action(s, card)


def miss(game, s) -> int:
    """Reveal a plain deck card matching nothing on the field or in any hand."""
    used = 0
    for c in s.field + [c for h in s.hands for c in h]:
        used |= 1 << c
    for c in sorted(s.deck):
        card = game.cards[c]
        if not card.icons and not card.is_wild and not game.match_mask[c] & used:
            reveal(game, s, c)
            return c
    raise AssertionError("no harmless card left in the deck")


def turn(game, s, card: int, rev: int | None = None) -> None:
    """Play ``card`` (single or no match), then reveal ``rev`` or a harmless card."""
    play(game, s, card)
    if rev is None:
        miss(game, s)
    else:
        reveal(game, s, rev)


def deal_all(game, s, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    while game.current_player(s) == CHANCE:
        assert game.top(s).kind == "deal"
        game.apply_action(s, game.sample_chance(s, rng))


# ----- F-1 components ---------------------------------------------------------------

def test_card_ids_used_here_match_the_deck() -> None:
    """F-1.1, F-1.2: 54 cards, 4 per month + 6 wilds; icons read from cards.toml."""
    game = new()
    assert len(game.cards) == 54 and sum(c.is_wild for c in game.cards) == 6
    assert [cid(game, m, "night") for m in (1, 6, 9, 10, 12)] == [N1, N6, N9, N10, N12]
    assert [cid(game, m, "bird") for m in (1, 3, 5, 6)] == [B1, B3, B5, B6]
    assert [cid(game, m, "animal") for m in (4, 7, 8, 11)] == [A4, A7, A8, A11]
    assert [cid(game, m, "animal") for m in (2, 10, 12)] == [T2, T10, T12]
    assert [cid(game, m, "weather") for m in (3, 4, 5, 9, 11)] == [W3, W4, W5, W9, W11]
    assert [cid(game, m, "weather") for m in (2, 7, 8)] == [Y2, Y7, Y8]
    assert [cid(game, (1, 2)), cid(game, (3, 4)), cid(game, (9, 10))] == [48, 49, 52]
    assert all(cid(game, m, None, k) == plain(m, k) for m in range(1, 13) for k in (0, 1))


def test_hands_are_hidden_from_other_seats() -> None:
    """F-1.5: a hand is seen only by its owner; the field and piles are open to all."""
    game = new(2)
    a = scenario(game, hands=[[plain(5)], [plain(6)]], field=[plain(7)], piles=[[B1], []])
    b = scenario(game, hands=[[plain(8)], [plain(6)]], field=[plain(7)], piles=[[B1], []])
    assert np.array_equal(game.observe(a, 1), game.observe(b, 1))
    assert not np.array_equal(game.observe(a, 0), game.observe(b, 0))
    c = scenario(game, hands=[[plain(5)], [plain(6)]], field=[plain(7)], piles=[[B3], []])
    assert not np.array_equal(game.observe(a, 1), game.observe(c, 1))


# ----- F-2 setup ----------------------------------------------------------------------

@pytest.mark.parametrize(("n", "size", "deck"), [(2, 8, 30), (3, 7, 26), (4, 6, 24)])
def test_deal_sizes_and_start_state(n: int, size: int, deck: int) -> None:
    """F-2.1, F-2.2, F-2.4, R-15: hands and field 8/7/6, deck 30/26/24; seat 0 starts."""
    game = new(n)
    s = game.new_initial_state()
    assert kind(game, s) == "deal" and s.supply == 9 and s.scores == [0] * n
    deal_all(game, s, seed=n)
    assert [len(h) for h in s.hands] == [size] * n
    assert len(s.field) == size and len(s.deck) == deck
    assert game.current_player(s) == 0 and kind(game, s) == "play"
    assert s.tokens == [0] * n and s.piles == [[]] * n and s.cashed == [False] * n
    assert game.legal_actions(s) == sorted(PLAY0 + c for c in s.hands[0])


def test_start_player_rotates_in_round_two() -> None:
    """F-2.3, R-10, F-5.3: round 2 starts with seat 1 and deals seat 1 first."""
    game = new(2)
    s = treasure_position(game)
    game.apply_action(s, CASH)
    assert s.round == 2 and s.round_start == 1 and kind(game, s) == "deal"
    for c in range(24):
        game.apply_action(s, c)
    assert s.hands[1] == list(range(0, 16, 2)) and s.hands[0] == list(range(1, 16, 2))
    assert s.field == list(range(16, 24))
    assert game.current_player(s) == 1 and kind(game, s) == "play"


# ----- F-3 matching ---------------------------------------------------------------------

def test_single_match_is_captured_automatically() -> None:
    """F-3.2: one matching field card is captured with no decision."""
    game = new()
    s = scenario(game, hands=[[B3], [plain(6)]], field=[plain(3), plain(5)])
    play(game, s, B3)
    assert kind(game, s) == "reveal"
    assert s.piles[0] == [B3, plain(3)] and s.field == [plain(5)]


def test_several_matches_player_chooses_one() -> None:
    """F-3.2, R-18: several matches -> capture_played among exactly those; one is taken."""
    game = new()
    s = scenario(game, hands=[[B3], [plain(6)]], field=[W3, plain(3), plain(3, 1), plain(5)])
    play(game, s, B3)
    d = game.top(s)
    assert (d.kind, d.player) == ("capture_played", 0)
    assert game.legal_actions(s) == [CAPTURE0 + W3, CAPTURE0 + plain(3), CAPTURE0 + plain(3, 1)]
    game.apply_action(s, CAPTURE0 + W3)
    assert s.piles[0] == [B3, W3]
    assert sorted(s.field) == [plain(3), plain(3, 1), plain(5)]
    assert kind(game, s) == "reveal"


def test_no_match_card_joins_the_field() -> None:
    """F-3.2: a played card with no match joins the field."""
    game = new()
    s = scenario(game, hands=[[B3], [plain(6)]], field=[plain(5)])
    play(game, s, B3)
    assert s.field == [plain(5), B3] and s.piles[0] == [] and kind(game, s) == "reveal"


def test_capture_is_mandatory() -> None:
    """R-1, F-3.1: a matching normal card must capture; LEAVE and other ids are illegal."""
    game = new()
    s = scenario(game, hands=[[B3], [plain(6)]], field=[plain(3), plain(3, 1)])
    for bad in (PLAY0 + plain(6), KEEP, CAPTURE0 + plain(3)):
        with pytest.raises(IllegalActionError):
            game.apply_action(s, bad)
    play(game, s, B3)
    assert LEAVE not in game.legal_actions(s)
    with pytest.raises(IllegalActionError):
        game.apply_action(s, LEAVE)
    with pytest.raises(IllegalActionError):
        game.apply_action(s, CAPTURE0 + plain(6))


def test_wild_choice_across_both_months_without_leave() -> None:
    """F-3.5, R-2: a wild matching on both months chooses among both; no LEAVE."""
    game = new()
    s = scenario(game, hands=[[WILD34], [plain(6)]], field=[plain(3), plain(4), plain(5)])
    play(game, s, WILD34)
    assert kind(game, s) == "capture_played"
    assert game.legal_actions(s) == [CAPTURE0 + plain(3), CAPTURE0 + plain(4)]
    game.apply_action(s, CAPTURE0 + plain(4))
    assert s.piles[0] == [WILD34, plain(4)]


def test_wild_with_an_unmatched_month_may_be_left() -> None:
    """F-3.5, R-2: one month unmatched -> LEAVE offered even with a single match."""
    game = new()
    s = scenario(game, hands=[[WILD34], [plain(6)]], field=[plain(3), plain(5)])
    play(game, s, WILD34)
    assert game.legal_actions(s) == [CAPTURE0 + plain(3), LEAVE]
    game.apply_action(s, LEAVE)
    assert s.field == [plain(3), plain(5), WILD34] and s.piles[0] == []
    assert kind(game, s) == "reveal"


def test_wild_matching_nothing_is_left_automatically() -> None:
    """F-3.5: neither month matches -> the wild joins the field with no decision."""
    game = new()
    s = scenario(game, hands=[[WILD34], [plain(6)]], field=[plain(5)])
    play(game, s, WILD34)
    assert kind(game, s) == "reveal" and s.field == [plain(5), WILD34]


@pytest.mark.parametrize("month", [3, 4])
def test_wild_on_the_field_matches_either_month(month: int) -> None:
    """F-3.2, R-2: a wild on the field is matched by a card of either of its months."""
    game = new()
    s = scenario(game, hands=[[plain(month)], [plain(6)]], field=[WILD34, plain(5)])
    play(game, s, plain(month))
    assert s.piles[0] == [plain(month), WILD34] and s.field == [plain(5)]


def test_revealed_single_match_is_captured_automatically() -> None:
    """F-3.4: a revealed card with one match is captured into the active pile."""
    game = new()
    s = scenario(game, hands=[[plain(5)], [plain(6)]], field=[plain(7)])
    turn(game, s, plain(5), rev=Y7)
    assert s.piles[0] == [Y7, plain(7)] and s.field == [plain(5)]
    assert game.current_player(s) == 1 and kind(game, s) == "play"


def test_revealed_several_matches_player_chooses() -> None:
    """F-3.4: several matches for the revealed card -> capture_revealed for the player."""
    game = new()
    s = scenario(game, hands=[[plain(5)], [plain(6)]], field=[plain(7), plain(7, 1), A8])
    turn(game, s, plain(5), rev=Y7)
    d = game.top(s)
    assert (d.kind, d.player) == ("capture_revealed", 0)
    assert game.legal_actions(s) == [CAPTURE0 + plain(7), CAPTURE0 + plain(7, 1)]
    game.apply_action(s, CAPTURE0 + plain(7, 1))
    assert s.piles[0] == [Y7, plain(7, 1)] and game.current_player(s) == 1


def test_revealed_wild_may_be_left() -> None:
    """F-3.4, F-3.5: a revealed wild with an unmatched month offers LEAVE."""
    game = new()
    s = scenario(game, hands=[[plain(5)], [plain(6)]], field=[plain(10)])
    turn(game, s, plain(5), rev=WILD910)
    assert kind(game, s) == "capture_revealed"
    assert game.legal_actions(s) == [CAPTURE0 + plain(10), LEAVE]
    game.apply_action(s, CAPTURE0 + plain(10))
    assert s.piles[0] == [WILD910, plain(10)]


def test_reveal_sees_the_card_played_this_turn() -> None:
    """R-19, F-3.3: a played card left on the field in step 1 is matched by the reveal."""
    game = new()
    s = scenario(game, hands=[[plain(5)], [plain(6)]], field=[plain(7)])
    turn(game, s, plain(5), rev=B5)
    assert s.piles[0] == [B5, plain(5)] and s.field == [plain(7)]


def test_empty_deck_skips_the_reveal() -> None:
    """F-3.6: with an empty deck the reveal step is skipped."""
    game = new()
    rest = [c for c in range(54) if c not in (plain(5), plain(6), plain(7))]
    s = scenario(game, hands=[[plain(5)], [plain(6)]], field=[plain(7)],
                 piles=[[], rest], deck=[])
    play(game, s, plain(5))
    assert game.current_player(s) == 1 and kind(game, s) == "play"
    assert s.field == [plain(7), plain(5)]


# ----- F-4 scoring phase ----------------------------------------------------------------

def treasure_position(game, tokens=None, scores=None, cashed=None):
    """Player 0 completes Treasure (10 VP) by playing T12 onto the plain 12."""
    n = game.num_players
    hands = [[T12, plain(4)]] + [[plain(5 + p)] for p in range(1, n)]
    piles = [[T2, T10]] + [[] for _ in range(1, n)]
    s = scenario(game, hands=hands, field=[plain(12)], piles=piles, tokens=tokens,
                 scores=scores, cashed=cashed)
    turn(game, s, T12)
    return s


def night_position(game, tokens=None, scores=None, cashed=None, extra=()):
    """Player 0 completes Night 3 (5 VP) by playing N9 onto the plain 9."""
    n = game.num_players
    hands = [[N9, *extra]] + [[plain(3 + p)] for p in range(1, n)]
    piles = [[N1, N6]] + [[] for _ in range(1, n)]
    s = scenario(game, hands=hands, field=[plain(9)], piles=piles, tokens=tokens,
                 scores=scores, cashed=cashed)
    turn(game, s, N9)
    return s


def sixteen_position(game, tokens=None, hand=(), field=()):
    """Night 3 + Bird 2 + Weather 3 (13 VP); N10 onto plain 10 makes Night 4 -> 16 VP."""
    s = scenario(game, hands=[[N10, *hand], [plain(11)]], field=[plain(10), *field],
                 piles=[[N1, N6, N9, B1, B3, W3, W4, W5], []], tokens=tokens)
    turn(game, s, N10)
    return s


def test_new_set_at_threshold_offers_the_choice() -> None:
    """F-4.1, F-4.2: a new set (Treasure 10 VP >= 7) -> keep_or_cash; Keep takes a token."""
    game = new(2)
    s = treasure_position(game)
    d = game.top(s)
    assert (d.kind, d.player) == ("keep_or_cash", 0)
    assert game.legal_actions(s) == [KEEP, CASH] and s.pile_vp[0] == 10
    game.apply_action(s, KEEP)
    assert s.tokens == [1, 0] and s.supply == 8 and s.scores == [0, 0]
    assert game.current_player(s) == 1 and kind(game, s) == "play"


@pytest.mark.parametrize(("n", "offered"), [(2, False), (3, True), (4, True)])
def test_threshold_is_seven_or_four(n: int, offered: bool) -> None:
    """F-4.1, R-5: Night 3 = 5 VP is below 7 (2p) but reaches 4 (3-4p)."""
    game = new(n)
    s = night_position(game)
    assert s.pile_vp[0] == 5
    if offered:
        assert kind(game, s) == "keep_or_cash" and game.current_player(s) == 0
    else:
        assert game.current_player(s) == 1 and kind(game, s) == "play"


def test_one_scoring_phase_counts_both_captures() -> None:
    """R-11, F-4.1: the choice comes after the reveal and counts both captures."""
    game = new(2)
    s = scenario(game, hands=[[N9], [plain(6)]], field=[plain(9), plain(3)],
                 piles=[[N1, N6, B1], []])
    play(game, s, N9)                              # Night 3 (5 VP): no choice yet
    assert kind(game, s) == "reveal"
    reveal(game, s, B3)                            # Bird 2 (4 VP) -> 9 VP >= 7
    assert kind(game, s) == "keep_or_cash" and s.pile_vp[0] == 9


def test_turn_without_capture_gives_no_choice() -> None:
    """F-4.1: a turn with no capture never offers the choice, whatever the set VP."""
    game = new(2)
    s = scenario(game, hands=[[plain(5)], [plain(6)]], field=[plain(7)],
                 piles=[[T2, T10, T12, N1, N6, N9], []])
    turn(game, s, plain(5))
    assert game.current_player(s) == 1 and kind(game, s) == "play"


def test_growing_animal_set_is_not_new() -> None:
    """R-4: an extra Animal card grows the set (+1 VP) but offers no choice."""
    game = new(2)
    s = scenario(game, hands=[[A11], [plain(6)]], field=[plain(11)],
                 piles=[[A4, A7, A8, B1, B3], []])
    turn(game, s, A11)
    assert s.pile_vp[0] == 11
    assert game.current_player(s) == 1 and kind(game, s) == "play"


def test_night_three_to_four_is_a_new_set() -> None:
    """R-4: Night going from 3 to 4 cards is a new (set, tier) -> choice offered."""
    game = new(2)
    s = scenario(game, hands=[[N10], [plain(6)]], field=[plain(10)],
                 piles=[[N1, N6, N9, B1, B3], []])
    turn(game, s, N10)
    assert kind(game, s) == "keep_or_cash" and s.pile_vp[0] == 12


def test_typhoon_reorganisation_offers_the_choice() -> None:
    """F-7.7, R-6, rulebook Weather note: Weather 2/7/3 + the 8 Weather -> Typhoons."""
    game = new(2)
    s = scenario(game, hands=[[Y8], [plain(6)]], field=[plain(8)],
                 piles=[[Y2, Y7, W3], []])
    assert s.pile_vp[0] == 4
    turn(game, s, Y8)
    assert kind(game, s) == "keep_or_cash" and s.pile_vp[0] == 10
    assert [x.name for x in game.score_cards(s.piles[0]).sets] == ["typhoon"]
    assert game.score_cards([Y2, Y7, Y8, W3, W4, W5]).vp == 14


def test_rulebook_example_sixteen_vp_one_token() -> None:
    """F-4.3, R-8, rulebook Cash Out example: 16 VP with one token scores 32 VP."""
    game = new(2)
    s = sixteen_position(game, tokens=[1, 0])
    assert kind(game, s) == "keep_or_cash" and s.pile_vp[0] == 16
    game.apply_action(s, CASH)
    assert s.scores[0] == 32


@pytest.mark.parametrize(("tokens", "gained"), [(0, 16), (1, 32), (2, 64), (3, 128)])
def test_multiplier_table(tokens: int, gained: int) -> None:
    """F-4.3, R-8, rulebook multiplier table: x1/x2/x4/x8 for 0/1/2/3 tokens."""
    game = new(2, target_vp=120)
    s = sixteen_position(game, tokens=[tokens, 0])
    game.apply_action(s, CASH)
    assert s.scores == [gained, 0]


def test_fourth_keep_playing_takes_no_token() -> None:
    """R-7: at 3 tokens Keep Playing is legal, takes no token; multiplier stays x8."""
    game = new(2)
    s = sixteen_position(game, tokens=[3, 0], hand=[B5], field=[plain(5)])
    assert game.legal_actions(s) == [KEEP, CASH]
    game.apply_action(s, KEEP)
    assert s.tokens == [3, 0] and s.supply == 6
    turn(game, s, plain(11))                       # player 1
    turn(game, s, B5)                              # Bird 3: a new tier -> 8 + 5 + 4 = 17
    assert kind(game, s) == "keep_or_cash" and s.pile_vp[0] == 17
    game.apply_action(s, CASH)
    assert s.scores[0] == 17 * 8


def test_empty_supply_keep_playing_still_legal() -> None:
    """R-7, F-4.2: 4 players, supply empty -> Keep Playing legal, no token taken."""
    game = new(4)
    s = night_position(game, tokens=[0, 3, 3, 3])
    assert s.supply == 0 and game.legal_actions(s) == [KEEP, CASH]
    game.apply_action(s, KEEP)
    assert s.tokens == [0, 3, 3, 3] and s.supply == 0
    assert game.current_player(s) == 1


def test_rulebook_example_casual_plus_animal() -> None:
    """Rulebook Scoring phase example, F-7.8, F-7.4: Casual 4 + Animal 6 = 10 VP."""
    game = new(2)
    base = [A4, A7, A8, plain(1), plain(1, 1), plain(2), plain(2, 1), plain(3)]
    s = scenario(game, hands=[[plain(4)], [plain(6)]], field=[plain(4, 1)],
                 piles=[base, []])
    assert s.pile_vp[0] == 6
    turn(game, s, plain(4))
    assert kind(game, s) == "keep_or_cash" and s.pile_vp[0] == 10
    game.apply_action(s, CASH)
    assert s.scores == [10, 0]


def test_cash_out_scores_returns_tokens_and_skips_the_player() -> None:
    """F-4.3: score added, tokens back to the supply, turns skipped, hand kept aside."""
    game = new(3)
    s = night_position(game, tokens=[1, 1, 0], extra=[plain(2)])
    s.hands[1].append(plain(6))
    s.hands[2].append(plain(7))
    game.apply_action(s, CASH)
    assert s.scores == [10, 0, 0] and s.tokens == [0, 1, 0] and s.supply == 8
    assert s.cashed == [True, False, False] and s.round == 1
    assert game.current_player(s) == 1
    turn(game, s, plain(4))
    assert game.current_player(s) == 2
    turn(game, s, plain(5))
    assert game.current_player(s) == 1 and s.hands[0] == [plain(2)]


# ----- F-5 end of round ------------------------------------------------------------------

def test_two_player_cash_out_ends_the_round_and_cleans_up() -> None:
    """F-5.1, F-5.3, R-7, R-9: first Cash Out ends a 2p round; the other scores nothing."""
    game = new(2)
    hands = [[T12, plain(4)], [plain(6)]]
    s = scenario(game, hands=hands, field=[plain(12)], tokens=[0, 2],
                 piles=[[T2, T10], [N1, N6, N9, B1, B3]])
    turn(game, s, T12)
    game.apply_action(s, CASH)
    assert s.scores == [10, 0] and s.round == 2 and kind(game, s) == "deal"
    assert s.tokens == [0, 0] and s.supply == 9 and s.cashed == [False, False]
    assert s.piles == [[], []] and s.field == [] and s.hands == [[], []]
    assert sorted(s.deck) == list(range(54)) and s.pile_vp == [0, 0]


def test_last_active_player_scores_nothing() -> None:
    """F-5.1: 3p, the second Cash Out ends the round; the last player gets nothing."""
    game = new(3)
    s = night_position(game, tokens=[0, 0, 1], cashed=[False, True, False], scores=[0, 7, 0])
    s.piles[2] = [T2, T10, T12]
    game.apply_action(s, CASH)
    assert s.scores == [5, 7, 0] and s.round == 2 and s.supply == 9
    assert s.tokens == [0, 0, 0] and s.round_start == 1


def test_round_ends_when_active_hands_are_empty() -> None:
    """F-5.2, R-9: no active player holds a card -> round ends, nobody remaining scores."""
    game = new(3)
    s = scenario(game, hands=[[plain(4)], [plain(5)], []], field=[plain(7)], turn=1,
                 piles=[[], [N1, N6, N9, B1, B3], [T2, T10, T12]],
                 cashed=[True, False, False], tokens=[0, 2, 1], scores=[20, 0, 0])
    turn(game, s, plain(5))
    assert s.round == 2 and kind(game, s) == "deal"
    assert s.scores == [20, 0, 0] and s.tokens == [0, 0, 0] and s.supply == 9


# ----- F-6 end of game ---------------------------------------------------------------------

def test_game_ends_at_round_end_with_sixty() -> None:
    """F-6.1, F-6.2: a round ending with a score >= 60 ends the game; most VP wins."""
    game = new(2)
    s = treasure_position(game, scores=[55, 0])
    game.apply_action(s, CASH)
    assert game.is_terminal(s) and game.current_player(s) == TERMINAL
    assert s.scores == [65, 0] and game.returns(s) == [1.0, -1.0]
    assert game.legal_actions(s) == []


def test_game_does_not_end_before_the_round_ends() -> None:
    """F-6.1: reaching 60 mid-round does not end the game until the round is over."""
    game = new(3)
    s = night_position(game, scores=[58, 0, 0])
    game.apply_action(s, CASH)
    assert s.scores == [63, 0, 0] and not game.is_terminal(s)
    assert game.returns(s) == [0.0, 0.0, 0.0] and game.current_player(s) == 1
    turn(game, s, s.hands[1][0])
    turn(game, s, s.hands[2][0])
    assert game.is_terminal(s) and game.returns(s) == [1.0, -0.5, -0.5]


def test_tied_leaders_share_the_victory() -> None:
    """F-6.2, R-12: tied leaders share the victory; returns are equal and sum to 0."""
    game = new(2)
    s = treasure_position(game, scores=[50, 60])
    game.apply_action(s, CASH)
    assert game.is_terminal(s) and s.scores == [60, 60] and game.returns(s) == [0.0, 0.0]
    game = new(3)
    s = night_position(game, scores=[55, 60, 10], cashed=[False, True, False])
    game.apply_action(s, CASH)
    assert game.is_terminal(s) and s.scores == [60, 60, 10]
    r = game.returns(s)
    assert r == [0.5, 0.5, -1.0] and sum(r) == 0


# ----- F-7 scoring sets at the engine level ---------------------------------------------

def test_weather_scores_once_per_round() -> None:
    """F-7.6, rulebook Weather set: a second Weather trio adds nothing and is not new."""
    game = new(2)
    s = scenario(game, hands=[[W9], [plain(6)]], field=[plain(9), plain(11)],
                 piles=[[W3, W4, W5, B1, B3], []])
    turn(game, s, W9, rev=W11)
    assert len(s.piles[0]) == 9 and s.pile_vp[0] == 8
    assert game.current_player(s) == 1
    for pile in ([W3, W4, W5, W9], [Y2, W3, W4, W5, W9, W11]):   # never more than 3 cards
        sets = game.score_cards(pile).sets
        assert [(x.name, x.tier, x.cards, x.vp) for x in sets] == [("weather", 3, 3, 4)]


def test_night_nine_is_never_an_animal(tmp_path: Path) -> None:
    """R-13, F-7.4, rulebook Night set note: a 9-Night card with an Animal icon stays out."""
    text = DEFAULT_CARD_FILE.read_text(encoding="utf-8")
    old = 'id = 32\nmonths = [9]\nicons = ["night"]'
    assert old in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(old, 'id = 32\nmonths = [9]\nicons = ["night", "animal"]'),
                    encoding="utf-8")
    game = new(2, card_file=str(path))
    assert game.cards[N9].icons == ("night", "animal")
    assert game.score_cards([N9, A4, A7]).vp == 0
    assert game.score_cards([N9, N1, N6]).vp == 5
    assert game.score_cards([N9, A4, A7, A8]).vp == 6


def test_seven_animals_split_into_treasure_and_animal() -> None:
    """R-3, F-7.5, R-17: 6 Animals = 9 VP; the 7th (12) gives Treasure 10 + Animal 7."""
    game = new(2)
    assert game.score_cards([T2, T10, A4, A7, A8, A11]).vp == 9
    s = scenario(game, hands=[[T12], [plain(6)]], field=[plain(12)],
                 piles=[[T2, T10, A4, A7, A8, A11], []])
    turn(game, s, T12)
    assert kind(game, s) == "keep_or_cash" and s.pile_vp[0] == 17


def test_night_is_preferred_to_an_equal_casual_set() -> None:
    """R-4 tie-break: 3 Night + 5 others scores as Night 5, not Casual 8 -> no new set."""
    game = new(3)
    base = [N1, N6, N9, plain(1), plain(2), plain(3)]
    s = scenario(game, hands=[[plain(4)], [plain(5)], [plain(6)]], field=[plain(4, 1)],
                 piles=[base, [], []])
    turn(game, s, plain(4))
    assert s.pile_vp[0] == 5 and game.current_player(s) == 1
    assert [x.name for x in game.score_cards(s.piles[0]).sets] == ["night"]


# ----- F-8 Current Month variant ------------------------------------------------------------

@pytest.mark.parametrize(("n", "month", "vp"), [(2, 3, 7), (3, 3, 4), (4, 3, 4), (2, None, 0),
                                             (3, 4, 0)])
def test_current_month_set(n: int, month: int | None, vp: int) -> None:
    """F-8.1, R-4: all four cards of the current month score 7 (2p) / 4 (3-4p), new set."""
    game = new(n, current_month=month)
    hands = [[plain(3)]] + [[plain(5 + p)] for p in range(1, n)]
    s = scenario(game, hands=hands, field=[plain(3, 1)],
                 piles=[[B3, W3]] + [[] for _ in range(1, n)])
    turn(game, s, plain(3))
    assert s.pile_vp[0] == vp
    if not vp:  # variant off, or another month: nothing scores, the turn just ends
        assert game.current_player(s) == 1
        return
    assert kind(game, s) == "keep_or_cash"
    game.apply_action(s, CASH)
    assert s.scores[0] == vp


def test_current_month_ignores_wild_cards() -> None:
    """R-2, F-8.1: a wild declared as the current month does not complete the set."""
    game = new(2, current_month=3)
    s = scenario(game, hands=[[WILD34], [plain(6)]], field=[plain(4)],
                 piles=[[B3, W3, plain(3)], []])
    play(game, s, WILD34)
    assert game.legal_actions(s) == [CAPTURE0 + plain(4), LEAVE]
    game.apply_action(s, CAPTURE0 + plain(4))
    miss(game, s)
    assert s.pile_vp[0] == 0 and game.current_player(s) == 1


# ----- labels and configuration ---------------------------------------------------------------

def test_action_labels_are_readable() -> None:
    """Section 2: labels name the card, the capture, the VP and the multiplier."""
    game = new(2)
    s = sixteen_position(game, tokens=[1, 0])
    assert game.action_label(s, CASH) == "cash out 16 x2 = 32 VP"
    assert "16 VP" in game.action_label(s, KEEP) and "1" in game.action_label(s, KEEP)
    s = scenario(game, hands=[[WILD34, B3], [plain(6)]], field=[plain(3)])
    assert game.action_label(s, PLAY0 + B3) == "play 3-Bird"
    play(game, s, WILD34)
    assert game.action_label(s, CAPTURE0 + plain(3)) == "capture 3 with 3/4"
    assert game.action_label(s, LEAVE) == "leave 3/4 on the field as month 4"
    game.apply_action(s, CAPTURE0 + plain(3))
    assert game.action_label(s, Y7) == "reveal 7-Weather"
    assert game.action_label(game.new_initial_state(), N9) == "deal 9-Night"


@pytest.mark.parametrize(("options", "message"), [
    ({"num_players": 5}, "2-4 players"),
    ({"num_players": 1}, "2-4 players"),
    ({"current_month": 13}, "current_month"),
    ({"current_month": 0}, "current_month"),
    ({"colour": "red"}, "unknown option"),
    ({"target_vp": 0}, "target_vp"),
])
def test_bad_config_is_rejected(options: dict, message: str) -> None:
    """Section 5 config: bad values and unknown options raise a clear ValueError."""
    with pytest.raises(ValueError, match=message):
        make_game(**options)


# ----- whole games -----------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_invariants(n: int) -> None:
    """F-1.3, F-1.1, F-6.1, R-12: random games keep 54 cards / 9 tokens and end >= 60."""
    game = new(n)
    rng = np.random.default_rng(100 + n)
    s = game.new_initial_state()
    while not game.is_terminal(s):
        if game.current_player(s) == CHANCE:
            game.apply_action(s, game.sample_chance(s, rng))
        else:
            game.apply_action(s, int(rng.choice(game.legal_actions(s))))
        game.check_invariants(s)
        assert s.decisions < game.max_game_length
    assert max(s.scores) >= 60 and abs(sum(game.returns(s))) < 1e-9
