"""Setup laws of a Formosa Tea state: the table agrees with ``setup_step`` and the stack.

``flow.setup_step`` runs steps 0..4 (TEA-2, TEA-3); step ``k`` queues its chance draws
and leaves ``setup_step = k + 1``. While step ``k``'s draws are pending the stack must be
the bottom part of exactly what step ``k`` queued (draws resolve top first, nothing else
is queued), and every zone must hold what the resolved draws put there and nothing
more: plantation cubes and buds (step 0), weather tiles and the merchant display
(step 1), events and the start player (step 2), the two Basket cubes (step 3), the
revealed and drafted characters (step 4, advanced). Zones no setup step touches keep
their values of a new game until the first turn. Each law raises ``StateFormatError``
naming the field (``core/invariants.py``).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.invariants import require
from formosa_envs.core.setup_laws import frame_key, pending_frames, queued_frames

from . import flow
from .state import DISPLAY_ROWS, DISPLAY_SLOTS, SPACES, Phase, TeaState, in_play, new_state

if TYPE_CHECKING:
    from .game import TeaGame

ADVANCED_STEP = 4
"""The advanced rules' starting harvest and draft (its frames queue follow-ups)."""
UNTOUCHED = ("vp", "master_pos", "tech", "occupant", "market", "placed", "farmers",
             "masters", "parked", "action_discs", "tech_discs", "discs_on", "action_supply",
             "tech_supply", "kept", "deck_tail", "domestic", "buds", "warehouse", "factory",
             "scent", "passed", "buds_gone", "pay_low", "round", "lost_rows")
"""Fields no setup step before the advanced step changes: a new game's values."""
ADVANCED_UNTOUCHED = ("occupant", "market", "placed", "farmers", "kept", "deck_tail",
                      "warehouse", "factory", "passed", "round", "lost_rows")
"""Fields the advanced step (starting harvest, draft, starting advances) leaves alone."""


def last_step(game: TeaGame) -> int:
    """``setup_step`` once setup is over: 5, or 6 with the advanced rules."""
    return ADVANCED_STEP + 1 + int(game.config.advanced)


def check_setup(game: TeaGame, s: TeaState) -> None:
    """Raise ``StateFormatError`` unless the table agrees with the setup step and stack."""
    require(s.phase != Phase.ADVANCED_SETUP, "phase", "is 1 (ADVANCED_SETUP), which no "
            "state reaches: the advanced setup runs in phase SETUP (0)")
    last = last_step(game)
    _check_characters(game, s)
    if s.phase != Phase.SETUP:
        require(s.setup_step == last, "setup_step", f"is {s.setup_step} "
                f"after setup; setup ends at step {last}")
        _check_event_order(game, s)
        return
    require(s.setup_step < last, "setup_step", f"is {s.setup_step} in phase SETUP; the "
            f"last setup step ({last - 1}) leaves setup")
    step = s.setup_step - 1
    resolved = _resolved(game, s, step)
    fresh = new_state(s.num_players, game.stage_pools, 0)
    fields = UNTOUCHED if step < ADVANCED_STEP else ADVANCED_UNTOUCHED
    for name in fields:
        require(getattr(s, name) == getattr(fresh, name), name, f"is {getattr(s, name)!r} "
                f"during setup; no setup step before the first turn changes it "
                f"(a new game has {getattr(fresh, name)!r})")
    if step < ADVANCED_STEP:
        _check_harvest(s, resolved)
    _check_table(s, resolved)
    if step >= 3:
        _check_event_order(game, s)


def queued_by(game: TeaGame, s: TeaState, step: int) -> list[Any]:
    """The frames setup step ``step`` queues in ``s``'s game, bottom first."""
    return queued_frames(flow.setup_step, game, s, step)


def _resolved(game: TeaGame, s: TeaState, step: int) -> Counter:
    """Check the stack against the current step's frames; count every draw resolved."""
    done: Counter = Counter()
    for earlier in range(min(step, ADVANCED_STEP)):
        done.update(frame_key(d) for d in queued_by(game, s, earlier))
    if step < 0:
        require(not s.stack, "stack", "holds decisions before setup step 0 ran "
                "(setup_step 0)")
        return done
    queued = queued_by(game, s, step)
    pending = pending_frames(s.stack, queued, step, s.setup_step,
                             tolerate_extra=step == ADVANCED_STEP)
    done.update(frame_key(d) for d in pending)
    return done


