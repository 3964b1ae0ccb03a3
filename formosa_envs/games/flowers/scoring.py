"""Pure scoring of a Formosa Flowers scoring pile.

:func:`score_pile` splits a pile into the scoring sets that give the most VP.
Every card joins at most one set; cards left over feed the Casual set.

Rulings implemented here (the rulebook's "Scoring Sets" section, made exact):

* Night (night icon): 3/4/5 cards give 5/8/15 VP; never more than 5 cards.
* Bird (bird icon): 2/3/4 cards give 4/5/12 VP; never more than 4 cards.
* Animal (animal icon): 3 cards give 6 VP and every further card 1 VP. The
  single-month September card bearing the night icon is never an Animal card.
* Treasure: one animal-icon single-month card of each of months 2, 10 and 12,
  10 VP.
* Weather (weather icon): exactly 3 cards, 4 VP, at most one such set a pile.
* Typhoon: one weather-icon single-month card of each of months 2, 7 and 8,
  10 VP; it may sit next to a Weather set made of other cards. Turning a
  Weather set into Typhoons needs no special step: the best split is taken.
* Current Month (only when a month is given): the four single-month cards of
  that month, 7 VP with 2 players and 4 VP with 3 or 4.
* Casual: all cards outside the other sets (plain cards, wild cards, icon cards
  left over); 7 cards give 4 VP and every further card 1 VP.
* Wild cards never join Treasure, Typhoon or Current Month; one with an icon
  (only possible with overridden data) may join that icon's plain set.
  A card with two icons may join either icon's set, never both.

Speed: each card is reduced once to a small integer code (which plain sets it
may join, and which Treasure / Typhoon slot it may fill); the pile becomes the
sorted tuple of its codes, and the optimisation is memoised on that tuple.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from .cards import Card

SET_NAMES = ("night", "bird", "animal", "treasure", "weather", "typhoon", "current_month",
             "casual")

NIGHT_VP = {3: 5, 4: 8, 5: 15}
BIRD_VP = {2: 4, 3: 5, 4: 12}
ANIMAL_SIZE, ANIMAL_VP = 3, 6
TREASURE_MONTHS, TREASURE_VP = (2, 10, 12), 10
WEATHER_SIZE, WEATHER_VP = 3, 4
TYPHOON_MONTHS, TYPHOON_VP = (2, 7, 8), 10
CURRENT_MONTH_SIZE = 4
CURRENT_MONTH_VP = {2: 7, 3: 4, 4: 4}
CASUAL_SIZE, CASUAL_VP = 7, 4
SEPTEMBER = 9

# Tier of a completed set whose size does not change its tier.
BASE_TIER = {"animal": ANIMAL_SIZE, "treasure": len(TREASURE_MONTHS),
             "weather": WEATHER_SIZE, "typhoon": len(TYPHOON_MONTHS),
             "current_month": CURRENT_MONTH_SIZE, "casual": CASUAL_SIZE}

# Card codes: bits 0-3 say which plain sets a card may join, bits 4-5 its
# Treasure slot (1..3, 0 for none) and bits 6-7 its Typhoon slot.
_NIGHT, _BIRD, _ANIMAL, _WEATHER = 1, 2, 4, 8
_PLAIN_BITS = (_NIGHT, _BIRD, _ANIMAL, _WEATHER)
_TREASURE_SHIFT, _TYPHOON_SHIFT = 4, 6
_SINGLE_BIT = frozenset((0, _NIGHT, _BIRD, _ANIMAL, _WEATHER))
# Sizes (0 = no set) of night, bird and weather; animal sizes depend on the cards held.
_PLAIN_CHOICES = ((0, *NIGHT_VP), (0, *BIRD_VP), (), (0, WEATHER_SIZE))
# For each non-empty group of plain sets: which of (night, bird, animal, weather) it holds.
_GROUPS = tuple((s, tuple(i for i, bit in enumerate(_PLAIN_BITS) if s & bit))
                for s in range(1, 16))


@dataclass(frozen=True, slots=True)
class SetScore:
    """One completed set of a pile's best split."""

    name: str   # one of SET_NAMES
    tier: int   # cards used for night and bird; the base size for every other set
    cards: int  # cards assigned to the set
    vp: int


@dataclass(frozen=True, slots=True)
class PileScore:
    """The best split of a pile: its VP (before any Keep Playing multiplier) and sets."""

    vp: int
    sets: tuple[SetScore, ...]  # completed sets, in SET_NAMES order

    def keys(self) -> frozenset[tuple[str, int]]:
        """The ``(name, tier)`` pair of every completed set."""
        return frozenset((s.name, s.tier) for s in self.sets)


