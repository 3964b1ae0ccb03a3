"""Taiwan Formosa payments: units, sources and the model for ``core.payment``.

Units (what a cost asks for): a coin, a coin of a card purchase (which the
four factories may replace by a resource), each resource, a worker, a
merchant, and "any item" (the 3-item exchange: a resource, worker or
merchant). Sources (where one unit comes from): the purse, hand resources,
Warehouse resources, hand workers, Tribal Village workers, merchants, and a
factory's once-a-round resource-for-coin substitution (from hand resources).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .state import RESOURCES, TaiwanState

if TYPE_CHECKING:
    from .game import TaiwanGame

# units
COIN, BUY_COIN, WORKER, MERCHANT, ITEM = 0, 1, 2, 3, 4
RES_UNIT0 = 5                      # 5..8: wood, brick, steel, stone
# sources
PURSE, HAND_WORKER, TRIBAL_WORKER, MERCHANT_TILE = 0, 1, 2, 3
HAND0, WAREHOUSE0, FACTORY0 = 4, 8, 12   # + resource index
SOURCE_NAMES = ("coins", "hand worker", "Tribal Village worker", "merchant",
                "wood", "brick", "steel", "stone",
                "Warehouse wood", "Warehouse brick", "Warehouse steel", "Warehouse stone",
                "Sawmill (wood as a coin)", "Brickworks (brick as a coin)",
                "Steelworks (steel as a coin)", "Stone Factory (stone as a coin)")
FACTORY_KEYS = ("sawmill", "brickworks", "steelworks", "stone_factory")
_ITEM_SOURCES = (HAND_WORKER, TRIBAL_WORKER, MERCHANT_TILE,
                 *(HAND0 + r for r in range(RESOURCES)),
                 *(WAREHOUSE0 + r for r in range(RESOURCES)))


def cost_units(wood: int, brick: int, steel: int, stone: int, coins: int,
               purchase: bool, workers: int = 0) -> tuple[int, ...]:
    """The units of a cost: resources, then worker icons, then coins (coins of a card
    purchase may use factories)."""
    units: list[int] = []
    for r, count in enumerate((wood, brick, steel, stone)):
        units += [RES_UNIT0 + r] * count
    return (*units, *([WORKER] * workers), *([BUY_COIN if purchase else COIN] * coins))


def printed_units(card: Any) -> tuple[int, ...]:
    """The units of a building's or landmark's printed cost (T-4.5, R-41): its resource
    icons, its worker icons and its coins. A purchase adds 1 worker (and any fee)."""
    return cost_units(card.wood, card.brick, card.steel, card.stone, card.coins, True,
                      card.workers)


class TaiwanPayment:
    """The :class:`~formosa_envs.core.payment.PaymentModel` of Taiwan Formosa."""

    def __init__(self, game: TaiwanGame) -> None:
        self.game = game
        self.factory_ids = [game.type_id[key] for key in FACTORY_KEYS]

    def sources(self, s: TaiwanState, p: int, unit: int) -> Sequence[int]:
        """Which sources may pay ``unit``."""
        if unit == COIN:
            return (PURSE,)
        if unit == BUY_COIN:
            return (PURSE, *(FACTORY0 + r for r in range(RESOURCES)))
        if unit == WORKER:
            return (HAND_WORKER, TRIBAL_WORKER)
        if unit == MERCHANT:
            return (MERCHANT_TILE,)
        if unit == ITEM:
            return _ITEM_SOURCES
        r = unit - RES_UNIT0
        return (HAND0 + r, WAREHOUSE0 + r)

    def can_take(self, s: TaiwanState, p: int, source: int, used: Mapping[int, int]) -> bool:
        """Whether ``source`` can pay one more unit after ``used``."""
        u = used.get
        if source == PURSE:
            return u(PURSE, 0) < s.coins[p]
        if source == HAND_WORKER:
            return u(source, 0) < s.workers[p]
        if source == TRIBAL_WORKER:
            return u(source, 0) < s.tribal[p]
        if source == MERCHANT_TILE:
            return u(source, 0) < s.merchants[p]
        if source < WAREHOUSE0:
            r = source - HAND0
            return u(source, 0) + u(FACTORY0 + r, 0) < s.res[p][r]
        if source < FACTORY0:
            return u(source, 0) < s.warehouse[p][source - WAREHOUSE0]
        r = source - FACTORY0
        return (u(source, 0) < self.factory_uses_left(s, p, r)
                and u(HAND0 + r, 0) + u(source, 0) < s.res[p][r])

    def fast_feasible(self, s: TaiwanState, p: int, units: Sequence[int],
                      used: Mapping[int, int]) -> bool | None:
        """Closed-form feasibility for Taiwan's sources (None: use the generic search)."""
        need = needs_of(units)
        if need[ITEM] and need[BUY_COIN]:
            return None
        return affordable(self.budget(s, p, used), need)

    def legal_sources(self, s: TaiwanState, p: int, units: Sequence[int]) -> list[int] | None:
        """Sources for ``units[0]`` that keep the rest payable (one budget, reused)."""
        if len(units) == 1:  # the last unit: any source that holds one pays it
            return [source for source in self.sources(s, p, units[0])
                    if self.can_take(s, p, source, {})]
        if all(unit == ITEM for unit in units):
            # every item source gives up exactly one item, so the rest stays payable from
            # any of them exactly when the items held, less one, cover it
            items = sum(s.res[p]) + sum(s.warehouse[p]) + s.workers[p] + s.tribal[p] \
                + s.merchants[p]
            if items - 1 < len(units) - 1:
                return []
            return [source for source in _ITEM_SOURCES if self.can_take(s, p, source, {})]
        rest = needs_of(units[1:])
        if rest[ITEM] and rest[BUY_COIN]:
            return None
        budget = self.budget(s, p)
        return [source for source in self.sources(s, p, units[0])
                if self.can_take(s, p, source, {})
                and affordable(_after(budget, source), rest)]

    def budget(self, s: TaiwanState, p: int, used: Mapping[int, int] | None = None
               ) -> tuple[list[int], list[int], int, int, int, list[int]]:
        """What ``p`` can pay with: hand and Warehouse resources, coins, workers,
        merchants and factory substitutions left (after ``used``)."""
        built, done = s.built[p], s.factory_used[p]
        uses = [built.count(f) - done[r] for r, f in enumerate(self.factory_ids)]
        hand, ware = s.res[p][:], s.warehouse[p][:]
        purse, merchants = s.coins[p], s.merchants[p]
        workers = s.workers[p] + s.tribal[p]
        for source, k in (used or {}).items():  # at most a unit or two: cheap
            if source == PURSE:
                purse -= k
            elif source in (HAND_WORKER, TRIBAL_WORKER):
                workers -= k
            elif source == MERCHANT_TILE:
                merchants -= k
            elif source < WAREHOUSE0:
                hand[source - HAND0] -= k
            elif source < FACTORY0:
                ware[source - WAREHOUSE0] -= k
            else:
                hand[source - FACTORY0] -= k
                uses[source - FACTORY0] -= k
        return hand, ware, purse, workers, merchants, uses

    def factory_uses_left(self, s: TaiwanState, p: int, r: int) -> int:
        """Substitutions left this round: one per completed copy of the factory."""
        return self.game.completed(s, p, FACTORY_KEYS[r]) - s.factory_used[p][r]

    def take(self, s: TaiwanState, p: int, unit: int, source: int) -> None:
        """Remove one item from ``source``."""
        if source == PURSE:
            s.coins[p] -= 1
        elif source == HAND_WORKER:
            s.workers[p] -= 1
        elif source == TRIBAL_WORKER:
            s.tribal[p] -= 1
        elif source == MERCHANT_TILE:
            s.merchants[p] -= 1
        elif source < WAREHOUSE0:
            s.res[p][source - HAND0] -= 1
        elif source < FACTORY0:
            s.warehouse[p][source - WAREHOUSE0] -= 1
        else:
            s.res[p][source - FACTORY0] -= 1
            s.factory_used[p][source - FACTORY0] += 1

    def finish(self, s: TaiwanState, p: int, purpose: int) -> None:
        """Carry out what was paid for (see ``rules.PURPOSES``)."""
        from .rules import complete_purpose
        complete_purpose(self.game, s, p, purpose)


