"""A greedy Taiwan Formosa player (it may read everything but the decks' face-down order).

* Dice: extra dice with the coins above ``reserve`` (more early and in the last round).
* Action turn: use every Temple, then take the next step (an exchange or the purchase) of
  the best plan: a building, face-up landmark, charity or overtime rated by value per cost.
  Value = VP (less the penalty of the space it would end on) + ability value over the
  estimated rounds left + projected area-majority value of the markers it places. Cost =
  held items at what they are worth next round (a resource 1, a coin 1/9, perishable hand
  workers and merchants less) + the cheapest exchanges that make it affordable. PASS when
  no ratio clears ``threshold`` (in the last round: no net gain), after cashing a leftover
  merchant into a needed resource.
* Pay: hand before stock, a factory only for a resource it does not need, the least
  useful items for the 3-item exchange. Region: the best majority gain (+ Hot Spring VP).
  Warehouse: the resource it lacks most for its targets. Discards: the one needed least.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from formosa_envs.core.payment import pay_units
from formosa_envs.games.taiwan import actions as A
from formosa_envs.games.taiwan import payment as P
from formosa_envs.games.taiwan.flow import CONVENIENCE
from formosa_envs.games.taiwan.rules import CHARITY, DICE_COST, HOT_SPRING, PUBLIC_ART
from formosa_envs.games.taiwan.scoring import TRAIN_VP, UNCOMPLETED_PENALTY, area_ranks
from formosa_envs.games.taiwan.state import HAND_LIMIT, LANDMARK0, NUM_DECKS

Plan = tuple[float, float, int, tuple[int, ...]]  # value, cost, action, exchanges first


@dataclass(frozen=True)
class Weights:
    """Tunable knobs of the heuristic."""

    threshold: float = 0.8     # least value per cost unit worth buying before the last round
    reserve: int = 12          # coins kept back when buying extra dice
    early_dice: int = 3        # most extra dice while at least ``early_rounds`` remain
    early_rounds: int = 4
    late_dice: int = 1
    final_dice: int = 3
    pace: float = 0.45         # cards bought per player per round from the nearest-empty piles
    focus: float = 0.3         # share of all purchases that fall on the nearest-empty piles
    contest: float = 0.3       # share of a red (exclusive) ability's value its owner keeps
    hand_worker: float = 0.33  # worth of a hand worker (lost at cleanup; a third of an exchange)
    merchant: float = 0.5     # worth of a merchant (lost at cleanup; preferred to 9 coins)
    majority: float = 0.2      # weight of projected area-majority value
    rich: float = 30.0         # coins beyond this are worth proportionally less
    overtime_early: float = 0.5  # weight of overtime value before the last round (uncertain)


DEFAULT_WEIGHTS = Weights()
PRIOR_ROUNDS = 3                                             # weight of ``pace`` in rounds
LANDMARKS = 16
PER_USE = {"sawmill": 0.05, "brickworks": 0.05, "steelworks": 0.05, "stone_factory": 0.05,
           "temple": 1.2, "lottery_office": 0.2}             # VP per action / dice phase
PER_INCOME = {"night_market": 3 / 9}                         # VP per income phase
RED_PER_ROUND = {"judicial_court": 0.5, "tax_bureau": 0.33, "demolition_company": 0.4,
                 "urban_development_bureau": 0.3}            # opponents' loss per round
STOCK = {"tribal_village": 2.4, "warehouse": 2.4}            # three stored items, once


def choose(game: Any, state: Any, rng: np.random.Generator,
           weights: Weights = DEFAULT_WEIGHTS) -> int:
    """The heuristic's action for the deciding seat of a Taiwan Formosa ``state``."""
    legal = game.legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    d = state.stack[-1]
    view = _View(game, state, d.player, weights)
    if d.kind == "declare":
        return view.dice(legal)
    if d.kind == "act":
        return view.act(legal)
    values = [view.option_value(d, a) for a in legal]
    noise = rng.random(len(values)) * 1e-6  # seeded tie-break
    return legal[int(np.argmax(np.asarray(values) + noise))]


