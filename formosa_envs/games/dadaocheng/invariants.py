"""Conservation and consistency laws of a Dadaocheng state (``check_conservation``).

Cubes are unlimited (R-1), so cube counts are bounded by the rules that cap them rather
than by a box total. Each law raises :class:`~formosa_envs.core.errors.StateFormatError`
naming the field that breaks it (``core/invariants.py``). Rule ids: ``seeds/dadaocheng.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.frame_checks import check_turn_frames
from formosa_envs.core.invariants import (
    check_between,
    check_distinct,
    check_total,
    check_zones,
    require,
)

from .setup_checks import check_setup
from .state import HAND_LIMIT, ROUNDS, DadaochengState, Phase

if TYPE_CHECKING:
    from .game import DadaochengGame

DISCS = 16
STOREHOUSE_CAP = 2
LOOP_GIFT = 2     # cubes each other player takes after a loop, once per turn (DDC-6.4)


def check_state(game: DadaochengGame, s: DadaochengState) -> None:
    """Raise ``StateFormatError`` naming the first broken law."""
    n = game.num_players
    _check_phase(s, n)
    _check_grid(s)
    _check_sides(game, s, n)
    for p in range(n):
        _check_player(game, s, p, n)
    _check_cards(game, s, n)
    _check_events(game, s, n)
    _check_flow(s, n)
    check_setup(game, s)
    check_turn_frames(s, OWN_TURN, SINGLE)


OWN_TURN = frozenset({"move", "swap_to", "line", "purchase", "store_space", "convert",
                      "exchange_more"})
"""Decisions of the turn player's own turn (DDC-4 to DDC-7): planning, the cascade's
line choices, conversions, exchanges and purchases; out-of-turn decisions (a Full House
reward) are not among them."""
SINGLE = frozenset({"move", "swap_to", "after_planning", "stage4", "purchase", "line",
                    "next_turn", "start_round", "take", "give", "exchange_more", "lose"})
"""Kinds the turn has at most one of pending (the flow pushes the next one only once the
last is answered)."""

SETUP_DONE = 3
"""``setup_step`` once setup is over (``flow.setup_step`` ran its steps 0, 1 and 2)."""
SETUP_PENDING = {1: frozenset({"place_disc"}), 2: frozenset({"ship_reveal", "start_player"})}
"""The frames each setup step leaves on the stack (step 0 and the last step leave none)."""
SETUP_KINDS = frozenset().union(*SETUP_PENDING.values())
TURN_ANCHORS = frozenset({"stage4", "purchase", "end_turn", "next_turn", "start_round"})
"""The frame at the bottom of a turn's stack: every other turn frame sits above one."""


def _check_phase(s: DadaochengState, n: int) -> None:
    """``phase`` agrees with the decision stack, ``setup_step`` with both (DDC-2, DDC-3).

    Setup step 1 queues the disc layout (``place_disc``), step 2 the ship reveals and,
    with 2+ players, the start player; the last step leaves setup and starts turn 1. A
    turn's stack rests on one of :data:`TURN_ANCHORS` and never holds ``start_player``.
    """
    kinds = [d.kind for d in s.stack]
    if s.phase == Phase.SETUP:
        require(not s.over, "phase", "is SETUP (0), but the game is over")
        odd = sorted({k for k in kinds if k not in SETUP_KINDS})
        require(not odd, "phase", f"is SETUP (0), but the stack holds turn decisions {odd}; "
                f"setup only queues {sorted(SETUP_KINDS)}")
        pending = SETUP_PENDING.get(s.setup_step, frozenset())
        require(set(kinds) <= pending, "setup_step", f"is {s.setup_step}, but the stack "
                f"holds {sorted(set(kinds))}; step 1 queues place_disc, step 2 ship_reveal "
                "and start_player")
        if s.setup_step == 2:
            require(min(s.cell_disc) >= 0, "cell_disc", "every disc is placed at step 1")
            require(n > 1 or "start_player" not in kinds, "stack",
                    "the solo game has no start player to draw")
        return
    require("start_player" not in kinds, "phase", "is TURNS (1), but the stack holds "
            "start_player, a setup decision")
    require(s.over or bool(kinds) and kinds[0] in TURN_ANCHORS, "phase",
            f"is TURNS (1), but the stack's bottom frame is "
            f"{kinds[0] if kinds else 'missing'}; a turn rests on one of "
            f"{sorted(TURN_ANCHORS)}")
    require(s.setup_step == SETUP_DONE, "setup_step", f"is {s.setup_step} during turns; "
            f"setup ends at step {SETUP_DONE}")


def _check_grid(s: DadaochengState) -> None:
    """Each of the 16 discs in one cell (all placed once setup is over)."""
    check_distinct("cell_disc", s.cell_disc, item="disc")
    for c, disc in enumerate(s.cell_disc):
        check_between(f"cell_disc[{c}]", disc, -1, DISCS - 1, "a disc id, -1 while placing")
    if s.phase == Phase.TURNS:
        empty = sorted(c for c, disc in enumerate(s.cell_disc) if disc < 0)
        pending = sorted(d.ctx[0] for d in s.stack if d.kind == "place_disc")
        require(empty == pending, "cell_disc", f"has no disc in cells {empty}, but the "
                f"pending 'place_disc' draws name cells {pending}: during turns every "
                "cell holds a disc but those a reset is refilling (DDC-2.3)")
    _check_takes(s)


