"""Pile-scoring tables for the JAX engine, precomputed with numpy from the card data.

The Python scorer (:mod:`formosa_envs.games.flowers.scoring`) reduces every card to a
code and solves a small optimisation over the pile's multiset of codes. This module
turns that optimisation into fixed-size tables, built once per deck:

* ``plain``: for every vector of per-*plain-mask* card counts (which of Night, Bird,
  Animal, Weather a card may join), the best Night/Bird/Animal/Weather/Casual split,
  packed into one int32 *key* whose integer order is the Python tie-break order
  ``(vp, completed sets, night, bird, animal, treasure, weather, typhoon, month,
  casual)``. A pile's row is a linear function of its cards (mixed radix).
* ``options``: each way of taking the Current Month, Treasure and Typhoon sets out
  first (a static list); each has the cards it uses, the row shift it causes and the
  constant it adds to the key. The JAX scorer adds the constant to the plain key of
  the remaining cards and takes the maximum over valid options: the Python result.

Packing (bit 0 first): casual 6 bits, month 1, typhoon 1, weather 1, treasure 1,
animal 6, bird tier index 2, night tier index 2, completed sets 4, VP 7.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np

from formosa_envs.games.flowers import scoring as py
from formosa_envs.games.flowers.cards import Card

MAX_TABLE_ROWS = 1 << 22
"""Largest plain table the engine builds (16 MiB of int32); larger decks are refused."""
MAX_OPTIONS = 512
"""Largest number of (month, treasure, typhoon) options the engine enumerates."""

NIGHT_SIZES = (0, *py.NIGHT_VP)
BIRD_SIZES = (0, *py.BIRD_VP)
SHIFT = {"casual": 0, "month": 6, "typhoon": 7, "weather": 8, "treasure": 9, "animal": 10,
         "bird": 16, "night": 18, "done": 20, "vp": 24}
VP_LIMIT = 1 << 7

# set-key bits (the Python (name, tier) pairs): night tiers 3/4/5, bird tiers 2/3/4, then
# animal, treasure, weather, typhoon, current month, casual
KEY_BITS = {("night", 3): 0, ("night", 4): 1, ("night", 5): 2, ("bird", 2): 3, ("bird", 3): 4,
            ("bird", 4): 5, ("animal", 3): 6, ("treasure", 3): 7, ("weather", 3): 8,
            ("typhoon", 3): 9, ("current_month", 4): 10, ("casual", 7): 11}


@dataclass(frozen=True)
class ScoreTables:
    """Everything the JAX scorer needs, as numpy arrays (see the module docstring)."""

    card_row: np.ndarray      # int32[54]: the card's weight in the plain-table row
    card_class: np.ndarray    # int32[54, K]: one-hot of the card's code class
    plain: np.ndarray         # int32[R]: packed best plain key of each row
    opt_uses: np.ndarray      # int32[O, K]: cards of each class an option removes
    opt_shift: np.ndarray     # int32[O]: row decrease of an option
    opt_const: np.ndarray     # int32[O]: key constant of an option's special sets
    opt_month: np.ndarray     # bool[O]: whether the option takes the Current Month set
    month_cards: np.ndarray   # bool[54]: the four cards of the current month (or none)


def build_score_tables(cards: tuple[Card, ...], num_players: int,
                       current_month: int | None) -> ScoreTables:
    """The scoring tables of ``cards``; ValueError when they exceed the engine's limits."""
    entries = py.encode_cards(cards)
    codes = np.array([code for code, _ in entries], dtype=np.int64)
    masks = codes & 15
    present = sorted(set(masks.tolist()))
    counts = {m: int((masks == m).sum()) for m in present}
    weights, rows = {}, 1
    for m in present:
        weights[m] = rows
        rows *= counts[m] + 1
    if rows > MAX_TABLE_ROWS:
        raise ValueError(
            f"card_file not supported by the JAX engine: its icon combinations give a "
            f"plain scoring table of {rows} rows (limit {MAX_TABLE_ROWS}); the Python "
            "engine handles it")
    classes = sorted(set(codes.tolist()))
    card_class = (codes[:, None] == np.array(classes)[None, :]).astype(np.int32)
    card_row = np.array([weights[m] for m in masks.tolist()], dtype=np.int32)
    plain = _plain_table(present, counts, weights, rows)
    uses, month, const = _options(classes, entries, current_month,
                                  py.CURRENT_MONTH_VP[num_players])
    shift = uses @ np.array([weights[c & 15] for c in classes], dtype=np.int64)
    if (plain >> SHIFT["vp"]).max() + (const >> SHIFT["vp"]).max() >= VP_LIMIT:
        raise ValueError("card_file not supported by the JAX engine: a pile could score "
                         f"{VP_LIMIT} VP or more, beyond the packed key")
    month_cards = np.array([mo == current_month and mo != 0 for _, mo in entries])
    return ScoreTables(card_row, card_class, plain.astype(np.int32), uses.astype(np.int32),
                       shift.astype(np.int32), const.astype(np.int32), month, month_cards)