def describe_unit(unit: int) -> str:
    """A readable unit name."""
    names = {COIN: "coin", BUY_COIN: "coin", WORKER: "worker", MERCHANT: "merchant",
             ITEM: "item"}
    return names.get(unit) or ("wood", "brick", "steel", "stone")[unit - RES_UNIT0]



def needs_of(units: Sequence[int]) -> list[int]:
    """Counts per unit kind (indexed by unit code)."""
    need = [0] * (RES_UNIT0 + RESOURCES)
    for unit in units:
        need[unit] += 1
    return need


def affordable(budget: tuple[list[int], list[int], int, int, int, list[int]],
               need: Sequence[int]) -> bool:
    """Whether ``need`` (per unit kind) can be paid from ``budget`` (exact for Taiwan)."""
    hand, ware, purse, workers, merchants, uses = budget
    if need[WORKER] > workers or need[MERCHANT] > merchants or need[COIN] > purse:
        return False
    subs = items = 0
    for r in range(RESOURCES):
        want = need[RES_UNIT0 + r]
        if want > hand[r] + ware[r]:
            return False
        spare = hand[r] - max(0, want - ware[r])
        subs += max(0, min(uses[r], spare))
        items += hand[r] + ware[r] - want
    if need[COIN] + need[BUY_COIN] > purse + subs:
        return False
    items += (workers - need[WORKER]) + (merchants - need[MERCHANT])
    return need[ITEM] <= items


