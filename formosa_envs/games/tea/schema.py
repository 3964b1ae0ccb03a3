"""The Formosa Tea state schema: every field's type, length and range (``core.schema``).

Layouts follow ``state.py``: ``basket[p][3 * colour + wl]``, ``factory[p][4 * tea + k]``,
``warehouse[p][3 * tea + quality]``, ``scent[p] = [tea, cubes, buds x3]``. Cube counts
are bounded by the cubes of that colour (``CUBES``), buds by the buds in the game.

Decision frames (``FRAMES``): each kind's ``ctx`` length and bounds (spaces, tracks,
teas, seats, steps, display slots), its ``count``, and what its ids must name in the
state (a space in play, an empty display slot or weather space for a draw, a worker
placement that is still a legal main action); a pending ``pay`` must be exactly the
payment the rules would have pushed. A deferred ``?kind`` frame carries the seat first,
then ``kind``'s ctx; chance draws still pending never outnumber what is left to draw.
"""

from __future__ import annotations

from typing import Any

from formosa_envs.core.frame_checks import ctx_requires, payment_frame
from formosa_envs.core.schema import (
    AUTO_ONLY,
    CHANCE_ONLY,
    PLAYERS,
    SEAT,
    FrameSpec,
    StateSchema,
    fail,
    flags,
    frame,
    ints,
    last_seat,
    one_of,
    schema,
    seat,
    upto,
)

from . import actions as A
from .content import CHARACTERS, EFFECTS
from .events import DISCARD_VP
from .flow import BASKET, PLANT, deck_size
from .markets import DOMESTIC_PURPOSE, demand_units
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
    in_play,
)
from .turn import main_actions

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


# ----- decision frames ----------------------------------------------------------------------

LAST_SPACE, LAST_TRACK, LAST_TEA = SPACES - 1, TRACKS - 1, TEAS - 1
MAX_STEPS = COLUMNS
"""Spaces a Master advances in one go: the workers of a row (4 spaces) at most."""
SLOTS = DISPLAY_ROWS * DISPLAY_SLOTS
_PLACEMENTS = ("HARVEST", "GLOBAL_MARKET", "DOMESTIC")


def _most_tech(game: Any) -> int:
    return max(game.tech_top)


def _prep_steps(game: Any) -> int:
    return TRACKS * game.num_players


