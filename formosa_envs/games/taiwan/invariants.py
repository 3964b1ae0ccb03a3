"""Conservation and consistency laws of a Taiwan Formosa state (``check_conservation``).

Each law raises :class:`~formosa_envs.core.errors.StateFormatError` naming the field
that breaks it (``core/invariants.py``). Rule ids refer to ``seeds/taiwan.md``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from formosa_envs.core.invariants import check_between, check_total, check_zones, require

from .flow import RED_KEYS, TYPES_IN_GAME, flow_setup
from .payment import FACTORY_KEYS
from .state import LANDMARK0, MARKERS, NUM_DECKS, RESOURCES, Phase, TaiwanState

if TYPE_CHECKING:
    from .game import TaiwanGame

CARD_STOCK = 3
"""Workers a completed Tribal Village, and resources a completed Warehouse, receive (T-9.7/8)."""

def check_state(game: TaiwanGame, s: TaiwanState) -> None:
    """Raise ``StateFormatError`` naming the first broken law."""
    n = game.num_players
    _check_buildings(game, s, n)
    _check_landmarks(game, s, n)
    _check_markers(s, n)
    for p in range(n):
        _check_holdings(game, s, p)
    _check_exclusive(game, s, n)
    _check_flow(s, n)
    _check_final_round(s, n)
    _check_setup(game, s)


def empty_piles_and_decks(s: TaiwanState) -> int:
    """Empty building piles (of the types in the game) plus empty landmark decks (T-7.4)."""
    empty = sum(1 for t, pile in enumerate(s.piles) if s.in_game[t] and pile == 0)
    return empty + sum(1 for d in range(NUM_DECKS) if s.face_up[d] < 0 and not s.decks[d])


def _check_final_round(s: TaiwanState, n: int) -> None:
    """``final_round`` is set exactly when the end trigger held at the last round end.

    Flow sets it at the end of a round with at least ``n`` empty piles/decks (T-7.4);
    piles and decks only shrink, so the count still holds later. It is never set in
    round 1 (no round has ended). The dice phase changes no pile or deck, so there the
    count is the one flow saw: the flag must be set exactly when the count reaches ``n``.
    """
    empty = empty_piles_and_decks(s)
    if s.final_round:
        require(s.round >= 2 and s.phase != Phase.SETUP, "final_round",
                f"is true in round {s.round}; the last round starts only after a round "
                "has ended with the end triggered (T-7.4)")
        require(empty >= n, "final_round", f"is true, but only {empty} piles/decks are "
                f"empty; the {n}-player end needs at least {n} (T-7.4)")
    elif s.phase == Phase.DICE and s.round >= 2 and empty >= n:
        require(False, "final_round", f"is false, but {empty} piles/decks were already "
                f"empty at the end of round {s.round - 1}; {n} trigger the last round (T-7.4)")


def _check_buildings(game: TaiwanGame, s: TaiwanState, n: int) -> None:
    """Every copy of the 12 building types drawn is in its pile or owned by one player."""
    drawn = sum(1 for t in range(len(s.in_game)) if s.in_game[t])
    if s.phase == Phase.SETUP:  # one type per step; the step counter runs one ahead
        want = min(max(s.setup_step - 1, 0), TYPES_IN_GAME)
        require(drawn == want, "in_game", f"{drawn} building types are in the game; "
                f"expected {want} at setup step {s.setup_step}")
    else:  # setup drew exactly 12 types (T-2.1)
        require(drawn == TYPES_IN_GAME, "in_game", f"{drawn} building types are in the "
                f"game; setup draws exactly {TYPES_IN_GAME} (T-2.1)")
    for t, building in enumerate(game.buildings):
        copies = building.copies if s.in_game[t] else 0
        owned = [s.bought[p][t] for p in range(n)]
        if s.piles[t] + sum(owned) == copies and min(owned) >= 0 <= s.piles[t]:
            continue  # the common case, without building the error's field names
        parts = {f"piles[{t}]": s.piles[t]}
        parts.update({f"bought[{p}][{t}]": s.bought[p][t] for p in range(n)})
        check_total(f"piles[{t}]", parts, copies, item=f"{building.key} card")
    for p in range(n):
        held_by_code = Counter(c for c, _space in s.track[p])
        held_by_code.update(s.built[p])
        for t in range(len(game.buildings)):
            held = held_by_code[t]
            if s.bought[p][t] != held:
                require(False, f"bought[{p}][{t}]",
                        f"is {s.bought[p][t]}, but player {p}'s time track and completed "
                        f"cards hold {held} {game.buildings[t].key} card(s)")
        for i, (code, space) in enumerate(s.track[p]):
            require(0 <= code < LANDMARK0 + len(game.landmarks), f"track[{p}][{i}]",
                    f"card code {code} does not exist")
            require(space >= 1, f"track[{p}][{i}]", f"space {space}: a card on space 0 "
                    "is completed and leaves the time track (T-5)")


def _check_landmarks(game: TaiwanGame, s: TaiwanState, n: int) -> None:
    """Each landmark once: in its own deck, face up on its deck, or with one player."""
    zones = {f"decks[{d}]": s.decks[d] for d in range(NUM_DECKS)}
    zones["face_up"] = [c for c in s.face_up if c >= 0]
    for p in range(n):
        zones[f"track[{p}]"] = [c - LANDMARK0 for c, _ in s.track[p] if c >= LANDMARK0]
        zones[f"built[{p}]"] = [c - LANDMARK0 for c in s.built[p] if c >= LANDMARK0]
    check_zones("landmarks", zones, range(len(game.landmarks)), item="landmark")
    for d in range(NUM_DECKS):
        own = set(game.deck_cards[d])
        stray = sorted(c for c in s.decks[d] if c not in own)
        require(not stray, f"decks[{d}]", f"landmarks {stray} belong to another deck")
        require(s.face_up[d] < 0 or s.face_up[d] in own, f"face_up[{d}]",
                f"landmark {s.face_up[d]} does not belong to deck {d}")


def _check_markers(s: TaiwanState, n: int) -> None:
    """7 placeable markers per player; the 2-player neutral colour once per region."""
    neutral = n if n == 2 else -1
    for r, region in enumerate(s.regions):
        bad = sorted({o for o in region if not (0 <= o < n or o == neutral)})
        require(not bad, f"regions[{r}]", f"holds markers of owners {bad}; seats are 0..{n - 1}"
                + (f", neutral {n}" if n == 2 else ""))
        if n == 2:
            want = 0 if s.phase == Phase.SETUP else 1
            require(region.count(neutral) == want and (not want or region[0] == neutral),
                    f"regions[{r}]", f"the neutral colour ({neutral}) has {want} marker per "
                    "region, placed first")
    for p in range(n):
        parts = {f"markers[{p}]": s.markers[p]}
        parts.update({f"regions[{r}]": region.count(p) for r, region in enumerate(s.regions)})
        check_total(f"markers[{p}]", parts, MARKERS, item=f"player {p} marker")


def _check_holdings(game: TaiwanGame, s: TaiwanState, p: int) -> None:
    """No negative holding; card-backed holdings stay within the completed copies."""
    built = Counter(s.built[p])

    def completed(key: str) -> int:
        return built[game.type_id[key]]

    values = {f"coins[{p}]": s.coins[p], f"workers[{p}]": s.workers[p],
              f"merchants[{p}]": s.merchants[p], f"tribal[{p}]": s.tribal[p]}
    values.update({f"res[{p}][{r}]": s.res[p][r] for r in range(RESOURCES)})
    values.update({f"warehouse[{p}][{r}]": s.warehouse[p][r] for r in range(RESOURCES)})
    if not s.over:  # final scoring may subtract for uncompleted cards (T-8.1)
        values[f"vp[{p}]"] = s.vp[p]
    for name, value in values.items():
        require(value >= 0, name, f"is {value}; a holding cannot be negative")
    for r, key in enumerate(FACTORY_KEYS):
        check_between(f"factory_used[{p}][{r}]", s.factory_used[p][r], 0,
                      completed(key), f"one use per completed {key}")
    check_between(f"temple_used[{p}]", s.temple_used[p], 0, completed("temple"),
                  "one use per completed temple")
    villages, warehouses = completed("tribal_village"), completed("warehouse")
    require(s.tribal[p] <= CARD_STOCK * villages, f"tribal[{p}]",
            f"is {s.tribal[p]}, but player {p} has {villages} completed Tribal Village(s); "
            f"each receives {CARD_STOCK} workers once and is never refilled (T-9.7)")
    stock = sum(s.warehouse[p])
    require(stock <= CARD_STOCK * warehouses, f"warehouse[{p}]",
            f"holds {stock} resources, but player {p} has {warehouses} completed "
            f"Warehouse(s); each receives {CARD_STOCK} once and is never refilled (T-9.8)")
    pending = sum(1 for d in s.stack if d.kind == "warehouse" and d.player == p)
    require(stock + CARD_STOCK * pending <= CARD_STOCK * warehouses, "stack",
            f"holds {pending} 'warehouse' choice(s) of player {p}, whose {warehouses} "
            f"completed Warehouse(s) already hold {stock} resources: each completed "
            f"Warehouse is filled once with {CARD_STOCK} (T-9.8)")


def _check_exclusive(game: TaiwanGame, s: TaiwanState, n: int) -> None:
    """A red type's ability belongs to nobody (-1) or to a seat that completed it (T-9.9)."""
    for k, key in enumerate(RED_KEYS):
        owner = s.exclusive[k]
        check_between(f"exclusive[{k}]", owner, -1, n - 1, "a seat, -1 for nobody")
        require(owner < 0 or game.type_id[key] in s.built[owner], f"exclusive[{k}]",
                f"names seat {owner} as the {key} owner, but that seat has not completed "
                f"a {key} (T-9.9)")


