"""Tea Masters on processing tracks, the six processing effects and technology tracks.

Rule ids (TEA-x.y) and rulings (R-n) refer to ``seeds/tea.md``. Every step that
can be interrupted by a player's choice is queued as an ``AUTO`` frame under the
decision, so a harvest that moves several Masters, each through several effects,
resolves in the printed order.

Decision kinds: ``lower`` (withering / fixation / fixation disc: which cube loses
water), ``scent_bud`` (which bud goes into the Scented Factory), ``advance_mode``
(A or B after a harvest), ``arai_extra``, ``tech_reward`` (take or decline the
processing reward), ``tech_any`` (which technology track advances). Automatic:
``move``, ``tech_step``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision, FunctionHandler
from formosa_envs.core.engine import AUTO

from . import actions as A
from .content import EFFECTS, TECH_DISCS
from .state import FLAVOR, SCENTED, Phase, TeaState

if TYPE_CHECKING:
    from .game import TeaGame

BLACK = 1
ARAI, WU = 4, 5
WITHERING, OXIDATION, FIXATION, DRYING, ROLLING, SCENTING = (
    EFFECTS.index(k) for k in ("withering", "oxidation", "fixation", "drying", "rolling",
                               "scenting"))
DISC_EFFECT = (FIXATION, ROLLING, OXIDATION, DRYING)   # tech disc kind -> effect


# ----- cube moves inside one factory ------------------------------------------------

def first_step_possible(s: TeaState, p: int, tea: int, effect: int) -> bool:
    """Whether ``effect`` can move at least one cube of ``p``'s ``tea`` factory."""
    f = s.factory[p]
    base = 4 * tea
    if effect in (WITHERING, FIXATION):
        return f[base + 1] + f[base + 2] > 0
    if effect == OXIDATION:
        return f[base + 2] > 0
    if effect == ROLLING:
        return f[base + 1] > 0
    if effect == DRYING:
        return f[base] > 0
    return False


def _to_flavor(s: TeaState, p: int, tea: int, wl: int, most: int) -> None:
    f = s.factory[p]
    moved = min(most, f[4 * tea + wl])
    f[4 * tea + wl] -= moved
    f[4 * tea + FLAVOR] += moved


def push_effect(game: TeaGame, s: TeaState, p: int, track: int, effect: int) -> None:
    """Resolve one space's (or disc's) effect for ``p`` on ``track`` (TEA-6.5).

    Moves to Flavor are automatic (the cubes of a batch are alike); lowering
    water and choosing a bud are decisions when there is more than one option.
    """
    if effect == SCENTING:
        if track == SCENTED and sum(s.buds[p]) > 0:
            ask(game, s, Decision("scent_bud", p))
        return
    if track == SCENTED or effect == 0:
        return
    if effect == OXIDATION:
        _to_flavor(s, p, track, 2, 1)
    elif effect == ROLLING:
        _to_flavor(s, p, track, 1, 1)
    elif effect == DRYING:
        _to_flavor(s, p, track, 0, 2)
    elif first_step_possible(s, p, track, effect):
        if effect == FIXATION:
            defer(s, Decision("lower", p, optional=True, ctx=(track,)))
        ask(game, s, Decision("lower", p, ctx=(track,)))


def ask(game: TeaGame, s: TeaState, d: Decision) -> None:
    """Push decision ``d``, or apply its only legal action at once (no choice to make)."""
    legal = game.handlers[d.kind].legal(game, s, d)
    if len(legal) == 1:
        game.handlers[d.kind].apply(game, s, d, legal[0])
    elif legal:
        s.stack.append(d)


def defer(s: TeaState, d: Decision) -> None:
    """Queue decision ``d`` to be asked (or skipped, or applied if forced) when reached.

    Frames below others may find the situation changed by then (the second
    Fixation step after the first, a reward after a track reached its top).
    """
    s.stack.append(Decision("?" + d.kind, AUTO, d.count, d.optional, (d.player, *d.ctx)))


def deferred_handler(kind: str) -> FunctionHandler:
    """The ``AUTO`` handler of deferred ``kind`` decisions (see :func:`defer`)."""
    def apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
        ask(game, s, Decision(kind, d.ctx[0], d.count, d.optional, d.ctx[1:]))
    return FunctionHandler(f"about to ask: {kind}", apply)


def _lower_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    f, tea = s.factory[d.player], d.ctx[0]
    legal = [A.LOWER0 + i for i, wl in enumerate((2, 1)) if f[4 * tea + wl] > 0]
    if d.optional and legal:
        legal.append(A.DONE)
    return legal


def _lower_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    if action == A.DONE:
        return
    wl = 2 - (action - A.LOWER0)
    f = s.factory[d.player]
    f[4 * d.ctx[0] + wl] -= 1
    f[4 * d.ctx[0] + wl - 1] += 1


def _bud_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    return [A.TYPE0 + c for c in range(3) if s.buds[d.player][c] > 0]


def _bud_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    colour = action - A.TYPE0
    s.buds[d.player][colour] -= 1
    s.scent[d.player][2 + colour] += 1


# ----- moving Tea Masters ---------------------------------------------------------------

def push_move(s: TeaState, p: int, track: int, steps: int, arai: bool) -> None:
    """Queue a step-by-step advance of ``p``'s Master (each space's effect executed).

    ``arai``: the movement may earn Arai Kokichiro's extra space (TEA-3.4).
    """
    s.stack.append(Decision("move", AUTO, ctx=(p, track, steps, int(arai))))


