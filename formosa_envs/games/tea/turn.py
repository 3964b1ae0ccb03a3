"""The Worker Action phase: turns, the main actions, harvests, processing, completion.

Decision kinds: ``turn`` (main action or disc use; ``ctx = (acted,)``: after the main
action only discs and DONE), ``worker`` (Farmer or Master), ``take`` (harvest
choice), ``extra_space`` / ``extra_colour`` (Wu Zhen Duo), ``scent_cube``,
``disc_factory``, ``bonus_advance`` (the discs' rules are in ``discs.py``). Automatic:
``resume``, ``row_advance``, ``wu``, ``scent_after``. Rule ids refer to ``seeds/tea.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision, FunctionHandler
from formosa_envs.core.engine import AUTO

from . import actions as A
from . import discs as D
from . import effects as E
from . import markets as M
from . import scoring
from .state import (
    BASKET_LIMIT,
    FLAVOR,
    SCENTED,
    TeaState,
    basket_count,
    column_of,
    in_play,
    row_of,
    workers_in_row,
)

if TYPE_CHECKING:
    from .game import TeaGame

LI_CHUN_SHENG, HSU, WEI = 3, 6, 1


# ----- the turn decision -------------------------------------------------------------

def start_turn(game: TeaGame, s: TeaState, p: int) -> None:
    """Offer ``p`` a turn, or pass them automatically when nothing is left (TEA-4.5)."""
    s.turn = p
    if s.farmers[p] + s.masters[p] == 0 and not _completions(game, s, p):
        s.passed[p] = True
        s.stack.append(Decision("next_turn", AUTO))
        return
    s.stack.append(Decision("turn", p, ctx=(0,)))


def _completions(game: TeaGame, s: TeaState, p: int) -> list[int]:
    return [t for t in range(4) if s.master_pos[p][t] == game.last[t]]


def main_actions(game: TeaGame, s: TeaState, p: int) -> list[int]:
    """Main-action ids legal for ``p`` (TEA-4.2), in increasing id order."""
    pos = s.master_pos[p]
    legal = []
    workers = s.farmers[p] + s.masters[p]
    if workers:
        occupant = s.occupant
        legal = [A.HARVEST0 + sp for sp in game.play_spaces if occupant[sp] < 0]
    if s.masters[p]:
        b = s.basket[p]
        legal += [A.PROCESS0 + t for t in range(3)
                  if pos[t] < 0 and b[3 * t] + b[3 * t + 1] + b[3 * t + 2]]
        if pos[SCENTED] < 0 and sum(s.warehouse[p]):
            legal.append(A.PROCESS0 + SCENTED)
    last = game.last
    legal += [A.COMPLETE0 + t for t in range(4) if pos[t] == last[t]]
    if workers:
        if M.payable_slots(game, s, p, any_slot=s.character[p] == M.JOHN_DODD):
            market = s.market
            legal += [A.GLOBAL0 + g for g in range(3) if p not in market[g]]
        legal += M.domestic_actions(s, p)
    return legal


def _turn_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    p = d.player
    if d.ctx[0]:
        return [A.DONE, *D.disc_uses(game, s, p)]
    legal = main_actions(game, s, p) + D.disc_uses(game, s, p)
    if s.farmers[p] + s.masters[p] == 0:
        legal.insert(0, A.PASS)
    return legal


def _turn_is_legal(game: TeaGame, s: TeaState, d: Decision, action: int) -> bool:
    """Whether ``action`` is among :func:`_turn_legal`'s ids, listing only its own part."""
    p = d.player
    if A.ACTION_DISC0 <= action < A.WORKER0:
        return action in D.disc_uses(game, s, p)
    if d.ctx[0]:
        return action == A.DONE
    if action == A.PASS:
        return s.farmers[p] + s.masters[p] == 0
    return A.HARVEST0 <= action < A.ACTION_DISC0 and action in main_actions(game, s, p)


def _turn_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    p, acted = d.player, d.ctx[0]
    if action in (A.PASS, A.DONE):
        s.passed[p] = s.passed[p] or action == A.PASS
        end_turn(game, s)
        return
    if A.ACTION_DISC0 <= action < A.WORKER0:
        s.stack.append(Decision("resume", AUTO, ctx=(p, acted)))
        D.use_disc(game, s, p, action)
        return
    s.stack.append(Decision("resume", AUTO, ctx=(p, 1)))
    seg, i = game.action_space.decode(action)
    if seg == "COMPLETE":
        complete(game, s, p, i)
    elif seg == "PROCESS":
        process(game, s, p, i)
    else:
        place_worker(game, s, p, action)


def end_turn(game: TeaGame, s: TeaState) -> None:
    """What an ``end_turn`` frame does when it is popped (``flow.py``), done at once."""
    game.handlers["end_turn"].apply(game, s, END_TURN, 0)


END_TURN = Decision("end_turn", AUTO)


