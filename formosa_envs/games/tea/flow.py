"""Formosa Tea phase flow: setup, turn order, the Preparation phase, chance events.

Chance kinds: ``place_bud`` (a space's bud colour), ``draw_cube`` (a cube from the
bag, to a plantation space or a Basket), ``weather`` (a tile and face per weather
space), ``merchant_draw``, ``event_draw``, ``start_player``, ``character_draw``.
Player kinds: ``setup_space`` / ``setup_colour`` (advanced starting harvest),
``draft``. Automatic: ``end_turn``, ``next_turn``, ``refill``, ``prep_advance``,
``grow``. Rule ids refer to ``seeds/tea.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision, FunctionHandler
from formosa_envs.core.engine import AUTO, CHANCE

from . import actions as A
from . import effects as E
from . import events
from .state import (
    COLUMNS,
    DISPLAY_ROWS,
    DISPLAY_SLOTS,
    EVENTS_IN_GAME,
    SPACES,
    Phase,
    TeaState,
    column_of,
    in_play,
    workers_in_row,
)
from .turn import basket_room, start_turn, take_cubes

if TYPE_CHECKING:
    from .game import TeaGame

BASKET = 1     # draw_cube target kind: a player's Basket at WL 1 (ctx = (BASKET, player))
PLANT = 0      # draw_cube target kind: a plantation space (ctx = (PLANT, space))


# ----- setup -----------------------------------------------------------------------------

def setup_step(game: TeaGame, s: TeaState) -> None:
    """Push the chance events of the next setup step (TEA-2); then the first turn."""
    step = s.setup_step
    s.setup_step += 1
    spaces = [sp for sp in range(SPACES) if in_play(s, sp)]
    chance = s.stack.append
    if step == 0:
        for sp in reversed(spaces):
            for _ in range(3):
                chance(Decision("draw_cube", CHANCE, ctx=(PLANT, sp)))
            chance(Decision("place_bud", CHANCE, ctx=(sp,)))
    elif step == 1:
        # the display, after the weather: the rightmost column top to bottom first
        slots = [(row, col) for col in reversed(range(DISPLAY_SLOTS))
                 for row in range(DISPLAY_ROWS)][:deck_size(s)]
        for row, col in reversed(slots):
            chance(Decision("merchant_draw", CHANCE, ctx=(row, col)))
        for pos in reversed(range(4)):
            chance(Decision("weather", CHANCE, ctx=(pos,)))
    elif step == 2:
        for _ in range(EVENTS_IN_GAME[s.num_players]):
            chance(Decision("event_draw", CHANCE))
        chance(Decision("start_player", CHANCE))
    elif step == 3:
        s.events.sort(key=lambda e: game.events[e].year)
        for p in reversed(range(s.num_players)):
            for _ in range(2):
                chance(Decision("draw_cube", CHANCE, ctx=(BASKET, p)))
    elif step == 4 and game.config.advanced:
        _advanced_setup(s)
    else:
        s.phase = Phase.ACTIONS
        start_turn(game, s, s.start_player)


def _advanced_setup(s: TeaState) -> None:
    """Starting harvest in turn order, then the draft from the last player (TEA-3)."""
    n = s.num_players
    for k in range(n):  # the draft: the player before the start player picks first
        s.stack.append(Decision("draft", (s.start_player + k) % n))
    for _ in range(n + 1):
        s.stack.append(Decision("character_draw", CHANCE))
    for k in reversed(range(n)):
        p = (s.start_player + k) % n
        s.stack.append(Decision("setup_space", p, count=2))


def _bud_outcomes(game: TeaGame, s: TeaState, d: Decision) -> list[tuple[int, float]]:
    total = sum(s.bud_pool)
    return [(c, k / total) for c, k in enumerate(s.bud_pool) if k]


def _bud_apply(game: TeaGame, s: TeaState, d: Decision, colour: int) -> None:
    s.bud_pool[colour] -= 1
    s.bud[d.ctx[0]] = colour


def _cube_outcomes(game: TeaGame, s: TeaState, d: Decision) -> list[tuple[int, float]]:
    total = sum(s.bag)
    return [(c, k / total) for c, k in enumerate(s.bag) if k]


def _cube_apply(game: TeaGame, s: TeaState, d: Decision, colour: int) -> None:
    s.bag[colour] -= 1
    kind, where = d.ctx
    if kind == PLANT:
        s.cubes[where][colour] += 1
    else:
        s.basket[where][3 * colour + 1] += 1


def _weather_outcomes(game: TeaGame, s: TeaState, d: Decision) -> list[tuple[int, float]]:
    left = [t for t in range(4) if t not in s.weather]
    return [(2 * t + f, 1 / (2 * len(left))) for t in left for f in range(2)]


def _weather_apply(game: TeaGame, s: TeaState, d: Decision, outcome: int) -> None:
    tile, face = divmod(outcome, 2)
    s.weather[d.ctx[0]] = tile
    s.face[tile] = face


def _event_outcomes(game: TeaGame, s: TeaState, d: Decision) -> list[tuple[int, float]]:
    return [(e, 1 / len(s.event_pool)) for e in s.event_pool]


def _event_draw_apply(game: TeaGame, s: TeaState, d: Decision, event: int) -> None:
    s.event_pool.remove(event)
    s.events.append(event)


def _uniform_seat(game: TeaGame, s: TeaState, d: Decision) -> list[tuple[int, float]]:
    return [(p, 1 / s.num_players) for p in range(s.num_players)]


def _start_apply(game: TeaGame, s: TeaState, d: Decision, seat: int) -> None:
    s.start_player = s.turn = seat


def _character_outcomes(game: TeaGame, s: TeaState, d: Decision) -> list[tuple[int, float]]:
    left = [c for c in range(7) if c not in s.draft_pool]
    return [(c, 1 / len(left)) for c in left]


def _character_apply(game: TeaGame, s: TeaState, d: Decision, character: int) -> None:
    s.draft_pool.append(character)


def _draft_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    return [A.CHARACTER0 + c for c in sorted(s.draft_pool)]


STARTING_TECH = {0: 0, 1: 0, 4: 1, 6: 2}   # Wang, Wei: oolong; Arai: black; Hsu: green


def _draft_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    character = action - A.CHARACTER0
    s.draft_pool.remove(character)
    s.character[d.player] = character
    if len(s.draft_pool) == 1:
        s.draft_pool.clear()  # the unselected card is discarded
    if character in STARTING_TECH:  # a starting advance takes space 1's reward (R-30)
        E.push_tech(s, d.player, STARTING_TECH[character])


def _setup_space_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    used = d.ctx[0] if d.ctx else -1
    return [A.SPACE0 + sp for sp in range(SPACES)
            if in_play(s, sp) and sp != used and sum(s.cubes[sp])]


def _setup_space_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    """One cube from the chosen space (its colour chosen next if it holds several)."""
    space = action - A.SPACE0
    if d.count > 1:
        E.defer(s, Decision("setup_space", d.player, d.count - 1, ctx=(space,)))
    E.ask(game, s, Decision("setup_colour", d.player, ctx=(space,)))


def _setup_colour_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    if basket_room(s, d.player) < 1:
        return []
    return [A.TYPE0 + c for c in range(3) if s.cubes[d.ctx[0]][c]]


def _setup_colour_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    taken = [0, 0, 0]
    taken[action - A.TYPE0] = 1
    take_cubes(game, s, d.player, d.ctx[0], taken)


# ----- turns and the merchant display ----------------------------------------------------

def _end_turn_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    """End of a turn: refill the display, then the next player (TEA-4.6). With no row
    to refill the refill frames would only pass over the four rows: they are skipped,
    and the next player's turn starts at once."""
    if s.lost_rows:
        s.stack.append(Decision("next_turn", AUTO))
        s.stack.append(Decision("refill", AUTO, ctx=(0,)))
    else:  # the next_turn frame would be popped and applied at once
        _next_turn_apply(game, s, d, 0)


