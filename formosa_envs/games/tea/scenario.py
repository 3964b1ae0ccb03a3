"""Named scenario builders: put a Formosa Tea game in a chosen position.

Used by rule tests, notebooks and anyone exploring a rule::

    game = make_game(num_players=3)
    s = scenario(game, weather=[1, 2, 0, 1], cubes={5: [2, 1, 0]},
                 masters_on=[[-1, 2, -1, -1], [-1] * 4, [-1] * 4])
    act(game, s, HARVEST0 + 5)

A scenario starts from a real new game, its setup chance resolved with
``default_rng(seed)``: plantation, weather, display and events come from it unless
given; player boards start empty. The rest is made consistent: the bag holds the
cubes not on the table, buds not on the table are gone, the deck holds the cards
not displayed, kept or returned, and supplies hold the workers not placed, not on
a track and not parked (2 players, rounds 1-2). The state is left at ``turn``'s
``turn`` decision (``phase="actions"``) or runs the Preparation phase up to its
first decision (``phase="preparation"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations, product
from typing import TYPE_CHECKING, Any

import numpy as np

from formosa_envs.core.decisions import Decision
from formosa_envs.core.engine import AUTO

from .content import CHARACTERS
from .setup_checks import last_step
from .state import BUDS, CUBES, EVENTS_IN_GAME, SPACES, Phase, TeaState, in_play
from .turn import start_turn

if TYPE_CHECKING:
    from .game import TeaGame


def new_game(game: TeaGame, seed: int = 0) -> TeaState:
    """A new game with every setup chance event resolved by ``default_rng(seed)``."""
    s = game.new_initial_state()
    game.resolve_chance(s, np.random.default_rng(seed))
    return s


def nine(oolong: Sequence[int] = (0, 0, 0), black: Sequence[int] = (0, 0, 0),
         green: Sequence[int] = (0, 0, 0)) -> list[int]:
    """A Basket (counts at WL 0, 1, 2) or Warehouse (Poor, Normal, Good) per tea."""
    return [*oolong, *black, *green]


def factory(oolong: Sequence[int] = (0, 0, 0, 0), black: Sequence[int] = (0, 0, 0, 0),
            green: Sequence[int] = (0, 0, 0, 0)) -> list[int]:
    """Factories: per tea the counts at WL 0, 1, 2 and in the Flavor area."""
    return [*oolong, *black, *green]


def character_id(name: str | int) -> int:
    """A character id from its key (``"john_dodd"``) or the id itself (-1: none)."""
    return name if isinstance(name, int) else CHARACTERS.index(name)


def event_id(game: TeaGame, key: str) -> int:
    """The id (year order) of the event with key ``key``, e.g. ``"e1874"``."""
    return next(i for i, e in enumerate(game.events) if e.key == key)


def tiles_for(game: TeaGame, levels: Sequence[int]) -> tuple[list[int], list[int]]:
    """Weather tiles and faces showing ``levels`` (WL per column, left to right)."""
    faces = [w.faces for w in game.board.weather]
    for order in permutations(range(4)):
        for up in product((0, 1), repeat=4):
            if all(faces[t][f] == wl for t, f, wl in zip(order, up, levels, strict=True)):
                face = [0] * 4
                for t, f in zip(order, up, strict=True):
                    face[t] = f
                return list(order), face
    raise ValueError(f"no arrangement of the weather tiles shows {list(levels)}")


def _each(value: Sequence | None, n: int, default: Sequence | int, what: str) -> list:
    if value is None:
        return [list(default) if isinstance(default, Sequence) else default for _ in range(n)]
    if len(value) != n:
        raise ValueError(f"{what} needs one entry per player ({n}), got {len(value)}")
    return [list(v) if isinstance(v, Sequence) else v for v in value]


def scenario(game: TeaGame, *, seed: int = 0, phase: str = "actions", turn: int = 0,
             start_player: int = 0, round_no: int = 1,
             weather: Sequence[int] | None = None, empty_plantation: bool = False,
             cubes: Mapping[int, Sequence[int]] | None = None,
             bud: Mapping[int, int] | None = None, occupant: Mapping[int, int] | None = None,
             market: Sequence[Sequence[int]] | None = None,
             placed: Sequence[Sequence[int]] | None = None,
             basket: Sequence[Sequence[int]] | None = None,
             factories: Sequence[Sequence[int]] | None = None,
             scent: Sequence[Sequence[int]] | None = None,
             warehouse: Sequence[Sequence[int]] | None = None,
             buds: Sequence[Sequence[int]] | None = None,
             masters_on: Sequence[Sequence[int]] | None = None,
             tech: Sequence[Sequence[int]] | None = None,
             action_discs: Sequence[Sequence[int]] | None = None,
             tech_discs: Sequence[Sequence[int]] | None = None,
             discs_on: Sequence[Sequence[int]] | None = None,
             domestic: Sequence[int] | None = None, vp: Sequence[int] | None = None,
             kept: Sequence[Sequence[int]] | None = None,
             character: Sequence[str | int] | None = None,
             display: Sequence[Sequence[int]] | None = None,
             deck_pools: Sequence[Sequence[int]] | None = None,
             deck_tail: Sequence[int] = (), events: Sequence[str] | None = None,
             passed: Sequence[bool] | None = None) -> TeaState:
    """A consistent state (see the module docstring); codes as in ``state.py``.

    Args:
        weather: the WL shown above each of the 4 columns (tiles are arranged to match).
        cubes / bud: per listed space, its cubes per colour / bud colour (-1 none);
            ``empty_plantation`` first clears every space (cubes and buds). Buds held
            by players are taken off unlisted spaces (from the last) as needed.
        occupant: plantation space -> the player whose worker stands there.
        market: the players with a worker on each Global Market space.
        placed: per player, [Farmers, Masters] off the supply (on the plantation or a
            market); default: the workers of ``occupant`` and ``market``, Farmers first.
        masters_on: per player, the space (0-based) of their Master on each track, -1.
        discs_on: per player, tech discs on Factories as ``4 * tea + kind``.
        display: 4 rows of 3 card ids (default: the seeded display, kept or returned
            cards replaced by the first free cards of the deck).
        events: event keys in play (sorted by year); round k resolves the k-th. A whole
            state has 6/5/4 of them (2/3/4 players): see :func:`events_around`.
    """
    n = game.num_players
    if phase not in ("actions", "preparation"):
        raise ValueError(f"phase must be 'actions' or 'preparation', got {phase!r}")
    s = new_game(game, seed)
    if weather is not None:
        s.weather, s.face = tiles_for(game, weather)
    if empty_plantation:
        s.cubes = [[0, 0, 0] for _ in range(SPACES)]
        s.bud = [-1] * SPACES
    for sp, cs in (cubes or {}).items():
        if not in_play(s, sp):
            raise ValueError(f"space {sp} is not in play with {n} players")
        s.cubes[sp] = list(cs)
    for sp, colour in (bud or {}).items():
        s.bud[sp] = colour
    s.occupant = [-1] * SPACES
    for sp, p in (occupant or {}).items():
        s.occupant[sp] = p
    s.market = [list(m) for m in (market or [[], [], []])]
    s.basket = _each(basket, n, [0] * 9, "basket")
    s.factory = _each(factories, n, [0] * 12, "factories")
    s.scent = _each(scent, n, [-1, 0, 0, 0, 0], "scent")
    s.warehouse = _each(warehouse, n, [0] * 9, "warehouse")
    s.buds = _each(buds, n, [0, 0, 0], "buds")
    s.master_pos = _each(masters_on, n, [-1] * 4, "masters_on")
    s.tech = _each(tech, n, [0, 0, 0], "tech")
    s.action_discs = _each(action_discs, n, [0, 0], "action_discs")
    s.tech_discs = _each(tech_discs, n, [0] * 4, "tech_discs")
    s.discs_on = _each(discs_on, n, [], "discs_on")
    s.domestic = _each(domestic, n, 0, "domestic")
    s.vp = _each(vp, n, 0, "vp")
    s.kept = _each(kept, n, [], "kept")
    s.character = [character_id(c) for c in _each(character, n, -1, "character")]
    s.passed = [bool(x) for x in _each(passed, n, False, "passed")]

    # workers: placed ones, Masters on tracks, the 2-player parked Master
    if placed is None:
        on_board = [sum(o == p for o in s.occupant) + sum(p in m for m in s.market)
                    for p in range(n)]
        placed = [[min(2, k), max(0, k - 2)] for k in on_board]
    s.placed = [list(pl) for pl in placed]
    s.parked = [int(n == 2 and round_no < 3)] * n
    total = 3 if n == 2 else 2
    s.farmers = [2 - pl[0] for pl in s.placed]
    s.masters = [total - s.placed[p][1] - s.parked[p] - sum(x >= 0 for x in s.master_pos[p])
                 for p in range(n)]
    if min(s.farmers + s.masters) < 0:
        raise ValueError(f"more workers in use than exist: farmers {s.farmers}, "
                         f"masters {s.masters}")

    # cubes and buds not on the table: in the bag / gone
    s.bag = [CUBES[t] - sum(c[t] for c in s.cubes) - sum(
        sum(s.basket[p][3 * t:3 * t + 3]) + sum(s.factory[p][4 * t:4 * t + 4])
        + sum(s.warehouse[p][3 * t:3 * t + 3]) + s.scent[p][1] * (s.scent[p][0] == t)
        for p in range(n)) for t in range(3)]
    s.bud_pool = [0, 0, 0]
    held = [sum(s.buds[p][c] + s.scent[p][2 + c] for p in range(n)) for c in range(3)]
    for sp in reversed(range(SPACES)):         # held buds come off unlisted spaces
        c = s.bud[sp]
        if c >= 0 and sp not in (bud or {}) and s.bud.count(c) + held[c] > BUDS[n][c]:
            s.bud[sp] = -1
    s.buds_gone = [BUDS[n][c] - s.bud.count(c) - held[c] for c in range(3)]
    if min(s.bag + s.buds_gone) < 0:
        raise ValueError(f"too many cubes or buds on the table: bag {s.bag}, "
                         f"buds left {s.buds_gone}")

    # discs: the supply holds what no player has
    s.action_supply = [(8, 4)[k] - sum(d[k] for d in s.action_discs) for k in range(2)]
    s.tech_supply = [4 - sum(d[k] for d in s.tech_discs)
                     - sum(c % 4 == k for on in s.discs_on for c in on) for k in range(4)]

    # merchant cards and events
    s.deck_tail = list(deck_tail)
    out = {c for k in s.kept for c in k} | set(s.deck_tail)
    if display is not None:
        s.display = [list(row) for row in display]
    else:                                       # kept / returned cards leave the display
        spare = iter([c for pool in game.stage_pools for c in pool if c not in out
                      and all(c not in row for row in s.display)])
        s.display = [[next(spare, -1) if c in out else c for c in row] for row in s.display]
    used = out | {c for row in s.display for c in row}
    s.deck_pools = ([list(pool) for pool in deck_pools] if deck_pools is not None else
                    [[c for c in pool if c not in used] for pool in game.stage_pools])
    if events is not None:
        s.events = sorted(event_id(game, key) for key in events)
    s.event_pool = [e for e in range(len(game.events)) if e not in s.events]

    s.round, s.start_player, s.turn = round_no, start_player, turn
    s.setup_step = last_step(game)  # past every setup step of these rules
    s.stack = []
    if phase == "actions":
        s.phase = Phase.ACTIONS
        start_turn(game, s, turn)
    else:
        s.phase = Phase.PREPARATION
        s.stack.append(Decision("prep", AUTO, ctx=(0,)))
    game.settle(s)
    game.check_invariants(s)  # the position handed out is a whole, valid state
    return s


# events without a game-end part (TEA-12): as fillers resolved in earlier rounds they
# change nothing, and later ones only act if the game is played into their round
QUIET_FILLERS = ("e1865", "e1867", "e1868", "e1869", "e1874", "e1936", "e1964")


def events_around(game: TeaGame, current: str, *, last: bool = False,
                  also: Sequence[str] = ()) -> dict[str, Any]:
    """``events`` and ``round_no`` for :func:`scenario`: the round whose event is ``current``.

    The events in play are ``current``, ``also`` and fillers from ``QUIET_FILLERS`` up to
    the player count's 6/5/4, each once; fillers come before ``current`` where they can
    (already resolved). ``last``: ``current`` is the last event (its round ends the game);
    otherwise at least one event follows it. Use as
    ``scenario(game, phase="preparation", **events_around(game, "e1868"))``.
    """
    keys = [e.key for e in game.events]
    named = [current, *also]
    unknown = [k for k in named if k not in keys]
    if unknown or len(set(named)) < len(named):
        raise ValueError(f"events {named} must be distinct keys of {keys}")
    want, at = EVENTS_IN_GAME[game.num_players], keys.index(current)
    free = [k for k in QUIET_FILLERS if k not in named]
    before = [k for k in free if keys.index(k) < at]
    after = [k for k in free if keys.index(k) > at]
    if last:
        pool = before
    elif any(keys.index(k) > at for k in also):
        pool = before + after
    else:
        pool = after[:1] + before + after[1:]
    events = sorted([*named, *pool[:want - len(named)]], key=keys.index)
    round_no = events.index(current) + 1
    if len(events) != want or (round_no == want) != last:
        where = "last" if last else "followed by another"
        raise ValueError(f"no {want} events hold {named} with {current} {where}")
    return {"events": events, "round_no": round_no}


# ----- acting --------------------------------------------------------------------------

def kind(game: TeaGame, s: TeaState) -> str:
    """The pending decision's kind, or ``"terminal"``."""
    return "terminal" if game.is_terminal(s) else game.top(s).kind


