"""Formosa Flowers as a formosa engine (the ``Game`` contract over a decision stack).

See ``actions.py`` for the action ids, ``observer.py`` for the observation,
``rules.py`` for the rules and ``seeds/flowers.md`` for the specification.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from formosa_envs.core.actions import ActionSpace
from formosa_envs.core.decisions import Handler
from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import IllegalActionError
from formosa_envs.core.schema import StateSchema
from formosa_envs.core.stack_game import StackGame

from . import observer
from .actions import ACTION_SPACE, CAPTURE0, CASH, KEEP, LEAVE, MULTIPLIER, PLAY0
from .cards import Card, display_names, load_cards
from .config import MAX_PLAYERS, MIN_PLAYERS, FlowersConfig
from .invariants import check_state as check_flowers_state
from .picture import render_svg
from .render import render_text
from .rules import DEAL, FLOW, HANDLERS
from .schema import STATE_SCHEMA
from .scoring import PileScore, encode_cards, score_encoded
from .state import FlowersState, new_state

MAX_DECISIONS = 4000


class FlowersGame(StackGame):
    """Formosa Flowers for 2-4 players."""

    name: ClassVar[str] = "flowers"
    title: ClassVar[str] = "Formosa Flowers"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    state_class: ClassVar[type] = FlowersState
    handlers: ClassVar[dict[str, Handler]] = HANDLERS
    state_schema: ClassVar[StateSchema] = STATE_SCHEMA

    def __init__(self, config: FlowersConfig | None = None) -> None:
        super().__init__(config or FlowersConfig())
        self.cards: tuple[Card, ...] = load_cards(self.config.card_file)
        self.match_mask = [self._match_bits(c) for c in self.cards]
        self._pile_cache: dict[int, PileScore] = {}
        self._codes = encode_cards(self.cards)
        self.names = list(display_names(self.cards))
        self.hand_size = self.config.hand_size
        self.deal_total = self.hand_size * self.num_players + self.config.field_size
        self.vp_threshold = self.config.vp_threshold
        self._observer = observer.FlowersObserver(self)

    def _match_bits(self, card: Card) -> int:
        bits = 0
        for other in self.cards:
            if other.id != card.id and set(other.months) & set(card.months):
                bits |= 1 << other.id
        return bits

    def build_action_space(self) -> ActionSpace:
        """The 111 Flowers actions (see ``actions.py``)."""
        return ACTION_SPACE

    @property
    def observation_size(self) -> int:
        """Length of a seat's observation."""
        return observer.LAYOUT.size

    def observation_pieces(self) -> list[tuple[str, int, tuple[int, ...], str]]:
        """The named pieces of the observation (see ``observer.py``)."""
        return observer.LAYOUT.describe()

    @property
    def state_size(self) -> int:
        """Length of the global state vector."""
        return observer.LAYOUT.size + observer.HIDDEN_LAYOUT.size

    @property
    def max_chance_outcomes(self) -> int:
        """Deals and reveals draw a card: outcome ids are card codes."""
        return len(self.cards)

    @property
    def max_game_length(self) -> int:
        """Truncation guard in player decisions."""
        return MAX_DECISIONS

    def new_initial_state(self) -> FlowersState:
        """A new game at its first chance node (the first card of the deal)."""
        state = new_state(self.num_players)
        self.settle(state)
        return state

    def advance(self, state: FlowersState) -> None:
        """Run one step of the phase flow."""
        FLOW[state.phase](self, state)

    def sample_chance(self, state: FlowersState, rng: np.random.Generator) -> int:
        """A uniformly random deck card (every chance node is a draw)."""
        if state.over or state.stack[-1].player != CHANCE:
            raise IllegalActionError("sample_chance called but no chance event is pending: "
                                     + self.decision_description(state))
        deck = state.deck
        return deck[int(rng.random() * len(deck))]

    def score_cards(self, card_ids: list[int]) -> PileScore:
        """The best scoring of a pile of card ids (memoised per pile for this game)."""
        key = 0
        for c in card_ids:
            key |= 1 << c
        hit = self._pile_cache.get(key)
        if hit is None:
            if len(self._pile_cache) > 200_000:
                self._pile_cache.clear()
            codes = self._codes
            hit = score_encoded([codes[c] for c in card_ids], self.num_players,
                                self.config.current_month)
            self._pile_cache[key] = hit
        return hit

    def scores(self, state: FlowersState) -> list[float]:
        """Victory points of each seat."""
        return [float(x) for x in state.scores]

    def observe(self, state: FlowersState, seat: int) -> np.ndarray:
        """The observation of ``seat``."""
        return self._observer.observe(state, seat)

    def state_vector(self, state: FlowersState) -> np.ndarray:
        """The global state vector."""
        return observer.state_vector(self, state)

    def render(self, state: FlowersState, viewer: int | None = None) -> str:
        """The table as text, hiding hands other than ``viewer``'s."""
        return render_text(self, state, viewer)

    def render_svg(self, state: FlowersState, viewer: int | None = None) -> str:
        """The table as an SVG picture, hiding hands other than ``viewer``'s."""
        return render_svg(self, state, viewer)

    def action_label(self, state: FlowersState, action: int) -> str:
        """Describe a player action or, at chance nodes, a drawn card."""
        if not state.over and state.stack and state.stack[-1].player == CHANCE:
            verb = "deal" if state.stack[-1].kind == DEAL else "reveal"
            return f"{verb} {self.names[action]}"
        seg, idx = self.action_space.decode(action)
        return _LABELS[seg](self, state, idx)

    def public_label(self, state: FlowersState, action: int,
                     viewer: int | None) -> str | None:
        """Deals are not narrated (hands are secret; the table shows the field)."""
        if state.stack and not state.over and state.stack[-1].kind == DEAL:
            return None
        return self.action_label(state, action)

    def determinize(self, state: FlowersState, viewer: int,
                    rng: np.random.Generator) -> FlowersState:
        """Reshuffle the deck and the other players' hands, keeping every size."""
        out = state.clone()
        others = [p for p in range(state.num_players) if p != viewer]
        # a canonical (sorted) pool: the result depends on the rng and on what the
        # viewer sees, never on how the hidden cards happened to be arranged
        pool = sorted(out.deck + [c for p in others for c in out.hands[p]])
        order = rng.permutation(len(pool))
        shuffled = [pool[i] for i in order]
        out.deck = shuffled[:len(out.deck)]
        pos = len(out.deck)
        for p in others:
            size = len(out.hands[p])
            out.hands[p] = shuffled[pos:pos + size]
            pos += size
        return out

    def check_conservation(self, state: FlowersState) -> None:
        """Every card once, 9 tokens, the deal, the turn and the set VP agree
        (``invariants.py``); raise ``StateFormatError`` naming the field."""
        check_flowers_state(self, state)


