"""A greedy Formosa Tea player (it reads everything but the bag's and the deck's order).

* Turn (main action or a free disc use, before and after the main action): complete
  any finished batch first (it costs no worker); otherwise a one-ply search: every
  legal action is applied to a copy of the state, the seat's own follow-up decisions
  are answered by the rules below, and the position is scored by
  :func:`formosa_envs.agents.heuristics.tea_eval.value` (VP now plus every asset at its expected
  sale value, discounted for the time left).
* Harvest takes, Wu Zhen Duo's extra cube, bonus harvests and the starting harvest:
  the cubes (and bud) that raise the Basket's worth most.
* A/B advance, lowering water, tech discs, Tea Processing / Masters / John Dodd
  steps, 1868: the choice with the best batch worth after it (the batch search of
  ``tea_eval``). Tech rewards and Arai's extra space are always taken.
* Technology: the track whose next reward is worth most. Merchants: the card with
  the most VP (and icon VP) for the cubes it costs; payment keeps the sale's best
  reachable quality with the cheapest cubes (Domestic: the poorest cubes).
* Scented Tea: cubes worth less than the buds will make them, poorest first.
* Character draft: a fixed preference order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from formosa_envs.core.payment import pay_purpose, pay_units
from formosa_envs.games.tea import actions as A
from formosa_envs.games.tea.markets import DOMESTIC_PURPOSE
from formosa_envs.games.tea.scoring import icon_multiplier
from formosa_envs.games.tea.state import SCENTED, column_of
from formosa_envs.games.tea.turn import basket_room

from . import tea_eval as V

DRAFT_ORDER = (5, 3, 0, 1, 6, 2, 4)   # Wu, Li, Wang, Wei, Hsu, Dodd, Arai (self-play)
REWARD = {"disc_fixation": 0.8, "disc_rolling": 0.8, "disc_oxidation": 0.8,
          "disc_drying": 0.8, "action_global": 2.5, "action_processing": 1.5,
          "advance_any": 1.5, "none": 0.0}
WANG, LI = 0, 3


def choose(game: Any, state: Any, rng: np.random.Generator) -> int:
    """The heuristic's action for the deciding seat of a Formosa Tea ``state``."""
    legal = game.legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    d = state.stack[-1]
    if d.kind != "turn":
        return rule(game, state, d, legal)
    completions = [a for a in legal if A.COMPLETE0 <= a < A.COMPLETE0 + 4]
    if completions:
        return completions[0]
    values = [_after(game, state, d.player, a) for a in legal]
    noise = rng.random(len(values)) * 1e-6  # seeded tie-break
    return legal[int(np.argmax(np.asarray(values) + noise))]


def _after(game: Any, state: Any, me: int, action: int) -> float:
    """Value for ``me`` after ``action`` and ``me``'s own follow-up decisions."""
    return V.value(game, follow_up(game, state, me, action), me)


def follow_up(game: Any, state: Any, me: int, action: int) -> Any:
    """A copy of ``state`` after ``action`` and ``me``'s own follow-up decisions (answered
    by :func:`rule`), stopped at a chance event, another seat's decision or a turn."""
    s = state.clone()
    game.apply_legal_action(s, action)  # one of the legal ids: no need to check it again
    handlers, stack = game.handlers, s.stack
    while not s.over:
        d = stack[-1]
        if d.player != me or d.kind == "turn":
            break
        legal = handlers[d.kind].legal(game, s, d)  # game.legal_actions: a seat's frame
        answer = rule(game, s, d, legal)
        if answer in legal:
            game.apply_legal_action(s, answer)
        else:  # raises IllegalActionError naming the answer
            game.apply_action(s, answer)
    return s


def rule(game: Any, s: Any, d: Any, legal: list[int]) -> int:
    """The direct answer to a decision other than ``turn``."""
    if len(legal) == 1:
        return legal[0]
    handler = RULES.get(d.kind)
    if handler is None:
        return legal[0]
    return handler(_Ctx(game, s, d), legal)


