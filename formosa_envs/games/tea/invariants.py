"""Conservation and consistency laws of a Formosa Tea state (``check_conservation``).

Each law raises :class:`~formosa_envs.core.errors.StateFormatError` naming the field
that breaks it (``core/invariants.py``). Rule ids refer to ``seeds/tea.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.frame_checks import check_turn_frames
from formosa_envs.core.invariants import (
    check_between,
    check_distinct,
    check_each,
    check_total,
    check_zones,
    require,
)

from .setup_checks import check_setup
from .stack_laws import check_stack_laws
from .state import (
    ACTION_DISC_SUPPLY,
    BUDS,
    CUBES,
    EVENTS_IN_GAME,
    SCENTED,
    SPACES,
    TECH_DISC_SUPPLY,
    Phase,
    TeaState,
    in_play,
)
from .turn import basket_room

if TYPE_CHECKING:
    from .game import TeaGame

CHARACTERS = 7
WEATHER_TILES = 4
DISCS_PER_FACTORY = 2


def check_state(game: TeaGame, s: TeaState) -> None:
    """Raise ``StateFormatError`` naming the first broken law."""
    n = game.num_players
    _check_cubes(s, n)
    _check_buds(s, n)
    _check_workers(game, s, n)
    _check_discs(s, n)
    _check_cards(game, s, n)
    _check_events(game, s, n)
    _check_table(s, n)
    _check_flow(s, n)
    check_setup(game, s)
    check_stack_laws(game, s)
    check_turn_frames(s, OWN_TURN, SINGLE)


OWN_TURN = frozenset({"worker", "choose_merchant", "bonus_space", "disc_factory",
                      "extra_space", "extra_colour", "scent_bud"})
"""Decisions of the turn player's own action (TEA-5 to TEA-7): placing a worker and what
that placement offers; out-of-turn decisions (advancing a Tea Master reached by another
player's harvest, event discards) are not among them."""
SINGLE = frozenset({"turn", "resume", "worker", "next_turn", "new_round", "tech_any",
                    "tech_reward", "bonus_advance"})
"""Kinds a turn has at most one of pending (one main action at a time)."""


def _check_cubes(s: TeaState, n: int) -> None:
    """35/28/21 cubes of each tea: bag, plantation, baskets, factories, warehouses, scent."""
    for tea in range(3):
        parts = {"bag": s.bag[tea], "cubes": sum(c[tea] for c in s.cubes)}
        for p in range(n):
            parts[f"basket[{p}]"] = sum(s.basket[p][3 * tea:3 * tea + 3])
            parts[f"factory[{p}]"] = sum(s.factory[p][4 * tea:4 * tea + 4])
            parts[f"warehouse[{p}]"] = sum(s.warehouse[p][3 * tea:3 * tea + 3])
            parts[f"scent[{p}]"] = s.scent[p][1] if s.scent[p][0] == tea else 0
        check_total("bag", parts, CUBES[tea], item=f"tea {tea} cube")
    for sp in range(SPACES):
        require(min(s.cubes[sp]) >= 0, f"cubes[{sp}]", "a cube count cannot be negative")
        require(in_play(s, sp) or sum(s.cubes[sp]) == 0, f"cubes[{sp}]",
                f"space {sp} is not in play (columns {s.columns}) but holds cubes")
        require(in_play(s, sp) or s.bud[sp] < 0, f"bud[{sp}]",
                f"space {sp} is not in play but holds a bud")
    for p in range(n):
        require(basket_room(s, p) >= 0, f"basket[{p}]", "holds more cubes than the Basket "
                "limit (6, Li Chun Sheng 8; TEA-5.2)")
        require(min(s.basket[p] + s.factory[p] + s.warehouse[p]) >= 0, f"basket[{p}]",
                "a cube count cannot be negative")
        require((s.scent[p][0] >= 0) or s.scent[p][1] == 0, f"scent[{p}]",
                "scented cubes need a tea")


def _check_buds(s: TeaState, n: int) -> None:
    """Buds of each colour: pool, plantation, held, on scented teas, or gone."""
    for colour in range(3):
        parts = {"bud_pool": s.bud_pool[colour], "bud": s.bud.count(colour),
                 "buds_gone": s.buds_gone[colour]}
        for p in range(n):
            parts[f"buds[{p}]"] = s.buds[p][colour]
            parts[f"scent[{p}]"] = s.scent[p][2 + colour]
        check_total("bud_pool", parts, BUDS[n][colour], item=f"colour {colour} bud")


def _check_workers(game: TeaGame, s: TeaState, n: int) -> None:
    """2 Farmers and 2 Tea Masters (3 with 2 players) per player, each in one place."""
    masters = 3 if n == 2 else 2
    for p in range(n):
        check_total(f"farmers[{p}]", {f"farmers[{p}]": s.farmers[p],
                                      f"placed[{p}]": s.placed[p][0]}, 2, item="Farmer")
        on_tracks = sum(1 for pos in s.master_pos[p] if pos >= 0)
        check_total(f"masters[{p}]", {f"masters[{p}]": s.masters[p],
                                      f"placed[{p}]": s.placed[p][1],
                                      f"master_pos[{p}]": on_tracks,
                                      f"parked[{p}]": s.parked[p]}, masters, item="Tea Master")
        require(s.parked[p] == 0 or (n == 2 and s.round < 3), f"parked[{p}]",
                "only the 2-player game parks a Master, until round 3 (R-38)")
        for t in range(4):
            check_between(f"master_pos[{p}][{t}]", s.master_pos[p][t], -1, game.last[t],
                          "a space of the track, -1 for none")
        require(s.scent[p][1] == 0 or s.master_pos[p][SCENTED] >= 0, f"scent[{p}]",
                "scented cubes sit with a Tea Master on the scented track")
        standing = s.occupant.count(p) + sum(m.count(p) for m in s.market)
        require(standing <= sum(s.placed[p]), f"placed[{p}]",
                f"{standing} workers of player {p} stand on the board, {sum(s.placed[p])} "
                "are placed")
    for sp in range(SPACES):
        require(s.occupant[sp] < 0 or in_play(s, sp), f"occupant[{sp}]",
                f"space {sp} is not in play")


def _check_discs(s: TeaState, n: int) -> None:
    """8 + 4 action discs; 4 technology discs of each kind; 2 discs per factory at most."""
    for kind in range(2):
        parts = {"action_supply": s.action_supply[kind]}
        parts.update({f"action_discs[{p}]": s.action_discs[p][kind] for p in range(n)})
        check_total("action_supply", parts, ACTION_DISC_SUPPLY[kind], item=f"kind {kind} disc")
    for kind in range(4):
        parts = {"tech_supply": s.tech_supply[kind]}
        for p in range(n):
            parts[f"tech_discs[{p}]"] = s.tech_discs[p][kind]
            parts[f"discs_on[{p}]"] = sum(1 for c in s.discs_on[p] if c % 4 == kind)
        check_total("tech_supply", parts, TECH_DISC_SUPPLY, item=f"kind {kind} tech disc")
    for p in range(n):
        for t in range(3):
            on = sum(1 for c in s.discs_on[p] if c // 4 == t)
            require(on <= DISCS_PER_FACTORY, f"discs_on[{p}]",
                    f"{on} discs on factory {t}; a factory holds at most 2")


def _check_cards(game: TeaGame, s: TeaState, n: int) -> None:
    """Each merchant card of the game once: a stage pile, under the deck, shown or kept."""
    zones = {f"deck_pools[{i}]": pool for i, pool in enumerate(s.deck_pools)}
    zones["deck_tail"] = s.deck_tail
    zones.update({f"display[{r}]": [c for c in row if c >= 0]
                  for r, row in enumerate(s.display)})
    zones.update({f"kept[{p}]": s.kept[p] for p in range(n)})
    check_zones("merchant cards", zones, [c for pool in game.stage_pools for c in pool],
                item="merchant card")
    for i, pool in enumerate(s.deck_pools):
        stage = set(game.stage_pools[i])
        require(all(c in stage for c in pool), f"deck_pools[{i}]",
                f"holds cards of another stage than {i + 1}")


def _check_events(game: TeaGame, s: TeaState, n: int) -> None:
    """Each of the 11 events once, in play or in the pool; 6/5/4 in play after setup."""
    check_zones("events", {"events": s.events, "event_pool": s.event_pool},
                range(len(game.events)), item="event")
    want = EVENTS_IN_GAME[n]
    if s.phase in (Phase.ACTIONS, Phase.PREPARATION):
        require(len(s.events) == want, "events", f"{len(s.events)} events in play; "
                f"the {n}-player game has {want}")
        check_between("round", s.round, 1, want, "one round per event in play")
    else:
        check_between("events", len(s.events), 0, want, f"at most {want} events are drawn")


def _check_table(s: TeaState, n: int) -> None:
    """Weather tiles and characters are distinct pieces."""
    check_distinct("weather", s.weather, item="weather tile")
    if s.phase in (Phase.ACTIONS, Phase.PREPARATION):
        require(min(s.weather) >= 0, "weather", "all 4 weather spaces hold a tile after setup")
    check_each("weather", s.weather, -1, WEATHER_TILES - 1, "a tile id, -1 before setup")
    check_distinct("character", list(s.character) + list(s.draft_pool), item="character")
    check_each("character", s.character, -1, CHARACTERS - 1, "a character, -1 for none")
    check_each("draft_pool", s.draft_pool, 0, CHARACTERS - 1, "a character")
    for p in range(n):
        require(s.vp[p] >= 0, f"vp[{p}]", f"is {s.vp[p]}; VP are only ever gained")


def _check_flow(s: TeaState, n: int) -> None:
    """The game ends in the Preparation phase of the last event's round (R-27)."""
    if s.over:
        require(s.phase == Phase.PREPARATION and s.round == len(s.events), "over",
                f"is true in round {s.round} of {len(s.events)}; the game ends with the "
                "Preparation phase of the last round (R-27)")
        require(not s.stack, "stack", "a finished game has no pending decision")
    elif s.phase == Phase.ACTIONS and s.stack and s.stack[-1].kind == "turn":
        require(s.stack[-1].player == s.turn and not s.passed[s.turn], "turn",
                f"seat {s.turn} is offered a turn but has passed or is not the turn player")