def _where(game: FlowersGame, card: int, row: list[int]) -> str:
    """A card of ``row`` (a hand or the field) named as the table shows it: its short
    name, and which copy when a look-alike lies in the same row (drawn by id, left first)."""
    short = game.cards[card].short
    twins = sorted(c for c in row if game.cards[c].short == short)
    if len(twins) < 2 or card not in twins:
        return short
    place = twins.index(card)
    words = ("left", "right") if len(twins) == 2 else \
        tuple(f"{k + 1}. from the left" for k in range(len(twins)))
    return f"{short} ({words[place]} copy)"


def _label_play(game: FlowersGame, s: FlowersState, idx: int) -> str:
    return f"play {_where(game, idx, s.hands[s.turn])}"


def _label_capture(game: FlowersGame, s: FlowersState, idx: int) -> str:
    with_card = f" with {game.cards[s.pending].short}" if s.pending >= 0 else ""
    return f"capture {_where(game, idx, s.field)}{with_card}"


def _label_leave(game: FlowersGame, s: FlowersState, idx: int) -> str:
    if s.pending < 0:
        return "leave the wild card on the field"
    card = game.cards[s.pending]
    free = [m for m in card.months
            if not any(m in game.cards[f].months for f in s.field)]
    month = f" as month {free[0]}" if len(free) == 1 else ""
    return f"leave {card.short} on the field{month}"


def _label_keep(game: FlowersGame, s: FlowersState, idx: int) -> str:
    p = s.turn
    return f"keep playing (sets {s.pile_vp[p]} VP, tokens {s.tokens[p]})"


def _label_cash(game: FlowersGame, s: FlowersState, idx: int) -> str:
    p = s.turn
    mult = MULTIPLIER[s.tokens[p]]
    return f"cash out {s.pile_vp[p]} x{mult} = {s.pile_vp[p] * mult} VP"


_LABELS: dict[str, Any] = {"PLAY_CARD": _label_play, "CAPTURE": _label_capture,
                           "LEAVE_ON_FIELD": _label_leave, "KEEP_PLAYING": _label_keep,
                           "CASH_OUT": _label_cash}
_ = (PLAY0, CAPTURE0, LEAVE, KEEP, CASH)
