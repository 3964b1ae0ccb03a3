"""The Taiwan Formosa state schema: every field's type, length and range (``core.schema``).

Counts the rules leave unlimited (coins, resources, workers) are bounded by
``MAX_COUNT`` / ``MAX_COINS``, far above anything a game reaches, so that a corrupt
save holding 10**9 of something is refused rather than played.
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

from .flow import TYPES_IN_GAME
from .state import CARD_CODES, MARKERS, NUM_DECKS, RESOURCES, Phase

TYPES = 18
REGION_COUNT = 4
RED_BUILDINGS = 4
MAX_COUNT = 999
"""Engine bound on a player's resources, workers, merchants and warehouse stock."""
MAX_COINS = 9_999
"""Engine bound on coins."""
MAX_VP = 9_999
"""Engine bound on VP (final scoring may make VP negative: uncompleted cards)."""
MAX_SPACE = 6
"""A card's time-track space: at most 5 (the longest time) plus a Demolition delay."""
MAX_ROUNDS = 5_000
SETUP_STEPS = TYPES_IN_GAME + NUM_DECKS + 2


def _copies(game: Any) -> tuple[int, ...]:
    return tuple(b.copies for b in game.buildings)


def _most_copies(game: Any) -> int:
    return max(b.copies for b in game.buildings)


def _cards(game: Any) -> int:
    """Every card a player could ever hold on the track or built."""
    return sum(b.copies for b in game.buildings) + len(game.landmarks)


def _landmarks(game: Any) -> int:
    return len(game.landmarks)


def _last_landmark(game: Any) -> int:
    return len(game.landmarks) - 1


def _last_owner(game: Any) -> int:
    """Seats, plus the neutral colour ``num_players`` in the 2-player game."""
    return game.num_players if game.num_players == 2 else game.num_players - 1


def _region_size(game: Any) -> int:
    return MARKERS * game.num_players + (game.num_players == 2)


def _vp_not_negative_in_play(game: Any, s: Any) -> None:
    """VP go below 0 only in final scoring (uncompleted cards), never during play."""
    if not s.over:
        for p, vp in enumerate(s.vp):
            if vp < 0:
                fail(f"vp[{p}]", f"must be >= 0 before the game is over, got {vp}")


def _counts(hi: Any = MAX_COUNT) -> Any:
    return ints(0, hi, shape=(PLAYERS,))


STATE_SCHEMA: StateSchema = schema(
    piles=ints(0, _copies, shape=(TYPES,)),
    in_game=flags(shape=(TYPES,)),
    decks=ints(0, _last_landmark, shape=(NUM_DECKS, upto(_landmarks)), unique=True),
    face_up=ints(-1, _last_landmark, shape=(NUM_DECKS,)),
    regions=ints(0, _last_owner, shape=(REGION_COUNT, upto(_region_size))),
    coins=_counts(MAX_COINS),
    vp=ints(-MAX_VP, MAX_VP, shape=(PLAYERS,)),
    res=ints(0, MAX_COUNT, shape=(PLAYERS, RESOURCES)),
    workers=_counts(),
    merchants=_counts(),
    tribal=_counts(),
    warehouse=ints(0, MAX_COUNT, shape=(PLAYERS, RESOURCES)),
    markers=_counts(MARKERS),
    track=ints((0, 0), (CARD_CODES - 1, MAX_SPACE), shape=(PLAYERS, upto(_cards), 2)),
    built=ints(0, CARD_CODES - 1, shape=(PLAYERS, upto(_cards))),
    bought=ints(0, _copies, shape=(PLAYERS, TYPES)),
    factory_used=ints(0, _most_copies, shape=(PLAYERS, RESOURCES)),
    temple_used=_counts(_most_copies),
    exclusive=seat(shape=(RED_BUILDINGS,), none=-1),
    round=ints(1, MAX_ROUNDS),
    start_player=seat(),
    turn=seat(),
    turns_done=ints(0, lambda game: game.num_players),
    phase=one_of(Phase),
    setup_step=ints(0, SETUP_STEPS),
    final_round=flags(),
    checks=(_vp_not_negative_in_play,),
)
