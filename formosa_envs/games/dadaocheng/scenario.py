"""Named scenario builders: put a Dadaocheng game in a chosen position.

Used by rule tests, notebooks and anyone exploring a rule::

    game = make_game(num_players=3)
    s = scenario(game, phase="cascade", turn=1,
                 grid="D11 D12 D13 D02 / D09* D05 D08 D14 / D15* D01 D10 D16 / D06* D07 D03 D04",
                 storehouse={space("W", 1): [1, 0, 0, 0, 0]}, hands=[[], [0, 0, 2], []])
    act(game, s, A.LINE0 + 14)

A scenario starts from a real new game, its setup chance resolved with
``default_rng(seed)``: the disc layout, the face-up ships and the start player come
from it unless given. The rest is made consistent: credit is the sum of the owned
ships' credit, each ship pile holds the cards of its level nobody owns and that are not
face up, building piles hold the cards nobody owns, and the events revealed so far are
one per round (the round's own event last). The state is then left at the chosen
``phase`` of ``turn``'s turn: ``"planning"`` (the first movement), ``"cascade"`` (Stage
2 on the given grid, as if planning had just made it), ``"full_house"`` (Stage 3) or
``"purchase"`` (Stage 4, after the 1853 loss); automatic steps and forced decisions
are run, so the first decision with a real choice is pending.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .flow import start_turn
from .schema import SETUP_STEPS
from .state import DadaochengState, Phase

if TYPE_CHECKING:
    from .game import DadaochengGame

PHASES = ("planning", "cascade", "full_house", "purchase")
_POPPED = {"planning": 0, "cascade": 1, "full_house": 2, "purchase": 3}


def new_game(game: DadaochengGame, seed: int = 0) -> DadaochengState:
    """A new game with every setup chance event resolved by ``default_rng(seed)``."""
    s = game.new_initial_state()
    game.resolve_chance(s, np.random.default_rng(seed))
    return s


def space(side: str, k: int) -> int:
    """The storehouse space id of side ``"S"``, ``"W"``, ``"N"`` or ``"E"`` facing row/column k."""
    return 4 * "SWNE".index(side) + k


def event_id(game: DadaochengGame, key: str) -> int:
    """The id (year order) of the event with key ``key``, e.g. ``"e1884"``."""
    return game.event_index[key]


def ship_id(game: DadaochengGame, code: str | int) -> int:
    """A ship id from its code (``"J01"``) or the id itself."""
    return code if isinstance(code, int) else next(s.id for s in game.ships if s.code == code)


def parse_grid(game: DadaochengGame, grid: str | Sequence[str]) -> tuple[list[int], list[int]]:
    """Disc ids and flipped flags from 16 tokens ``Dnn`` (sun side up) or ``Dnn*`` (back up),
    row by row from the North-West corner; ``/`` separators are ignored."""
    tokens = [t for t in (grid.split() if isinstance(grid, str) else grid) if t != "/"]
    codes = {d.code: d.id for d in game.discs}
    if len(tokens) != 16 or sorted(t.rstrip("*") for t in tokens) != sorted(codes):
        raise ValueError(f"a grid needs each of the 16 discs once, got {tokens}")
    return [codes[t.rstrip("*")] for t in tokens], [int(t.endswith("*")) for t in tokens]


def _events(game: DadaochengGame, round_no: int, event: str | None,
            events: Sequence[str] | None) -> list[int]:
    if events is not None:
        keys = list(events)
    else:
        later = [e.key for e in game.events[1:] if e.key != event]
        keys = (["e1851"] + later)[:round_no]
        if event is not None:
            keys = [k for k in keys if k != event][:round_no - 1] + [event]
    if len(keys) != round_no:
        raise ValueError(f"round {round_no} needs {round_no} revealed events, got {keys}")
    return [event_id(game, k) for k in keys]


def scenario(game: DadaochengGame, *, seed: int = 0, phase: str = "purchase", turn: int = 0,
             start_player: int = 0, round_no: int = 1, grid: str | Sequence[str] | None = None,
             storehouse: Mapping[int, Sequence[int]] | None = None, stores: Sequence[int] = (),
             hands: Sequence[Sequence[int]] | None = None,
             ships: Sequence[Sequence[str | int]] | None = None,
             buildings: Sequence[Sequence[int]] | None = None,
             opium: Sequence[int] | None = None, sign: Sequence[int] | None = None,
             ship_up: Sequence[str | int | None] | None = None, event: str | None = None,
             events: Sequence[str] | None = None) -> DadaochengState:
    """A consistent state (see the module docstring); codes as in ``state.py``.

    Args:
        grid: 16 disc tokens (see :func:`parse_grid`); default: the seeded setup layout.
        storehouse: space id (see :func:`space`) -> cubes per colour; others empty.
        stores: space ids remodelled into Stores.
        hands: per player, cubes per colour (shorter lists are padded with zeros).
        ships: per player, the ship codes (or ids) they own; credit follows.
        buildings: per player, cards per type (Mansion, Store, Market, Workshop, Den).
        ship_up: the face-up card of each level (None: that pile is empty); default:
            the seeded ones, a card owned by a player replaced by the first free one.
        event: this round's event key; earlier rounds get 1851, then the others in
            year order. ``events``: every revealed key instead, one per round.
    """
    n = game.num_players
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {PHASES}, got {phase!r}")
    s = new_game(game, seed)
    if grid is not None:
        s.cell_disc, s.flipped = parse_grid(game, grid)
    s.storehouse = [[0] * 5 for _ in range(16)]
    for sp, cubes in (storehouse or {}).items():
        s.storehouse[sp] = [*cubes, 0, 0, 0, 0, 0][:5]
    s.remodelled = [int(sp in stores) for sp in range(16)]

    def each(value: Sequence | None, default: object, what: str) -> list:
        if value is None:
            return [default] * n
        if len(value) != n:
            raise ValueError(f"{what} needs one entry per player ({n}), got {len(value)}")
        return list(value)

    s.hand = [[*h, 0, 0, 0, 0, 0][:5] for h in each(hands, (), "hands")]
    s.ships = [[ship_id(game, c) for c in own] for own in each(ships, (), "ships")]
    s.credit = [sum(game.ships[i].credit for i in own) for own in s.ships]
    s.buildings = [[*b, 0, 0, 0, 0, 0][:5] for b in each(buildings, (), "buildings")]
    s.opium = [int(x) for x in each(opium, 0, "opium")]
    s.sign = [int(x) for x in each(sign, 0, "sign")]
    s.piles = [b.piles[n - 1] - sum(own[t] for own in s.buildings)
               for t, b in enumerate(game.buildings)]

    owned = {i for own in s.ships for i in own}
    for level in range(3):
        cards = [c.id for c in game.ships if c.level == level + 1]
        if ship_up is not None:
            up = -1 if ship_up[level] is None else ship_id(game, ship_up[level])
        else:
            up = s.ship_up[level]
            if up in owned:
                up = next((c for c in cards if c not in owned), -1)
        s.ship_up[level] = up
        s.ship_pool[level] = [c for c in cards if c not in owned and c != up]
        s.revealed[level] = sum(c in owned for c in cards) + (up >= 0)
        if up < 0 and s.ship_pool[level] and s.revealed[level] < game.ships_per_level:
            raise ValueError(f"level {level + 1} has cards left to reveal: one must be face up")

    if not game.solo:
        s.events = _events(game, round_no, event, events)
        s.event_pool = [e for e in range(len(game.events)) if e not in s.events]
    s.round, s.start_player, s.turn = round_no, start_player, turn
    s.phase, s.setup_step, s.stack, s.last_event = Phase.TURNS, SETUP_STEPS, [], ""
    start_turn(s, turn)
    for _ in range(_POPPED[phase]):
        s.stack.pop()
    game.settle(s)
    game.check_invariants(s)  # the position handed out is a whole, valid state
    return s


# ----- acting --------------------------------------------------------------------------

def kind(game: DadaochengGame, s: DadaochengState) -> str:
    """The pending decision's kind, or ``"terminal"``."""
    return "terminal" if game.is_terminal(s) else game.top(s).kind


