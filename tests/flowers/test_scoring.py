"""Tests of the pure Formosa Flowers pile scoring (formosa_envs.games.flowers.scoring)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from formosa_envs.games.flowers.cards import ICONS, Card, load_cards
from formosa_envs.games.flowers.scoring import (
    SET_NAMES,
    PileScore,
    SetScore,
    completes_new_set,
    score_pile,
)

DECK = load_cards()

# Default deck ids (cards.toml): month m holds 4*(m-1)+k; k=0,1 icon cards, k=2,3 plain.
NIGHT = (0, 20, 32, 36, 44)                  # 1N 6N 9N 10N 12N
BIRD = (1, 8, 16, 21)                        # 1B 3B 5B 6B
ANIMAL = (12, 24, 28, 40)                    # 4A 7A 8A 11A (not treasure months)
TREASURE = (4, 37, 45)                       # 2A 10A 12A
WEATHER = (9, 13, 17, 33, 41)                # 3W 4W 5W 9W 11W (not typhoon months)
TYPHOON = (5, 25, 29)                        # 2W 7W 8W
PLAIN = tuple(4 * m + k for m in range(12) for k in (2, 3))
WILD = (48, 49, 50, 51, 52, 53)              # 1/2 3/4 5/6 7/8 9/10 11/12


def pile(*ids: int, deck: tuple[Card, ...] = DECK) -> list[Card]:
    return [deck[i] for i in ids]


def score(*ids: int, players: int = 3, month: int | None = None,
          deck: tuple[Card, ...] = DECK) -> PileScore:
    return score_pile(pile(*ids, deck=deck), players, month)


def by_name(result: PileScore) -> dict[str, SetScore]:
    return {s.name: s for s in result.sets}


def override(deck: tuple[Card, ...], **icons: tuple[str, ...]) -> tuple[Card, ...]:
    """A copy of ``deck`` with new icons for the cards named ``c<id>``."""
    new = list(deck)
    for name, value in icons.items():
        new[int(name[1:])] = dataclasses.replace(deck[int(name[1:])], icons=value)
    return tuple(new)


def test_deck_ids_match_the_data() -> None:
    assert all(DECK[i].icons == ("night",) for i in NIGHT)
    assert all(DECK[i].icons == ("bird",) for i in BIRD)
    assert all(DECK[i].icons == ("animal",) for i in ANIMAL + TREASURE)
    assert all(DECK[i].icons == ("weather",) for i in WEATHER + TYPHOON)
    assert [DECK[i].months[0] for i in TREASURE] == [2, 10, 12]
    assert [DECK[i].months[0] for i in TYPHOON] == [2, 7, 8]
    assert all(DECK[i].icons == () and not DECK[i].is_wild for i in PLAIN)
    assert all(DECK[i].is_wild and DECK[i].icons == () for i in WILD)


def test_empty_pile() -> None:
    result = score()
    assert result == PileScore(0, ())
    assert result.keys() == frozenset()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        score_pile([], 1)
    with pytest.raises(ValueError):
        score_pile([], 5)
    with pytest.raises(ValueError):
        score_pile([], 2, 13)
    with pytest.raises(ValueError):
        score_pile([], 2, 0)


@pytest.mark.parametrize(("n", "vp"), [(1, 0), (2, 0), (3, 5), (4, 8), (5, 15)])
def test_night_tiers(n: int, vp: int) -> None:
    result = score(*NIGHT[:n])
    assert result.vp == vp
    if vp:
        assert result.sets == (SetScore("night", n, n, vp),)


@pytest.mark.parametrize(("n", "vp"), [(1, 0), (2, 4), (3, 5), (4, 12)])
def test_bird_tiers(n: int, vp: int) -> None:
    result = score(*BIRD[:n])
    assert result.vp == vp
    if vp:
        assert result.sets == (SetScore("bird", n, n, vp),)


@pytest.mark.parametrize(("ids", "vp"), [
    (ANIMAL[:1], 0), (ANIMAL[:2], 0), (ANIMAL[:3], 6), (ANIMAL, 7),
    (ANIMAL + TREASURE[:1], 8), (ANIMAL + TREASURE[:2], 9),
])
def test_animal_three_then_one_per_extra(ids: tuple[int, ...], vp: int) -> None:
    result = score(*ids)
    assert result.vp == vp
    if vp:
        assert result.sets == (SetScore("animal", 3, len(ids), vp),)


@pytest.mark.parametrize(("n", "vp"), [(6, 0), (7, 4), (8, 5), (10, 7), (24, 21)])
def test_casual_seven_then_one_per_extra(n: int, vp: int) -> None:
    result = score(*PLAIN[:n])
    assert result.vp == vp
    if vp:
        assert result.sets == (SetScore("casual", 7, n, vp),)


def test_casual_takes_wilds_and_unused_icon_cards() -> None:
    assert score(*PLAIN[:5], 48, 53).sets == (SetScore("casual", 7, 7, 4),)
    # two night, one bird, one animal, one weather: no set of their own, all casual
    result = score(NIGHT[0], NIGHT[1], BIRD[0], ANIMAL[0], WEATHER[0], *PLAIN[:2])
    assert result.sets == (SetScore("casual", 7, 7, 4),)
    # all six wilds + one plain card
    assert score(*WILD, PLAIN[0]).vp == 4


def test_all_wilds_and_plain_cards() -> None:
    assert score(*WILD, *PLAIN).sets == (SetScore("casual", 7, 30, 27),)


def test_rulebook_example_casual_plus_animal() -> None:
    result = score(*ANIMAL[:3], *PLAIN[:7])
    assert result.vp == 10
    assert result.sets == (SetScore("animal", 3, 3, 6), SetScore("casual", 7, 7, 4))


def test_night_capped_at_five() -> None:
    deck = override(DECK, c2=("night",))  # a sixth night card
    result = score(*NIGHT, 2, deck=deck)
    assert result.sets == (SetScore("night", 5, 5, 15),)
    result = score(*NIGHT, 2, *PLAIN[2:8], deck=deck)  # 6th night card joins casual
    assert result.vp == 19
    assert by_name(result)["casual"].cards == 7


def test_bird_capped_at_four() -> None:
    deck = override(DECK, c2=("bird",))
    assert score(*BIRD, 2, deck=deck).sets == (SetScore("bird", 4, 4, 12),)
    assert score(*BIRD, 2, *PLAIN[2:8], deck=deck).vp == 16


def test_treasure_alone_and_with_animal() -> None:
    assert score(*TREASURE).sets == (SetScore("treasure", 3, 3, 10),)
    result = score(*TREASURE, 12, 24, 28)  # 2A 10A 12A + 4A 7A 8A
    assert result.vp == 16
    assert result.sets == (SetScore("animal", 3, 3, 6), SetScore("treasure", 3, 3, 10))


def test_treasure_cards_leave_the_animal_set() -> None:
    # four animals: treasure (10) beats one animal set of four (7)
    assert score(*TREASURE, 12).sets == (SetScore("treasure", 3, 3, 10),)
    # all seven animals: treasure + animal of four = 17, better than animal of seven (10)
    result = score(*TREASURE, *ANIMAL)
    assert result.vp == 17
    assert by_name(result)["animal"].cards == 4
    # missing the December animal: no treasure, the four animals make one Animal set
    assert score(4, 37, 12, 24).sets == (SetScore("animal", 3, 4, 7),)


def test_treasure_needs_single_month_cards() -> None:
    deck = override(DECK, c48=("animal",), c53=("animal",))  # wilds 1/2 and 11/12
    result = score(48, 37, 53, deck=deck)
    assert result.sets == (SetScore("animal", 3, 3, 6),)


@pytest.mark.parametrize(("n", "vp"), [(1, 0), (2, 0), (3, 4), (4, 4), (5, 4)])
def test_weather_exactly_three(n: int, vp: int) -> None:
    result = score(*WEATHER[:n])
    assert result.vp == vp
    if vp:
        assert result.sets == (SetScore("weather", 3, 3, 4),)


def test_weather_scores_once() -> None:
    six = (*WEATHER, TYPHOON[0])  # six weather cards, typhoon incomplete
    assert score(*six).sets == (SetScore("weather", 3, 3, 4),)
    result = score(*six, *PLAIN[:4])  # three spare weather cards + four plain = casual 7
    assert result.vp == 8
    assert result.sets == (SetScore("weather", 3, 3, 4), SetScore("casual", 7, 7, 4))


def test_typhoon_and_weather_together() -> None:
    assert score(*TYPHOON).sets == (SetScore("typhoon", 3, 3, 10),)
    result = score(*TYPHOON, *WEATHER[:3])
    assert result.vp == 14
    assert result.keys() == {("weather", 3), ("typhoon", 3)}
    # all eight weather cards: still only one Weather set next to Typhoons
    assert score(*TYPHOON, *WEATHER).vp == 14


def test_weather_reorganised_into_typhoon() -> None:
    before = score(5, 25, 9)  # 2W 7W 3W: a Weather set
    assert before.sets == (SetScore("weather", 3, 3, 4),)
    after = score(5, 25, 9, 29)  # + 8W: Typhoons now, 3W idle
    assert after.sets == (SetScore("typhoon", 3, 3, 10),)
    assert after.vp > before.vp
    assert completes_new_set(before, after)
    before = score(5, 25, 9, 13, 17)
    after = score(5, 25, 9, 13, 17, 29)
    assert (before.vp, after.vp) == (4, 14)
    assert completes_new_set(before, after)


def test_typhoon_needs_single_month_weather_cards() -> None:
    deck = override(DECK, c51=("weather",))  # wild 7/8 with a weather icon
    assert score(5, 25, 51, deck=deck).sets == (SetScore("weather", 3, 3, 4),)


def test_september_night_is_never_an_animal() -> None:
    deck = override(DECK, c32=("night", "animal"))
    assert score(32, 12, 24, deck=deck).vp == 0
    result = score(32, 12, 24, 28, 0, 20, deck=deck)
    assert result.sets == (SetScore("night", 3, 3, 5), SetScore("animal", 3, 3, 6))
    # the default 9-Night card is unaffected and the card cache keeps the two apart
    assert score(32, 12, 24).vp == 0
    assert score(32, 12, 24, 0, 20).vp == 5


def test_other_night_animal_card_may_be_an_animal() -> None:
    deck = override(DECK, c36=("night", "animal"))  # 10-Night bearing both icons
    assert score(36, 12, 24, deck=deck).sets == (SetScore("animal", 3, 3, 6),)
    # it can fill either set but not both: animal (6) beats night (5)
    result = score(36, 0, 20, 12, 24, deck=deck)
    assert result.sets == (SetScore("animal", 3, 3, 6),)
    # with a third night card both sets complete
    result = score(36, 0, 20, 44, 12, 24, deck=deck)
    assert result.vp == 11
    assert sum(s.cards for s in result.sets) == 6
    # as a 10-animal it may also complete Taiwan Treasure Animals
    assert score(36, 4, 45, deck=deck).sets == (SetScore("treasure", 3, 3, 10),)


@pytest.mark.parametrize(("players", "vp"), [(2, 7), (3, 4), (4, 4)])
def test_current_month_by_player_count(players: int, vp: int) -> None:
    result = score(8, 9, 10, 11, players=players, month=3)
    assert result.sets == (SetScore("current_month", 4, 4, vp),)


def test_current_month_off_or_incomplete() -> None:
    assert score(8, 9, 10, 11, players=2).vp == 0
    assert score(8, 9, 10, 11, players=2, month=4).vp == 0
    assert score(8, 9, 10, 49, players=2, month=3).vp == 0  # a wild 3/4 does not count
    assert score(8, 9, 10, 49, 11, players=2, month=3).vp == 7
    assert score(*WILD, players=2, month=4).vp == 0


def test_current_month_competes_for_cards() -> None:
    # month 1 = 1N 1B + two plain; birds 3B 5B. Bird set of three (5) vs month 7 + bird 4
    result = score(0, 1, 2, 3, 8, 16, players=2, month=1)
    assert result.vp == 11
    assert result.keys() == {("bird", 2), ("current_month", 4)}
    # 3-4 players: month set worth 4, still 4 + 4 = 8 > bird of three (5)
    assert score(0, 1, 2, 3, 8, 16, players=3, month=1).vp == 8


def test_tie_prefers_more_sets() -> None:
    # bird of four (12) ties with month (7) + bird of three (5): two sets win
    result = score(0, 1, 2, 3, 8, 16, 21, players=2, month=1)
    assert result.vp == 12
    assert result.keys() == {("bird", 3), ("current_month", 4)}


def test_tie_prefers_earlier_sets() -> None:
    # animal 4 + casual 7 ties animal 3 + casual 8: the Animal set keeps the card
    result = score(*ANIMAL, *PLAIN[:7])
    assert result.sets == (SetScore("animal", 3, 4, 7), SetScore("casual", 7, 7, 4))
    # two birds + five plain: bird (4) ties casual (4); bird is listed first
    assert score(*BIRD[:2], *PLAIN[:5]).sets == (SetScore("bird", 2, 2, 4),)


def test_order_of_cards_does_not_matter() -> None:
    ids = (*NIGHT[:3], *BIRD[:2], *TYPHOON, *PLAIN[:8])
    assert score(*ids) == score(*reversed(ids))


def test_completes_new_set() -> None:
    night3, night4 = score(*NIGHT[:3]), score(*NIGHT[:4])
    assert completes_new_set(night3, night4)                     # tier 3 -> 4 is new
    assert not completes_new_set(night3, night3)
    animal3, animal4 = score(*ANIMAL[:3]), score(*ANIMAL)
    assert not completes_new_set(animal3, animal4)               # same key
    casual7, casual8 = score(*PLAIN[:7]), score(*PLAIN[:8])
    assert not completes_new_set(casual7, casual8)
    assert completes_new_set(score(*PLAIN[:6]), casual7)         # first casual
    assert completes_new_set(score(), score(*BIRD[:2]))
    assert completes_new_set(score(*BIRD[:2]), score(*BIRD[:3]))     # bird tier 2 -> 3
    assert not completes_new_set(score(*TYPHOON), score(*TYPHOON, *PLAIN[:3]))


# --- property test against an independent brute force ------------------------------

VP_TABLE = {
    "night": {3: 5, 4: 8, 5: 15},
    "bird": {2: 4, 3: 5, 4: 12},
    "weather": {3: 4},
    "treasure": {3: 10},
    "typhoon": {3: 10},
}
CAP = {"night": 5, "bird": 4, "weather": 3, "treasure": 3, "typhoon": 3}


def card_options(card: Card) -> tuple[str, ...]:
    """Every set but Current Month that a card may join, read directly off the rules."""
    single = len(card.months) == 1
    m = card.months[0]
    opts = ["casual"]
    for icon in ("night", "bird", "animal", "weather"):
        if icon in card.icons and not (icon == "animal" and card.months == (9,)
                                       and "night" in card.icons):
            opts.append(icon)
    if single and "animal" in card.icons and m in (2, 10, 12):
        opts.append("treasure")
    if single and "weather" in card.icons and m in (2, 7, 8):
        opts.append("typhoon")
    return tuple(opts)


def set_vp(name: str, group: list[int]) -> int | None:
    """VP of a group (the months of its cards) as a set; None if not a valid set."""
    n = len(group)
    if name == "animal":
        return 6 + n - 3 if n >= 3 else None
    if name in ("treasure", "typhoon"):
        want = [2, 10, 12] if name == "treasure" else [2, 7, 8]
        return 10 if sorted(group) == want else None
    return VP_TABLE[name].get(n)


def brute_force(cards: list[Card], players: int, month: int | None) -> tuple:
    """(vp, completed sets, sizes in SET_NAMES order) maximised over every assignment.

    The Current Month set takes all four cards of its month or none, so it is
    tried both ways; the other cards are then assigned in every possible way.
    """
    best = best_assignment(cards, 0)
    month_cards = [c for c in cards if c.months == (month,)]
    if len(month_cards) == 4:
        rest = [c for c in cards if c not in month_cards]
        best = max(best, best_assignment(rest, 7 if players == 2 else 4))
    return best


def best_assignment(cards: list[Card], month_vp: int) -> tuple:
    """Exhaustive search; ``month_vp`` > 0 when the Current Month set is held apart.

    Cards with the same options (and, where Treasure or Typhoon is an option, the
    same month) are interchangeable, so each such class is split among its options
    in every possible way instead of card by card.
    """
    classes: Counter[tuple] = Counter()
    for card in cards:
        opts = card_options(card)
        special = "treasure" in opts or "typhoon" in opts
        classes[(opts, card.months[0] if special else 0)] += 1
    todo = list(classes.items())
    groups: dict[str, list[int]] = {name: [] for name in SET_NAMES}  # months of members
    best: list[tuple] = [()]
    # prune early: a set is checked once the last class that may join it is split
    closing: list[list[str]] = [[] for _ in range(len(todo) + 1)]
    for name in SET_NAMES[:-2]:
        last = max((i for i, ((opts, _), _) in enumerate(todo) if name in opts), default=-1)
        closing[last + 1].append(name)

    def leaf() -> None:
        vp, sizes = month_vp, []
        for name in SET_NAMES[:-2]:
            group = groups[name]
            value = set_vp(name, group) if group else 0
            if value is None:
                return
            vp += value
            sizes.append(len(group))
        sizes.append(4 if month_vp else 0)
        casual = len(groups["casual"])
        sizes.append(casual if casual >= 7 else 0)
        vp += casual - 3 if casual >= 7 else 0
        best[0] = max(best[0], (vp, sum(s > 0 for s in sizes), tuple(sizes)))

    def split(i: int, opts: tuple[str, ...], j: int, left: int, m: int) -> None:
        last = j == len(opts) - 1
        for k in (left,) if last else range(left + 1):
            group = groups[opts[j]]
            if len(group) + k > CAP.get(opts[j], 99):
                continue
            group.extend([m] * k)
            if left == k:
                walk(i + 1)
            else:
                split(i, opts, j + 1, left - k, m)
            del group[len(group) - k:]

    def walk(i: int) -> None:
        if any(groups[name] and set_vp(name, groups[name]) is None for name in closing[i]):
            return
        if i == len(todo):
            leaf()
        else:
            (opts, m), n = todo[i]
            split(i, opts, 0, n, m)

    walk(0)
    return best[0]


def random_deck(rng: np.random.Generator) -> tuple[Card, ...]:
    """The default deck with a few cards given random one- or two-icon sets."""
    deck = list(DECK)
    for i in rng.choice(len(deck), size=int(rng.integers(1, 8)), replace=False):
        k = int(rng.integers(1, 3))
        icons = tuple(sorted(rng.choice(ICONS, size=k, replace=False).tolist()))
        deck[i] = dataclasses.replace(deck[i], icons=icons)
    if rng.random() < 0.3:
        deck[32] = dataclasses.replace(deck[32], icons=("animal", "night"))
    return tuple(deck)


def test_matches_brute_force_on_random_piles() -> None:
    rng = np.random.default_rng(20240611)
    seen: Counter[str] = Counter()
    decks = [DECK] + [random_deck(rng) for _ in range(40)]
    for trial in range(2000):
        deck = decks[trial % len(decks)] if trial % 2 else DECK
        weights = np.array([3.0 if c.icons else 1.0 for c in deck])
        size = int(rng.integers(0, 21))
        ids = rng.choice(len(deck), size=size, replace=False, p=weights / weights.sum())
        cards = [deck[int(i)] for i in ids]
        players = int(rng.integers(2, 5))
        month = None if rng.random() < 0.3 else int(rng.integers(1, 13))
        if month is not None and rng.random() < 0.3:  # often hold the whole month
            cards += [c for c in deck if c.months == (month,) and c not in cards]
        result = score_pile(cards, players, month)
        sizes = tuple(by_name(result)[n].cards if n in by_name(result) else 0
                      for n in SET_NAMES)
        expected = brute_force(cards, players, month)
        assert (result.vp, len(result.sets), sizes) == expected, [c.short for c in cards]
        assert result.vp == sum(s.vp for s in result.sets)
        assert [s.name for s in result.sets] == sorted(
            (s.name for s in result.sets), key=SET_NAMES.index)
        seen.update(s.name for s in result.sets)
    assert all(seen[name] >= 20 for name in SET_NAMES), seen
