"""Named scenario builders: put a Taiwan Formosa game in a chosen position.

Used by rule tests, notebooks and anyone exploring a rule::

    game = make_game(num_players=3)
    s = scenario(game, res=[[0, 2, 2, 0], [0] * 4, [0] * 4], workers=[1, 0, 0])
    game.apply_action(s, BUY_B0 + building_id(game, "train_station"))

Everything not given takes a neutral default: all 18 types in the game with
full piles, 40 coins, no items, nothing on the tracks, no markers placed (the
2-player neutral colour first in every region). What is given is made
consistent: piles and ``bought`` follow the building cards on tracks and in
``built``; landmark decks lose the face-up cards and the landmarks owned;
each supply is 7 minus the markers placed. The state is left in the action
phase at player ``turn``'s ``act`` decision (``phase="actions"``, the default),
at ``turn``'s ``declare`` decision (``phase="dice"``), or at the start of a later
phase (``"build"``, ``"income"``, ``"cleanup"``), whose flow is then run
until the first decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision

from .flow import RED_KEYS
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
        raise ValueError(f"{what} needs one entry per player ({n}), got {len(value)}")
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
        in_game: building type ids in the game (default: all 18).
        track: per player, ``[card code, space]`` entries (landmark codes are
            ``landmark_code(game, name)``).
        built: per player, completed card codes.
        regions: owners in placement order per region (north, central, south,
            east); for 2 players the neutral is owner 2 and is *not* added when
            ``regions`` is given.
        markers: optional check: each supply must equal 7 minus that player's
            markers on the board.
        exclusive: the active owner of each red type, as a list of 4 (the
            ``flow.RED_KEYS`` order) or a ``{key: owner}`` mapping.
        face_up: the face-up landmark id per deck, -1 for an empty deck
            (default: the lowest id of each deck not owned by a player).
    """
    n = game.num_players
    if phase not in _PHASES:
        raise ValueError(f"phase must be one of {sorted(_PHASES)}, got {phase!r}")
    if not (0 <= turn < n and 0 <= start_player < n):
        raise ValueError(f"turn and start_player must be seats 0..{n - 1}")
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

    # building piles and purchases
    types = range(18) if in_game is None else list(in_game)
    s.in_game = [t in types for t in range(18)]
    for p in range(n):
        for code in [c for c, _ in s.track[p]] + s.built[p]:
            if code < LANDMARK0:
                if not s.in_game[code]:
                    raise ValueError(f"player {p} owns building type {code}, not in the game")
                s.bought[p][code] += 1
    for t in range(18):
        owned = sum(s.bought[p][t] for p in range(n))
        s.piles[t] = game.buildings[t].copies - owned if s.in_game[t] else 0
        if s.piles[t] < 0:
            raise ValueError(f"building type {t}: {owned} copies owned, more than exist")

    # landmarks: owned ones leave the decks; one face-up card per deck
    owned_lm = [c - LANDMARK0 for p in range(n) for c in [e[0] for e in s.track[p]]
                + s.built[p] if c >= LANDMARK0]
    if len(set(owned_lm)) != len(owned_lm):
        raise ValueError(f"a landmark is owned twice: {owned_lm}")
    if face_up is None:
        face_up = [min((c for c in cards if c not in owned_lm), default=-1)
                   for cards in game.deck_cards]
    if len(face_up) != NUM_DECKS:
        raise ValueError(f"face_up needs {NUM_DECKS} entries, got {len(face_up)}")
    s.face_up = list(face_up)
    for d, card in enumerate(s.face_up):
        if card >= 0 and (card not in game.deck_cards[d] or card in owned_lm):
            raise ValueError(f"landmark {card} cannot be face up on deck {d}")
    s.decks = [[c for c in cards if c not in owned_lm and c != s.face_up[d]]
               for d, cards in enumerate(game.deck_cards)]

    # regions and markers
    if regions is None:
        regions = [[n] if n == 2 else [] for _ in range(4)]
    if len(regions) != 4:
        raise ValueError(f"regions needs 4 lists, got {len(regions)}")
    s.regions = [list(r) for r in regions]
    s.markers = [MARKERS - sum(r.count(p) for r in s.regions) for p in range(n)]
    if markers is not None and list(markers) != s.markers:
        raise ValueError(f"markers {list(markers)} do not match the regions "
                         f"(supplies {s.markers}: 7 minus the markers placed)")

    if exclusive is not None:
        if isinstance(exclusive, Mapping):
            s.exclusive = [exclusive.get(key, -1) for key in RED_KEYS]
        else:
            s.exclusive = list(exclusive)

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


__all__ = ["building_id", "landmark_code", "landmark_id", "scenario"]
