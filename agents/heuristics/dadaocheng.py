"""A greedy Dadaocheng player (nothing is hidden but the order of the face-down piles).

* Planning (``move``, ``swap_to``) and ``line``: :mod:`.dadaocheng_plan` enumerates every
  pair of movements, rates each distinct grid that holds a line by its cascade (cubes at
  colour weights that favour the colours the best-value item still lacks, the storehouses
  left behind, Full Houses, loop rewards) and reranks the best few by what the gained cubes
  buy this turn. The second movement and the line choices re-plan from the grid as it is.
* ``purchase``: free events first; then any action (Temple, event, exchange, Market, Den)
  whose expected hand value beats the current one; then the next step of the best purchase
  plan (:class:`.dadaocheng_value.Valuer`); DONE when nothing gains.
* Cubes: ``take`` / ``loop_any`` / ``loop_gift`` / ``full_house`` pick what raises the hand's
  plan value most; ``give`` / ``lose`` what lowers it least; ``discard`` the cube least worth
  carrying: spare colours go first, then black (a wildcard, but each use is opium; sooner
  when Dens make opium dearer), and the cubes the target item needs last. ``pay`` always
  uses the real colour rather than opium.
* ``convert`` (1905) turns a building into a Mansion when the set gains more than the
  building is still worth; ``exchange_more`` (1908) exchanges again when that gains.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from itertools import combinations_with_replacement
from math import factorial
from typing import Any

import numpy as np

from formosa_envs.core.payment import pay_units
from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.cascade import faces_of
from formosa_envs.games.dadaocheng.content import ANY, BLACK, MANSION, RED, WHITE
from formosa_envs.games.dadaocheng.events import current_event
from formosa_envs.games.dadaocheng.grid import showing
from formosa_envs.games.dadaocheng.scoring import mansion_vp
from formosa_envs.games.dadaocheng.shop import G_TEMPLE

from .dadaocheng_plan import (
    MOVES,
    Grid,
    Move,
    Scorer,
    best_line,
    best_movements,
    rank_movements,
)
from .dadaocheng_value import DEFAULT_WEIGHTS, Hand, Valuer, Weights

FREE_EVENTS = ("e1851", "e1859", "e1865", "e1878", "e1891", "e1915")
GAIN_EPS = 0.05


def choose(game: Any, state: Any, rng: np.random.Generator,
           weights: Weights = DEFAULT_WEIGHTS) -> int:
    """The heuristic's action for the deciding seat of a Dadaocheng ``state``."""
    legal = game.legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    d = state.stack[-1]
    rule = RULES[d.kind]
    if rule is _pay:                                      # reads no values
        return _pay(game, state, d, None, legal)
    view = Valuer(game, state, d.player, weights)
    if rule is not _option_value:
        return rule(game, state, d, view, legal)
    values = [_option_value(game, state, d, view, a) for a in legal]
    noise = rng.random(len(values)) * 1e-6  # seeded tie-break
    return legal[int(np.argmax(np.asarray(values) + noise))]


def _pay(game: Any, s: Any, d: Any, view: Valuer | None, legal: list[int]) -> int:
    """A unit with a real choice is paid with its colour, never with opium (DDC-8.2)."""
    unit = A.COLOUR0 + pay_units(d)[0]
    return unit if unit in legal else legal[0]