class _Ctx:
    """A decision being answered: the game, the state, the frame and the deciding seat."""

    def __init__(self, game: Any, s: Any, d: Any) -> None:
        self.game, self.s, self.d, self.me = game, s, d, d.player
        self.rounds = max(0, len(s.events) - s.round)   # V.rounds_after(s)
        self.doubled = s.character[self.me] == V.HSU

    def best(self, legal: list[int], score: Any) -> int:
        """The legal action with the highest ``score`` (the first on ties)."""
        return max(legal, key=score)

    # ----- basket worth ---------------------------------------------------------------------
    def basket_gain(self, taken: list[int], wl: int) -> float:
        """Rise in the Basket's worth from adding ``taken`` cubes (per tea) at ``wl``."""
        gain = 0.0
        game, rounds, doubled = self.game, self.rounds, self.doubled
        basket, where = self.s.basket[self.me], self.s.master_pos[self.me]
        for tea in range(3):
            if not taken[tea]:
                continue
            k = 3 * tea
            levels = (basket[k], basket[k + 1], basket[k + 2])
            new = list(levels)
            new[wl] += taken[tea]
            busy = where[tea] >= 0
            gain += (V.basket_tea_value(game, tea, tuple(new), busy, rounds, doubled)
                     - V.basket_tea_value(game, tea, levels, busy, rounds, doubled))
        return gain

    def take_value(self, space: int, taken: list[int]) -> float:
        """A take's worth: the Basket's rise plus the bud if it empties the space."""
        wl = self.game.water_level(self.s, column_of(space))
        cubes = self.s.cubes[space]
        bud = V.BUD if sum(taken) == sum(cubes) and self.s.bud[space] >= 0 else 0.0
        return self.basket_gain(taken, wl) + bud * (1.0 if self.rounds else 0.2)

    def best_single(self, space: int) -> float:
        """The best one-cube take from ``space``."""
        cubes = self.s.cubes[space]
        return max((self.take_value(space, [int(c == t) for c in range(3)])
                    for t in range(3) if cubes[t]), default=-1.0)

    # ----- batch worth ------------------------------------------------------------------------
    def track_value(self, track: int, pos: int | None = None,
                    contents: V.Contents | None = None) -> float:
        """Worth of the seat's batch on ``track`` (optionally at another space / contents)."""
        s, me = self.s, self.me
        pos = s.master_pos[me][track] if pos is None else pos
        if track == SCENTED:
            return V.scented_value(self.game, s, me, pos, self.rounds)
        c = tuple(s.factory[me][4 * track:4 * track + 4]) if contents is None else contents
        return V.factory_value(self.game, track, pos, c, self.rounds,  # type: ignore[arg-type]
                               self.doubled)

    def step_gain(self, track: int, steps: int = 1) -> float:
        """Rise in the batch's worth from moving its Master ``steps`` spaces (mode A)."""
        pos = self.s.master_pos[self.me][track]
        new = min(pos + steps, self.game.last[track])
        if track == SCENTED:
            ahead = sum(1 for sp in range(pos + 1, new + 1)
                        if self.game.effect_at(SCENTED, sp) == V.E.SCENTING)
            tea = self.s.scent[self.me][0]
            bud = 2 if tea >= 0 and self.s.buds[self.me][tea] else 1
            return self.track_value(SCENTED, new) - self.track_value(SCENTED) \
                + min(ahead, sum(self.s.buds[self.me])) * bud * self.s.scent[self.me][1] * 0.5
        c = tuple(self.s.factory[self.me][4 * track:4 * track + 4])
        ops = V.track_ops(self.game, track, pos + 1, new)
        walked = V.best_final(ops, c, self.doubled)  # type: ignore[arg-type]
        return self.track_value(track, new, walked) - self.track_value(track)

    def tech_gain(self, tea: int) -> float:
        """Worth of one advance on technology track ``tea``."""
        g, s, me = self.game, self.s, self.me
        level = s.tech[me][tea]
        if level >= g.tech_top[tea]:
            return -1.0
        row = g.board.technology[tea]
        reward = row.rewards[level]
        gain = 0.3 + REWARD.get(reward, 0.0)
        if reward == "merchant_vp":
            icons = sum(1 for c in s.kept[me] if g.merchants[c].icon_index == tea)
            now = icon_multiplier(level, row.rewards, row.values)
            gain += (row.values[level] - now) * (icons + V.FUTURE_KEPT * self.rounds)
        keys = {g.events[e].key for e in s.events}
        if ("e1916" in keys and tea == 0) or ("e1925" in keys and tea == 1):
            gain += 0.5
        return gain

    # ----- selling ---------------------------------------------------------------------------
    def sale_quality(self, units: list[int], low: int = 2) -> int:
        """The best lowest quality at which ``units`` (teas) can be paid (at most ``low``)."""
        w = self.s.warehouse[self.me]
        for q in range(low, -1, -1):
            if all(units.count(t) <= sum(w[3 * t + k] for k in range(q, 3)) for t in range(3)):
                return q
        return 0

    def merchant_value(self, slot: int) -> float:
        """VP of selling to the card in ``slot``, less the worth of the cubes it costs."""
        g, s, me = self.game, self.s, self.me
        card = g.merchants[s.display[slot // 3][slot % 3]]
        units = [t for t in range(3) for _ in range(card.demand[t])]
        q = self.sale_quality(units)
        vp = card.vp(q) + (s.tech[me][0] if s.character[me] == WANG and card.demand[0] else 0)
        vp += len(s.kept[me]) if s.character[me] == LI else 0
        if q >= 1:
            row = g.board.technology[card.icon_index]
            vp += icon_multiplier(s.tech[me][card.icon_index], row.rewards, row.values) + 0.5
        w = list(s.warehouse[me])
        cost = 0.0
        for t in units:
            k = next(k for k in range(q, 3) if w[3 * t + k])
            w[3 * t + k] -= 1
            cost += V.WORTH[k]
        return vp - 0.9 * cost

    def pay_choice(self, legal: list[int]) -> int:
        """The cheapest cube that keeps the sale's best reachable quality."""
        if pay_purpose(self.d) >= DOMESTIC_PURPOSE:
            return min(legal, key=lambda a: (a - A.CUBE0) % 3)
        target = self.sale_quality(list(pay_units(self.d)), self.s.pay_low)
        fits = [a for a in legal if (a - A.CUBE0) % 3 >= target] or legal
        return min(fits, key=lambda a: (a - A.CUBE0) % 3)

    def best_take(self, space: int) -> float:
        """The best take from ``space`` that fits in the Basket (a bonus harvest)."""
        cubes, room = self.s.cubes[space], basket_room(self.s, self.me)
        takes = [[cubes[c] if k == c else 0 for k in range(3)] for c in range(3)
                 if 0 < cubes[c] <= room]
        one_each = [min(1, c) for c in cubes]
        if 0 < sum(one_each) <= room:
            takes.append(one_each)
        return max((self.take_value(space, t) for t in takes), default=0.0)


# ----- the rules, one per decision kind ---------------------------------------------------

def _take(x: _Ctx, legal: list[int]) -> int:
    """Harvest: the take (or none) that raises the Basket's worth most (the scores of
    :meth:`_Ctx.take_value`, each colour's rise worked out once)."""
    space = x.d.ctx[0]
    s = x.s
    cubes = s.cubes[space]
    wl = x.game.water_level(s, column_of(space))
    every, late = sum(cubes), 1.0 if x.rounds else 0.2
    bud = V.BUD if s.bud[space] >= 0 else 0.0
    rises: dict[tuple[int, int], float] = {}

    def rise(tea: int, n: int) -> float:
        found = rises.get((tea, n))
        if found is None:
            found = rises[tea, n] = x.basket_gain([n if c == tea else 0 for c in range(3)], wl)
        return found

    def score(a: int) -> float:
        if a == A.DONE:
            return 0.0
        i = a - A.TAKE0
        taken = [min(1, c) for c in cubes] if i == A.ONE_EACH else \
            [cubes[c] if c == i else 0 for c in range(3)]
        gain = 0.0
        for tea in range(3):
            if taken[tea]:
                gain += rise(tea, taken[tea])
        return gain + (bud if sum(taken) == every else 0.0) * late
    return x.best(legal, score)


def _space(x: _Ctx, legal: list[int]) -> int:
    """Wu Zhen Duo's extra cube and the starting harvest: the best single cube."""
    return x.best(legal, lambda a: 0.0 if a == A.DONE else x.best_single(a - A.SPACE0))


def _colour(x: _Ctx, legal: list[int]) -> int:
    """The colour of a single cube: the one worth most in the Basket."""
    space = x.d.ctx[0]
    return x.best(legal, lambda a: x.take_value(
        space, [int(c == a - A.TYPE0) for c in range(3)]))


def _bonus_space(x: _Ctx, legal: list[int]) -> int:
    """Bonus harvest: the space with the best take (DONE if none is worth anything)."""
    return x.best(legal, lambda a: 0.0 if a == A.DONE else x.best_take(a - A.SPACE0))


def _advance_mode(x: _Ctx, legal: list[int]) -> int:
    """A or B: the batch worth after walking the spaces against jumping to the end."""
    track, steps = x.d.ctx
    gain_a = x.step_gain(track, steps)
    gain_b = x.track_value(track, x.game.last[track]) - x.track_value(track)
    return A.MODE0 + (A.MODE_A if gain_a >= gain_b else A.MODE_B)


def _lower(x: _Ctx, legal: list[int]) -> int:
    """Lower the level whose choice leads to the best batch over the effects ahead."""
    track = x.d.ctx[0]
    s, me = x.s, x.me
    pos = s.master_pos[me][track]
    c = tuple(s.factory[me][4 * track:4 * track + 4])
    below = s.stack[-2] if len(s.stack) > 1 else None
    pending = ("l",) if (not x.d.optional and below is not None and below.kind == "?lower"
                         and below.ctx == (me, track)) else ()
    rest = pending + V.track_ops(x.game, track, pos + 1)

    def score(a: int) -> float:
        w0, w1, w2, f = c
        if a == A.LOWER0:
            nc = (w0, w1 + 1, w2 - 1, f)
        elif a == A.LOWER0 + 1:
            nc = (w0 + 1, w1 - 1, w2, f)
        else:
            nc = c
        return V.batch_score(V.best_final(rest, nc, x.doubled), x.doubled)  # type: ignore
    return x.best(legal, score)


def _scent_bud(x: _Ctx, legal: list[int]) -> int:
    """A bud matching the scented tea, else the colour held most."""
    tea = x.s.scent[x.me][0]
    return x.best(legal, lambda a: (a - A.TYPE0 == tea, x.s.buds[x.me][a - A.TYPE0]))


def _confirm(x: _Ctx, legal: list[int]) -> int:
    """Tech rewards and Arai's extra space are always taken (they never hurt)."""
    return A.CONFIRM if A.CONFIRM in legal else legal[0]


def _tech_any(x: _Ctx, legal: list[int]) -> int:
    """The technology track whose next reward is worth most."""
    return x.best(legal, lambda a: 0.0 if a == A.DONE else x.tech_gain(a - A.TECH0))


def _scent_cube(x: _Ctx, legal: list[int]) -> int:
    """Cubes worth less than the buds will make them, poorest first."""
    s, me = x.s, x.me
    wei = s.character[me] == V.WEI

    def margin(a: int) -> float:
        if a == A.DONE:
            return 0.0
        tea, q = divmod(a - A.CUBE0, 3)
        buds = sorted(((2 if col == tea else 1) + wei for col in range(3)
                       for _ in range(s.buds[me][col])), reverse=True)
        worth = V.WORTH[q] * (0.9 if x.rounds else 0.5)
        return 0.8 * sum(buds[:4]) - worth + 0.01 * (3 - q)
    return x.best(legal, margin)


def _disc_factory(x: _Ctx, legal: list[int]) -> int:
    """The Factory whose batch gains most from the disc's effect."""
    ops = V.DISC_OPS[x.d.ctx[0]]

    def gain(a: int) -> float:
        track = a - A.TRACK0
        c = tuple(x.s.factory[x.me][4 * track:4 * track + 4])
        after = V.best_final(ops, c, x.doubled)  # type: ignore[arg-type]
        return x.track_value(track, None, after) - x.track_value(track)
    return x.best(legal, gain)


def _advance_own(x: _Ctx, legal: list[int]) -> int:
    """Tea Processing disc, Masters bonus, John Dodd: the step that helps most."""
    return x.best(legal, lambda a: 0.0 if a == A.DONE else x.step_gain(a - A.TRACK0) + 0.01)


def _merchant(x: _Ctx, legal: list[int]) -> int:
    """The card worth most for the cubes it costs."""
    return x.best(legal, lambda a: x.merchant_value(a - A.MERCHANT0))


def _pay(x: _Ctx, legal: list[int]) -> int:
    """The cheapest cube that keeps the sale's quality."""
    return x.pay_choice(legal)


def _event_discard(x: _Ctx, legal: list[int]) -> int:
    """1865/1867/1869: trade the cheapest oolong cube if the VP and advance are worth more."""
    gain = x.d.ctx[0] + x.tech_gain(0)
    keep = 0.9 if x.rounds else 0.0
    return x.best(legal, lambda a: 0.0 if a == A.DONE else
                  gain - V.WORTH[(a - A.CUBE0) % 3] * keep)


def _event_1868(x: _Ctx, legal: list[int]) -> int:
    """1868: the oolong Master's step or the oolong technology, whichever is worth more."""
    return x.best(legal, lambda a: x.tech_gain(0) if a == A.TECH0 else x.step_gain(0))


def _draft(x: _Ctx, legal: list[int]) -> int:
    """The first character of :data:`DRAFT_ORDER` on offer."""
    return min(legal, key=lambda a: DRAFT_ORDER.index(a - A.CHARACTER0))


RULES = {
    "worker": lambda x, legal: A.WORKER0,          # a Farmer: Masters stay free to process
    "take": _take, "extra_space": _space, "extra_colour": _colour, "setup_space": _space,
    "setup_colour": _colour, "bonus_space": _bonus_space, "advance_mode": _advance_mode,
    "lower": _lower, "scent_bud": _scent_bud, "arai_extra": _confirm,
    "tech_reward": _confirm, "tech_any": _tech_any, "scent_cube": _scent_cube,
    "disc_factory": _disc_factory, "bonus_advance": _advance_own,
    "dodd_advance": _advance_own, "choose_merchant": _merchant, "pay": _pay,
    "event_discard": _event_discard, "event_1868": _event_1868, "draft": _draft,
}
"""The rule of each decision kind other than ``turn``."""
