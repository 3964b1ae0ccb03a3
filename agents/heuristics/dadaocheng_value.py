"""Dadaocheng heuristic values: what cards are worth, and what a hand of cubes can become.

* An *item* is a face-up ship or a building pile: its action, its cost after the Workshop
  and 1884 reductions, and its value, which is the prestige it scores plus an estimate of
  what it brings in the turns left: credit at 1/5 PP, more while it still opens ship levels
  (``unlock``); a Mansion's set increment blended with the average of a full set; a
  Market's, Workshop's or Store's ability per turn left; an Opium Den's 4 PP less its
  projected penalty (DDC-13.6).
* :meth:`Valuer.plan` finds the set of items the hand pays for that maximises their
  value plus the worth of the cubes kept. Missing units are covered by Markets (1 for 1),
  black cubes (each is opium: 1 PP and the Dens' share) or 2-for-1 exchanges, fed with
  the least valuable spare cubes (DDC-8.2, 8.6, 9.4, 10.1).
* Kept cubes are worth ``keep`` each, more if a target item needs them, black less, and
  only up to the hand limit (DDC-12.1); nothing in the player's last turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.content import BLACK, DEN, MANSION, MARKET, STORE, WORKSHOP
from formosa_envs.games.dadaocheng.events import current_event
from formosa_envs.games.dadaocheng.scoring import mansion_vp
from formosa_envs.games.dadaocheng.shop import building_cost, ship_cost, store_spaces
from formosa_envs.games.dadaocheng.state import BOUGHT0, ROUNDS, USED_MARKETS

from .dadaocheng_tree import Tree, chosen, cube_codes, decode, purchase_tree

Hand = tuple[int, ...]   # cubes per colour (red, white, green, yellow, black)
PRUNE_EPS = 1e-9
"""Margin by which a bound must miss the best plan before sets are passed over unseen."""
UNCOVERED = (None, None)
"""Memo mark of spare cubes known payable whose best cover is not worked out yet."""


@dataclass(frozen=True)
class Weights:
    """Tunable knobs of the heuristic."""

    keep: float = 0.7          # worth of a cube carried to a later turn
    target: float = 0.5        # extra worth of a carried cube the target item needs
    black: float = 1.1         # a black cube's share of ``keep`` (divided by the opium cost)
    unlock: float = 0.8        # extra worth of a credit point that opens ship levels, early
    challenge: float = 15.0    # worth added to a card a solo challenge requires
    challenge_unlock: float = 3.0  # credit's unlock worth multiplied in the ships challenge
    mansion_set: float = 0.5   # weight of a full set's average in a Mansion's value
    market: float = 0.25       # a Market's worth per turn left
    workshop: float = 0.4      # a Workshop's worth per turn left
    store: float = 0.15        # a Store's worth per turn left
    store_weight: float = 0.35  # share of a storehouse cube's worth counted before a Full House
    deny: float = 0.6          # weight of an opponent's gains (divided among opponents)
    loop_pp: float = 3.0       # the loop's sign cube (DDC-13.7)
    deep: int = 24             # final grids searched widely when planning
    wide: int = 6              # final grids reranked with the purchase plan
    budget: int = 60           # cascade search nodes per final grid


DEFAULT_WEIGHTS = Weights()


@dataclass(frozen=True)
class Item:
    """Something to buy: the action, its cost (4 colours), cubes, cumulative values."""

    action: int
    cost: tuple[int, ...]
    units: int
    values: tuple[float, ...]     # values[k] = worth of buying k + 1 of it this turn


_MEMOS: dict[Any, dict[Any, Any]] = {}


def _shared_memo(signature: Any) -> dict[Any, Any]:
    """The memo of one signature, shared by the decisions that see the same one (the
    purchase loop re-plans after every die and exchange); the last few are kept. Plan
    values by hand are signed by the items and keep values; covers and kept worths only
    by what they read (target, keep values, hand limit, Markets, opium cost)."""
    memo = _MEMOS.pop(signature, None)
    if memo is None:
        memo = {}
        while len(_MEMOS) >= 16:
            del _MEMOS[next(iter(_MEMOS))]
    _MEMOS[signature] = memo
    return memo


def _max_required(game: Any) -> int:
    """The highest required credit of any ship (more credit opens nothing)."""
    return max(ship.required for ship in game.ships)


def _chosen(items: Sequence[Item], node: int) -> tuple[Item, ...]:
    """The items of set ``node`` of the purchase tree, in the order they were added."""
    picks = chosen(tuple(len(it.values) for it in items), node)
    return tuple(items[j] for j, times in picks for _ in range(times))


class Valuer:
    """Item values and hand plans for seat ``me`` of state ``s``."""

    def __init__(self, game: Any, s: Any, me: int, w: Weights = DEFAULT_WEIGHTS) -> None:
        self.g, self.s, self.me, self.w = game, s, me, w
        n = s.num_players
        self.n, self.own_turn = n, s.turn == me
        pos = (me - s.start_player) % n
        self.left = ROUNDS[n] - s.round + int(pos >= (s.turn - s.start_player) % n)
        self.later = self.left - int(self.own_turn)   # own turns after this decision's
        self.limit = game.hand_limit
        self.opium_cost = 1.0 + s.buildings[me][DEN] / n
        self.markets = s.buildings[me][MARKET] - (s.used[USED_MARKETS] if self.own_turn else 0)
        self.items = self._items() if self.left else []
        self.target = self._target()
        scale = w.keep * min(1.0, 0.4 + 0.2 * self.left) if self.later else 0.0
        self.kv = tuple([scale] * 4 + [scale * w.black / self.opium_cost])
        signature = (tuple(self.items), self.target, self.kv, self.limit, self.markets,
                     self.opium_cost, w)
        self._memo = _shared_memo(signature)
        self._cubes = _shared_memo(("cubes", self.target, self.kv, self.limit, self.markets,
                                    self.opium_cost, w.target))
        self._fodder = sorted(range(5), key=lambda c: (self.kv[c], c))  # cheapest colour first

    # ----- items -------------------------------------------------------------------
    def _items(self) -> list[Item]:
        out = [self._ship(level) for level in range(3)]
        out += [self._building(kind) for kind in range(5)]
        return [item for item in out if item is not None and item.values[0] > 0]

    def _ship(self, level: int) -> Item | None:
        s, me = self.s, self.me
        ship_id = s.ship_up[level]
        if ship_id < 0:
            return None
        ship = self.g.ships[ship_id]
        if s.credit[me] < ship.required or (level == 2 and current_event(self.g, s) == "e1895"):
            return None
        opens = min(ship.credit, max(0, _max_required(self.g) - s.credit[me]))
        ships = self.g.config.solo_challenge == "ships"
        unlock = self.w.unlock * (self.w.challenge_unlock if ships else 1.0)
        value = ship.prestige + 0.2 * ship.credit + unlock * opens * self._early()
        if ships and level == 2:
            value += self.w.challenge
        cost = tuple(ship_cost(self.g, s, me, level))
        return Item(A.SHIP0 + level, cost, sum(cost), (value,))

    def _early(self) -> float:
        """Share of the game still to come (1 at the start, 0 in the last turn)."""
        return max(0, self.left - 1) / ROUNDS[self.n]

    def _building(self, kind: int) -> Item | None:
        s, me = self.s, self.me
        if s.piles[kind] <= 0 or (kind == DEN and s.buildings[me][DEN] >= 2):
            return None
        if self.own_turn and kind != MANSION and s.used[BOUGHT0 + kind - 1]:
            return None
        if kind == STORE and not store_spaces(s, me):
            return None
        cost = tuple(building_cost(self.g, s, kind))
        if kind == MANSION:
            values = self._mansion_values(min(s.piles[MANSION], 6))
        else:
            values = (self.building_value(kind),)
        return Item(A.BUILDING0 + kind, cost, sum(cost), values)

    def _mansion_values(self, most: int) -> tuple[float, ...]:
        """Cumulative worth of 1..most more Mansions (set increments and the set average)."""
        have, blend = self.s.buildings[self.me][MANSION], self.w.mansion_set * self._early() * 2
        blend = min(blend, self.w.mansion_set)
        out, total = [], 0.0
        for k in range(1, most + 1):
            step = mansion_vp(have + k) - mansion_vp(have + k - 1)
            total += (1 - blend) * step + blend * 6.5 + self._challenge_bonus(MANSION)
            out.append(total)
        return tuple(out)

    def building_value(self, kind: int) -> float:
        """Prestige, ability over the turns left, challenge bonus; a Den less its penalty."""
        b, left = self.g.buildings[kind], max(0, self.left - 1)
        per_turn = {MARKET: self.w.market, WORKSHOP: self.w.workshop, STORE: self.w.store}
        value = b.prestige + per_turn.get(kind, 0.0) * left + self._challenge_bonus(kind)
        if kind == DEN:
            value -= self._den_penalty()
        if kind == WORKSHOP and self.g.config.solo_challenge == "ships":
            value = -1.0
        return value

    def _challenge_bonus(self, kind: int) -> float:
        """Worth added to the cards a solo challenge asks for, or taken from the others."""
        challenge = self.g.config.solo_challenge
        if challenge == "buildings" and kind != DEN:
            return self.w.challenge / 3
        if challenge == "ships" and kind == MANSION:
            return -self.w.challenge / 3
        return 0.0

    def _den_penalty(self) -> float:
        """Projected ceil(all opium used / players) at the end (DDC-13.6)."""
        s = self.s
        played = max(1, (s.round - 1) * self.n + (s.turn - s.start_player) % self.n)
        total = sum(s.opium) * (ROUNDS[self.n] * self.n) / played
        return -(-total // self.n) if self.n > 1 else float(s.opium[self.me])

    def _target(self) -> tuple[int, ...]:
        """Cost of the item with the best value per cube (what kept cubes should fit)."""
        if not self.items:
            return (0, 0, 0, 0)
        best = max(self.items, key=lambda it: it.values[0] / max(1, it.units))
        return best.cost

    # ----- hands -------------------------------------------------------------------
    def keep(self, hand: Sequence[int]) -> float:
        """Worth of the cubes carried on: the best ``limit`` of them (memoised).

        A cube is worth ``kv`` plus the target bonus while its colour fits the target, so
        the worth depends only on how many cubes fit, how many do not, and the blacks.
        """
        fit = rest = 0
        for c in range(4):
            n = hand[c]
            if n > 0:
                f = n if n < self.target[c] else self.target[c]
                fit, rest = fit + f, rest + n - f
        key = ("keep", fit, rest, hand[BLACK] if hand[BLACK] > 0 else 0)
        found = self._cubes.get(key)
        if found is None:
            found = self._cubes[key] = self._keep_worth(fit, rest, key[3])
        return found

    def _keep_worth(self, fit: int, rest: int, black: int) -> float:
        """The sum of the ``limit`` highest cube worths (the bonus counts when kv > 0)."""
        kv = self.kv
        values = [kv[0] + self.w.target * (kv[0] > 0)] * fit + [kv[0]] * rest
        values += [kv[BLACK]] * black
        values.sort(reverse=True)
        return sum(values[:self.limit])

    def value(self, hand: Sequence[int]) -> float:
        """Best purchase plan's worth for ``hand`` (memoised)."""
        key = tuple(hand)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._search(key)[0]
        return found

    def _tree(self) -> Tree:
        """The purchase tree of the items (kept in the memo shared by the signature)."""
        tree = self._memo.get("tree")
        if tree is None:
            tree = self._memo["tree"] = purchase_tree([it.cost for it in self.items],
                                                      [it.values for it in self.items])
        return tree

    def plan(self, hand: Hand) -> tuple[float, tuple[Item, ...], tuple[int, int, int]]:
        """(worth, items, (Markets, 2-for-1s, black units)) of the best purchase set.

        The sets are tried in the order of :func:`.dadaocheng_tree.purchase_tree` (the first
        best wins). What a cover keeps is worth at most what the whole hand keeps, so once
        no set skipped with a set can beat the best even keeping all of it, those sets are
        passed over; a payable set that cannot beat it so is not covered at all.
        """
        worth, at, counts = self._search(hand)
        return worth, _chosen(self.items, at), counts

    def _search(self, hand: Hand) -> tuple[float, int, tuple[int, int, int]]:
        """:meth:`plan` with the best set as its index in the purchase tree (-1: none)."""
        whole = self.keep(hand)
        best, plan, at = whole, (0, 0, 0), -1
        totals, worths, skips, reach, top = self._tree()
        memo, cover, payable = self._cubes, self._cover, self._payable
        c0, c1, c2, c3 = (cube_codes(0, hand[0], top, hand[BLACK]), cube_codes(1, hand[1], top),
                          cube_codes(2, hand[2], top), cube_codes(3, hand[3], top))
        low = self._probe(self._memo.get("last"), totals, worths, (c0, c1, c2, c3), whole)
        floor = low - PRUNE_EPS
        i, n = 0, len(totals)
        while i < n:
            t0, t1, t2, t3 = totals[i]
            key = c0[t0] + c1[t1] + c2[t2] + c3[t3]   # the spare cubes and missing units
            found = memo.get(key, memo)
            if found is memo or found is UNCOVERED:
                bound = worths[i] + whole
                if bound > best and bound >= low:
                    found = memo[key] = cover(*decode(key))
                elif found is memo:
                    found = memo[key] = UNCOVERED if payable(*decode(key)) else None
            if found is None:
                i = skips[i]
                continue
            if found is not UNCOVERED and worths[i] + found[0] > best:
                best, plan, at = worths[i] + found[0], found[1], i
            bound = reach[i] + whole
            i = skips[i] if bound < best - PRUNE_EPS or bound < floor else i + 1
        if at >= 0:
            self._memo["last"] = at
        return best, at, plan

    def _probe(self, node: int | None, totals: list[list[int]], worths: list[float],
               codes: tuple[list[int], ...], whole: float) -> float:
        """A worth some set reaches with this hand (the set last best for this signature),
        else ``whole``: no set worth less can be the best, so the search passes them over
        (the first set of the best worth is still the one found)."""
        if node is None:
            return whole
        t0, t1, t2, t3 = totals[node]
        key = codes[0][t0] + codes[1][t1] + codes[2][t2] + codes[3][t3]
        found = self._cubes.get(key, UNCOVERED)
        if found is UNCOVERED:
            found = self._cubes[key] = self._cover(*decode(key))
        return whole if found is None else max(whole, worths[node] + found[0])

    def cover(self, hand: Hand, cost: Sequence[int]) -> tuple[float, tuple[int, int, int]] | None:
        """Best way to pay ``cost`` from ``hand``: (kept worth less opium, counts) or None."""
        short = sum(max(0, cost[c] - hand[c]) for c in range(4))
        spare = tuple([max(0, hand[c] - cost[c]) for c in range(4)] + [hand[BLACK]])
        key = (spare, short)
        if key not in self._cubes:
            self._cubes[key] = self._cover(spare, short)
        return self._cubes[key]

    def _payable(self, spare: Hand, short: int) -> bool:
        """Whether :meth:`_cover` finds a way (paying the most black units is the easiest:
        each saves at least one cube of feed for the one cube it spends)."""
        if not short:
            return True
        black = min(short, spare[BLACK])
        if black < 0:
            return False
        rest = short - black
        feed = 2 * rest - min(self.markets, rest)
        return sum(spare) - black >= feed

    def _cover(self, spare: Hand, short: int) -> tuple[float, tuple[int, int, int]] | None:
        """Cover ``short`` missing units from the ``spare`` cubes: Markets first, then each
        split between black payments and 2-for-1 exchanges fed with the cheapest cubes."""
        if not short:
            return self.keep(spare), (0, 0, 0)
        best = None
        total, markets, keep, opium = sum(spare), self.markets, self.keep, self.opium_cost
        for black in range(min(short, spare[BLACK]) + 1):
            rest = short - black
            market = markets if markets < rest else rest
            feed = market + 2 * (rest - market)
            if total - black < feed:
                continue
            pool = list(spare)
            pool[BLACK] -= black
            for c in self._fodder:
                if feed <= 0:
                    break
                take = feed if feed < pool[c] else pool[c]
                pool[c] -= take
                feed -= take
            worth = keep(pool) - black * opium
            if best is None or worth > best[0]:
                best = (worth, (market, rest - market, black))
        return best