def _option_value(game: Any, s: Any, d: Any, view: Valuer, action: int) -> float:
    """Worth of one option of a cube, space or building decision."""
    hand, kind = _hand(s, d.player), d.kind
    if kind in ("convert", "exchange_more") and action == A.DONE:
        return 0.0
    if kind == "convert":
        return _conversion_gain(game, s, view, action - A.BUILDING0)
    if kind == "full_house":
        space = 4 * s.sides_of[d.player] + action - A.SPACE0
        return view.value([h + x for h, x in zip(hand, s.storehouse[space], strict=True)])
    if kind == "store_space":
        return 0.0
    colour = action - A.COLOUR0
    if kind == "exchange_more":
        hand[colour] -= 1
        return max(view.value(_plus(hand, t)) for t in range(5) if t != colour) - view.value(
            _hand(s, d.player))
    if kind in ("take", "loop_any", "loop_gift"):
        return view.value(_plus(hand, colour))
    hand[colour] -= 1
    if kind == "discard":
        return view.keep(hand)
    opium = view.opium_cost if kind == "give" and d.ctx[0] == G_TEMPLE and colour == BLACK else 0
    return view.value(hand) - opium


def _hand(s: Any, p: int) -> list[int]:
    return list(s.hand[p])


def _plus(hand: list[int], colour: int, count: int = 1) -> list[int]:
    out = hand[:]
    out[colour] += count
    return out


# ----- planning and lines ------------------------------------------------------------------

def _grid(game: Any, s: Any) -> Grid:
    faces = faces_of(game, s)
    return ([f[u] for f, u in zip(faces, s.flipped, strict=True)],
            [f[1 - u] for f, u in zip(faces, s.flipped, strict=True)])


def _scorer(game: Any, s: Any, view: Valuer) -> Scorer:
    """Cascade values for the active seat: colour weights, storehouse owners, loop reward
    (a scorer of the same values is reused, its budget reset)."""
    me, n, w = s.turn, s.num_players, view.w
    hand = s.hand[me]
    need = [max(0, view.target[c] - hand[c]) for c in range(4)]
    top = max(1, max(need))
    weights = [0.8 + 0.6 * need[c] / top for c in range(4)] + [0.6]
    owner, groups = [0.0] * 16, []
    for k in range(n):
        p = (me + k) % n
        side = s.sides_of[p]
        spaces = tuple(sp for sp in range(4 * side, 4 * side + 4) if not s.remodelled[sp])
        for sp in spaces:
            owner[sp] = 1.0 if p == me else -w.deny / (n - 1)
        groups.append(spaces)
    loop = w.loop_pp + sum(weights[c] for c in (0, 2, 3)) + max(weights)
    loop -= 2 * w.deny * (n > 1)
    store = [tuple(x) for x in s.storehouse]
    key = (tuple(weights), tuple(owner), tuple(groups), tuple(store), w.store_weight, loop)
    scorer = _SCORERS.pop(key, None)
    if scorer is None:
        scorer = Scorer(weights, owner, groups, store, w.store_weight, loop, w.budget)
        while len(_SCORERS) >= 8:
            del _SCORERS[next(iter(_SCORERS))]
    scorer.budget, scorer.nodes = w.budget, 0
    _SCORERS[key] = scorer
    return scorer


_SCORERS: dict[Any, Scorer] = {}
"""The last few scorers by what they value with: the second movement of a turn sees the
first one's (same hand, same storehouses), and reuses its memoised cascade values."""


def _planning(game: Any, s: Any, d: Any, view: Valuer, legal: list[int]) -> int:
    """A movement, the second disc of a swap, or the line to collect."""
    grid, scorer = _grid(game, s), _scorer(game, s, view)
    rerank = _rerank(s, view)
    if d.kind == "line":
        faces = faces_of(game, s)
        history = [showing(faces, bits) for bits in s.history]
        return A.LINE0 + best_line(grid, scorer, history, rerank)
    first = d.kind == "move" and d.count == 2 or (
        d.kind == "swap_to" and len(s.stack) > 1 and s.stack[-2].kind == "move")
    if d.kind == "swap_to":
        a = d.ctx[0]
        firsts: list[Move] = [(a, b) for b in range(a + 1, 16)]   # a swap names its lower cell
    else:
        firsts = list(MOVES)
    w = view.w
    moves = best_movements(grid[0], grid[1], scorer, rerank, firsts, MOVES if first else (),
                           w.deep, w.wide)
    if moves is None:
        return legal[0]
    m = moves[0]
    if d.kind == "swap_to":
        return A.SWAP_TO0 + m[1]
    return A.FLIP0 + m[0] if len(m) == 1 else A.SWAP0 + m[0]


