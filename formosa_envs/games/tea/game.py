"""The Formosa Tea engine: :class:`TeaGame` on the shared stack-of-decisions core."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from formosa_envs.core.actions import ActionSpace
from formosa_envs.core.engine import StackGame
from formosa_envs.core.errors import StateFormatError

from . import actions as A
from . import effects, events, flow, markets, observer, turn
from .config import MAX_PLAYERS, MIN_PLAYERS, TeaConfig
from .content import EFFECTS, load_board, load_events, load_merchants
from .invariants import check_state
from .render import label_action, render_text
from .state import TeaState, new_state

MAX_DECISIONS = 5000


class TeaGame(StackGame):
    """Formosa Tea for 2-4 players, basic or advanced rules."""

    name: ClassVar[str] = "tea"
    hidden_information: ClassVar[bool] = False  # bag and deck order are chance, not secrets
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    state_class: ClassVar[type] = TeaState

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
        self.stage_pools = [[c.id for c in in_deck if c.stage == st] for st in (1, 2, 3)]
        self.payment = markets.CubePayment(self)
        self.card_features = observer.card_table(self)
        self.play_spaces = [sp for sp in range(16) if sp % 4 >= (self.num_players < 4)]
        self.weather_faces = [tuple(w.faces) for w in self.board.weather]
        table: dict[str, Any] = {**effects.HANDLERS, **turn.HANDLERS, **flow.HANDLERS,
                                 **events.HANDLERS, **markets.handlers(self)}
        for kind in [k for k, h in table.items() if getattr(h, "_legal", None) is not None]:
            table["?" + kind] = effects.deferred_handler(kind)
        self.handlers = table  # type: ignore[misc]

    def build_action_space(self) -> ActionSpace:
        """See ``actions.py``."""
        return A.ACTION_SPACE

    @property
    def observation_size(self) -> int:
        """Length of a seat's observation."""
        return observer.LAYOUT.size

    @property
    def state_size(self) -> int:
        """Seat 0's view is the global state: nothing else is hidden."""
        return observer.LAYOUT.size

    @property
    def max_game_length(self) -> int:
        """Truncation guard in player decisions."""
        return MAX_DECISIONS

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

    def observe(self, state: TeaState, seat: int) -> np.ndarray:
        """The observation of ``seat`` (everything but bag and deck order is public)."""
        return observer.observe(self, state, seat)

    def observation_pieces(self) -> list[tuple[str, int, tuple[int, ...], str]]:
        """The named pieces of the observation."""
        return observer.LAYOUT.describe()

    def state_vector(self, state: TeaState) -> np.ndarray:
        """Seat 0's view: nothing is hidden apart from the bag and deck order."""
        return observer.observe(self, state, 0)

    def render(self, state: TeaState, viewer: int | None = None) -> str:
        """The table as text."""
        return render_text(self, state)

    def action_label(self, state: TeaState, action: int) -> str:
        """A readable label."""
        return label_action(self, state, action)

    def determinize(self, state: TeaState, viewer: int,
                    rng: np.random.Generator) -> TeaState:
        """Nothing is hidden: the bag's and the deck's contents are known by counting."""
        return state.clone()

    def check_invariants(self, state: TeaState) -> None:
        """Cubes, buds, workers, discs and cards are conserved; nothing is negative."""
        check_state(self, state)

    def validate_state(self, state: TeaState) -> None:
        """A restored state must pass the conservation checks."""
        try:
            check_state(self, state)
        except (AssertionError, IndexError, TypeError, ValueError) as exc:
            raise StateFormatError(f"saved Formosa Tea state is inconsistent: {exc}") from None