def labels(game: TeaGame, s: TeaState) -> list[str]:
    """Readable labels of the legal actions."""
    return [game.action_label(s, a) for a in game.legal_actions(s)]


def act(game: TeaGame, s: TeaState, *actions: int) -> None:
    """Apply legal actions in order (failing with the legal labels otherwise)."""
    for action in actions:
        legal = game.legal_actions(s)
        assert action in legal, (kind(game, s), game.action_label(s, action), labels(game, s))
        game.apply_action(s, action)
        game.check_invariants(s)


def answer(game: TeaGame, s: TeaState, expected: str, action: int,
           player: int | None = None) -> None:
    """Check that ``expected`` (by ``player``, if given) is pending, then answer it."""
    assert kind(game, s) == expected, (kind(game, s), expected, labels(game, s))
    if player is not None:
        assert game.current_player(s) == player, (game.current_player(s), player)
    act(game, s, action)


def chance(game: TeaGame, s: TeaState, *outcomes: int) -> None:
    """Resolve pending chance events with the given outcomes, in order."""
    for outcome in outcomes:
        assert game.current_player(s) < 0 and not game.is_terminal(s), kind(game, s)
        act(game, s, outcome)


__all__ = ["QUIET_FILLERS", "act", "answer", "chance", "character_id", "event_id",
           "events_around", "factory", "kind", "labels", "new_game", "nine", "scenario",
           "tiles_for"]
