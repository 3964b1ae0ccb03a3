"""The Taiwan Formosa state: per-player boards, piles, landmark decks, regions, the stack.

Card codes: building types are ``0..17`` (``cards.BUILDING_KEYS`` order);
landmarks are ``LANDMARK0 + id`` (``18..33``). A time-track entry is
``[card code, space]``; ``space`` counts down to 0 (completion).
Region lists hold owners in placement order; the neutral colour of the
2-player game is owner ``num_players``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from formosa_envs.core.decisions import Decision

RESOURCES = 4          # wood, brick, steel, stone
LANDMARK0 = 18         # card code of landmark 0
CARD_CODES = 34        # 18 building types + 16 landmarks
MARKERS = 7            # placeable markers per player (8, one on the score track)
START_COINS = 40
HAND_LIMIT = 5
NUM_DECKS = 5


MAX_COINS = 1_000_000
"""The most coins a player holds: the saved-state cap, and a ceiling the engine holds
coins at (:func:`gain`), so a state the engine reaches always passes the schema.

Why legal play under the length guard never reaches it (so the ceiling never changes a
game): coins grow only by income (T-6: 15, plus 3 per Night Market and at most 5 per
Convenience Store), the Lottery Office (4 coins per completed copy for each merchant
rolled, at most 7 dice a round) and the Urban Development Bureau fee (1 coin per
landmark bought, 16 in all). With at most 4 copies of a building type (``cards.py``)
a player gains at most ``15 + 3*4 + 5*4 + 4*4*7 = 159`` coins a round. Every round asks
each player for a dice declaration (a decision: ``declare`` always offers 2 dice, and
Taiwan applies no forced decision), so a game of ``L`` decisions has at most
``1 + L / 2`` rounds: under the 6,000-decision guard at most 3,001 rounds, that is at
most ``40 + 3001 * 159 + 16 = 477,215`` coins, below half of the ceiling.
"""
MAX_VP = 1_000_000
"""The most VP a player holds (and at least ``-MAX_VP`` after final scoring), held by
the engine as :data:`MAX_COINS` is. Under the guard: card VP at most
``(18 * 4 + 16) * 20 = 1,760`` (every card once, 20 VP a card at most), Hot Spring
scoring at most ``2 * 36`` a region decision for at most 8 such cards, and the Temple
2 VP per completed copy a round (at most ``3001 * 8``): below 27,000."""
MAX_COUNT = 2_000_000
"""The most resources of one kind, workers or merchants a player holds, held by the
engine as :data:`MAX_COINS` is. Workers and merchants are returned every round and hands
are cut to 5 resources at its end; within a round a player gains at most 7 dice, 1 per
exchange, and an exchange costs 9 coins, 3 items or a merchant: at most
``5 + 7 + 7 + MAX_COINS`` of anything."""


def gain(values: list[int], index: int, amount: int, cap: int) -> None:
    """Add ``amount`` to ``values[index]``, held at ``cap`` (see :data:`MAX_COINS`)."""
    values[index] = min(cap, values[index] + amount)


class Phase:
    """Steps of the round, run by the phase flow when the stack is empty."""

    SETUP = 0
    DICE = 1
    ACTIONS = 2
    BUILD = 3
    INCOME = 4
    CLEANUP = 5
    ROUND_END = 6


@dataclass(slots=True)
class TaiwanState:
    """A complete Taiwan Formosa position (see the module docstring for codes)."""

    num_players: int
    piles: list[int]                 # copies left per building type (0 if not in the game)
    in_game: list[bool]              # the 12 building types drawn at setup
    decks: list[list[int]]           # face-down landmark ids per deck (an unordered pool)
    face_up: list[int]               # face-up landmark id per deck, -1 when empty
    regions: list[list[int]]         # owners in placement order, per region
    coins: list[int]
    vp: list[int]
    res: list[list[int]]             # hand resources per player [wood, brick, steel, stone]
    workers: list[int]
    merchants: list[int]
    tribal: list[int]                # workers on Tribal Village cards
    warehouse: list[list[int]]       # resources on Warehouse cards
    markers: list[int]               # markers left to place
    track: list[list[list[int]]]     # per player: [card code, space] of uncompleted cards
    built: list[list[int]]           # per player: completed card codes, in order
    bought: list[list[int]]          # per player: purchased building-type counts
    factory_used: list[list[int]]    # factory uses this round, per resource (one per copy)
    temple_used: list[int]           # Temple uses this round (one per completed copy)
    exclusive: list[int]             # active owner of each red building (-1: nobody)
    round: int = 1
    start_player: int = 0
    turn: int = 0                    # the seat whose dice / action turn it is
    turns_done: int = 0
    phase: int = Phase.SETUP
    setup_step: int = 0
    final_round: bool = False
    stack: list[Decision] = field(default_factory=list)
    over: bool = False
    decisions: int = 0
    last_event: str = ""

    def clone(self) -> TaiwanState:
        """An independent copy."""
        return TaiwanState(
            self.num_players, self.piles[:], self.in_game[:], [d[:] for d in self.decks],
            self.face_up[:], [r[:] for r in self.regions], self.coins[:], self.vp[:],
            [r[:] for r in self.res], self.workers[:], self.merchants[:], self.tribal[:],
            [w[:] for w in self.warehouse], self.markers[:],
            [[e[:] for e in t] for t in self.track], [b[:] for b in self.built],
            [b[:] for b in self.bought], [f[:] for f in self.factory_used], self.temple_used[:],
            self.exclusive[:], self.round, self.start_player, self.turn, self.turns_done,
            self.phase, self.setup_step, self.final_round, self.stack[:], self.over,
            self.decisions, self.last_event)


def new_state(num_players: int, decks: list[list[int]]) -> TaiwanState:
    """Before setup's chance events: no building type drawn, every landmark face down."""
    n = num_players
    return TaiwanState(
        num_players=n, piles=[0] * 18, in_game=[False] * 18, decks=[d[:] for d in decks],
        face_up=[-1] * NUM_DECKS, regions=[[] for _ in range(4)], coins=[START_COINS] * n,
        vp=[0] * n, res=[[0] * RESOURCES for _ in range(n)], workers=[0] * n,
        merchants=[0] * n, tribal=[0] * n, warehouse=[[0] * RESOURCES for _ in range(n)],
        markers=[MARKERS] * n, track=[[] for _ in range(n)], built=[[] for _ in range(n)],
        bought=[[0] * 18 for _ in range(n)], factory_used=[[0] * RESOURCES for _ in range(n)],
        temple_used=[0] * n,
        exclusive=[-1] * 4)
