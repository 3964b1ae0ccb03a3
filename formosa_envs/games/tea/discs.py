"""Action and technology discs: which uses are open on a turn and what they do.

Decision kinds (their handlers are listed in ``turn.py``): ``disc_factory`` (the
Factory a technology disc goes on) and ``bonus_advance`` (single-space advances of
one's own Tea Masters). Rule ids refer to ``seeds/tea.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision

from . import actions as A
from . import effects as E
from . import markets as M
from .state import TeaState

if TYPE_CHECKING:
    from .game import TeaGame


def disc_uses(game: TeaGame, s: TeaState, p: int) -> list[int]:
    """USE_ACTION_DISC / USE_TECH_DISC ids usable now (TEA-7.5, TEA-7.6)."""
    uses = []
    if s.action_discs[p][0] and M.payable_slots(game, s, p, any_slot=True):
        uses.append(A.ACTION_DISC0)
    if s.action_discs[p][1] and _advanceable(game, s, p):
        uses.append(A.ACTION_DISC0 + 1)
    held = s.tech_discs[p]
    if held[0] or held[1] or held[2] or held[3]:
        teas = _disc_teas(s, p)  # what _disc_factories tests before the effect
        if teas:
            effects = E.DISC_EFFECT
            uses += [A.TECH_DISC0 + k for k in range(4) if held[k] and any(
                E.first_step_possible(s, p, t, effects[k]) for t in teas)]
    return uses


def _advanceable(game: TeaGame, s: TeaState, p: int) -> list[int]:
    return [t for t in range(4) if 0 <= s.master_pos[p][t] < game.last[t]]


def _disc_teas(s: TeaState, p: int) -> list[int]:
    """Factories with a batch and fewer than 2 technology discs on them (TEA-7.6)."""
    pos, on = s.master_pos[p], s.discs_on[p]
    return [t for t in range(3) if pos[t] >= 0
            and (len(on) < 2 or sum(1 for c in on if c // 4 == t) < 2)]


def _disc_factories(s: TeaState, p: int, kind: int) -> list[int]:
    effect = E.DISC_EFFECT[kind]
    return [t for t in _disc_teas(s, p) if E.first_step_possible(s, p, t, effect)]


def use_disc(game: TeaGame, s: TeaState, p: int, action: int) -> None:
    """Spend an action disc (a sale, or two single-space advances) or start placing a
    technology disc (TEA-7.5, TEA-7.6)."""
    if action < A.TECH_DISC0:
        kind = action - A.ACTION_DISC0
        s.action_discs[p][kind] -= 1
        s.action_supply[kind] += 1
        if kind == 0:
            M.global_sale(game, s, p, any_slot=True)
        else:
            E.ask(game, s, Decision("bonus_advance", p, 2, optional=True))
        return
    kind = action - A.TECH_DISC0
    E.ask(game, s, Decision("disc_factory", p, ctx=(kind,)))


def disc_factory_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    """The Factories a technology disc of kind ``d.ctx[0]`` can act on."""
    return [A.TRACK0 + t for t in _disc_factories(s, d.player, d.ctx[0])]


def disc_factory_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    """The disc goes on the Factory and its effect is resolved (TEA-7.6)."""
    track, kind = action - A.TRACK0, d.ctx[0]
    s.tech_discs[d.player][kind] -= 1
    s.discs_on[d.player].append(4 * track + kind)
    E.push_effect(game, s, d.player, track, E.DISC_EFFECT[kind])


def bonus_advance_legal(game: TeaGame, s: TeaState, d: Decision) -> list[int]:
    """DONE and the tracks whose Tea Master can still advance."""
    tracks = [A.TRACK0 + t for t in _advanceable(game, s, d.player)]
    return [A.DONE, *tracks] if tracks else []


def bonus_advance_apply(game: TeaGame, s: TeaState, d: Decision, action: int) -> None:
    """One single-space advance of an own Master; a second may follow (R-43)."""
    if action == A.DONE:
        return
    if d.count > 1:
        E.defer(s, Decision("bonus_advance", d.player, d.count - 1, optional=True))
    E.push_move(s, d.player, action - A.TRACK0, 1, arai=True)