def _check_takes(s: DadaochengState) -> None:
    """A turn's ``purchase`` frame, cubes given and cubes taken (a Den, events 1851, 1860, a swap)
    belong to the turn player."""
    if s.phase != Phase.TURNS:
        return
    for i, d in enumerate(s.stack):
        require(d.kind not in ("take", "give", "purchase") or d.player == s.turn,
                f"stack[{i}].player", f"is seat {d.player} in a {d.kind!r} frame, but "
                f"field 'turn' is {s.turn}: only the turn player buys and takes cubes")


def _check_sides(game: DadaochengGame, s: DadaochengState, n: int) -> None:
    """Seats own their sides; storehouses hold at most 2 cubes, none on a covered side."""
    check_distinct("sides_of", s.sides_of, item="side")
    for side in range(4):
        require(bool(s.covered[side]) == (side not in s.sides_of), f"covered[{side}]",
                "a side is covered exactly when no seat owns it (DDC-2)")
    for space, cubes in enumerate(s.storehouse):
        require(min(cubes) >= 0, f"storehouse[{space}]", "a cube count cannot be negative")
        check_between(f"storehouse[{space}]", sum(cubes), 0, STOREHOUSE_CAP,
                      "a storehouse space holds at most 2 cubes")
        covered = bool(s.covered[space // 4])
        require(not (covered and (sum(cubes) or s.remodelled[space])), f"storehouse[{space}]",
                "a covered side's space holds no cube and no Store")


def _check_player(game: DadaochengGame, s: DadaochengState, p: int, n: int) -> None:
    """Non-negative counts, credit from ships and the hand limit."""
    for name, value in ((f"opium[{p}]", s.opium[p]), (f"sign[{p}]", s.sign[p])):
        require(value >= 0, name, f"is {value}; a count cannot be negative")
    require(min(s.hand[p]) >= 0, f"hand[{p}]", "a cube count cannot be negative")
    credit = sum(game.ships[i].credit for i in s.ships[p])
    require(s.credit[p] == credit, f"credit[{p}]",
            f"is {s.credit[p]}; player {p}'s ships give {credit} credit")
    if p != s.turn and not s.over:
        owed = sum(d.count for d in s.stack if d.kind == "discard" and d.player == p)
        cap = HAND_LIMIT + LOOP_GIFT * (n - 1) + owed
        check_between(f"hand[{p}]", sum(s.hand[p]), 0, cap,
                      "the hand limit at the end of the own turn (DDC-12.1) plus 2 loop "
                      "cubes per other turn (DDC-6.4), Full House capped (DDC-7.3)")


def _check_cards(game: DadaochengGame, s: DadaochengState, n: int) -> None:
    """Building cards in their piles or with players; each ship once, in its level."""
    for t, building in enumerate(game.buildings):
        parts = {f"piles[{t}]": s.piles[t]}
        parts.update({f"buildings[{p}][{t}]": s.buildings[p][t] for p in range(n)})
        check_total(f"piles[{t}]", parts, building.piles[n - 1], item=f"{building.key} card")
    zones = {f"ship_pool[{lvl}]": pool for lvl, pool in enumerate(s.ship_pool)}
    zones["ship_up"] = [i for i in s.ship_up if i >= 0]
    zones.update({f"ships[{p}]": s.ships[p] for p in range(n)})
    check_zones("ships", zones, range(len(game.ships)), item="ship")
    for lvl in range(3):
        wrong = [i for i in s.ship_pool[lvl] if game.ships[i].level != lvl + 1]
        require(not wrong, f"ship_pool[{lvl}]", f"ships {wrong} are of another level")
        up = s.ship_up[lvl]
        require(up < 0 or game.ships[up].level == lvl + 1, f"ship_up[{lvl}]",
                f"ship {up} is not of level {lvl + 1}")
    for lvl in range(3):
        level_size = sum(1 for ship in game.ships if ship.level == lvl + 1)
        require(s.revealed[lvl] == level_size - len(s.ship_pool[lvl]), f"revealed[{lvl}]",
                f"is {s.revealed[lvl]}, but {level_size - len(s.ship_pool[lvl])} ships of "
                f"level {lvl + 1} left the pool")


def _check_events(game: DadaochengGame, s: DadaochengState, n: int) -> None:
    """Each event once (none in the solo game); one revealed per round (DDC-11.1)."""
    expected = [] if game.solo else range(len(game.events))
    check_zones("events", {"events": s.events, "event_pool": s.event_pool}, expected,
                item="event")
    if game.solo or s.phase != Phase.TURNS:
        return
    drawing = any(d.kind == "event_draw" for d in s.stack)
    want = min(s.round - drawing, len(game.events))
    require(len(s.events) == want, "events", f"{len(s.events)} events revealed in round "
            f"{s.round}; expected {want}")


def _check_flow(s: DadaochengState, n: int) -> None:
    """Rounds 1..8/10; the game ends after the last round."""
    check_between("round", s.round, 1, ROUNDS[n], f"the {n}-player game has {ROUNDS[n]} rounds")
    if s.over:
        require(s.round == ROUNDS[n] and s.phase == Phase.TURNS, "over",
                f"is true in round {s.round}; the game ends after round {ROUNDS[n]} (DDC-12)")
        require(not s.stack, "stack", "a finished game has no pending decision")