EMPTY = PileScore(0, ())


def score_pile(cards: Iterable[Card], num_players: int,
               current_month: int | None = None) -> PileScore:
    """Score a pile of distinct cards: the split into sets with the most VP.

    ``current_month`` switches on the Current Month set for that month (1..12).
    Among splits of equal VP the one with more completed sets wins; remaining
    ties go to the split whose per-set card counts, read in ``SET_NAMES`` order
    (incomplete sets counting 0), are lexicographically largest, i.e. cards are
    put in earlier-listed sets rather than later ones (Casual last).
    """
    if num_players not in CURRENT_MONTH_VP:
        raise ValueError(f"num_players must be 2, 3 or 4, got {num_players}")
    if current_month is not None and not 1 <= current_month <= 12:
        raise ValueError(f"current_month must be 1..12 or None, got {current_month}")
    info = _CARD_INFO
    entries: list[tuple[int, int]] = []
    for card in cards:
        entry = info.get(card)
        if entry is None:
            if len(info) >= _CARD_INFO_LIMIT:  # many overridden decks: start afresh
                info.clear()
            entry = info[card] = _card_info(card)
        entries.append(entry)
    return score_encoded(entries, num_players, current_month)


def encode_cards(cards: Iterable[Card]) -> list[tuple[int, int]]:
    """Each card's ``(code, month)`` for :func:`score_encoded` (month 0 for a wild)."""
    return [_card_info(card) for card in cards]


def score_encoded(entries: Iterable[tuple[int, int]], num_players: int,
                  current_month: int | None = None) -> PileScore:
    """:func:`score_pile` on cards pre-encoded by :func:`encode_cards` (the fast path)."""
    codes: list[int] = []
    month_codes: list[int] = []
    for code, month in entries:
        codes.append(code)
        if month == current_month:
            month_codes.append(code)
    if len(month_codes) != CURRENT_MONTH_SIZE:
        month_codes = []
    codes.sort()
    month_codes.sort()
    return _solve(tuple(codes), tuple(month_codes), CURRENT_MONTH_VP[num_players])


def completes_new_set(before: PileScore, after: PileScore) -> bool:
    """Whether ``after`` holds a completed ``(name, tier)`` that ``before`` lacks."""
    old = before.keys()
    return any((s.name, s.tier) not in old for s in after.sets)


# --- per-card codes ---------------------------------------------------------------

_CARD_INFO: dict[Card, tuple[int, int]] = {}  # card -> (code, month or 0 for a wild)
_CARD_INFO_LIMIT = 4096


def _card_info(card: Card) -> tuple[int, int]:
    """The card's code and its month (0 for a wild card)."""
    icons = card.icons
    month = card.months[0] if len(card.months) == 1 else 0
    code = 0
    if "night" in icons:
        code |= _NIGHT
    if "bird" in icons:
        code |= _BIRD
    if "animal" in icons and not (month == SEPTEMBER and "night" in icons):
        code |= _ANIMAL
    if "weather" in icons:
        code |= _WEATHER
    if "animal" in icons and month in TREASURE_MONTHS:
        code |= (TREASURE_MONTHS.index(month) + 1) << _TREASURE_SHIFT
    if "weather" in icons and month in TYPHOON_MONTHS:
        code |= (TYPHOON_MONTHS.index(month) + 1) << _TYPHOON_SHIFT
    return code, month


# --- the optimisation ---------------------------------------------------------------

@lru_cache(maxsize=1 << 17)
def _solve(codes: tuple[int, ...], month_codes: tuple[int, ...], month_vp: int) -> PileScore:
    """Best split of a pile given as sorted card codes (memoised)."""
    if not codes:
        return EMPTY
    pool: dict[int, int] = {}
    for code in codes:
        pool[code] = pool.get(code, 0) + 1
    best_key: tuple = ()
    for rest, month in _month_options(pool, month_codes):
        for rest2, treasure in _slot_options(rest, _TREASURE_SHIFT):
            for rest3, typhoon in _slot_options(rest2, _TYPHOON_SHIFT):
                counts = [0] * 16
                for code, k in rest3.items():
                    counts[code & 15] += k
                n, b, a, w, c = _best_plain(tuple(counts))
                sizes = (n, b, a, len(TREASURE_MONTHS) * treasure, w,
                         len(TYPHOON_MONTHS) * typhoon, CURRENT_MONTH_SIZE * month, c)
                key = (_total_vp(sizes, month_vp), sum(x > 0 for x in sizes), sizes)
                if key > best_key:
                    best_key = key
    return _build(best_key[2], month_vp)