def labels(game: DadaochengGame, s: DadaochengState) -> list[str]:
    """Readable labels of the legal actions."""
    return [game.action_label(s, a) for a in game.legal_actions(s)]


def act(game: DadaochengGame, s: DadaochengState, *actions: int) -> None:
    """Apply legal actions (or chance outcomes) in order, failing with the legal labels."""
    for action in actions:
        legal = game.legal_actions(s)
        assert action in legal, (kind(game, s), game.action_label(s, action), labels(game, s))
        game.apply_action(s, action)
        game.check_invariants(s)


def answer(game: DadaochengGame, s: DadaochengState, expected: str, action: int,
           player: int | None = None) -> None:
    """Check that ``expected`` (by ``player``, if given) is pending, then answer it."""
    assert kind(game, s) == expected, (kind(game, s), expected, labels(game, s))
    if player is not None:
        assert game.current_player(s) == player, (game.current_player(s), player)
    act(game, s, action)


def resolve(game: DadaochengGame, s: DadaochengState, seed: int = 0) -> None:
    """Resolve every pending chance event with ``default_rng(seed)``."""
    game.resolve_chance(s, np.random.default_rng(seed))


__all__ = ["PHASES", "act", "answer", "event_id", "kind", "labels", "new_game", "parse_grid",
           "resolve", "scenario", "ship_id", "space"]