class NeedTable:
    """Unit-kind counts of many costs (one row each), laid out so that
    :func:`affordable_many` checks them all with a few integer operations: per compared
    column (workers, merchants, coins, hand + Warehouse per resource) and per held amount,
    the bit set of the rows that amount covers."""

    def __init__(self, rows: np.ndarray) -> None:
        rows = np.asarray(rows, dtype=np.int64)
        self.rows = rows
        want = rows[:, RES_UNIT0:RES_UNIT0 + RESOURCES]
        basic = np.concatenate([rows[:, [WORKER, MERCHANT, COIN]], want], axis=1)
        self.size = len(rows)
        self.every_row = (1 << self.size) - 1
        # covered[k][v]: the rows whose column k needs at most v (v = 0 .. the column's max)
        self.covered = [[_bits(column <= v) for v in range(int(column.max(initial=0)) + 1)]
                        for column in basic.T]
        all_coins = rows[:, COIN] + rows[:, BUY_COIN]
        # coins[v]: the rows whose coins (the fee included) the purse v pays alone; the
        # others may still be paid with factory substitutions of what the row does not want
        self.coins = [_bits(all_coins <= v) for v in range(int(all_coins.max(initial=0)) + 1)]
        self.all_coins = all_coins.tolist()
        self.want = [tuple(row) for row in want.tolist()]
        # items left = (all items) - (resources, workers and merchants spent)
        items = rows[:, ITEM] + want.sum(axis=1) + rows[:, WORKER] + rows[:, MERCHANT]
        self.items_covered = [_bits(items <= v) for v in range(int(items.max(initial=0)) + 1)]


def _bits(flags: np.ndarray) -> int:
    """The rows where ``flags`` is true, as the bits of an integer (row r = bit r)."""
    return sum(1 << int(r) for r in np.flatnonzero(flags))


def affordable_many(budget: tuple[list[int], list[int], int, int, int, list[int]],
                    table: NeedTable) -> list[bool]:
    """:func:`affordable` for every row of ``table`` at once (same answers, row by row)."""
    rows = affordable_rows(budget, table)
    return [rows >> r & 1 == 1 for r in range(table.size)]


def affordable_rows(budget: tuple[list[int], list[int], int, int, int, list[int]],
                    table: NeedTable) -> int:
    """:func:`affordable_many` as the bits of an integer (row ``r`` is bit ``r``)."""
    hand, ware, purse, workers, merchants, uses = budget
    held = [h + w for h, w in zip(hand, ware, strict=True)]
    rows = table.every_row
    for covered, have in zip(table.covered, (workers, merchants, purse, *held), strict=True):
        if have < 0:
            return 0
        if have < len(covered) - 1:
            rows &= covered[have]
    if purse < len(table.coins) - 1:
        short = rows & ~table.coins[purse]  # rows the purse alone cannot pay
        rows &= ~short
        # a factory substitutes a hand resource not needed as itself, once per completed copy
        cap = [min(u, h) for u, h in zip(uses, hand, strict=True)]
        while short and any(cap):
            r = (short & -short).bit_length() - 1
            short &= short - 1
            if table.all_coins[r] <= purse + sum(max(min(c, h - w), 0) for c, h, w in zip(
                    cap, held, table.want[r], strict=True)):
                rows |= 1 << r
    items = sum(held) + workers + merchants
    if items < len(table.items_covered) - 1:
        rows &= table.items_covered[items]
    return rows


def _after(budget: tuple[list[int], list[int], int, int, int, list[int]],
           source: int) -> tuple[list[int], list[int], int, int, int, list[int]]:
    """``budget`` once one unit was taken from ``source``."""
    hand, ware, purse, workers, merchants, uses = budget
    if source == PURSE:
        return hand, ware, purse - 1, workers, merchants, uses
    if source in (HAND_WORKER, TRIBAL_WORKER):
        return hand, ware, purse, workers - 1, merchants, uses
    if source == MERCHANT_TILE:
        return hand, ware, purse, workers, merchants - 1, uses
    hand, ware, uses = hand[:], ware[:], uses[:]
    if source < WAREHOUSE0:
        hand[source - HAND0] -= 1
    elif source < FACTORY0:
        ware[source - WAREHOUSE0] -= 1
    else:
        hand[source - FACTORY0] -= 1
        uses[source - FACTORY0] -= 1
    return hand, ware, purse, workers, merchants, uses
