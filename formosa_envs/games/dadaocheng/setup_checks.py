"""Setup laws of a Dadaocheng state: the table agrees with ``setup_step`` and the stack.

``flow.setup_step`` runs steps 0..2 (DDC-2): step 0 queues the disc layout
(``place_disc``, corners first), step 1 the three ship reveals and, with 2+ players, the
start player; step 2 starts turn 1. Step ``k`` leaves ``setup_step = k + 1``. While a
step's draws are pending the stack must be the bottom part of exactly what that step
queued (draws resolve top first, nothing else is queued); a cell holds a disc, a level
shows a ship and the start player is set exactly when their draw resolved; the corner
cells hold the corner discs; zones no setup step touches keep a new game's values.
The ship and event pools keep their id order throughout (draws only remove from them,
and the outcome order follows them). Each law raises ``StateFormatError`` naming the field.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.invariants import require
from formosa_envs.core.setup_laws import frame_key, pending_frames, queued_frames

from . import flow
from .grid import CORNERS
from .state import DadaochengState, Phase, new_state

if TYPE_CHECKING:
    from .game import DadaochengGame

CORNER_FACE = 4
"""The sun-side number of the corner discs (``cascade._place_outcomes``)."""
UNTOUCHED = ("flipped", "storehouse", "remodelled", "hand", "ships", "buildings", "credit",
             "opium", "sign", "piles", "events", "event_pool", "used", "history", "round")
"""Fields no setup step changes before turn 1: a new game's values."""


def check_setup(game: DadaochengGame, s: DadaochengState) -> None:
    """Raise ``StateFormatError`` unless the table agrees with the setup step and stack."""
    for lvl, pool in enumerate(s.ship_pool):
        require(pool == sorted(pool), f"ship_pool[{lvl}]", f"is {pool}; a pool keeps its "
                "ids in increasing order (reveals only remove ships)")
    require(s.event_pool == sorted(s.event_pool), "event_pool", f"is {s.event_pool}; the "
            "pool keeps its ids in increasing order (reveals only remove events)")
    if s.phase != Phase.SETUP:
        return
    step = s.setup_step - 1
    done = _resolved(game, s, step)
    fresh = _fresh(game, s)
    for name in UNTOUCHED:
        require(getattr(s, name) == getattr(fresh, name), name, f"is {getattr(s, name)!r} "
                f"during setup; no setup step before turn 1 changes it (a new game has "
                f"{getattr(fresh, name)!r})")
    for cell, disc in enumerate(s.cell_disc):
        placed = done[("place_disc", CHANCE, cell)] > 0
        require((disc >= 0) == placed, f"cell_disc[{cell}]", f"is {disc}; the cell's disc "
                f"is {'placed' if placed else 'not placed yet'} (setup step 0)")
        corner = disc >= 0 and game.discs[disc].faces[0] == CORNER_FACE
        require(disc < 0 or corner == (cell in CORNERS), f"cell_disc[{cell}]",
                f"is disc {disc}; the layout puts the {CORNER_FACE}-discs on the corners "
                f"{list(CORNERS)} and the others between them (DDC-2.3)")
    for lvl in range(3):
        shown = done[("ship_reveal", CHANCE, lvl)] > 0
        require((s.ship_up[lvl] >= 0) == shown, f"ship_up[{lvl}]", f"is {s.ship_up[lvl]}; "
                f"the level's first ship is {'revealed' if shown else 'not revealed yet'} "
                "(setup step 1)")
    chosen = done[("start_player", CHANCE)] > 0
    require(chosen or s.start_player == 0, "start_player", f"is {s.start_player} before it "
            "is drawn (setup step 1); a new game has 0")
    require(s.turn == s.start_player, "turn", f"is {s.turn}; during setup it is the start "
            f"player {s.start_player}")


def _fresh(game: DadaochengGame, s: DadaochengState) -> DadaochengState:
    """The state of a new game of ``game`` (before any draw)."""
    n = s.num_players
    piles = [b.piles[n - 1] for b in game.buildings]
    pools = [[ship.id for ship in game.ships if ship.level == lvl] for lvl in (1, 2, 3)]
    events = [] if game.solo else list(range(len(game.events)))
    return new_state(n, game.sides, piles, pools, events)


def queued_by(game: DadaochengGame, s: DadaochengState, step: int) -> list[Any]:
    """The frames setup step ``step`` (0 or 1) queues in ``s``'s game, bottom first."""
    return queued_frames(flow.setup_step, game, s, step)


def _resolved(game: DadaochengGame, s: DadaochengState, step: int) -> Counter:
    """Check the stack against step ``step``'s frames; count every draw resolved."""
    done: Counter = Counter()
    for earlier in range(min(step, 2)):
        done.update(frame_key(d) for d in queued_by(game, s, earlier))
    if step < 0 or step >= 2:
        require(not s.stack, "stack", f"holds decisions at setup_step {s.setup_step}, "
                "where setup has queued none")
        return done
    queued = queued_by(game, s, step)
    pending = pending_frames(s.stack, queued, step, s.setup_step)
    done.update(frame_key(d) for d in pending)
    return done
