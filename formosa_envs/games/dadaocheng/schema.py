"""The Dadaocheng state schema: every field's type, length and range (``core.schema``).

Cubes are unlimited in the rules (R-1); a player's hand, opium and sign counts are
bounded by ``MAX_COUNT``, far above anything a game reaches (a hand is discarded down
to the hand limit at the end of a turn).

Decision frames (``FRAMES``): each kind's ``ctx`` length and bounds (cells, levels,
colours, exchange purposes, seats), its ``count``, and what its ids must name in the
state (an empty cell for a disc, a level with ships left and none face up for a
reveal, the cubes a discard or a gift takes from the hand); a pending ``pay`` must be
exactly the payment the rules would have pushed. Pending reveals never outnumber the
ships or events left.
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.frame_checks import count_within, ctx_requires, payment_frame
from formosa_envs.core.schema import (
    AUTO_ONLY,
    CHANCE_ONLY,
    PLAYERS,
    SEAT,
    FrameSpec,
    StateSchema,
    fail,
    frame,
    ints,
    last_seat,
    one_of,
    schema,
    seat,
    upto,
)

from .content import BLACK, RED, WHITE
from .shop import (
    G_1908,
    G_EXCHANGE,
    P_1860,
    P_1898,
    P_BUILDING,
    P_SHIP,
    P_TEMPLE,
    building_cost,
    ships_left,
    units,
)
from .state import (
    COLOURS,
    ROUNDS,
    USED_DENS,
    USED_MARKETS,
    USED_SIZE,
    USED_WORKSHOPS,
    Phase,
)

SIDES = 4
SPACES = 16
LEVELS = 3
TYPES = 5
MAX_COUNT = 99
"""Engine bound on cubes of one colour in a hand, opium used and sign cubes."""
STOREHOUSE_SPACE = 2
"""Cubes one storehouse space holds."""
SETUP_STEPS = 3
CASCADE_STATES = 1 << 16
"""Grid states (16 discs, each face up or down): a cascade visits each at most once."""


def _piles(game: Any) -> tuple[int, ...]:
    return tuple(b.piles[game.num_players - 1] for b in game.buildings)


def _most_buildings(game: Any) -> int:
    return max(b.piles[game.num_players - 1] for b in game.buildings)


def _used(game: Any) -> tuple[int, ...]:
    """Once-per-turn flags are 0/1; Market, Den and Workshop uses count up to the cards."""
    most = _most_buildings(game)
    hi = [1] * USED_SIZE
    for i in (USED_MARKETS, USED_DENS, USED_WORKSHOPS):
        hi[i] = most
    return tuple(hi)


def _last_ship(game: Any) -> int:
    return len(game.ships) - 1


def _ships(game: Any) -> int:
    return len(game.ships)


def _events(game: Any) -> int:
    return len(game.events)


def _seat_sides(game: Any, s: Any) -> None:
    """Each seat owns the side the configuration gives it; the other sides are covered."""
    if s.sides_of != list(game.sides):
        fail("sides_of", f"must be {list(game.sides)} in this game, got {s.sides_of}")
    covered = [int(side not in game.sides) for side in range(SIDES)]
    if s.covered != covered:
        fail("covered", f"must be {covered} in this game, got {s.covered}")


# ----- decision frames ----------------------------------------------------------------------

LAST_CELL = SPACES - 1
MAX_TAKE = 3
"""Cubes of any colour one ``take`` frame gives at most (1860: three)."""


def _payment_costs(game: Any, s: Any, p: int, purpose: int) -> Any:
    """The cost of a payment's purpose (``shop.CubePayment.finish``), or why it is not valid."""
    if P_SHIP <= purpose < P_SHIP + LEVELS:
        ship = s.ship_up[purpose - P_SHIP]
        if ship < 0:
            return "must name a level with a face-up ship"
        cost = list(game.ships[ship].cost)
        costs = [units(cost)]
        if cost[2]:  # a Workshop took one green cube off (already counted in 'used')
            costs.append(units([cost[0], cost[1], cost[2] - 1, cost[3]]))
        return costs
    if P_BUILDING <= purpose < P_BUILDING + TYPES:
        if s.piles[purpose - P_BUILDING] <= 0:
            return "must name a building type whose pile is not empty"
        return [units(building_cost(game, s, purpose - P_BUILDING))]
    fixed = {P_TEMPLE: (WHITE,), P_1860: (RED, RED), P_1898: (WHITE,)}
    if purpose in fixed:
        return [fixed[purpose]]
    return (f"must be {P_SHIP} + a ship level, {P_BUILDING} + a building type, "
            f"{P_TEMPLE} (the Temple), {P_1860} or {P_1898} (events)")


def _hand(game: Any, s: Any, d: Any) -> int:
    return sum(s.hand[d.player])


def _cell_empty(game: Any, s: Any, d: Any) -> bool:
    return s.cell_disc[d.ctx[0]] < 0


def _ship_level_ok(game: Any, s: Any, d: Any) -> bool:
    return s.ship_up[d.ctx[0]] < 0 and ships_left(game, s, d.ctx[0]) > 0


def _history_started(game: Any, s: Any, d: Any, path: str) -> None:
    """A cascade compares the grid with the states it has visited (``history``)."""
    if not s.history:
        fail("history", f"must hold the grid states of the cascade while a {d.kind!r} "
                        f"frame is pending ({path}), got none")