def _check_harvest(s: TeaState, done: Counter) -> None:
    """Plantation cubes and buds (step 0), the two Basket cubes (step 3)."""
    for sp in range(SPACES):
        if not in_play(s, sp):
            continue
        want = done[("draw_cube", CHANCE, flow.PLANT, sp)]
        require(sum(s.cubes[sp]) == want, f"cubes[{sp}]", f"holds {sum(s.cubes[sp])} cubes; "
                f"setup has drawn {want} for space {sp} so far (3 per space, step 0)")
        placed = done[("place_bud", CHANCE, sp)] > 0
        require((s.bud[sp] >= 0) == placed, f"bud[{sp}]", f"is {s.bud[sp]}; the space's bud "
                f"is {'placed' if placed else 'not placed yet'} (step 0)")
    for p in range(s.num_players):
        want = done[("draw_cube", CHANCE, flow.BASKET, p)]
        middle = sum(s.basket[p][3 * c + 1] for c in range(3))
        require(sum(s.basket[p]) == middle == want, f"basket[{p}]",
                f"is {s.basket[p]}; setup has drawn {want} cubes at WL 1 into it (step 3)")


def _check_table(s: TeaState, done: Counter) -> None:
    """Weather tiles and faces, the display (step 1), events, the start player (step 2)."""
    for pos in range(4):
        placed = done[("weather", CHANCE, pos)] > 0
        require((s.weather[pos] >= 0) == placed, f"weather[{pos}]", f"is {s.weather[pos]}; "
                f"the space's tile is {'placed' if placed else 'not drawn yet'} (step 1)")
    for tile in range(4):
        require(tile in s.weather or s.face[tile] == 0, f"face[{tile}]",
                f"is {s.face[tile]}; a tile not yet placed lies face 0")
    for row in range(DISPLAY_ROWS):
        for slot in range(DISPLAY_SLOTS):
            drawn = done[("merchant_draw", CHANCE, row, slot)] > 0
            require((s.display[row][slot] >= 0) == drawn, f"display[{row}][{slot}]",
                    f"is {s.display[row][slot]}; the slot's card is "
                    f"{'drawn' if drawn else 'not drawn yet'} (step 1)")
    want = done[("event_draw", CHANCE)]
    require(len(s.events) == want, "events", f"holds {len(s.events)} events; setup has "
            f"drawn {want} so far (step 2)")
    chosen = done[("start_player", CHANCE)] > 0
    require(chosen or s.start_player == 0, "start_player", f"is {s.start_player} before "
            "it is drawn (step 2); a new game has 0")
    require(s.turn == s.start_player, "turn", f"is {s.turn}; during setup it is the start "
            f"player {s.start_player}")
    _check_draft_pool(s, done)


def _check_draft_pool(s: TeaState, done: Counter) -> None:
    """Characters revealed minus those drafted; the last one is discarded (TEA-3)."""
    drafted = sum(1 for c in s.character if c >= 0)
    want = 0 if drafted == s.num_players else done[("character_draw", CHANCE)] - drafted
    require(len(s.draft_pool) == want, "draft_pool", f"holds {len(s.draft_pool)} "
            f"characters; {done[('character_draw', CHANCE)]} were revealed and {drafted} drafted")
    for p in range(s.num_players):
        picked = done[("draft", p)] > 0
        require((s.character[p] >= 0) == picked, f"character[{p}]", f"is {s.character[p]}; "
                f"player {p} has {'drafted' if picked else 'not drafted yet'}")


def _check_characters(game: TeaGame, s: TeaState) -> None:
    """After setup the draft pool is empty (rule scenarios may hand out characters in
    either rules, so who holds one is not checked here)."""
    if s.phase != Phase.SETUP:
        require(not s.draft_pool, "draft_pool", "is not empty after setup; the card "
                "nobody drafted is discarded (TEA-3)")


def _check_event_order(game: TeaGame, s: TeaState) -> None:
    """Setup step 3 sorts the events in play by year (TEA-2)."""
    years = [game.events[e].year for e in s.events]
    require(years == sorted(years), "events", f"are not in year order ({years}); setup "
            "sorts the events in play by year")
