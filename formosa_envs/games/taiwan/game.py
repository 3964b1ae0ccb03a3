"""Taiwan Formosa as a formosa engine (the ``Game`` contract over a decision stack).

See ``actions.py`` for the action ids, ``rules.py`` / ``flow.py`` for the rules,
``payment.py`` for how costs are paid and ``seeds/taiwan.md`` for the spec.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from formosa_envs.core.actions import ActionSpace
from formosa_envs.core.decisions import Decision
from formosa_envs.core.engine import CHANCE
from formosa_envs.core.open_game import OpenGame
from formosa_envs.core.schema import StateSchema

from . import actions as A
from . import observer
from .cards import REGIONS, load_buildings, load_landmarks
from .config import MAX_PLAYERS, MIN_PLAYERS, TaiwanConfig
from .flow import FLOW, RED_KEYS
from .invariants import check_state as check_taiwan_state
from .payment import (
    BUY_COIN,
    WORKER,
    NeedTable,
    TaiwanPayment,
    affordable,
    affordable_rows,
    cost_units,
    needs_of,
    printed_units,
)
from .picture import render_svg as draw_svg
from .render import label_action, render_text
from .rules import (
    CHARITY,
    HOT_SPRING,
    P_CHARITY,
    P_COINS,
    P_ITEMS,
    P_LANDMARK,
    P_MERCHANT,
    P_OVERTIME,
    P_TEMPLE,
    PUBLIC_ART,
    UNITS,
    handlers,
    place_markers,
)
from .schema import STATE_SCHEMA
from .state import LANDMARK0, NUM_DECKS, TaiwanState, new_state

MAX_DECISIONS = 6000
FIXED_NEEDS = {key: needs_of(units) for key, units in UNITS.items()}


class TaiwanGame(OpenGame):
    """Taiwan Formosa for 2-5 players."""

    name: ClassVar[str] = "taiwan"
    title: ClassVar[str] = "Taiwan Formosa"
    observer: ClassVar[Any] = observer
    max_decisions: ClassVar[int] = MAX_DECISIONS
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    state_class: ClassVar[type] = TaiwanState
    state_schema: ClassVar[StateSchema] = STATE_SCHEMA

    def __init__(self, config: TaiwanConfig | None = None) -> None:
        super().__init__(config or TaiwanConfig())
        self.buildings = load_buildings(self.config.building_file)
        self.landmarks = load_landmarks(self.config.landmark_file)
        self.type_id = {b.key: b.id for b in self.buildings}
        self.deck_cards = [[lm.id for lm in self.landmarks if lm.deck == d]
                           for d in range(NUM_DECKS)]
        self.region_of = [REGIONS.index(lm.region) for lm in self.landmarks]
        self.payment = TaiwanPayment(self)
        self._units: dict[int, tuple[int, ...]] = {}
        self._need_cache: dict[tuple[int, bool], list[int]] = {}
        self._need_rows = self._build_need_rows()
        self.obs_buffer = observer.LAYOUT.buffer()
        self.handlers = handlers(self)  # type: ignore[misc]

    @property
    def max_chance_outcomes(self) -> int:
        """Chance draws a building type, a landmark card, the start seat or a die face
        (six items)."""
        return max(len(self.buildings), len(self.landmarks), self.num_players, 6)

    def build_action_space(self) -> ActionSpace:
        """See ``actions.py``."""
        return A.ACTION_SPACE

    def new_initial_state(self) -> TaiwanState:
        """A new game at its first setup chance event."""
        state = new_state(self.num_players, self.deck_cards)
        self.settle(state)
        return state

    def advance(self, state: TaiwanState) -> None:
        """One step of the phase flow."""
        FLOW[state.phase](self, state)

    # ----- card helpers ---------------------------------------------------------------
    def completed(self, s: TaiwanState, p: int, key: str) -> int:
        """How many completed copies of building ``key`` player ``p`` owns."""
        return s.built[p].count(self.type_id[key])

    def card_vp(self, code: int) -> int:
        """Printed VP of a building type or landmark code."""
        if code < LANDMARK0:
            return self.buildings[code].vp
        return self.landmarks[code - LANDMARK0].vp

    def card_key(self, code: int) -> str:
        """The ability key of a building code ("landmark" for landmarks)."""
        return self.buildings[code].key if code < LANDMARK0 else "landmark"

    def exclusive_owner(self, s: TaiwanState, key: str) -> int:
        """Who holds red building ``key``'s ability (-1 for nobody)."""
        return s.exclusive[RED_KEYS.index(key)]

    def _other_holds(self, s: TaiwanState, p: int, key: str) -> bool:
        owner = self.exclusive_owner(s, key)
        return owner >= 0 and owner != p

    def purchase_units(self, s: TaiwanState, p: int, card: Any) -> tuple[int, ...]:
        """A card's cost, its worker and the Urban Development Bureau fee if due."""
        units = self._units.get(id(card))
        if units is None:
            units = (*printed_units(card), WORKER)  # worker icons + the purchase's worker
            self._units[id(card)] = units
        if self._other_holds(s, p, "urban_development_bureau"):
            return (*units, BUY_COIN)
        return units

    # ----- the action turn ----------------------------------------------------------
    def action_options(self, s: TaiwanState, p: int) -> list[int]:
        """Every non-PASS action ``p`` can complete now (one budget, vectorised checks)."""
        budget = self.payment.budget(s, p)
        fee = int(self._other_holds(s, p, "urban_development_bureau"))
        ok = affordable_rows(budget, self._need_rows[fee])  # row r affordable: bit r
        options = [A.BUY_B0 + t for t in range(18) if s.piles[t] > 0 and ok >> t & 1]
        options += [A.BUY_L0 + d for d in range(NUM_DECKS)
                    if s.face_up[d] >= 0 and ok >> (18 + s.face_up[d]) & 1]
        for first, row in ((A.EX_ITEMS0, 34), (A.EX_COINS0, 35), (A.EX_MERCH0, 36)):
            if ok >> row & 1:
                options += [first + o for o in range(len(A.OUTPUTS))]
        if ok >> 37 & 1:
            options += [A.OVERTIME0 + i for i, (_c, space) in
                        enumerate(s.track[p][:A.TRACK_SLOTS]) if space >= 2]
        if s.markers[p] > 0:
            options += [A.CHARITY0 + r for r in range(4) if ok >> (39 + r) & 1]
        if self.completed(s, p, "temple") > s.temple_used[p] and ok >> 38 & 1:
            options.append(A.TEMPLE)
        return options

    def _build_need_rows(self) -> list[NeedTable]:
        """Unit-kind counts of every buyable or payable thing, without and with the fee:
        rows 0-17 buildings, 18-33 landmarks, 34-36 exchanges, 37 overtime, 38 temple,
        39-42 charity."""
        tables = []
        for fee in (False, True):
            rows = [self._needs(card, fee) for card in (*self.buildings, *self.landmarks)]
            rows += [FIXED_NEEDS[k] for k in ("items", "coins", "merchant", "overtime",
                                              "temple")]
            rows += [needs_of(self.charity_units(r)) for r in range(4)]
            tables.append(NeedTable(np.array(rows, dtype=np.int64)))
        return tables

    def action_allowed(self, s: TaiwanState, p: int, action: int) -> bool:
        """Whether one non-PASS ``action`` is legal for ``p`` (same rules as the list)."""
        if not self.action_space.contains(action) or action in (A.PASS,):
            return False
        seg, i = self.action_space.decode(action)
        budget = self.payment.budget(s, p)
        fee = self._other_holds(s, p, "urban_development_bureau")
        checks = {
            "BUY_BUILDING": lambda: s.piles[i] > 0 and affordable(
                budget, self._needs(self.buildings[i], fee)),
            "BUY_LANDMARK": lambda: s.face_up[i] >= 0 and affordable(
                budget, self._needs(self.landmarks[s.face_up[i]], fee)),
            "EXCHANGE_ITEMS": lambda: affordable(budget, FIXED_NEEDS["items"]),
            "EXCHANGE_COINS": lambda: affordable(budget, FIXED_NEEDS["coins"]),
            "EXCHANGE_MERCHANT": lambda: affordable(budget, FIXED_NEEDS["merchant"]),
            "OVERTIME": lambda: i < len(s.track[p]) and s.track[p][i][1] >= 2 and affordable(
                budget, FIXED_NEEDS["overtime"]),
            "CHARITY": lambda: s.markers[p] > 0 and affordable(
                budget, needs_of(self.charity_units(i))),
            "TEMPLE": lambda: self.completed(s, p, "temple") > s.temple_used[p] and affordable(
                budget, FIXED_NEEDS["temple"]),
        }
        return seg in checks and bool(checks[seg]())

    def _needs(self, card: Any, fee: bool) -> list[int]:
        key = (id(card), fee)
        need = self._need_cache.get(key)
        if need is None:
            units = printed_units(card)
            need = needs_of((*units, WORKER, *((BUY_COIN,) if fee else ())))
            self._need_cache[key] = need
        return need

    @staticmethod
    def charity_units(region: int) -> tuple[int, ...]:
        """The units of a charitable contribution to ``region``."""
        resource, count, coins = CHARITY[region]
        amounts = [0, 0, 0, 0]
        amounts[resource] = count
        return cost_units(*amounts, coins, purchase=False)

    def action_payment(self, s: TaiwanState, p: int, action: int) -> tuple[int, tuple[int, ...]]:
        """The purpose and units of a chosen action."""
        seg, i = self.action_space.decode(action)
        if seg == "BUY_BUILDING":
            return i, self.purchase_units(s, p, self.buildings[i])
        if seg == "BUY_LANDMARK":
            return P_LANDMARK + i, self.purchase_units(s, p, self.landmarks[s.face_up[i]])
        if seg == "CHARITY":
            return P_CHARITY + i, self.charity_units(i)
        base, units = {"EXCHANGE_ITEMS": (P_ITEMS, UNITS["items"]),
                       "EXCHANGE_COINS": (P_COINS, UNITS["coins"]),
                       "EXCHANGE_MERCHANT": (P_MERCHANT, UNITS["merchant"]),
                       "OVERTIME": (P_OVERTIME, UNITS["overtime"]),
                       "TEMPLE": (P_TEMPLE, UNITS["temple"])}[seg]
        return base + i, units

    def place_building(self, s: TaiwanState, p: int, t: int) -> None:
        """A paid building goes on the time track; fees, Train Station count, placements."""
        b = self.buildings[t]
        s.piles[t] -= 1
        s.bought[p][t] += 1
        self._pay_fee(s, p)
        s.track[p].append([t, b.time + self._other_holds(s, p, "demolition_company")])
        s.last_event = f"player {p} bought {b.name}"
        if b.key == "public_art_installation" and s.markers[p] > 0 and any(
                p not in region for region in s.regions):
            s.stack.append(self._region_decision(p, PUBLIC_ART))
        elif b.key == "hot_spring_hotel":  # scores even with no marker left
            s.stack.append(self._region_decision(p, HOT_SPRING))

    @staticmethod
    def _region_decision(p: int, kind: int) -> Decision:
        return Decision("region", p, ctx=(kind,))

    def place_landmark(self, s: TaiwanState, p: int, deck: int) -> None:
        """A paid landmark goes on the track, places a marker, and the deck turns its next."""
        card = s.face_up[deck]
        lm = self.landmarks[card]
        s.face_up[deck] = -1
        self._pay_fee(s, p)
        delay = self._other_holds(s, p, "demolition_company")
        s.track[p].append([LANDMARK0 + card, lm.time + delay])
        place_markers(s, p, self.region_of[card], 1)
        s.last_event = f"player {p} bought {lm.name}"
        if s.decks[deck]:
            s.stack.append(Decision("reveal", CHANCE, ctx=(deck,)))

    def _pay_fee(self, s: TaiwanState, p: int) -> None:
        if self._other_holds(s, p, "urban_development_bureau"):
            s.coins[self.exclusive_owner(s, "urban_development_bureau")] += 1

    # ----- contract -----------------------------------------------------------------
    def scores(self, state: TaiwanState) -> list[float]:
        """Victory points of each seat (``returns`` breaks ties by coins)."""
        return [float(v) for v in state.vp]

    def ranking_keys(self, state: TaiwanState) -> list[tuple[float, ...]]:
        """(VP, coins): the most VP wins, coins break a tie, a tie on both is shared
        (T-8.4, R-22). Returns, rewards, captions and tournaments all rank by it."""
        return [(float(v), float(c)) for v, c in zip(state.vp, state.coins, strict=True)]

    def render(self, state: TaiwanState, viewer: int | None = None) -> str:
        """The table as text."""
        return render_text(self, state, viewer)

    def render_svg(self, state: TaiwanState, viewer: int | None = None) -> str:
        """An SVG picture of the table (``picture.py``); ``viewer`` None names every card."""
        return draw_svg(self, state, viewer)

    def action_label(self, state: TaiwanState, action: int) -> str:
        """A readable label."""
        return label_action(self, state, action)

    def check_conservation(self, s: TaiwanState) -> None:
        """Building copies, landmarks, markers, holdings within their cards, red-building
        owners and turn order agree (``invariants.py``); raise ``StateFormatError``."""
        check_taiwan_state(self, s)