_HELD = count_within(_hand, "the cubes the player holds")
_ANY_COLOUR = -1
FRAMES: dict[str, FrameSpec] = {
    "move": frame(SEAT, count=(1, 2)),
    "swap_to": frame(SEAT, ctx=1, lo=0, hi=LAST_CELL - 1),   # the lower cell (DDC-4.4)
    "after_planning": frame(AUTO_ONLY),
    "cascade": frame(AUTO_ONLY, check=_history_started),
    "line": frame(SEAT, check=_history_started),
    "place_disc": frame(CHANCE_ONLY, ctx=1, lo=0, hi=LAST_CELL, check=ctx_requires(
        0, _cell_empty, "must be a cell without a disc")),
    "loop_any": frame(SEAT),
    "loop_gift": frame(SEAT, count=(1, 2)),
    "convert": frame(SEAT, count=(1, 2)),
    "convert_check": frame(AUTO_ONLY, ctx=1, lo=0, hi=last_seat),
    "exchange_more": frame(SEAT),
    "next_turn": frame(AUTO_ONLY),
    "start_round": frame(AUTO_ONLY),
    "ship_reveal": frame(CHANCE_ONLY, ctx=1, lo=0, hi=LEVELS - 1, check=ctx_requires(
        0, _ship_level_ok, "must be a level with ships left and no face-up ship")),
    "start_player": frame(CHANCE_ONLY),
    "event_draw": frame(CHANCE_ONLY),
    "full_house_check": frame(AUTO_ONLY, ctx=1, lo=0, hi=lambda game: game.num_players),
    "full_house": frame(SEAT),
    "discard": frame(SEAT, count=(1, COLOURS * MAX_COUNT), check=_HELD),
    "lose": frame(SEAT, check=_HELD),
    "stage4": frame(AUTO_ONLY),
    "purchase": frame(SEAT),
    "store_space": frame(SEAT),
    "die": frame(CHANCE_ONLY),
    "give": frame(SEAT, ctx=2, lo=(G_EXCHANGE, _ANY_COLOUR), hi=(G_1908, BLACK), count=(1, 2),
                  check=_HELD),
    "take": frame(SEAT, ctx=1, lo=_ANY_COLOUR, hi=BLACK, count=(1, MAX_TAKE)),
    "end_turn": frame(AUTO_ONLY),
    "pay": payment_frame(_payment_costs),
}


def _pending_reveals(game: Any, s: Any) -> None:
    """Reveals still on the stack never outnumber the ships or events left; one disc a cell."""
    levels = [d.ctx[0] for d in s.stack if d.kind == "ship_reveal"]
    for level in range(LEVELS):
        if levels.count(level) > ships_left(game, s, level):
            fail("stack", f"holds {levels.count(level)} reveals of ship level {level} but "
                          f"only {ships_left(game, s, level)} ship(s) are left to reveal")
    events = sum(1 for d in s.stack if d.kind == "event_draw")
    if events > len(s.event_pool):
        fail("stack", f"holds {events} 'event_draw' draws but field 'event_pool' has only "
                      f"{len(s.event_pool)} left")
    cells = [d.ctx[0] for d in s.stack if d.kind == "place_disc"]
    if len(set(cells)) != len(cells):
        fail("stack", "holds two 'place_disc' frames for one cell")


STATE_SCHEMA: StateSchema = schema(
    sides_of=ints(0, SIDES - 1, shape=(PLAYERS,), unique=True),
    cell_disc=ints(-1, lambda game: len(game.discs) - 1, shape=(SPACES,)),
    flipped=ints(0, 1, shape=(SPACES,)),
    storehouse=ints(0, STOREHOUSE_SPACE, shape=(SPACES, COLOURS)),
    remodelled=ints(0, 1, shape=(SPACES,)),
    covered=ints(0, 1, shape=(SIDES,)),
    hand=ints(0, MAX_COUNT, shape=(PLAYERS, COLOURS)),
    ships=ints(0, _last_ship, shape=(PLAYERS, upto(_ships)), unique=True),
    buildings=ints(0, _piles, shape=(PLAYERS, TYPES)),
    credit=ints(0, lambda game: sum(ship.credit for ship in game.ships), shape=(PLAYERS,)),
    opium=ints(0, MAX_COUNT, shape=(PLAYERS,)),
    sign=ints(0, MAX_COUNT, shape=(PLAYERS,)),
    piles=ints(0, _piles, shape=(TYPES,)),
    ship_pool=ints(0, _last_ship, shape=(LEVELS, upto(_ships)), unique=True),
    ship_up=ints(-1, _last_ship, shape=(LEVELS,)),
    revealed=ints(0, lambda game: game.ships_per_level, shape=(LEVELS,)),
    events=ints(0, lambda game: _events(game) - 1, shape=(upto(_events),), unique=True),
    event_pool=ints(0, lambda game: _events(game) - 1, shape=(upto(_events),), unique=True),
    used=ints(0, _used, shape=(USED_SIZE,)),
    history=ints(0, CASCADE_STATES - 1, shape=(upto(CASCADE_STATES),), unique=True),
    round=ints(1, lambda game: ROUNDS[game.num_players]),
    start_player=seat(),
    turn=seat(),
    phase=one_of(Phase),
    setup_step=ints(0, SETUP_STEPS),
    frames=FRAMES,
    checks=(_seat_sides, _pending_reveals),
)