def _next_turn_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    n = s.num_players
    for k in range(1, n + 1):
        q = (s.turn + k) % n
        if not s.passed[q]:
            start_turn(game, s, q)
            return
    s.phase = Phase.PREPARATION
    s.stack.append(Decision("prep", AUTO, ctx=(0,)))


def deck_size(s: TeaState) -> int:
    """Cards left in the merchant deck."""
    return sum(len(pool) for pool in s.deck_pools) + len(s.deck_tail)


def _refill_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    """Slide a row that lost cards this turn right and draw into its empty slots (R-22)."""
    row = d.ctx[0]
    while row < DISPLAY_ROWS and row not in s.lost_rows:
        row += 1  # what the frame of the next row would do at once
    if row >= DISPLAY_ROWS:
        s.lost_rows.clear()
        return
    cards = [c for c in s.display[row] if c >= 0]
    s.display[row] = [-1] * (DISPLAY_SLOTS - len(cards)) + cards
    if len(cards) < DISPLAY_SLOTS and deck_size(s):
        s.stack.append(Decision("refill", AUTO, ctx=(row,)))
        s.stack.append(Decision("merchant_draw", CHANCE, ctx=(row, DISPLAY_SLOTS - 1 - len(cards))))
    else:
        s.stack.append(Decision("refill", AUTO, ctx=(row + 1,)))


def _merchant_outcomes(game: TeaGame, s: TeaState, d: Decision) -> list[tuple[int, float]]:
    for pool in s.deck_pools:
        if pool:
            return [(c, 1 / len(pool)) for c in sorted(pool)]
    return [(s.deck_tail[0], 1.0)]


def _merchant_apply(game: TeaGame, s: TeaState, d: Decision, card: int) -> None:
    for pool in s.deck_pools:
        if pool:
            pool.remove(card)
            break
    else:
        s.deck_tail.remove(card)
    row, slot = d.ctx
    s.display[row][slot] = card


# ----- the Preparation phase -----------------------------------------------------------------

def _prep_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    """The Preparation phase, step by step (TEA-11)."""
    step = d.ctx[0]
    if step == 0:
        s.stack.append(Decision("prep", AUTO, ctx=(1,)))
        s.stack.append(Decision("prep_advance", AUTO, ctx=(0,)))
    elif step == 1:
        s.stack.append(Decision("prep", AUTO, ctx=(2,)))
        events.start_event(game, s)
    elif s.round == len(s.events):
        finish_game(game, s)  # the last event is resolved: the game ends
    else:
        _retrieve_and_grow(game, s)


