"""Position value for the Formosa Tea heuristic (``agents/heuristics/tea.py``).

:func:`value` estimates what one seat's position is worth in VP: the VP already
scored and what final scoring would add now, plus every unfinished asset at its
expected sale value times a factor for the time left to turn it into VP:

* Warehouse cubes at their worth per quality (the last round: only as many as the
  seat's remaining workers and Global Market discs can still sell).
* A batch on a processing track: its quality now (what B or completion gives)
  blended with the best quality its remaining spaces can reach (the best lowering
  choices, found by an exhaustive search over the effects ahead), scaled by how
  close the Tea Master is to the last space and how many rounds are left.
* Basket cubes of a tea as the batch they would make if processed now, less the
  cost of tying up a Tea Master; a scented batch with the buds it may still get.
* Buds, action and technology discs, technology levels (future icon VP).

Every function reads only public information (the whole state but the bag's and
the deck's order, which nothing here uses). The functions of a game and small values
(:func:`track_ops`, :func:`factory_value`, :func:`basket_tea_value`) are memoised: a
game's board never changes, and a game is its own key (compared by identity).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from formosa_envs.core.observer import per_game, remember
from formosa_envs.games.tea import effects as E
from formosa_envs.games.tea.flow import final_bonus
from formosa_envs.games.tea.scoring import (
    GOOD,
    batch_quality,
    flavor_bonus,
    icon_multiplier,
    scented_vp,
)
from formosa_envs.games.tea.state import FLAVOR, SCENTED

Contents = tuple[int, int, int, int]   # cubes at WL 0, 1, 2 and in the Flavor area

SALE = (1.2, 2.6, 4.0)         # VP a cube of quality poor/normal/good sells for
WORTH = (1.1, 2.2, 3.3)        # a Warehouse cube's worth (a sale still costs a placement)
PW = 0.3                       # share of a batch's possible improvement counted
SCENT_PW = 0.3                 # share of the buds a scented batch may still get counted
MASTER_COST = 3.0              # a Tea Master tied up by a batch
TECH_STEP = 1.2                # an ordinary technology advance
FUTURE_KEPT = 0.4              # kept cards of one icon expected per round left
BUD = 1.0                      # a held bud (Scented Tea material)
DISC = {"action_global": 2.5, "action_processing": 1.5, "tech": 0.8}
HSU, WEI = 6, 1
OPS = {E.WITHERING: ("L",), E.FIXATION: ("L", "l"), E.OXIDATION: ("O",),
       E.ROLLING: ("R",), E.DRYING: ("D",)}
DISC_OPS = (("L", "l"), ("R",), ("O",), ("D",))   # Fixation, Rolling, Oxidation, Drying


def rounds_after(s: Any) -> int:
    """Rounds still to come after the current one (0 in the last round)."""
    return max(0, len(s.events) - s.round)


# ----- batches ---------------------------------------------------------------------------

def batch_score(c: Contents, doubled: bool = False) -> float:
    """Sale value of a raw batch completed as it is, flavor bonus included."""
    quality = batch_quality(c[:3], c[FLAVOR])
    bonus = flavor_bonus(c[FLAVOR], doubled) if quality == GOOD else 0
    return sum(c) * SALE[quality] + bonus


def step_options(op: str, c: Contents) -> list[Contents]:
    """Contents after one effect step (every choice of cube; unchanged if none moves)."""
    w0, w1, w2, f = c
    if op in ("L", "l"):
        out = [(w0, w1 + 1, w2 - 1, f)] if w2 else []
        out += [(w0 + 1, w1 - 1, w2, f)] if w1 else []
        return out + [c] if op == "l" or not out else out
    if op == "O":
        return [(w0, w1, w2 - 1, f + 1)] if w2 else [c]
    if op == "R":
        return [(w0, w1 - 1, w2, f + 1)] if w1 else [c]
    moved = min(2, w0)
    return [(w0 - moved, w1, w2, f + moved)]


@lru_cache(maxsize=200_000)
def best_final(ops: tuple[str, ...], c: Contents, doubled: bool = False) -> Contents:
    """The best contents reachable through ``ops`` (exhaustive over the choices)."""
    if not ops:
        return c
    finals = [best_final(ops[1:], nc, doubled) for nc in step_options(ops[0], c)]
    return max(finals, key=lambda x: (batch_score(x, doubled), x[FLAVOR], -x[1] - 2 * x[2]))


@lru_cache(maxsize=1 << 16)
def track_ops(game: Any, track: int, first: int, last: int | None = None) -> tuple[str, ...]:
    """Effect steps of spaces ``first`` .. ``last`` (default: up to the track's end)."""
    end = game.last[track] if last is None else min(last, game.last[track])
    ops: tuple[str, ...] = ()
    for space in range(first, end + 1):
        ops += OPS.get(game.effect_at(track, space), ())
    return ops


@lru_cache(maxsize=1 << 16)
def factory_value(game: Any, track: int, pos: int, c: Contents, rounds: int,
                  doubled: bool = False) -> float:
    """Worth of a raw batch whose Tea Master stands on ``pos`` (see the module doc)."""
    now = batch_score(c, doubled)
    left = game.last[track] - pos
    if left <= 0:
        return now * (0.9 if rounds else 0.75)
    walk = batch_score(best_final(track_ops(game, track, pos + 1), c, doubled), doubled)
    blended = now + PW * (walk - now)
    return blended * (max(0.55, 0.8 - 0.03 * left) if rounds else 0.3)


def scented_value(game: Any, s: Any, me: int, pos: int, rounds: int) -> float:
    """Worth of the scented batch: VP now, plus the held buds the spaces ahead may add."""
    tea, cubes, *buds = s.scent[me]
    if tea < 0:
        return 0.0
    wei = s.character[me] == WEI
    now = scented_vp(cubes, tea, buds, wei)
    ahead = sum(1 for sp in range(pos + 1, game.last[SCENTED])
                if game.effect_at(SCENTED, sp) == E.SCENTING)
    values = sorted(((2 if col == tea else 1) + wei for col in range(3)
                     for _ in range(s.buds[me][col])), reverse=True)
    walk = now + cubes * sum(values[:ahead])
    total = now + SCENT_PW * (walk - now) + TECH_STEP
    left = game.last[SCENTED] - pos
    if left <= 0:
        return total * (0.9 if rounds else 0.75)
    return total * (max(0.55, 0.8 - 0.03 * left) if rounds else 0.3)


@lru_cache(maxsize=1 << 16)
def basket_tea_value(game: Any, tea: int, levels: tuple[int, int, int], busy: bool,
                     rounds: int, doubled: bool = False) -> float:
    """Worth of the Basket cubes of one tea (``levels`` = cubes at WL 0, 1, 2)."""
    n = sum(levels)
    if n == 0:
        return 0.0
    k = (0.05, 0.5, 0.65)[min(rounds, 2)]
    if busy:  # its Tea Master is still on the track: the cubes wait
        return n * 0.8 * k
    c = (*levels, 0)
    first = best_final(track_ops(game, tea, 0, 0), c, doubled)
    now = batch_score(first, doubled)
    walk = batch_score(best_final(track_ops(game, tea, 1), first, doubled), doubled)
    reward = TECH_STEP * (2 if n >= 5 else 1 if n >= 3 else 0)
    return max(n * 0.4, now + PW * (walk - now) - MASTER_COST + reward) * k


# ----- the whole position -------------------------------------------------------------------

def warehouse_value(s: Any, me: int, rounds: int) -> float:
    """Warehouse cubes at their worth; in the last round only what can still be sold."""
    sales = s.farmers[me] + s.masters[me] + s.action_discs[me][0] if not rounds else -1
    return _warehouse_value(tuple(s.warehouse[me]), rounds, sales)


@lru_cache(maxsize=1 << 16)
def _warehouse_value(warehouse: tuple[int, ...], rounds: int, sales: int) -> float:
    """:func:`warehouse_value` of a Warehouse's counts (``sales`` read in the last round)."""
    cubes = [WORTH[q] for t in range(3) for q in range(3)
             for _ in range(warehouse[3 * t + q])]
    if rounds:
        return 0.9 * sum(cubes)
    return sum(sorted(cubes, reverse=True)[:int(2.5 * sales)])


def tech_value(game: Any, s: Any, me: int, rounds: int) -> float:
    """Technology levels: a small worth per level, plus icon VP of cards still to come."""
    return _tech_value(game, tuple(s.tech[me]), rounds)


@lru_cache(maxsize=1 << 16)
def _tech_value(game: Any, levels: tuple[int, ...], rounds: int) -> float:
    """:func:`tech_value` of one seat's technology ``levels``."""
    total = 0.3 * sum(levels) if rounds else 0.0
    for tea, row in enumerate(game.board.technology):
        total += icon_multiplier(levels[tea], row.rewards, row.values) * FUTURE_KEPT * rounds
    return total


def holdings_value(game: Any, s: Any, me: int, rounds: int) -> float:
    """Buds and discs held (worth less in the last round)."""
    late = 0.4 if rounds == 0 else 1.0
    scenting = 0 <= s.master_pos[me][SCENTED] < game.last[SCENTED]
    buds = 0.0 if scenting else sum(s.buds[me]) * (BUD if rounds else 0.2)
    discs = (s.action_discs[me][0] * DISC["action_global"]
             + s.action_discs[me][1] * DISC["action_processing"]
             + sum(s.tech_discs[me]) * DISC["tech"]) * late
    return buds + discs


class _LastBonus:
    """The inputs and result of the last :func:`final_bonus` looked up for a game."""

    def __init__(self) -> None:
        self.memo: dict[tuple[int, ...], list[int]] = {}
        self.inputs: tuple[Any, ...] = ()
        self.bonus: list[int] = []


def _final_bonus(game: Any, s: Any) -> list[int]:
    """:func:`final_bonus`, memoised by all it reads: the events in play, kept cards,
    technology levels and Domestic spaces (the rest is the game's fixed data). The last
    inputs are compared first: a search's positions mostly share them."""
    last = per_game(game, "tea_eval.final_bonus", _LastBonus)
    if last.inputs and last.inputs == (s.events, s.kept, s.tech, s.domestic):
        return last.bonus
    key = (*s.events, -1, *map(tuple, s.kept), *map(tuple, s.tech), *s.domestic)
    found = last.memo.get(key)
    if found is None:
        found = remember(last.memo, key, final_bonus(game, s))
    last.inputs = (s.events[:], [k[:] for k in s.kept], [t[:] for t in s.tech],
                   s.domestic[:])
    last.bonus = found
    return found


def value(game: Any, s: Any, me: int) -> float:
    """Estimated final VP of seat ``me`` in position ``s`` (see the module doc)."""
    rounds = max(0, len(s.events) - s.round)   # rounds_after(s)
    doubled = s.character[me] == HSU
    total = s.vp[me] + _final_bonus(game, s)[me]
    sales = -1 if rounds else s.farmers[me] + s.masters[me] + s.action_discs[me][0]
    total += _warehouse_value(tuple(s.warehouse[me]), rounds, sales) \
        + _tech_value(game, tuple(s.tech[me]), rounds)
    total += holdings_value(game, s, me, rounds)
    where = s.master_pos[me]
    for part in _batch_parts(game, (*where, *s.factory[me], *s.basket[me]), rounds, doubled):
        total += part  # one by one, in the order of the loop they come from
    pos = where[SCENTED]
    if pos >= 0:
        total += scented_value(game, s, me, pos, rounds)
    return total


@lru_cache(maxsize=1 << 16)
def _batch_parts(game: Any, seat: tuple[int, ...], rounds: int,
                 doubled: bool) -> tuple[float, ...]:
    """The batch and Basket worths :func:`value` adds, tea by tea (a factory's batch, if
    its Tea Master is out, then the Basket's cubes), of ``seat`` = the Master positions
    (4), the factories (12) and the Basket (9)."""
    parts = []
    for tea in range(3):
        pos = seat[tea]
        if pos >= 0:
            parts.append(factory_value(game, tea, pos, seat[4 + 4 * tea:8 + 4 * tea],
                                       rounds, doubled))
        parts.append(basket_tea_value(game, tea, seat[16 + 3 * tea:19 + 3 * tea],
                                      pos >= 0, rounds, doubled))
    return tuple(parts)