def _plain_table(present: list[int], counts: dict[int, int], weights: dict[int, int],
                 rows: int) -> np.ndarray:
    """Best plain split of every count vector (scoring._best_plain, vectorised)."""
    index = np.arange(rows, dtype=np.int64)
    per_mask = np.zeros((rows, 16), dtype=np.int64)
    for m in present:
        per_mask[:, m] = (index // weights[m]) % (counts[m] + 1)
    total = per_mask.sum(axis=1)
    groups = np.arange(1, 16)
    cover = np.stack([per_mask[:, [m for m in range(16) if m & s]].sum(axis=1)
                      for s in groups], axis=1)  # cards able to join each group of sets
    animal_max = sum(counts[m] for m in present if m & 4)
    animal_sizes = (0, *range(py.ANIMAL_SIZE, animal_max + 1))
    best = np.full(rows, -1, dtype=np.int64)
    bits = np.array([[(s >> i) & 1 for i in range(4)] for s in groups])  # [15, 4]
    for n, b, a, w in product(NIGHT_SIZES, BIRD_SIZES, animal_sizes, (0, py.WEATHER_SIZE)):
        need = bits @ np.array([n, b, a, w])  # Hall's condition for every group
        ok = (cover >= need[None, :]).all(axis=1)
        rest = total - (n + b + a + w)
        casual = np.where(rest >= py.CASUAL_SIZE, rest, 0)
        vp = py.NIGHT_VP.get(n, 0) + py.BIRD_VP.get(b, 0) + (py.WEATHER_VP if w else 0)
        vp += py.ANIMAL_VP + a - py.ANIMAL_SIZE if a else 0
        vp_all = vp + np.where(casual > 0, py.CASUAL_VP + casual - py.CASUAL_SIZE, 0)
        done = (n > 0) + (b > 0) + (a > 0) + (w > 0) + (casual > 0)
        key = (vp_all << SHIFT["vp"]) | (done << SHIFT["done"]) | casual
        key |= (NIGHT_SIZES.index(n) << SHIFT["night"]) | (BIRD_SIZES.index(b) << SHIFT["bird"])
        key |= (a << SHIFT["animal"]) | (int(w > 0) << SHIFT["weather"])
        best = np.where(ok, np.maximum(best, key), best)
    return best


def _options(classes: list[int], entries: list[tuple[int, int]], current_month: int | None,
             month_vp: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class uses, month flag and key constant of every (month, treasure, typhoon) choice."""
    k = len(classes)
    month_use = np.zeros(k, dtype=np.int64)
    for code, month in entries:
        if month and month == current_month:
            month_use[classes.index(code)] += 1
    months = (False, True) if current_month is not None else (False,)
    treasure = [None, *_slot_picks(classes, py._TREASURE_SHIFT)]
    typhoon = [None, *_slot_picks(classes, py._TYPHOON_SHIFT)]
    total = len(months) * len(treasure) * len(typhoon)
    if total > MAX_OPTIONS:
        raise ValueError(f"card_file not supported by the JAX engine: {total} ways to fill "
                         f"the special sets (limit {MAX_OPTIONS})")
    uses, flags, consts = [], [], []
    for m, t, y in product(months, treasure, typhoon):
        u = month_use * m
        for pick in (t, y):
            for code in pick or ():
                u = u + (np.arange(k) == classes.index(code))
        uses.append(u)
        flags.append(m)
        consts.append(_const(t is not None, y is not None, m, month_vp))
    return (np.array(uses, dtype=np.int64), np.array(flags, dtype=bool),
            np.array(consts, dtype=np.int64))


def _slot_picks(classes: list[int], shift: int) -> list[tuple[int, ...]]:
    """Every choice of one code per slot of a three-slot special set."""
    per_slot = [[c for c in classes if (c >> shift) & 3 == s] for s in (1, 2, 3)]
    return list(product(*per_slot)) if all(per_slot) else []


def _const(treasure: bool, typhoon: bool, month: bool, month_vp: int) -> int:
    """The key constant of the special sets an option takes (VP, count, size bits)."""
    vp = py.TREASURE_VP * treasure + py.TYPHOON_VP * typhoon + month_vp * month
    return ((vp << SHIFT["vp"]) | ((treasure + typhoon + month) << SHIFT["done"])
            | (treasure << SHIFT["treasure"]) | (typhoon << SHIFT["typhoon"])
            | (month << SHIFT["month"]))