def _resume_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    """Back to the turn: after the main action, only if a disc can still be used."""
    p, acted = d.ctx
    if acted and not D.disc_uses(game, s, p):
        end_turn(game, s)
    else:
        s.stack.append(Decision("turn", p, ctx=(acted,)))


# ----- workers ------------------------------------------------------------------------

def place_worker(game: TeaGame, s: TeaState, p: int, action: int) -> None:
    """Harvest and both markets: the player picks a Farmer or a Master if both are free."""
    if s.farmers[p] and s.masters[p]:
        s.stack.append(Decision("worker", p, ctx=(action,)))
    else:
        _do_placement(game, s, p, action, master=not s.farmers[p])


def _worker_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    _do_placement(game, s, d.player, d.ctx[0], master=action == A.WORKER0 + 1)


def _do_placement(game: TeaGame, s: TeaState, p: int, action: int, master: bool) -> None:
    if master:
        s.masters[p] -= 1
    else:
        s.farmers[p] -= 1
    s.placed[p][int(master)] += 1
    seg, i = game.action_space.decode(action)
    if seg == "HARVEST":
        harvest(game, s, p, i)
    elif seg == "GLOBAL_MARKET":
        M.global_market(game, s, p, i)
    else:
        M.domestic(game, s, p, i)


# ----- harvest ------------------------------------------------------------------------

def harvest(game: TeaGame, s: TeaState, p: int, space: int) -> None:
    """A worker on ``space``: take cubes, Wu's extra cube, then the row's Masters advance."""
    s.occupant[space] = p
    s.last_event = f"player {p} harvests space {space}"
    row = row_of(space)
    s.stack.append(Decision("row_advance", AUTO, ctx=(row, workers_in_row(s, row), 0)))
    s.stack.append(Decision("wu", AUTO, ctx=(p, space)))
    E.ask(game, s, Decision("take", p, ctx=(space,)))


def basket_room(s: TeaState, p: int) -> int:
    """Free places in ``p``'s Basket (6, Li Chun Sheng 8) (TEA-5.2)."""
    limit = BASKET_LIMIT + 2 * (s.character[p] == LI_CHUN_SHENG)
    return limit - basket_count(s, p)


def _take_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    cubes, room = s.cubes[d.ctx[0]], basket_room(s, d.player)
    legal = [A.TAKE0 + c for c in range(3) if 0 < cubes[c] <= room]
    colours = (cubes[0] > 0) + (cubes[1] > 0) + (cubes[2] > 0)
    # one of each only when it differs from every TAKE[c], i.e. unless the space
    # holds a single cube (then "one of each" and "all of that colour" are the same take)
    if 0 < colours <= room and (colours > 1 or sum(cubes) > 1):
        legal.append(A.TAKE0 + A.ONE_EACH)
    return [A.DONE, *legal] if legal else []


def _take_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    if action == A.DONE:
        return
    space, i = d.ctx[0], action - A.TAKE0
    cubes = s.cubes[space]
    if i == A.ONE_EACH:
        taken = [min(1, c) for c in cubes]
    else:
        taken = [cubes[c] if c == i else 0 for c in range(3)]
    take_cubes(game, s, d.player, space, taken)


def take_cubes(game: TeaGame, s: TeaState, p: int, space: int, taken: list[int]) -> None:
    """Move ``taken`` cubes (per colour) to the Basket at the column's WL; bud on emptying."""
    wl = game.water_level(s, column_of(space))
    for c in range(3):
        s.cubes[space][c] -= taken[c]
        s.basket[p][3 * c + wl] += taken[c]
    if sum(s.cubes[space]) == 0 and s.bud[space] >= 0:
        s.buds[p][s.bud[space]] += 1
        s.bud[space] = -1


def _wu_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    p, space = d.ctx
    if s.character[p] == E.WU:
        E.ask(game, s, Decision("extra_space", p, ctx=(space,)))


def _extra_space_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    if basket_room(s, d.player) < 1:
        return []
    spaces = [A.SPACE0 + sp for sp in range(16)
              if sp != d.ctx[0] and in_play(s, sp) and sum(s.cubes[sp])]
    return [A.DONE, *spaces] if spaces else []


def _extra_space_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    if action != A.DONE:
        E.ask(game, s, Decision("extra_colour", d.player, ctx=(action - A.SPACE0,)))


def _colour_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    return [A.TYPE0 + c for c in range(3) if s.cubes[d.ctx[0]][c]]


def _colour_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    taken = [0, 0, 0]
    taken[action - A.TYPE0] = 1
    take_cubes(game, s, d.player, d.ctx[0], taken)


def _row_advance_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    """The k-th player from the active one advances their Master on the row (TEA-5.6).

    Players without a Master to advance there are passed over in one loop (the frame
    of the next player would be popped and applied at once)."""
    row, steps, k = d.ctx
    n, last = s.num_players, game.last[row]
    while k < n:
        q = (s.turn + k) % n
        pos = s.master_pos[q][row]
        k += 1
        if 0 <= pos != last:
            s.stack.append(Decision("row_advance", AUTO, ctx=(row, steps, k)))
            # always the owner's choice: effects are mandatory once entered, so A
            # differs from B even when A would reach the last space
            s.stack.append(Decision("advance_mode", q, ctx=(row, steps)))
            return