def _rerank(s: Any, view: Valuer) -> Callable[[Any], float]:
    """The plan value of the active seat's hand with the cubes ``got`` added."""
    hand = _hand(s, s.turn)

    def rerank(got: Any) -> float:
        return view.value([h + g for h, g in zip(hand, got, strict=True)])
    return rerank


def turn_plans(game: Any, s: Any, weights: Weights = DEFAULT_WEIGHTS
               ) -> list[tuple[float, tuple[Move, ...]]] | None:
    """At the first of a turn's two movements: the plans (pairs of movements) the
    heuristic weighs last, best first, with its values of them (its own move is the first
    plan's first movement); ``None`` at any other decision."""
    d = s.stack[-1] if s.stack else None
    if d is None or d.kind != "move" or d.count != 2 or d.player != s.turn:
        return None
    view = Valuer(game, s, d.player, weights)
    grid, scorer = _grid(game, s), _scorer(game, s, view)
    return rank_movements(grid[0], grid[1], scorer, _rerank(s, view), list(MOVES), MOVES,
                          view.w.deep, view.w.wide)


def reply_gain(game: Any, s: Any, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """What ``seat``'s best single movement on ``s``'s grid adds to its plan value (the
    cascade it starts, then what the cubes buy), valued as the heuristic plans its own
    turn, as if ``seat``'s turn began now; 0 when no movement forms a line. The learned
    Dadaocheng evaluator reads it for the seat that moves next: how much of a grid a move
    leaves behind the next player can use."""
    view_state = copy.copy(s)    # shallow: only the turn's fields are replaced, not mutated
    view_state.turn, view_state.used = seat, [0] * len(s.used)
    view = Valuer(game, view_state, seat, weights)
    grid, scorer = _grid(game, view_state), _scorer(game, view_state, view)
    ranked = rank_movements(grid[0], grid[1], scorer, _rerank(view_state, view), list(MOVES),
                            (), view.w.deep, view.w.wide)
    return ranked[0][0] - view.value(tuple(s.hand[seat])) if ranked else 0.0


def movement_actions(move: Move) -> list[int]:
    """The action ids that make movement ``move``: a flip, or a swap's two cells."""
    if len(move) == 1:
        return [A.FLIP0 + move[0]]
    return [A.SWAP0 + move[0], A.SWAP_TO0 + move[1]]


# ----- purchases -----------------------------------------------------------------------

def _purchase(game: Any, s: Any, d: Any, view: Valuer, legal: list[int]) -> int:
    """Free events, then a gainful action, then the best plan's next step, else DONE."""
    hand = tuple(s.hand[view.me])
    if A.EVENT in legal and current_event(game, s) in FREE_EVENTS:
        return A.EVENT
    base = view.value(hand)
    gains = {a: _action_gain(game, s, view, a, hand) - base for a in legal
             if a in (A.TEMPLE0, A.TEMPLE0 + 1, A.EVENT, A.EXCHANGE, A.MARKET, A.DEN)}
    best = max(gains, key=gains.__getitem__, default=None)
    if best is not None and gains[best] > GAIN_EPS:
        return best
    _, items, (market, swaps, _) = view.plan(hand)
    if items:
        if market and A.MARKET in legal:
            return A.MARKET
        if swaps and A.EXCHANGE in legal:
            return A.EXCHANGE
        for item in sorted(items, key=lambda it: -it.units):
            if item.action in legal:
                return item.action
    return A.DONE


def _action_gain(game: Any, s: Any, view: Valuer, action: int, hand: Hand) -> float:
    """Expected plan value of the hand after a non-buying Stage 4 action."""
    h = list(hand)
    if action == A.TEMPLE0:
        payer = WHITE if h[WHITE] else BLACK
        h[payer] -= 1
        return _dice_value(game, view, h, 2) - (view.opium_cost if payer == BLACK else 0)
    if action == A.TEMPLE0 + 1:
        given = _cheapest(view, h, 2)
        opium = view.opium_cost * given.count(BLACK)
        return _dice_value(game, view, h, 3) - opium
    if action == A.EXCHANGE:
        _cheapest(view, h, 2)
        return _best_adds(view, h, 1)
    if action == A.MARKET:
        base = view.value(h)
        return max(view.value(_plus(_plus(h, c, -1), t)) for c in range(5) if h[c]
                   for t in range(5) if t != c) if any(h) else base
    if action == A.DEN:
        h[BLACK] -= 1
        return _best_adds(view, h, 2) - view.opium_cost
    return _event_value(game, s, view, h)


def _cheapest(view: Valuer, h: list[int], count: int) -> list[int]:
    """Remove the ``count`` cubes whose loss costs least, one by one; their colours."""
    given = []
    for _ in range(count):
        c = max((c for c in range(5) if h[c]), key=lambda c: view.value(_plus(h, c, -1)))
        h[c] -= 1
        given.append(c)
    return given


def _best_adds(view: Valuer, h: list[int], count: int) -> float:
    """Plan value after adding ``count`` cubes of free choice, chosen one by one."""
    for _ in range(count):
        c = max(range(5), key=lambda c: view.value(_plus(h, c)))
        h[c] += 1
    return view.value(h)


def _dice_value(game: Any, view: Valuer, h: list[int], dice: int) -> float:
    """Expected plan value after rolling ``dice`` Temple dice (DDC-8.5)."""
    faces = game.temple
    wild = max(range(5), key=lambda c: view.value(_plus(h, c)))
    total = 0.0
    for roll in combinations_with_replacement(range(6), dice):
        ways = factorial(dice)
        for f in set(roll):
            ways //= factorial(roll.count(f))
        hand = h[:]
        for f in roll:
            hand[wild if faces[f] == ANY else faces[f]] += 1
        total += ways * view.value(hand)
    return total / 6 ** dice


def _event_value(game: Any, s: Any, view: Valuer, h: list[int]) -> float:
    """Plan value after executing this round's event (the free ones are taken earlier)."""
    key, me = current_event(game, s), view.me
    if key == "e1860":
        blacks = max(0, 2 - h[RED])
        h[RED] -= 2 - blacks
        h[BLACK] -= blacks
        return _best_adds(view, h, 3) - blacks * view.opium_cost
    if key == "e1898":
        payer = WHITE if h[WHITE] else BLACK
        h[payer] -= 1
        back = min(2, s.opium[me]) - (payer == BLACK)
        return view.value(h) + back * view.opium_cost
    if key == "e1905":
        best = max(_conversion_gain(game, s, view, t) for t in range(1, 5)
                   if s.buildings[me][t])
        return view.value(h) + best
    if key == "e1908" and any(h):
        return max(view.value(_plus(_plus(h, c, -1), t)) for c in range(5) if h[c]
                   for t in range(5) if t != c)
    return view.value(h)


def _conversion_gain(game: Any, s: Any, view: Valuer, kind: int) -> float:
    """Mansion set increment less what the converted building is still worth (1905)."""
    have = s.buildings[view.me][MANSION]
    step = mansion_vp(have + 1) - mansion_vp(have)
    return step - view.building_value(kind)


RULES: dict[str, Callable[..., Any]] = {
    "move": _planning, "swap_to": _planning, "line": _planning, "purchase": _purchase,
    "pay": _pay, **dict.fromkeys(
        ("loop_any", "loop_gift", "take", "give", "full_house", "discard", "lose",
         "store_space", "convert", "exchange_more"), _option_value),
}
"""The rule of each player decision kind (``_option_value`` rates every legal option)."""
