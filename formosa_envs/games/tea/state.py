"""The Formosa Tea state: plantation, weather, bag, player boards, tracks, merchants.

Codes: teas/colours ``0 oolong, 1 black, 2 green``; tracks add ``3 scented``;
qualities ``0 poor, 1 normal, 2 good``; water levels (WL) ``0..2``. A plantation
space is ``4 * row + column`` (row = the tea of its processing track). Per-player
flat lists: ``basket[p][3 * colour + wl]``, ``factory[p][4 * tea + k]`` with ``k`` =
WL 0, 1, 2 or 3 for the Flavor area, ``warehouse[p][3 * tea + quality]``.
``master_pos[p][track]`` is the space of the player's Tea Master, -1 when none.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from formosa_envs.core.decisions import Decision

TEAS = 3
TRACKS = 4
SCENTED = 3
SPACES = 16
ROWS = COLUMNS = 4
FLAVOR = 3                 # the Flavor slot of a factory
BASKET_LIMIT = 6
CUBES = (35, 28, 21)       # oolong, black, green (content-findings section 2)
BUDS = {4: (6, 5, 5), 3: (5, 4, 3), 2: (5, 4, 3)}
EVENTS_IN_GAME = {2: 6, 3: 5, 4: 4}
DISPLAY_ROWS, DISPLAY_SLOTS = 4, 3
ACTION_DISC_SUPPLY = (8, 4)   # Global Market, Tea Processing
TECH_DISC_SUPPLY = 4          # copies of each of the 4 kinds


class Phase:
    """Steps of the game, run by the phase flow when the stack is empty."""

    SETUP = 0
    ADVANCED_SETUP = 1
    ACTIONS = 2
    PREPARATION = 3


@dataclass(slots=True)
class TeaState:
    """A complete Formosa Tea position (codes in the module docstring)."""

    num_players: int
    columns: list[int]             # plantation columns in play
    cubes: list[list[int]]         # per space: cubes per colour
    bud: list[int]                 # per space: bud colour, -1 when none
    occupant: list[int]            # per space: the player whose worker is there, -1
    weather: list[int]             # tile id on each of the 4 weather spaces (-1 unset)
    face: list[int]                # face up (0/1) of each tile
    bag: list[int]                 # cubes per colour
    bud_pool: list[int]            # buds not yet placed at setup, per colour
    basket: list[list[int]]
    factory: list[list[int]]
    scent: list[list[int]]         # per player: [tea (-1 empty), cubes, buds per colour x3]
    warehouse: list[list[int]]
    buds: list[list[int]]          # buds held per player, per colour
    master_pos: list[list[int]]
    farmers: list[int]             # in supply
    masters: list[int]             # in supply
    parked: list[int]              # 2 players: the Master parked until round 3
    placed: list[list[int]]        # per player: [farmers, masters] on plantation/markets
    market: list[list[int]]        # per Global Market space: players with a worker there
    tech: list[list[int]]          # per player: level per tea
    action_discs: list[list[int]]  # per player: [Global Market, Tea Processing]
    tech_discs: list[list[int]]    # per player: held per kind
    discs_on: list[list[int]]      # per player: kinds on factories, as 4 * tea + kind
    action_supply: list[int]
    tech_supply: list[int]
    domestic: list[int]            # Domestic track space per player
    vp: list[int]
    kept: list[list[int]]          # merchant ids kept per player
    character: list[int]           # per player, -1 (none / basic game)
    draft_pool: list[int]          # characters face up during the draft
    display: list[list[int]]       # 4 rows x 3 slots of merchant ids (-1 empty; slot 2 right)
    deck_pools: list[list[int]]    # unordered remaining cards per stage
    deck_tail: list[int]           # cards returned under the deck, in order
    events: list[int]              # event ids in play, by year
    event_pool: list[int]          # events not (yet) drawn
    passed: list[bool]
    buds_gone: list[int]           # buds removed from the game (scented completion)
    pay_low: int = 2               # lowest quality paid in the current sale
    round: int = 1
    start_player: int = 0
    turn: int = 0
    phase: int = Phase.SETUP
    setup_step: int = 0
    stack: list[Decision] = field(default_factory=list)
    over: bool = False
    decisions: int = 0
    last_event: str = ""
    lost_rows: list[int] = field(default_factory=list)  # display rows to refill (TEA-9.8)

    def clone(self) -> TeaState:
        """An independent copy (lists copied at every level; the decisions, numbers and
        strings inside are immutable and shared). Spelled out field by field: several
        times cheaper than a generic copy, and search clones at every node (lists of
        lists copied as ``[*map(list.copy, rows)]``, inline: the cheapest spelling)."""
        c = list.copy
        return TeaState(
            self.num_players, self.columns[:], [*map(c, self.cubes)], self.bud[:],
            self.occupant[:], self.weather[:], self.face[:], self.bag[:], self.bud_pool[:],
            [*map(c, self.basket)], [*map(c, self.factory)], [*map(c, self.scent)],
            [*map(c, self.warehouse)], [*map(c, self.buds)], [*map(c, self.master_pos)],
            self.farmers[:], self.masters[:], self.parked[:], [*map(c, self.placed)],
            [*map(c, self.market)], [*map(c, self.tech)], [*map(c, self.action_discs)],
            [*map(c, self.tech_discs)], [*map(c, self.discs_on)], self.action_supply[:],
            self.tech_supply[:], self.domestic[:], self.vp[:], [*map(c, self.kept)],
            self.character[:], self.draft_pool[:], [*map(c, self.display)],
            [*map(c, self.deck_pools)], self.deck_tail[:], self.events[:], self.event_pool[:],
            self.passed[:], self.buds_gone[:], self.pay_low, self.round, self.start_player,
            self.turn, self.phase, self.setup_step, self.stack[:], self.over, self.decisions,
            self.last_event, self.lost_rows[:])


def new_state(num_players: int, merchant_pools: list[list[int]], num_events: int) -> TeaState:
    """A game before setup's chance events: empty plantation, full bag."""
    n = num_players
    columns = [0, 1, 2, 3] if n == 4 else [1, 2, 3]
    masters = 3 if n == 2 else 2
    return TeaState(
        num_players=n, columns=columns, cubes=[[0, 0, 0] for _ in range(SPACES)],
        bud=[-1] * SPACES, occupant=[-1] * SPACES, weather=[-1] * 4, face=[0] * 4,
        bag=list(CUBES), bud_pool=list(BUDS[n]), basket=[[0] * 9 for _ in range(n)],
        factory=[[0] * 12 for _ in range(n)], scent=[[-1, 0, 0, 0, 0] for _ in range(n)],
        warehouse=[[0] * 9 for _ in range(n)], buds=[[0, 0, 0] for _ in range(n)],
        master_pos=[[-1] * TRACKS for _ in range(n)], farmers=[2] * n,
        masters=[masters - (n == 2)] * n, parked=[int(n == 2)] * n,
        placed=[[0, 0] for _ in range(n)], market=[[] for _ in range(3)],
        tech=[[0, 0, 0] for _ in range(n)], action_discs=[[0, 0] for _ in range(n)],
        tech_discs=[[0] * 4 for _ in range(n)], discs_on=[[] for _ in range(n)],
        action_supply=list(ACTION_DISC_SUPPLY), tech_supply=[TECH_DISC_SUPPLY] * 4,
        domestic=[0] * n, vp=[0] * n, kept=[[] for _ in range(n)], character=[-1] * n,
        draft_pool=[], display=[[-1] * DISPLAY_SLOTS for _ in range(DISPLAY_ROWS)],
        deck_pools=[p[:] for p in merchant_pools], deck_tail=[], events=[],
        event_pool=list(range(11)), passed=[False] * n, buds_gone=[0, 0, 0])


def row_of(space: int) -> int:
    """The plantation row (= processing track) of a space."""
    return space // COLUMNS


def column_of(space: int) -> int:
    """The plantation column of a space."""
    return space % COLUMNS


def in_play(s: TeaState, space: int) -> bool:
    """Whether ``space`` is in play (column 0 is unused with 2-3 players)."""
    return column_of(space) in s.columns


def basket_count(s: TeaState, p: int) -> int:
    """Cubes in ``p``'s Basket."""
    return sum(s.basket[p])


def tea_in_basket(s: TeaState, p: int, tea: int) -> int:
    """Basket cubes of ``tea`` (any WL)."""
    b = s.basket[p]
    return b[3 * tea] + b[3 * tea + 1] + b[3 * tea + 2]


def tea_in_warehouse(s: TeaState, p: int, tea: int) -> int:
    """Warehouse cubes of ``tea`` (any quality)."""
    w = s.warehouse[p]
    return w[3 * tea] + w[3 * tea + 1] + w[3 * tea + 2]


def workers_in_row(s: TeaState, row: int) -> int:
    """Workers of every colour standing on plantation row ``row``."""
    return sum(1 for c in range(COLUMNS) if s.occupant[4 * row + c] >= 0)