def _check_flow(s: TaiwanState, n: int) -> None:
    """Turn order in the dice and action phases; the game ends after the final round."""
    if s.phase in (Phase.DICE, Phase.ACTIONS) and not s.over:
        check_between("turns_done", s.turns_done, 1, n, "one turn per player per phase")
        want = (s.start_player + s.turns_done - 1) % n
        require(s.turn == want, "turn", f"is {s.turn}; turn {s.turns_done} of the phase "
                f"belongs to seat {want} (start player {s.start_player})")
    if s.over:
        require(s.final_round and s.phase == Phase.ROUND_END, "over",
                "is true, but the game ends only at the end of the final round (T-9)")
        require(not s.stack, "stack", "a finished game has no pending decision")


def _check_setup(game: TaiwanGame, s: TaiwanState) -> None:
    """During setup the stack holds exactly the draw of step ``setup_step - 1``; types
    are drawn and decks turned up exactly for the steps already resolved (T-2)."""
    if s.phase != Phase.SETUP:
        return
    step = s.setup_step - 1
    if step >= 0:
        scratch = s.clone()
        scratch.stack, scratch.setup_step = [], step
        flow_setup(game, scratch)
        require(s.stack == scratch.stack, "stack", f"holds {[d.kind for d in s.stack]} "
                f"{[list(d.ctx) for d in s.stack]} at setup_step {s.setup_step}; setup step "
                f"{step} queues exactly {[(d.kind, list(d.ctx)) for d in scratch.stack]}")
    types = min(max(step, 0), TYPES_IN_GAME)
    require(sum(s.in_game) == types, "in_game", f"marks {sum(s.in_game)} building types; "
            f"setup has drawn {types} at setup_step {s.setup_step}")
    for deck in range(NUM_DECKS):
        shown = step > TYPES_IN_GAME + deck
        require((s.face_up[deck] >= 0) == shown,
                f"face_up[{deck}]", f"is {s.face_up[deck]}; the deck is "
                f"{'turned up' if shown else 'not turned up yet'} at setup_step {s.setup_step}")
    require(step > TYPES_IN_GAME + NUM_DECKS or s.start_player == s.turn == 0,
            "start_player", f"is {s.start_player} (turn {s.turn}) before it is drawn; a new "
            "game has 0")