def _move_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    p, track, steps, arai = d.ctx
    pos, last = s.master_pos[p][track], game.last[track]
    if pos < 0:
        return
    if steps == 0 or pos == last:
        if arai and track == BLACK and s.character[p] == ARAI and pos < last \
                and s.phase == Phase.ACTIONS:
            s.stack.append(Decision("arai_extra", p))
        return
    s.master_pos[p][track] = pos + 1
    push_move(s, p, track, steps - 1, bool(arai))
    push_effect(game, s, p, track, game.effect_at(track, pos + 1))


def jump(game: TeaGame, s: TeaState, p: int, track: int, steps: int, effect: bool) -> None:
    """Move ``p``'s Master ``steps`` spaces at once (stopping at the last space);
    with ``effect``, execute only the effect of the space reached (TEA-11.1)."""
    last = game.last[track]
    pos = min(s.master_pos[p][track] + steps, last)
    s.master_pos[p][track] = pos
    if effect:
        push_effect(game, s, p, track, game.effect_at(track, pos))


def _mode_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    return [A.MODE0 + A.MODE_A, A.MODE0 + A.MODE_B]


def _mode_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    track, steps = d.ctx
    if action - A.MODE0 == A.MODE_B:
        s.master_pos[d.player][track] = game.last[track]
    else:
        push_move(s, d.player, track, steps, arai=True)


def _arai_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    return [A.CONFIRM, A.DONE]


def _arai_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    if action == A.CONFIRM:
        push_move(s, d.player, BLACK, 1, arai=False)


# ----- technology tracks ------------------------------------------------------------------

def push_tech(s: TeaState, p: int, tea: int, steps: int = 1) -> None:
    """Queue ``steps`` advances of ``p``'s ``tea`` technology, rewards in order (TEA-7.1)."""
    if steps > 0:
        s.stack.append(Decision("tech_step", AUTO, ctx=(p, tea, steps)))


def _tech_step_apply(game: TeaGame, s: TeaState, d: Decision, _action: int) -> None:
    p, tea, steps = d.ctx
    level = s.tech[p][tea]
    if level >= game.tech_top[tea]:
        return
    s.tech[p][tea] = level + 1
    push_tech(s, p, tea, steps - 1)
    reward, _value = game.tech_reward_at(tea, level + 1)
    gain_reward(game, s, p, reward, optional=False)


def gain_reward(game: TeaGame, s: TeaState, p: int, reward: str, optional: bool) -> None:
    """A disc from the supply (if any is left) or an "advance any" grant (TEA-7.2)."""
    if reward in TECH_DISCS:
        kind = TECH_DISCS.index(reward)
        if s.tech_supply[kind] > 0:
            s.tech_supply[kind] -= 1
            s.tech_discs[p][kind] += 1
    elif reward in ("action_global", "action_processing"):
        kind = reward == "action_processing"
        if s.action_supply[kind] > 0:
            s.action_supply[kind] -= 1
            s.action_discs[p][kind] += 1
    elif reward in ("advance_any", "bonus_technology"):
        ask(game, s, Decision("tech_any", p, optional=optional))


def _tech_any_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    levels = s.tech[d.player]
    open_ = [t for t in range(3) if levels[t] < game.tech_top[t]]
    if d.ctx and open_:  # 1903: only the tracks furthest behind
        low = min(levels[t] for t in range(3))
        open_ = [t for t in range(3) if levels[t] == low and levels[t] < game.tech_top[t]]
    legal = [A.TECH0 + t for t in open_]
    if d.optional and legal:
        legal.append(A.DONE)
    return legal


def _tech_any_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    if action != A.DONE:
        push_tech(s, d.player, action - A.TECH0)


def _tech_reward_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    if s.tech[d.player][d.ctx[0]] >= game.tech_top[d.ctx[0]]:
        return []
    return [A.CONFIRM, A.DONE]


def _tech_reward_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    """CONFIRM advances one space now; a declined advance is lost (TEA-6.4)."""
    if action != A.CONFIRM:
        return
    if d.count > 1:
        defer(s, Decision("tech_reward", d.player, d.count - 1, ctx=d.ctx))
    push_tech(s, d.player, d.ctx[0])


def offer_tech_reward(s: TeaState, p: int, tea: int, cubes: int) -> None:
    """Queue the processing reward: 1 space for 3+ cubes, 2 for 5+, each optional
    (TEA-6.4); it is offered after the first space's effect."""
    steps = 2 if cubes >= 5 else 1 if cubes >= 3 else 0
    if steps:
        defer(s, Decision("tech_reward", p, steps, ctx=(tea,)))


HANDLERS = {
    "lower": FunctionHandler("lowering the water level of a cube", _lower_apply, _lower_legal),
    "scent_bud": FunctionHandler("choosing a bud for Scenting", _bud_apply, _bud_legal),
    "move": FunctionHandler("moving a Tea Master", _move_apply),
    "advance_mode": FunctionHandler("choosing how a Tea Master advances (A or B)",
                                    _mode_apply, _mode_legal),
    "arai_extra": FunctionHandler("deciding on Arai Kokichiro's extra space", _arai_apply,
                                  _arai_legal),
    "tech_step": FunctionHandler("advancing a technology track", _tech_step_apply),
    "tech_any": FunctionHandler("choosing a technology track to advance", _tech_any_apply,
                                _tech_any_legal),
    "tech_reward": FunctionHandler("taking or declining the processing reward",
                                   _tech_reward_apply, _tech_reward_legal),
}