def _prep_advance_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    """Rows top to bottom, owners in turn order: jump N spaces, last effect only (R-28)."""
    index, n = d.ctx[0], s.num_players
    if index >= 4 * n:
        return
    s.stack.append(Decision("prep_advance", AUTO, ctx=(index + 1,)))
    row, k = divmod(index, n)
    p = (s.start_player + k) % n
    steps = workers_in_row(s, row)
    if steps and 0 <= s.master_pos[p][row] < game.last[row]:
        E.jump(game, s, p, row, steps, effect=True)


def finish_game(game: TeaGame, s: TeaState) -> None:
    """Final scoring (TEA-14): Domestic VP, merchant icons, events' game-end parts."""
    for p, bonus in enumerate(final_bonus(game, s)):
        s.vp[p] += bonus
    s.over = True
    s.last_event = "the game is over"


def final_bonus(game: TeaGame, s: TeaState) -> list[int]:
    """What final scoring adds to each player's VP track total."""
    from .events import end_game_vp
    from .scoring import icon_multiplier
    bonus = end_game_vp(game, s)
    for p in range(s.num_players):
        bonus[p] += game.board.domestic.vp[s.domestic[p]]
        for tea, row in enumerate(game.board.technology):
            icons = sum(1 for c in s.kept[p] if game.merchants[c].icon_index == tea)
            bonus[p] += icons * icon_multiplier(s.tech[p][tea], row.rewards, row.values)
    return bonus


def _retrieve_and_grow(game: TeaGame, s: TeaState) -> None:
    """Workers home, weather slides, growth, next start player (TEA-11.4-11.7)."""
    for p in range(s.num_players):
        s.farmers[p] += s.placed[p][0]
        s.masters[p] += s.placed[p][1]
        s.placed[p] = [0, 0]
    s.occupant = [-1] * SPACES
    s.market = [[] for _ in range(3)]
    leftmost = s.weather[0]
    s.weather = [*s.weather[1:], leftmost]
    s.face[leftmost] ^= 1
    s.stack.append(Decision("new_round", AUTO))
    order = [r * COLUMNS + c for c in reversed(range(COLUMNS)) for r in range(4)]
    for sp in reversed([sp for sp in order if in_play(s, sp)]):
        want = min(3 - sum(s.cubes[sp]), 2 if game.water_level(s, column_of(sp)) == 2 else 1)
        for _ in range(max(want, 0)):
            s.stack.append(Decision("grow", AUTO, ctx=(sp,)))


def _grow_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    """One new cube on a space, if the bag has any (TEA-11.6)."""
    if sum(s.bag):
        s.stack.append(Decision("draw_cube", CHANCE, ctx=(PLANT, d.ctx[0])))


def _new_round_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    n = s.num_players
    s.start_player = (s.start_player + 1) % n
    s.round += 1
    s.passed = [False] * n
    if s.round == 3:  # 2 players: the parked Masters join
        for p in range(n):
            s.masters[p] += s.parked[p]
            s.parked[p] = 0
    s.phase = Phase.ACTIONS
    start_turn(game, s, s.start_player)


HANDLERS = {
    "place_bud": FunctionHandler("placing a bud", _bud_apply, outcomes=_bud_outcomes),
    "draw_cube": FunctionHandler("drawing a cube from the bag", _cube_apply,
                                 outcomes=_cube_outcomes),
    "weather": FunctionHandler("placing a weather tile", _weather_apply,
                               outcomes=_weather_outcomes),
    "event_draw": FunctionHandler("drawing a historical event", _event_draw_apply,
                                  outcomes=_event_outcomes),
    "start_player": FunctionHandler("choosing the start player", _start_apply,
                                    outcomes=_uniform_seat),
    "character_draw": FunctionHandler("revealing a character", _character_apply,
                                      outcomes=_character_outcomes),
    "draft": FunctionHandler("drafting a character", _draft_apply, _draft_legal),
    "setup_space": FunctionHandler("choosing a space for the starting harvest",
                                   _setup_space_apply, _setup_space_legal),
    "setup_colour": FunctionHandler("choosing the colour of a starting cube",
                                    _setup_colour_apply, _setup_colour_legal),
    "end_turn": FunctionHandler("ending the turn", _end_turn_apply),
    "next_turn": FunctionHandler("passing the turn on", _next_turn_apply),
    "refill": FunctionHandler("refilling the merchant display", _refill_apply),
    "merchant_draw": FunctionHandler("drawing a merchant card", _merchant_apply,
                                     outcomes=_merchant_outcomes),
    "prep": FunctionHandler("the Preparation phase", _prep_apply),
    "prep_advance": FunctionHandler("advancing Tea Masters in the Preparation phase",
                                    _prep_advance_apply),
    "grow": FunctionHandler("growing new tea", _grow_apply),
    "new_round": FunctionHandler("starting a new round", _new_round_apply),
}