def _payment_costs(game: Any, s: Any, p: int, purpose: int) -> Any:
    """A sale's demand: a display slot's merchant card, or a Domestic Market sale."""
    if 0 <= purpose < SLOTS:
        card = s.display[purpose // DISPLAY_SLOTS][purpose % DISPLAY_SLOTS]
        if card < 0:
            return "must name a display slot that holds a merchant card"
        return [demand_units(game.merchants[card].demand)]
    if DOMESTIC_PURPOSE <= purpose <= DOMESTIC_PURPOSE + 3:
        kind = purpose - DOMESTIC_PURPOSE
        return [(0, 1, 2) if kind == 3 else (kind, kind)]
    return (f"must be a display slot 0..{SLOTS - 1} or {DOMESTIC_PURPOSE} + a Domestic "
            "Market sale 0..3")


def _placement_ok(game: Any, s: Any, d: Any) -> bool:
    """A Farmer-or-Master choice: both are free and the placement is still legal."""
    action, p = d.ctx[0], d.player
    return (game.action_space.decode(action)[0] in _PLACEMENTS and s.farmers[p] > 0
            and s.masters[p] > 0 and action in main_actions(game, s, p))


def _space_in_play(j: int) -> Any:
    return ctx_requires(j, lambda game, s, d: in_play(s, d.ctx[j]), "must be a space in play")


def _cube_target(game: Any, s: Any, d: Any) -> bool:
    kind, where = d.ctx
    return in_play(s, where) if kind == PLANT else where < game.num_players


def _advancing(game: Any, s: Any, d: Any) -> bool:
    pos = s.master_pos[d.player][d.ctx[0]]
    return 0 <= pos < game.last[d.ctx[0]]


_SPACE = frame(SEAT, ctx=1, lo=0, hi=LAST_SPACE, check=_space_in_play(0))
_SEAT_ONLY = frame(AUTO_ONLY, ctx=1, lo=0, hi=last_seat)
_PLAYER_FRAMES: dict[str, FrameSpec] = {
    "lower": frame(SEAT, ctx=1, lo=0, hi=LAST_TEA),
    "scent_bud": frame(SEAT),
    "advance_mode": frame(SEAT, ctx=2, lo=(0, 1), hi=(LAST_TRACK, MAX_STEPS), check=ctx_requires(
        0, _advancing, "must be a track where the player's Master can still advance")),
    "arai_extra": frame(SEAT),
    "tech_any": frame(SEAT, ctx=range(0, 2), lo=1, hi=1),
    "tech_reward": frame(SEAT, ctx=1, lo=0, hi=LAST_TEA, count=(1, 2)),
    "turn": frame(SEAT, ctx=1, lo=0, hi=1),
    "worker": frame(SEAT, ctx=1, lo=A.HARVEST0, hi=A.DOMESTIC0 + 3, check=ctx_requires(
        0, _placement_ok, "must be a harvest or market placement the player can still make "
                          "with a Farmer or a Master")),
    "take": _SPACE,
    "extra_space": _SPACE,
    "extra_colour": _SPACE,
    "scent_cube": frame(SEAT),
    "disc_factory": frame(SEAT, ctx=1, lo=0, hi=3),
    "bonus_advance": frame(SEAT, count=(1, 2)),
    "choose_merchant": frame(SEAT, ctx=1, lo=0, hi=1),
    "pay": payment_frame(_payment_costs),
    "dodd_advance": frame(SEAT),
    "bonus_space": frame(SEAT),
    "event_discard": frame(SEAT, ctx=1, lo=0, hi=max(DISCARD_VP.values()), check=ctx_requires(
        0, lambda game, s, d: d.ctx[0] in DISCARD_VP.values(),
        f"must be the VP of an oolong discard, one of {sorted(set(DISCARD_VP.values()))}")),
    "event_1868": frame(SEAT),
    "draft": frame(SEAT),
    "setup_space": frame(SEAT, ctx=range(0, 2), lo=0, hi=LAST_SPACE, count=(1, 2)),
    "setup_colour": _SPACE,
}


def _deferred(spec: FrameSpec) -> FrameSpec:
    """``?kind``: an automatic frame holding the seat, then ``kind``'s ctx (``effects.defer``);
    the situation may have changed by the time it is asked, so only the bounds apply."""
    lengths = spec.ctx if isinstance(spec.ctx, range) else range(spec.ctx, spec.ctx + 1)
    width = lengths.stop - 1
    lo = spec.ctx_lo if isinstance(spec.ctx_lo, tuple) else (spec.ctx_lo,) * width
    hi = spec.ctx_hi if isinstance(spec.ctx_hi, tuple) else (spec.ctx_hi,) * width
    return frame(AUTO_ONLY, ctx=range(lengths.start + 1, lengths.stop + 1), lo=(0, *lo),
                 hi=(last_seat, *hi), count=spec.count)


def _weather_ok(game: Any, s: Any, d: Any) -> bool:
    return s.weather[d.ctx[0]] < 0


def _slot_empty(game: Any, s: Any, d: Any) -> bool:
    return s.display[d.ctx[0]][d.ctx[1]] < 0


def _event_drawn(game: Any, s: Any, d: Any, path: str) -> None:
    """The round's event must have been drawn (``events.current_event``)."""
    if len(s.events) < s.round:
        fail("events", f"must hold this round's event (round {s.round}) while a "
                       f"{d.kind!r} frame is pending ({path}), got {len(s.events)} events")


FRAMES: dict[str, FrameSpec] = {
    **_PLAYER_FRAMES,
    **{"?" + kind: _deferred(spec) for kind, spec in _PLAYER_FRAMES.items() if kind != "pay"},
    "place_bud": frame(CHANCE_ONLY, ctx=1, lo=0, hi=LAST_SPACE, check=_space_in_play(0)),
    "draw_cube": frame(CHANCE_ONLY, ctx=2, lo=(min(PLANT, BASKET), 0),
                       hi=(max(PLANT, BASKET), LAST_SPACE), check=ctx_requires(
        1, _cube_target, "must be a space in play (a plantation draw) or a seat (a Basket "
                         "draw)")),
    "weather": frame(CHANCE_ONLY, ctx=1, lo=0, hi=3, check=ctx_requires(
        0, _weather_ok, "must be a weather space without a tile")),
    "merchant_draw": frame(CHANCE_ONLY, ctx=2, lo=(0, 0),
                           hi=(DISPLAY_ROWS - 1, DISPLAY_SLOTS - 1), check=ctx_requires(
        1, _slot_empty, "must be an empty display slot")),
    "event_draw": frame(CHANCE_ONLY),
    "start_player": frame(CHANCE_ONLY),
    "character_draw": frame(CHANCE_ONLY),
    "move": frame(AUTO_ONLY, ctx=4, lo=(0, 0, 0, 0), hi=(last_seat, LAST_TRACK, MAX_STEPS, 1)),
    "tech_step": frame(AUTO_ONLY, ctx=3, lo=(0, 0, 1), hi=(last_seat, LAST_TEA, _most_tech)),
    "resume": frame(AUTO_ONLY, ctx=2, lo=(0, 0), hi=(last_seat, 1)),
    "wu": frame(AUTO_ONLY, ctx=2, lo=(0, 0), hi=(last_seat, LAST_SPACE)),
    "row_advance": frame(AUTO_ONLY, ctx=3, lo=(0, 0, 0),
                         hi=(LAST_TRACK, MAX_STEPS, lambda game: game.num_players)),
    "scent_after": _SEAT_ONLY,
    "dodd": _SEAT_ONLY,
    "gm_bonus": frame(AUTO_ONLY, ctx=2, lo=(0, 0), hi=(last_seat, 2)),
    "domestic_step": frame(AUTO_ONLY, ctx=2, lo=(0, 0), hi=(last_seat, 3)),
    "event_turn": frame(AUTO_ONLY, ctx=1, lo=0, hi=lambda game: game.num_players,
                        check=_event_drawn),
    "event_end": frame(AUTO_ONLY, check=_event_drawn),
    "event_effect": frame(AUTO_ONLY, ctx=2, lo=(0, 0), hi=(last_seat, len(EFFECTS) - 1)),
    "end_turn": frame(AUTO_ONLY),
    "next_turn": frame(AUTO_ONLY),
    "refill": frame(AUTO_ONLY, ctx=1, lo=0, hi=DISPLAY_ROWS),
    "prep": frame(AUTO_ONLY, ctx=1, lo=0, hi=2),
    "prep_advance": frame(AUTO_ONLY, ctx=1, lo=0, hi=_prep_steps),
    "grow": frame(AUTO_ONLY, ctx=1, lo=0, hi=LAST_SPACE, check=_space_in_play(0)),
    "new_round": frame(AUTO_ONLY),
}


def _pending_draws(game: Any, s: Any) -> None:
    """Chance draws still on the stack never outnumber what is left to draw."""
    kinds = [d.kind for d in s.stack]
    left = {"merchant_draw": ("the merchant deck", deck_size(s)),
            "event_draw": ("field 'event_pool'", len(s.event_pool)),
            "draw_cube": ("field 'bag'", sum(s.bag)),
            "place_bud": ("field 'bud_pool'", sum(s.bud_pool)),
            "weather": ("the weather spaces without a tile", s.weather.count(-1)),
            "character_draw": ("the characters not revealed",
                               len(CHARACTERS) - len(s.draft_pool))}
    for kind, (what, have) in left.items():
        pending = kinds.count(kind)
        if pending > have:
            fail("stack", f"holds {pending} {kind!r} draws but {what} has only {have} left")


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
    frames=FRAMES,
    checks=(_columns_in_play, _pending_draws),
)