# ----- processing and completion -------------------------------------------------------

def process(game: TeaGame, s: TeaState, p: int, track: int) -> None:
    """A Tea Master on space 0 of ``track`` (TEA-6.1, TEA-6.2)."""
    s.masters[p] -= 1
    s.master_pos[p][track] = 0
    s.last_event = f"player {p} starts processing on track {track}"
    if track == SCENTED:
        s.stack.append(Decision("scent_after", AUTO, ctx=(p,)))
        s.stack.append(Decision("scent_cube", p))
        return
    moved = 0
    for wl in range(3):
        count = s.basket[p][3 * track + wl]
        s.basket[p][3 * track + wl] = 0
        s.factory[p][4 * track + wl] += count
        moved += count
    E.offer_tech_reward(s, p, track, moved)
    E.push_effect(game, s, p, track, game.effect_at(track, 0))


def _scent_cube_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    tea, count = s.scent[d.player][0], s.scent[d.player][1]
    teas = [tea] if tea >= 0 else [0, 1, 2]
    legal = [A.CUBE0 + 3 * t + q for t in teas for q in range(3)
             if s.warehouse[d.player][3 * t + q]] if count < 6 else []
    return [A.DONE, *legal] if count else legal


def _scent_cube_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    if action == A.DONE:
        return
    cube = action - A.CUBE0
    s.warehouse[d.player][cube] -= 1
    s.scent[d.player][0] = cube // 3
    s.scent[d.player][1] += 1
    E.ask(game, s, Decision("scent_cube", d.player))


def _scent_after_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    p = d.ctx[0]
    E.offer_tech_reward(s, p, s.scent[p][0], s.scent[p][1])
    E.push_effect(game, s, p, SCENTED, game.effect_at(SCENTED, 0))


def complete(game: TeaGame, s: TeaState, p: int, track: int) -> None:
    """Tea Completion: retrieve the Master, evaluate and store (TEA-8)."""
    s.master_pos[p][track] = -1
    s.masters[p] += 1
    if track == SCENTED:
        _complete_scented(game, s, p)
        return
    f = s.factory[p]
    levels = f[4 * track:4 * track + 3]
    flavor = f[4 * track + FLAVOR]
    quality = scoring.batch_quality(levels, flavor)
    if quality == scoring.GOOD:
        s.vp[p] += scoring.flavor_bonus(flavor, doubled=s.character[p] == HSU)
    s.warehouse[p][3 * track + quality] += sum(levels) + flavor
    f[4 * track:4 * track + 4] = [0, 0, 0, 0]
    for code in [c for c in s.discs_on[p] if c // 4 == track]:
        s.discs_on[p].remove(code)
        s.tech_discs[p][code % 4] += 1
    s.last_event = f"player {p} completes {scoring.QUALITY_NAMES[quality]} tea on track {track}"


def _complete_scented(game: TeaGame, s: TeaState, p: int) -> None:
    tea, cubes, *buds = s.scent[p]
    s.vp[p] += scoring.scented_vp(cubes, tea, buds, wei=s.character[p] == WEI)
    s.bag[tea] += cubes
    for colour in range(3):
        s.buds_gone[colour] += buds[colour]  # the buds leave the game (TEA-8.6)
    s.scent[p] = [-1, 0, 0, 0, 0]
    s.last_event = f"player {p} completes scented tea"
    E.push_tech(s, p, tea)


HANDLERS = {
    "turn": FunctionHandler("taking a turn", _turn_apply, _turn_legal,
                            is_legal=_turn_is_legal),
    "resume": FunctionHandler("returning to the turn", _resume_apply),
    "worker": FunctionHandler("choosing a Tea Farmer or a Tea Master", _worker_apply,
                              lambda g, s, d: [A.WORKER0, A.WORKER0 + 1]),
    "take": FunctionHandler("choosing cubes to harvest", _take_apply, _take_legal),
    "wu": FunctionHandler("Wu Zhen Duo's extra cube", _wu_apply),
    "extra_space": FunctionHandler("choosing a space for Wu Zhen Duo's extra cube",
                                   _extra_space_apply, _extra_space_legal),
    "extra_colour": FunctionHandler("choosing the colour of a cube", _colour_apply,
                                    _colour_legal),
    "row_advance": FunctionHandler("advancing the Tea Masters of a row", _row_advance_apply),
    "scent_cube": FunctionHandler("choosing Warehouse cubes to scent", _scent_cube_apply,
                                  _scent_cube_legal),
    "scent_after": FunctionHandler("starting the scented batch", _scent_after_apply),
    "disc_factory": FunctionHandler("choosing a Factory for a technology disc",
                                    D.disc_factory_apply, D.disc_factory_legal),
    "bonus_advance": FunctionHandler("advancing own Tea Masters one space",
                                     D.bonus_advance_apply, D.bonus_advance_legal),
}