def _month_options(pool: dict[int, int],
                   month_codes: tuple[int, ...]) -> Iterator[tuple[dict[int, int], bool]]:
    """Without, then (if complete) with, the Current Month set."""
    yield pool, False
    if month_codes:
        rest = dict(pool)
        for code in month_codes:
            rest[code] -= 1
        yield rest, True


def _slot_options(pool: dict[int, int], shift: int) -> Iterator[tuple[dict[int, int], bool]]:
    """Without, then with each way of filling, a three-slot special set."""
    yield pool, False
    choices: list[list[int]] = [[], [], []]
    for code, k in pool.items():
        slot = (code >> shift) & 3
        if slot and k > 0:
            choices[slot - 1].append(code)
    if not all(choices):
        return
    for pick in product(*choices):  # the slots differ, so the picked codes are distinct
        rest = dict(pool)
        for code in pick:
            rest[code] -= 1
        yield rest, True


@lru_cache(maxsize=1 << 14)
def _best_plain(counts: tuple[int, ...]) -> tuple[int, int, int, int, int]:
    """Best (night, bird, animal, weather, casual) sizes; ``counts[m]`` = cards of mask m.

    Sizes of incomplete sets are 0. Ranking: VP, then completed sets, then sizes
    in that order (the global tie-break restricted to these sets).
    """
    total = sum(counts)
    held = [(m, k) for m, k in enumerate(counts) if k and m]
    cover = [sum(k for m, k in held if m & s) for s in range(16)]
    multi = any(m not in _SINGLE_BIT for m, _ in held)
    best: tuple = ()
    for n, b, a, w in product(*(_plain_sizes(i, cover[bit]) for i, bit in enumerate(_PLAIN_BITS))):
        if multi and not _hall((n, b, a, w), cover):
            continue
        rest = total - n - b - a - w
        c = rest if rest >= CASUAL_SIZE else 0
        done = (n > 0) + (b > 0) + (a > 0) + (w > 0) + (c > 0)
        best = max(best, (_plain_vp(n, b, a, w, c), done, (n, b, a, w, c)))
    return best[2]


def _plain_sizes(i: int, available: int) -> tuple[int, ...]:
    """Sizes the i-th plain set (night, bird, animal, weather) may take, 0 for none."""
    if _PLAIN_BITS[i] == _ANIMAL:
        return (0, *range(ANIMAL_SIZE, available + 1))
    return tuple(x for x in _PLAIN_CHOICES[i] if x <= available)


def _hall(need: tuple[int, int, int, int], cover: list[int]) -> bool:
    """Hall's condition: each group of plain sets has enough cards able to join it."""
    return all(sum(need[i] for i in idx) <= cover[s] for s, idx in _GROUPS)


def _plain_vp(n: int, b: int, a: int, w: int, c: int) -> int:
    """VP of night, bird, animal, weather and casual sets of these sizes (0 = none)."""
    vp = NIGHT_VP.get(n, 0) + BIRD_VP.get(b, 0) + (WEATHER_VP if w else 0)
    vp += ANIMAL_VP + a - ANIMAL_SIZE if a else 0
    return vp + (CASUAL_VP + c - CASUAL_SIZE if c else 0)


def _total_vp(sizes: tuple[int, ...], month_vp: int) -> int:
    """VP of a split given its set sizes in SET_NAMES order (0 = not completed)."""
    n, b, a, t, w, y, m, c = sizes
    vp = _plain_vp(n, b, a, w, c) + (TREASURE_VP if t else 0) + (TYPHOON_VP if y else 0)
    return vp + (month_vp if m else 0)


@lru_cache(maxsize=1 << 12)
def _build(sizes: tuple[int, ...], month_vp: int) -> PileScore:
    """The PileScore of a split given its set sizes in SET_NAMES order."""
    sets = []
    for i, (name, size) in enumerate(zip(SET_NAMES, sizes, strict=True)):
        if size:
            only = tuple(size if j == i else 0 for j in range(len(SET_NAMES)))
            sets.append(SetScore(name, BASE_TIER.get(name, size), size,
                                 _total_vp(only, month_vp)))
    return PileScore(sum(s.vp for s in sets), tuple(sets))
