"""Named scenario builders: put a Taiwan Formosa game in a chosen position.

Used by rule tests, notebooks and anyone exploring a rule::

    game = make_game(num_players=3)
    s = scenario(game, res=[[0, 2, 2, 0], [0] * 4, [0] * 4], workers=[1, 0, 0])
    game.apply_action(s, BUY_B0 + building_id(game, "train_station"))

Everything not given takes a neutral default: 40 coins, no items, nothing on
the tracks, no markers placed (the 2-player neutral colour first in every
region). What is given is made consistent, so the position is a whole state that
``check_invariants`` accepts:

- exactly 12 building types are in the game (T-2.1): the types named in
  ``in_game`` and the types of every card owned, filled up with the lowest other
  ids; more than 12 is an ``ArgumentError``;
- stored stock and red-type rights come with the cards that give them: a player
  with Tribal Village workers or Warehouse resources gets enough completed
  Tribal Villages / Warehouses (3 each, T-9.7/T-9.8), and the owner of a red
  type's ability gets a completed copy of it (T-9.9), unless ``built`` holds them;
- piles and ``bought`` follow the building cards on tracks and in ``built``;
  landmark decks lose the face-up cards and the landmarks owned; each supply is
  7 minus the markers placed. The state is left in the action
phase at player ``turn``'s ``act`` decision (``phase="actions"``, the default),
at ``turn``'s ``declare`` decision (``phase="dice"``), or at the start of a later
phase (``"build"``, ``"income"``, ``"cleanup"``), whose flow is then run
until the first decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision
from formosa_envs.core.errors import ArgumentError

from .flow import RED_KEYS, TYPES_IN_GAME
from .invariants import CARD_STOCK
from .schema import SETUP_STEPS
from .state import LANDMARK0, MARKERS, NUM_DECKS, Phase, TaiwanState, new_state

if TYPE_CHECKING:
    from .game import TaiwanGame

_PHASES = {"dice": Phase.DICE, "actions": Phase.ACTIONS, "build": Phase.BUILD,
           "income": Phase.INCOME, "cleanup": Phase.CLEANUP}


def building_id(game: TaiwanGame, key: str) -> int:
    """The building type id (and card code) of ``key``, e.g. ``"train_station"``."""
    try:
        return game.type_id[key]
    except KeyError:
        raise KeyError(f"no building type {key!r}; known: {sorted(game.type_id)}") from None


def landmark_id(game: TaiwanGame, name: str) -> int:
    """The landmark id (0..15, a ``reveal`` outcome) of the card called ``name``."""
    for lm in game.landmarks:
        if lm.name == name:
            return lm.id
    raise KeyError(f"no landmark {name!r}")


def landmark_code(game: TaiwanGame, name: str) -> int:
    """The card code of landmark ``name`` (as stored on time tracks and in ``built``)."""
    return LANDMARK0 + landmark_id(game, name)


def _per_player(value: Sequence | None, n: int, default: object, what: str) -> list:
    if value is None:
        return [default() if callable(default) else default for _ in range(n)]
    if len(value) != n:
        raise ArgumentError(f"{what} needs one entry per player ({n}), got {len(value)}")
    return [list(v) if isinstance(v, (list, tuple)) else v for v in value]


def scenario(game: TaiwanGame, *, phase: str = "actions", turn: int = 0,
             start_player: int = 0, in_game: Sequence[int] | None = None,
             coins: Sequence[int] | None = None, res: Sequence[Sequence[int]] | None = None,
             workers: Sequence[int] | None = None, merchants: Sequence[int] | None = None,
             tribal: Sequence[int] | None = None,
             warehouse: Sequence[Sequence[int]] | None = None,
             markers: Sequence[int] | None = None,
             track: Sequence[Sequence[Sequence[int]]] | None = None,
             built: Sequence[Sequence[int]] | None = None, vp: Sequence[int] | None = None,
             regions: Sequence[Sequence[int]] | None = None,
             exclusive: Sequence[int] | Mapping[str, int] | None = None,
             face_up: Sequence[int] | None = None, round_no: int = 1,
             final_round: bool = False) -> TaiwanState:
    """A consistent state at ``turn``'s decision of ``phase`` (see the module docstring).

    Args:
        in_game: building type ids that must be in the game (at most 12); the
            types of owned cards join them and the lowest other ids fill up to 12.
        track: per player, ``[card code, space]`` entries (landmark codes are
            ``landmark_code(game, name)``).
        built: per player, completed card codes.
        regions: owners in placement order per region (north, central, south,
            east); for 2 players the neutral is owner 2 and is *not* added when
            ``regions`` is given.
        markers: optional check: each supply must equal 7 minus that player's
            markers on the board.
        exclusive: the active owner of each red type, as a list of 4 (the
            ``flow.RED_KEYS`` order, -1 for nobody) or a ``{key: owner}`` mapping;
            each owner is given a completed copy unless ``built`` holds one.
        face_up: the face-up landmark id per deck, -1 for an empty deck
            (default: the lowest id of each deck not owned by a player).

    Raises:
        ArgumentError: (a ``ValueError``) naming the argument that cannot be part of
            a real position, e.g. more than 12 building types or too many copies.
    """
    n = game.num_players
    if phase not in _PHASES:
        raise ArgumentError(f"phase must be one of {sorted(_PHASES)}, got {phase!r}")
    if not (0 <= turn < n and 0 <= start_player < n):
        raise ArgumentError(f"turn and start_player must be seats 0..{n - 1}")
    s = new_state(n, game.deck_cards)
    s.coins = _per_player(coins, n, 40, "coins")
    s.res = _per_player(res, n, lambda: [0, 0, 0, 0], "res")
    s.workers = _per_player(workers, n, 0, "workers")
    s.merchants = _per_player(merchants, n, 0, "merchants")
    s.tribal = _per_player(tribal, n, 0, "tribal")
    s.warehouse = _per_player(warehouse, n, lambda: [0, 0, 0, 0], "warehouse")
    s.track = [[list(e) for e in t] for t in _per_player(track, n, list, "track")]
    s.built = _per_player(built, n, list, "built")
    s.vp = _per_player(vp, n, 0, "vp")

    s.exclusive = _exclusive(exclusive, n)
    _add_backing_cards(game, s)
    _place_buildings(game, s, in_game)
    _place_landmarks(game, s, face_up)
    _place_markers(s, regions, markers)

    s.round, s.final_round = round_no, final_round
    s.start_player, s.turn = start_player, turn
    s.setup_step = SETUP_STEPS  # past every setup step
    s.phase = _PHASES[phase]
    if phase in ("dice", "actions"):
        s.turns_done = (turn - start_player) % n + 1
        s.stack = [Decision("declare" if phase == "dice" else "act", turn)]
    game.settle(s)
    game.check_invariants(s)  # the position handed out is a whole, valid state
    return s


def _place_landmarks(game: TaiwanGame, s: TaiwanState, face_up: Sequence[int] | None) -> None:
    """Owned landmarks leave the decks; one face-up card per deck."""
    owned_lm = [c - LANDMARK0 for p in range(s.num_players) for c in [e[0] for e in s.track[p]]
                + s.built[p] if c >= LANDMARK0]
    if len(set(owned_lm)) != len(owned_lm):
        raise ArgumentError(f"a landmark is owned twice: {owned_lm}")
    if face_up is None:
        face_up = [min((c for c in cards if c not in owned_lm), default=-1)
                   for cards in game.deck_cards]
    if len(face_up) != NUM_DECKS:
        raise ArgumentError(f"face_up needs {NUM_DECKS} entries, got {len(face_up)}")
    s.face_up = list(face_up)
    for d, card in enumerate(s.face_up):
        if card >= 0 and (card not in game.deck_cards[d] or card in owned_lm):
            raise ArgumentError(f"landmark {card} cannot be face up on deck {d}")
    s.decks = [[c for c in cards if c not in owned_lm and c != s.face_up[d]]
               for d, cards in enumerate(game.deck_cards)]


def _place_markers(s: TaiwanState, regions: Sequence[Sequence[int]] | None,
                   markers: Sequence[int] | None) -> None:
    """Markers in the regions; each supply is 7 minus the markers placed."""
    n = s.num_players
    if regions is None:
        regions = [[n] if n == 2 else [] for _ in range(4)]
    if len(regions) != 4:
        raise ArgumentError(f"regions needs 4 lists, got {len(regions)}")
    s.regions = [list(r) for r in regions]
    s.markers = [MARKERS - sum(r.count(p) for r in s.regions) for p in range(n)]
    if markers is not None and list(markers) != s.markers:
        raise ArgumentError(f"markers {list(markers)} do not match the regions "
                            f"(supplies {s.markers}: 7 minus the markers placed)")


def _exclusive(exclusive: Sequence[int] | Mapping[str, int] | None, n: int) -> list[int]:
    """The owner of each red type (``RED_KEYS`` order) from a list or a mapping."""
    if exclusive is None:
        return [-1] * len(RED_KEYS)
    if isinstance(exclusive, Mapping):
        unknown = sorted(set(exclusive) - set(RED_KEYS))
        if unknown:
            raise ArgumentError(f"exclusive: unknown red types {unknown}; known: {RED_KEYS}")
        owners = [exclusive.get(key, -1) for key in RED_KEYS]
    else:
        owners = list(exclusive)
    if len(owners) != len(RED_KEYS) or not all(-1 <= o < n for o in owners):
        raise ArgumentError(f"exclusive needs {len(RED_KEYS)} owners, each a seat 0..{n - 1} "
                            f"or -1 for nobody; got {owners}")
    return owners


def _add_backing_cards(game: TaiwanGame, s: TaiwanState) -> None:
    """Give each player the completed cards that their stock and red rights need."""
    def need(p: int, key: str, copies: int) -> None:
        code = game.type_id[key]
        s.built[p].extend([code] * max(copies - s.built[p].count(code), 0))

    for p in range(s.num_players):
        need(p, "tribal_village", -(-s.tribal[p] // CARD_STOCK))
        need(p, "warehouse", -(-sum(s.warehouse[p]) // CARD_STOCK))
    for key, owner in zip(RED_KEYS, s.exclusive, strict=True):
        if owner >= 0:
            need(owner, key, 1)


def _place_buildings(game: TaiwanGame, s: TaiwanState, in_game: Sequence[int] | None) -> None:
    """Choose the 12 types in the game; piles and ``bought`` follow the cards owned."""
    types = len(game.buildings)
    named = list(in_game or ())
    bad = sorted({t for t in named if not (isinstance(t, int) and 0 <= t < types)}, key=str)
    if bad:
        raise ArgumentError(f"in_game: {bad} are not building type ids 0..{types - 1}")
    for p in range(s.num_players):
        for code in [c for c, _ in s.track[p]] + s.built[p]:
            if not 0 <= code < LANDMARK0 + len(game.landmarks):
                raise ArgumentError(f"player {p} holds card code {code}, which does not exist")
            if code < LANDMARK0:
                s.bought[p][code] += 1
    used = set(named) | {t for t in range(types) if any(b[t] for b in s.bought)}
    if len(used) > TYPES_IN_GAME:
        names = sorted(game.buildings[t].key for t in used)
        raise ArgumentError(f"the scenario uses {len(used)} building types, but only "
                            f"{TYPES_IN_GAME} are in a game (T-2.1): {names}")
    fill = [t for t in range(types) if t not in used][:TYPES_IN_GAME - len(used)]
    s.in_game = [t in used or t in fill for t in range(types)]
    for t in range(types):
        owned = sum(b[t] for b in s.bought)
        s.piles[t] = game.buildings[t].copies - owned if s.in_game[t] else 0
        if s.piles[t] < 0:
            raise ArgumentError(f"building type {game.buildings[t].key}: {owned} copies "
                                f"owned, more than the {game.buildings[t].copies} that exist")


__all__ = ["building_id", "landmark_code", "landmark_id", "scenario"]
