"""The Dadaocheng state schema: every field's type, length and range (``core.schema``).

Cubes are unlimited in the rules (R-1); a player's hand, opium and sign counts are
bounded by ``MAX_COUNT``, far above anything a game reaches (a hand is discarded down
to the hand limit at the end of a turn).
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.schema import (
    PLAYERS,
    StateSchema,
    fail,
    ints,
    one_of,
    schema,
    seat,
    upto,
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
    checks=(_seat_sides,),
)
