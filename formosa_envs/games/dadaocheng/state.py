"""The Dadaocheng state: disc grid, storehouses, hands, cards, piles and the stack.

Codes: colours ``0 red, 1 white, 2 green, 3 yellow, 4 black``; cells ``4*row + col``
(row 0 = North); sides ``0 S, 1 W, 2 N, 3 E``; storehouse space ``4*side + k`` (k =
the row or column it faces); building types ``0 mansion, 1 store, 2 market,
3 workshop, 4 opium den``. ``flipped[cell]`` is 1 when the disc in that cell shows its
back. ``used`` holds this turn's once-per-turn flags (``USED_*`` indices).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from formosa_envs.core.decisions import Decision

COLOURS = 5
HAND_LIMIT = 6
USED_TEMPLE, USED_EVENT, USED_MARKETS, USED_DENS = 0, 1, 2, 3
BOUGHT0 = 4            # used[BOUGHT0 + type - 1]: a Store / Market / Workshop / Den bought
USED_WORKSHOPS = 8     # Workshops already used for a ship this turn
USED_SIZE = 9
SEAT_SIDES = {1: (0,), 2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
ROUNDS = {1: 10, 2: 10, 3: 8, 4: 8}


class Phase:
    """Where the game is (the stack drives everything inside a turn)."""

    SETUP = 0
    TURNS = 1


@dataclass(slots=True)
class DadaochengState:
    """A complete Dadaocheng position (codes in the module docstring)."""

    num_players: int
    sides_of: list[int]            # the side each seat owns
    cell_disc: list[int]           # disc id in each cell (-1 while being set up)
    flipped: list[int]             # per cell: 1 = the back side is up
    storehouse: list[list[int]]    # per space (16): cubes per colour
    remodelled: list[int]          # per space: 1 = a Store
    covered: list[int]             # per side: 1 = nobody owns it
    hand: list[list[int]]          # per player: cubes per colour
    ships: list[list[int]]         # per player: ship ids bought
    buildings: list[list[int]]     # per player: cards per type
    credit: list[int]
    opium: list[int]               # opium used
    sign: list[int]                # yellow loop cubes on the storehouse sign
    piles: list[int]               # building cards left per type
    ship_pool: list[list[int]]     # per level: ship ids not yet revealed
    ship_up: list[int]             # per level: the face-up ship, -1 when none
    revealed: list[int]            # per level: ships revealed so far
    events: list[int]              # event ids revealed, round by round
    event_pool: list[int]          # event ids not revealed
    used: list[int]                # this turn's flags
    history: list[int]             # side bitmasks of the current cascade
    round: int = 1
    start_player: int = 0
    turn: int = 0
    phase: int = Phase.SETUP
    setup_step: int = 0
    stack: list[Decision] = field(default_factory=list)
    over: bool = False
    decisions: int = 0
    last_event: str = ""

    def clone(self) -> DadaochengState:
        """An independent copy (lists copied at every level; the decisions inside are
        immutable and shared), spelled out field by field for speed."""
        return DadaochengState(
            self.num_players, self.sides_of[:], self.cell_disc[:], self.flipped[:],
            _rows(self.storehouse), self.remodelled[:], self.covered[:], _rows(self.hand),
            _rows(self.ships), _rows(self.buildings), self.credit[:], self.opium[:],
            self.sign[:], self.piles[:], _rows(self.ship_pool), self.ship_up[:],
            self.revealed[:], self.events[:], self.event_pool[:], self.used[:],
            self.history[:], self.round, self.start_player, self.turn, self.phase,
            self.setup_step, self.stack[:], self.over, self.decisions, self.last_event)

    def bits(self) -> int:
        """The grid state as a 16-bit mask (bit c: cell c shows its back)."""
        return sum(1 << c for c, f in enumerate(self.flipped) if f)


def new_state(num_players: int, sides: tuple[int, ...], piles: list[int],
              ship_pools: list[list[int]], event_pool: list[int]) -> DadaochengState:
    """A game before setup's chance events."""
    n = num_players
    return DadaochengState(
        num_players=n, sides_of=list(sides), cell_disc=[-1] * 16, flipped=[0] * 16,
        storehouse=[[0] * COLOURS for _ in range(16)], remodelled=[0] * 16,
        covered=[int(side not in sides) for side in range(4)],
        hand=[[0] * COLOURS for _ in range(n)], ships=[[] for _ in range(n)],
        buildings=[[0] * 5 for _ in range(n)], credit=[0] * n, opium=[0] * n, sign=[0] * n,
        piles=list(piles), ship_pool=[p[:] for p in ship_pools], ship_up=[-1, -1, -1],
        revealed=[0, 0, 0], events=[], event_pool=list(event_pool), used=[0] * USED_SIZE,
        history=[])


def _rows(rows: list[list[int]]) -> list[list[int]]:
    """A copy of a list of lists, each inner list copied."""
    return list(map(list.copy, rows))


def space_id(side: int, k: int) -> int:
    """The storehouse space of ``side`` facing row/column ``k``."""
    return 4 * side + k


def own_spaces(s: DadaochengState, p: int) -> range:
    """Player ``p``'s four storehouse spaces."""
    side = s.sides_of[p]
    return range(4 * side, 4 * side + 4)
