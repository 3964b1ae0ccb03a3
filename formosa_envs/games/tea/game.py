"""The Formosa Tea engine: :class:`TeaGame` on the shared stack-of-decisions core."""

from __future__ import annotations

from typing import Any, ClassVar

from formosa_envs.core.actions import ActionSpace
from formosa_envs.core.open_game import OpenGame
from formosa_envs.core.schema import StateSchema

from . import actions as A
from . import effects, events, flow, markets, observer, turn
from .config import MAX_PLAYERS, MIN_PLAYERS, TeaConfig
from .content import CHARACTERS, EFFECTS, TEAS, load_board, load_events, load_merchants
from .invariants import check_state
from .render import label_action, render_text
from .schema import STATE_SCHEMA
from .state import TeaState, new_state

MAX_DECISIONS = 5000


class TeaGame(OpenGame):
    """Formosa Tea for 2-4 players, basic or advanced rules."""

    name: ClassVar[str] = "tea"
    title: ClassVar[str] = "Formosa Tea"
    observer: ClassVar[Any] = observer
    max_decisions: ClassVar[int] = MAX_DECISIONS
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    state_class: ClassVar[type] = TeaState
    state_schema: ClassVar[StateSchema] = STATE_SCHEMA

    def __init__(self, config: TeaConfig | None = None) -> None:
        super().__init__(config or TeaConfig())
        self.board = load_board(self.config.board_file)
        self.merchants = load_merchants(self.config.merchant_file)
        self.events = load_events()
        self.last = [len(row.effects) - 1 for row in self.board.processing]
        self._effects = [[EFFECTS.index(e) for e in row.effects]
                         for row in self.board.processing]
        self.tech_top = [len(row.rewards) for row in self.board.technology]
        in_deck = [c for c in self.merchants if self.config.merchant_cards == 28 or c.in_24]
        self.demands = tuple(c.demand for c in self.merchants)
        """Each merchant's demand per tea, by card id (the markets' payability test)."""
        self.stage_pools = [[c.id for c in in_deck if c.stage == st] for st in (1, 2, 3)]
        self.payment = markets.CubePayment(self)
        self.card_features = observer.card_table(self)
        self.play_spaces = [sp for sp in range(16) if sp % 4 >= (self.num_players < 4)]
        self.weather_faces = [tuple(w.faces) for w in self.board.weather]
        self.play_flag_ones = [observer.OFF["plantation_flags"] + 9 * sp
                               for sp in self.play_spaces]
        table: dict[str, Any] = {**effects.HANDLERS, **turn.HANDLERS, **flow.HANDLERS,
                                 **events.HANDLERS, **markets.handlers(self)}
        for kind in [k for k, h in table.items() if getattr(h, "_legal", None) is not None]:
            table["?" + kind] = effects.deferred_handler(kind)
        self.handlers = table  # type: ignore[misc]
        self.observer_memos = observer.Memos(self)
        """The observer's codec and memos of encoded pieces (``observer.Memos``)."""

    @property
    def max_chance_outcomes(self) -> int:
        """Chance draws a bud or cube colour, a weather tile and face (2 ids per tile), an
        event, the start seat, a character (seven) or a merchant card."""
        return max(len(TEAS), 2 * len(self.weather_faces), len(self.events), self.num_players,
                   len(CHARACTERS), len(self.merchants))

    def build_action_space(self) -> ActionSpace:
        """See ``actions.py``."""
        return A.ACTION_SPACE

    def new_initial_state(self) -> TeaState:
        """A new game at its first setup chance event."""
        from .state import EVENTS_IN_GAME
        state = new_state(self.num_players, self.stage_pools,
                          EVENTS_IN_GAME[self.num_players])
        self.settle(state)
        return state

    def advance(self, state: TeaState) -> None:
        """The phase flow runs only during setup; later phases queue their own frames."""
        flow.setup_step(self, state)

    # ----- content helpers ----------------------------------------------------------
    def effect_at(self, track: int, space: int) -> int:
        """Effect code (``content.EFFECTS`` index) of a processing space."""
        return self._effects[track][space]

    def tech_reward_at(self, tea: int, space: int) -> tuple[str, int]:
        """Reward key and value of technology space ``space`` (1-based) of ``tea``."""
        row = self.board.technology[tea]
        return row.rewards[space - 1], row.values[space - 1]

    def water_level(self, s: TeaState, column: int) -> int:
        """The WL shown by the weather tile above plantation ``column``."""
        tile = s.weather[column]
        return self.board.weather[tile].faces[s.face[tile]]

    # ----- contract -------------------------------------------------------------------
    def scores(self, state: TeaState) -> list[float]:
        """Victory points of each seat (final scoring included once the game is over)."""
        return [float(v) for v in state.vp]

    def render(self, state: TeaState, viewer: int | None = None) -> str:
        """The table as text."""
        return render_text(self, state, viewer)

    def render_svg(self, state: TeaState, viewer: int | None = None) -> str:
        """The table as an SVG picture (``picture.py``); all of it is open information,
        so ``viewer`` only marks that seat as "you"."""
        from .picture import render_svg
        return render_svg(self, state, viewer)

    def action_label(self, state: TeaState, action: int) -> str:
        """A readable label."""
        return label_action(self, state, action)

    def check_conservation(self, state: TeaState) -> None:
        """Cubes, buds, workers, discs, cards, events, weather tiles and characters are
        conserved and agree with the phase (``invariants.py``); raise ``StateFormatError``."""
        check_state(self, state)
