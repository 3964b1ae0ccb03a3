"""The Formosa Tea state schema: every field's type, length and range (``core.schema``).

Layouts follow ``state.py``: ``basket[p][3 * colour + wl]``, ``factory[p][4 * tea + k]``,
``warehouse[p][3 * tea + quality]``, ``scent[p] = [tea, cubes, buds x3]``. Cube counts
are bounded by the cubes of that colour (``CUBES``), buds by the buds in the game.
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.schema import (
    PLAYERS,
    StateSchema,
    fail,
    flags,
    ints,
    one_of,
    schema,
    seat,
    upto,
)

from .content import CHARACTERS
from .state import (
    ACTION_DISC_SUPPLY,
    BUDS,
    COLUMNS,
    CUBES,
    DISPLAY_ROWS,
    DISPLAY_SLOTS,
    EVENTS_IN_GAME,
    SPACES,
    TEAS,
    TECH_DISC_SUPPLY,
    TRACKS,
    Phase,
)

MAX_VP = 9_999
"""Engine bound on VP (no rule takes VP away)."""
SETUP_STEPS = 6
FARMERS = 2
FACTORY_DISCS = 2
"""Technology discs one factory holds."""
ALL_CUBES = max(CUBES)


def _buds(game: Any) -> tuple[int, ...]:
    return BUDS[game.num_players]


def _most_buds(game: Any) -> int:
    return max(BUDS[game.num_players])


def _masters(game: Any) -> int:
    return 3 if game.num_players == 2 else 2


def _last(game: Any) -> tuple[int, ...]:
    return tuple(game.last)


def _merchant(game: Any) -> int:
    return len(game.merchants) - 1


def _cards(game: Any) -> int:
    return len(game.merchants)


def _event(game: Any) -> int:
    return len(game.events) - 1


def _events(game: Any) -> int:
    return len(game.events)


def _events_in_game(game: Any) -> int:
    return EVENTS_IN_GAME[game.num_players]


def _tile(game: Any) -> int:
    return len(game.board.weather) - 1


def _columns_in_play(game: Any, s: Any) -> None:
    """Column 0 of the plantation is in play only with 4 players."""
    expected = [0, 1, 2, 3] if game.num_players == 4 else [1, 2, 3]
    if s.columns != expected:
        fail("columns", f"must be {expected} with {game.num_players} players, got {s.columns}")


def _per_tea(repeat: int) -> tuple[int, ...]:
    return tuple(c for c in CUBES for _ in range(repeat))


STATE_SCHEMA: StateSchema = schema(
    columns=ints(0, COLUMNS - 1, shape=(upto(COLUMNS),), unique=True),
    cubes=ints(0, CUBES, shape=(SPACES, TEAS)),
    bud=ints(-1, TEAS - 1, shape=(SPACES,)),
    occupant=seat(shape=(SPACES,), none=-1),
    weather=ints(-1, _tile, shape=(4,)),
    face=ints(0, 1, shape=(4,)),
    bag=ints(0, CUBES, shape=(TEAS,)),
    bud_pool=ints(0, _buds, shape=(TEAS,)),
    basket=ints(0, _per_tea(3), shape=(PLAYERS, 3 * TEAS)),
    factory=ints(0, _per_tea(4), shape=(PLAYERS, 4 * TEAS)),
    scent=ints((-1, 0, 0, 0, 0), (TEAS - 1, ALL_CUBES, *BUDS[4]), shape=(PLAYERS, 2 + TEAS)),
    warehouse=ints(0, _per_tea(3), shape=(PLAYERS, 3 * TEAS)),
    buds=ints(0, _buds, shape=(PLAYERS, TEAS)),
    master_pos=ints(-1, _last, shape=(PLAYERS, TRACKS)),
    farmers=ints(0, FARMERS, shape=(PLAYERS,)),
    masters=ints(0, _masters, shape=(PLAYERS,)),
    parked=ints(0, 1, shape=(PLAYERS,)),
    placed=ints(0, lambda game: (FARMERS, _masters(game)), shape=(PLAYERS, 2)),
    market=seat(shape=(3, upto(PLAYERS))),
    tech=ints(0, lambda game: tuple(game.tech_top), shape=(PLAYERS, TEAS)),
    action_discs=ints(0, ACTION_DISC_SUPPLY, shape=(PLAYERS, 2)),
    tech_discs=ints(0, TECH_DISC_SUPPLY, shape=(PLAYERS, 4)),
    discs_on=ints(0, 4 * TEAS - 1, shape=(PLAYERS, upto(FACTORY_DISCS * TEAS))),
    action_supply=ints(0, ACTION_DISC_SUPPLY, shape=(2,)),
    tech_supply=ints(0, TECH_DISC_SUPPLY, shape=(4,)),
    domestic=ints(0, lambda game: len(game.board.domestic.vp) - 1, shape=(PLAYERS,)),
    vp=ints(0, MAX_VP, shape=(PLAYERS,)),
    kept=ints(0, _merchant, shape=(PLAYERS, upto(_cards)), unique=True),
    character=ints(-1, len(CHARACTERS) - 1, shape=(PLAYERS,)),
    draft_pool=ints(0, len(CHARACTERS) - 1, shape=(upto(len(CHARACTERS)),), unique=True),
    display=ints(-1, _merchant, shape=(DISPLAY_ROWS, DISPLAY_SLOTS)),
    deck_pools=ints(0, _merchant, shape=(3, upto(_cards)), unique=True),
    deck_tail=ints(0, _merchant, shape=(upto(_cards),), unique=True),
    events=ints(0, _event, shape=(upto(_events_in_game),), unique=True),
    event_pool=ints(0, _event, shape=(upto(_events),), unique=True),
    passed=flags(shape=(PLAYERS,)),
    buds_gone=ints(0, _buds, shape=(TEAS,)),
    pay_low=ints(0, 2),
    round=ints(1, _events_in_game),
    start_player=seat(),
    turn=seat(),
    phase=one_of(Phase),
    setup_step=ints(0, SETUP_STEPS),
    lost_rows=ints(0, DISPLAY_ROWS - 1, shape=(upto(DISPLAY_ROWS),), unique=True),
    checks=(_columns_in_play,),
)