def rounds_left(s: Any, w: Weights = DEFAULT_WEIGHTS) -> int:
    """Estimated Building phases left, this one included: the piles nearest to empty go
    at ``w.pace`` cards per player and round, moving to the observed pace (no stalls)."""
    if s.final_round:
        return 1
    sizes = sorted([s.piles[t] for t in range(18) if s.in_game[t]]
                   + [len(s.decks[k]) + (s.face_up[k] >= 0) for k in range(NUM_DECKS)])
    empty = sizes.count(0)
    need = s.num_players - empty
    if need <= 0:
        return 2
    taken = sum(map(sum, s.bought)) + LANDMARKS - sum(
        len(d) + (c >= 0) for d, c in zip(s.decks, s.face_up, strict=True))
    done = s.round - 1
    pace = (w.pace * PRIOR_ROUNDS + w.focus * taken / s.num_players) / (PRIOR_ROUNDS + done)
    return 3 + int(sum(sizes[empty:empty + need]) / (pace * s.num_players))


class _View:
    """The acting seat's situation, with the estimates every decision shares."""

    def __init__(self, game: Any, s: Any, me: int, w: Weights) -> None:
        self.g, self.s, self.me, self.w = game, s, me, w
        self.n = s.num_players
        self.left = rounds_left(s, w)
        self.last = bool(s.final_round)
        self.hold = [s.res[me][r] + s.warehouse[me][r] for r in range(4)]
        self.workers = s.workers[me] + s.tribal[me]
        self.fee = int(self._rival_holds("urban_development_bureau"))
        self.delay = int(self._rival_holds("demolition_company"))
        self.extra_markers = sum(s.markers) * min(1.0, (self.left - 1) / 6) / 4  # per region
        self.unit = 0.05 if self.last else 1.0
        self.coin = 0.01 if self.last else 1 / 9 / max(1.0, s.coins[me] / w.rich)
        self._wanted: list[int] | None = None
        self._target: list[int] | None = None

    def _rival_holds(self, key: str) -> bool:
        return self.g.exclusive_owner(self.s, key) not in (-1, self.me)

    def dice(self, legal: list[int]) -> int:
        """Extra dice with the coins above the reserve, more early and in the last round."""
        w = self.w
        cap = w.final_dice if self.last else (
            w.early_dice if self.left >= w.early_rounds else w.late_dice)
        extra = min(cap, max(0, (self.s.coins[self.me] - w.reserve) // DICE_COST))
        return A.DICE0 + extra if A.DICE0 + extra in legal else legal[0]

    def act(self, legal: list[int]) -> int:
        """Temple first, then the next step of the best plan, or PASS."""
        if A.TEMPLE in legal:
            return A.TEMPLE
        best = self.best_plan(set(legal))
        if best is None:
            return self._cash_in_merchant(legal)
        return best[3][0] if best[3] else best[2]  # the first exchange, else the action

    def _cash_in_merchant(self, legal: list[int]) -> int:
        """Before passing, turn a merchant (lost at cleanup) into the resource most needed."""
        s, me = self.s, self.me
        if self.last or not s.merchants[me] or sum(s.res[me]) >= HAND_LIMIT:
            return A.PASS
        needs = self.needs()
        r = max(range(4), key=lambda k: (needs[k] - self.hold[k], needs[k], -self.hold[k]))
        action = A.EX_MERCH0 + 1 + r
        return action if action in legal else A.PASS

    def best_plan(self, legal: set[int] | None) -> Plan | None:
        """The plan worth most (net gain in the last round, value per cost before)."""
        best, best_key = None, 0.0 if self.last else self.w.threshold
        for plan in self.plans(legal):
            value, cost = plan[0], plan[1]
            key = value - cost if self.last else value / max(cost, 0.05)
            if key > best_key:
                best, best_key = plan, key
        return best

    def plans(self, legal: set[int] | None) -> list[Plan]:
        """Every purchase, charity and overtime with a positive value and a way to pay."""
        s, me, out = self.s, self.me, []
        for t in range(18):
            if s.piles[t] > 0:
                b = self.g.buildings[t]
                value = self.card_value(b, t) + self.ability(b.key, b.time + self.delay)
                self._add(out, legal, A.BUY_B0 + t, value, b.resource_cost, b.coins + self.fee)
        for k in range(NUM_DECKS):
            if s.face_up[k] >= 0:
                lm = self.g.landmarks[s.face_up[k]]
                value = self.card_value(lm, LANDMARK0) + self.majority(self.g.region_of[lm.id], 1)
                self._add(out, legal, A.BUY_L0 + k, value, lm.resource_cost, lm.coins + self.fee)
        for r in range(4) if s.markers[me] else ():
            self._add(out, legal, A.CHARITY0 + r, self.majority(r, 1),
                      self._cost_of(A.CHARITY0 + r), CHARITY[r][2], 0)
        for i, (code, space) in enumerate(s.track[me][:A.TRACK_SLOTS]):
            if space >= 2:
                self._add(out, legal, A.OVERTIME0 + i, self.overtime(code, space),
                          (0, 0, 0, 0), 2)
        return out

    def _add(self, out: list[Plan], legal: set[int] | None, action: int, value: float,
             need: Sequence[int], coins: int, workers: int = 1) -> None:
        """Append the plan for ``action`` if it is worth something and can be paid."""
        if value <= 0:
            return
        found = self.exchanges(need, workers, coins)
        if found is None:
            return
        steps, cost = found
        first = steps[0] if steps else action
        if legal is not None and first not in legal:
            return
        out.append((value, cost, action, steps))

    def exchanges(self, need: Sequence[int], workers: int,
                  coins: int) -> tuple[tuple[int, ...], float] | None:
        """Exchanges that make a cost payable (each missing unit by the cheapest of a
        merchant, three spare items or nine coins) and the cost in units; None if none."""
        s, me, w = self.s, self.me, self.w
        gaps = [0] * max(0, workers - self.workers)
        for r in range(4):
            gaps += [r + 1] * max(0, need[r] - self.hold[r])
        hand_workers = min(workers, s.workers[me])
        cost = (hand_workers * w.hand_worker + (workers - hand_workers - gaps.count(0))
                + sum(need) - (len(gaps) - gaps.count(0)))
        merchants, spare = s.merchants[me], self._spare_items(need, workers)
        steps: list[int] = []
        for out in gaps:
            options = [(0.0, A.EX_COINS0, 9)]
            if merchants:
                options.append((w.merchant, A.EX_MERCH0, 2))
            if len(spare) >= 3:
                options.append((sum(spare[:3]), A.EX_ITEMS0, 0))
            items, first, paid = min(options, key=lambda o: o[0] * self.unit + o[2] * self.coin)
            cost, coins = cost + items, coins + paid
            merchants -= first == A.EX_MERCH0
            spare = spare[3:] if first == A.EX_ITEMS0 else spare
            steps.append(first + out)
        if steps and coins > s.coins[me]:
            return None
        return tuple(steps), cost * self.unit + coins * self.coin

    def _spare_items(self, need: Sequence[int], workers: int) -> list[float]:
        """Values of the items the plan leaves over, cheapest first."""
        s, me, w = self.s, self.me, self.w
        spare_res = sum(max(0, h - q) for h, q in zip(self.hold, need, strict=True))
        loose = sum(s.res[me]) - sum(need)
        over = min(spare_res, max(0, loose - HAND_LIMIT))
        spare_workers = max(0, s.workers[me] - workers)
        return sorted([0.0] * over + [w.hand_worker] * spare_workers
                      + [w.merchant] * s.merchants[me] + [1.0] * (spare_res - over))

    # ----- values ---------------------------------------------------------------------
    def card_value(self, card: Any, code: int) -> float:
        """Printed VP if it finishes in time, else VP less the end-of-game penalty."""
        time = card.time + self.delay
        if time > self.left:
            return card.vp - UNCOMPLETED_PENALTY[min(time - self.left, 6)]
        bonus = self.s.bought[self.me][self.g.type_id["baseball_field"]] if code < 18 else 0
        return card.vp + bonus

    def ability(self, key: str, time: int) -> float:
        """VP-equivalent of a building's ability, bought now with ``time`` to build."""
        uses = max(0, self.left - time)
        incomes = uses + 1 if time <= self.left else 0
        if key in PER_USE:
            return PER_USE[key] * uses
        if key in PER_INCOME:
            return PER_INCOME[key] * incomes
        if key in STOCK:
            return STOCK[key] if uses else 0.0
        if key in RED_PER_ROUND:
            if self._red_blocked(key, time):
                return 0.0
            return self.w.contest * RED_PER_ROUND[key] * incomes
        return self._special(key, time, incomes)

    def _red_blocked(self, key: str, time: int) -> bool:
        """Whether a new red copy is useless: already held, or completing with another."""
        s, t = self.s, self.g.type_id[key]
        if self.g.exclusive_owner(s, key) == self.me:
            return True
        return any(c == t and (p == self.me or space == time)
                   for p in range(self.n) for c, space in s.track[p])

    def _special(self, key: str, time: int, incomes: int) -> float:
        """Baseball Field, Train Station, Convenience Store and the green markers."""
        s, me = self.s, self.me
        if key == "baseball_field":
            done = sum(1 for c in s.built[me] if c < LANDMARK0)
            coming = sum(1 for c, sp in s.track[me] if c < LANDMARK0 and sp <= self.left)
            return done + coming + (time <= self.left) + 0.4 * (self.left - 1)
        if key == "train_station":
            return self._train_gain()
        if key == "convenience_store":
            return self._store_gain(incomes)
        if key == "public_art_installation":
            return max((self.majority(r, 2) for r in range(4) if me not in s.regions[r]),
                       default=0.0)
        if key == "hot_spring_hotel":
            return max(2 * len(s.regions[r]) + self.majority(r, 1) for r in range(4))
        return 0.0

    def _train_gain(self) -> float:
        """Final-scoring gain of one more Train Station, less what rivals gain from it."""
        t = self.g.type_id["train_station"]
        total, mine = sum(b[t] for b in self.s.bought), self.s.bought[self.me][t]
        before, after = TRAIN_VP[min(total, 4)], TRAIN_VP[min(total + 1, 4)]
        rivals = (total - mine) * (after - before) / max(1, self.n - 1)
        hope = 0.5 * (mine + 1) * (TRAIN_VP[min(total + 2, 4)] - after) if self.left > 1 else 0
        return (mine + 1) * after - mine * before - rivals + hope

    def _store_gain(self, incomes: int) -> float:
        """Coins (as VP) from one more completed Convenience Store."""
        key = "convenience_store"
        total = sum(self.g.completed(self.s, p, key) for p in range(self.n))
        mine = self.g.completed(self.s, self.me, key)
        now, then = CONVENIENCE.get(total, 0), CONVENIENCE[min(total + 1, 4)]
        return (then + mine * (then - now)) / 9 * incomes

    def overtime(self, code: int, space: int) -> float:
        """VP saved by one overtime on a card that would not finish before the end."""
        end = space - self.left
        if end <= 0:
            return 0.0
        gain = float(UNCOMPLETED_PENALTY[1]) if end == 1 else 1.0
        if end == 1 and code < LANDMARK0:
            gain += self.s.bought[self.me][self.g.type_id["baseball_field"]]
        return gain if self.last else gain * self.w.overtime_early

    def majority(self, region: int, count: int) -> float:
        """Projected area-majority gain of placing ``count`` markers in ``region``."""
        count = min(count, self.s.markers[self.me])
        if count == 0:
            return 0.0
        before = self.s.regions[region]
        reward = len(before) + self.extra_markers
        gain = (self._standing(before + [self.me] * count, reward + count)
                - self._standing(before, reward))
        return self.w.majority * gain

    def _standing(self, markers: list[int], reward: float) -> float:
        """My majority points less the average of my rivals' (the neutral scores nothing)."""
        mine = theirs = 0.0
        for place, owner in enumerate(area_ranks(markers)[:2]):
            points = reward * (2 - place)
            if owner == self.me:
                mine += points
            elif owner < self.n:
                theirs += points
        return mine - theirs / max(1, self.n - 1)

    # ----- payments and small choices ---------------------------------------------------
    def needs(self, target: bool = True) -> list[int]:
        """Resources wanted for the best plan (and the best face-up landmark if ``target``)."""
        if self._wanted is None:
            plan = self.best_plan(None)
            self._wanted = self._cost_of(plan[2]) if plan else [0, 0, 0, 0]
        if not target or self.last:
            return self._wanted
        if self._target is None:
            lm = self._landmark_target()
            self._target = list(lm.resource_cost) if lm else [0, 0, 0, 0]
        return [max(a, b) for a, b in zip(self._wanted, self._target, strict=True)]

    def _landmark_target(self) -> Any:
        """The face-up landmark with the most value per nominal cost (None if none)."""
        def ratio(lm: Any) -> float:
            value = self.card_value(lm, LANDMARK0) + self.majority(self.g.region_of[lm.id], 1)
            return value / (1 + sum(lm.resource_cost) + lm.coins / 9)
        return max((self.g.landmarks[c] for c in self.s.face_up if c >= 0), key=ratio,
                   default=None)

    def _cost_of(self, action: int) -> list[int]:
        seg, i = A.ACTION_SPACE.decode(action)
        need = [0, 0, 0, 0]
        if seg == "BUY_BUILDING":
            need = list(self.g.buildings[i].resource_cost)
        elif seg == "BUY_LANDMARK":
            need = list(self.g.landmarks[self.s.face_up[i]].resource_cost)
        elif seg == "CHARITY":
            need[CHARITY[i][0]] = CHARITY[i][1]
        return need

    def option_value(self, d: Any, action: int) -> float:
        """Value of one option of a pay, region, warehouse or discard decision."""
        if d.kind == "pay":
            return -self.keep_value(action - A.PAY0, pay_units(d))
        if d.kind == "region":
            r = action - A.REGION0
            if d.ctx[0] == HOT_SPRING:
                return 2 * len(self.s.regions[r]) + self.majority(r, 1)
            return self.majority(r, 2 if d.ctx[0] == PUBLIC_ART else 1)
        needs = self.needs()
        if d.kind == "warehouse":
            r = action - A.WAREHOUSE0
            return needs[r] - self.hold[r] + 0.01 * needs[r]
        r = action - A.DISCARD0
        return self.hold[r] - needs[r] + 0.01 * self.s.res[self.me][r]

    def keep_value(self, source: int, units: Sequence[int]) -> float:
        """What paying one unit from ``source`` gives up (lower is better)."""
        w = self.w
        if source == P.PURSE:
            return self.coin
        if source == P.HAND_WORKER:  # the plan's own worker is kept out of the 3-item exchange
            return (2.0 if units[0] == P.ITEM and self.workers <= 1 else w.hand_worker) * self.unit
        if source == P.TRIBAL_WORKER:
            return self.unit
        if source == P.MERCHANT_TILE:
            return w.merchant * self.unit
        r = (source - P.HAND0) % 4
        owed = sum(1 for u in units if u == P.RES_UNIT0 + r)
        surplus = self.hold[r] - owed > self.needs(units[0] != P.ITEM)[r]
        crowded = sum(self.s.res[self.me]) - owed > HAND_LIMIT
        if source >= P.FACTORY0:
            return (0.04 if surplus else 1.0) * self.unit
        base = (0.0 if crowded else 1.0) if surplus else 2.0
        return (base + (0.2 if source >= P.WAREHOUSE0 else 0.0)) * self.unit
