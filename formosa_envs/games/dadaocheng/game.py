"""The Dadaocheng engine: :class:`DadaochengGame` on the shared stack-of-decisions core."""

from __future__ import annotations

from collections import OrderedDict
from itertools import chain
from typing import Any, ClassVar

from formosa_envs.core.actions import ActionSpace
from formosa_envs.core.observer import remember
from formosa_envs.core.open_game import OpenGame
from formosa_envs.core.payment import PayHandler
from formosa_envs.core.schema import StateSchema

from . import actions as A
from . import cascade, events, flow, observer, shop
from .config import MAX_PLAYERS, MIN_PLAYERS, DadaochengConfig
from .content import (
    DEN,
    MANSION,
    WORKSHOP,
    load_buildings,
    load_discs,
    load_events,
    load_ships,
    load_temple,
)
from .grid import cascade_can_end
from .invariants import check_state
from .layouts import layout_table
from .picture import render_svg as render_picture
from .render import label_action, render_text
from .schema import STATE_SCHEMA
from .scoring import den_penalty, mansion_vp, most_buildings_bonus, solo_tier
from .state import SEAT_SIDES, DadaochengState, new_state

MAX_DECISIONS = 4000


class DadaochengGame(OpenGame):
    """Dadaocheng for 1-4 players (1 = the single-player game)."""

    name: ClassVar[str] = "dadaocheng"
    title: ClassVar[str] = "Dadaocheng"
    observer: ClassVar[Any] = observer
    max_decisions: ClassVar[int] = MAX_DECISIONS
    apply_forced: ClassVar[bool] = True  # seeds/dadaocheng.md 2.2: forced options apply
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    state_class: ClassVar[type] = DadaochengState
    state_schema: ClassVar[StateSchema] = STATE_SCHEMA

    def __init__(self, config: DadaochengConfig | None = None) -> None:
        super().__init__(config or DadaochengConfig())
        cfg, n = self.config, self.config.num_players
        self.discs = load_discs(cfg.disc_file)
        self.disc_faces = tuple(d.faces for d in self.discs)
        self.ships = load_ships(cfg.ship_file)
        self.ship_prestige = tuple(ship.prestige for ship in self.ships)
        self.ship_level = tuple(ship.level for ship in self.ships)
        self.buildings = load_buildings(cfg.building_file)
        self.building_prestige = tuple(b.prestige for b in self.buildings)
        self.building_costs = tuple(tuple(b.cost) for b in self.buildings)
        self.temple = load_temple(cfg.board_file)
        self.events = load_events()
        self.event_index = {e.key: i for i, e in enumerate(self.events)}
        self.solo = n == 1
        commodity = tuple(sorted(d.faces[0] for d in self.discs if d.faces[0] != 4))
        self.layout_table = layout_table(commodity, self.solo)
        self.ships_per_level = 6 if self.solo else 12
        self.hand_limit = (2 if cfg.solo_challenge == "hand2" else 3) if self.solo else 6
        sides = SEAT_SIDES[n]
        if n == 2 and cfg.two_player_sides == "adjacent":
            sides = (0, 1)
        self.sides = sides
        self._prestige: dict[tuple[Any, ...], list[int]] = {}
        self._can_end: OrderedDict[tuple[Any, int], dict[int, bool]] = OrderedDict()
        self.payment = shop.CubePayment(self)
        self.observer_memos = observer.Memos(self)
        table: dict[str, Any] = {**cascade.HANDLERS, **shop.HANDLERS, **events.HANDLERS,
                                 **flow.HANDLERS, "pay": PayHandler(self.payment, A.COLOUR0)}
        self.handlers = table  # type: ignore[misc]

    @property
    def max_chance_outcomes(self) -> int:
        """Chance places a disc, reveals a ship, draws an event or the start seat, or rolls
        a Temple die (six faces): outcome ids are those of the disc, ship and event."""
        return max(len(self.discs), len(self.ships), len(self.events), self.num_players, 6)

    def build_action_space(self) -> ActionSpace:
        """See ``actions.py``."""
        return A.ACTION_SPACE

    def new_initial_state(self) -> DadaochengState:
        """A new game at its first setup chance event."""
        n = self.num_players
        piles = [b.piles[n - 1] for b in self.buildings]
        pools = [[s.id for s in self.ships if s.level == lvl] for lvl in (1, 2, 3)]
        event_pool = [] if self.solo else list(range(len(self.events)))
        state = new_state(n, self.sides, piles, pools, event_pool)
        self.settle(state)
        return state

    def advance(self, state: DadaochengState) -> None:
        """The phase flow runs only during setup; turns queue their own frames."""
        flow.setup_step(self, state)

    def can_end(self, faces: tuple[tuple[int, int], ...], start: int) -> dict[int, bool]:
        """Which grid states reachable from ``start`` can still end the cascade (cached)."""
        key = (faces, start)
        found = self._can_end.get(key)
        if found is None:
            found = cascade_can_end(faces, start)
            self._can_end[key] = found
            if len(self._can_end) > 256:
                self._can_end.popitem(last=False)
        return found

    # ----- scoring --------------------------------------------------------------------
    def prestige(self, s: DadaochengState) -> list[int]:
        """Each player's prestige if the game ended now (DDC-13); a fresh list (remembered
        by everything it reads: prestige changes only when something is bought or gained)."""
        e1920 = self.event_index["e1920"] in s.events
        key = (*s.credit, *s.opium, *s.sign, e1920, *chain.from_iterable(s.buildings),
               *map(tuple, s.ships))
        found = self._prestige.get(key)
        if found is None:
            found = remember(self._prestige, key, self._prestige_of(s, e1920))
        return found[:]

    def _prestige_of(self, s: DadaochengState, e1920: bool) -> list[int]:
        n = s.num_players
        bonus = [0] * n
        if e1920:
            bonus = most_buildings_bonus([sum(b) for b in s.buildings])
        den = den_penalty(sum(s.opium), n)
        ship_pp, (_, pp1, pp2, pp3, pp4) = self.ship_prestige, self.building_prestige
        out = []
        for p in range(n):
            b = s.buildings[p]
            pp = sum([ship_pp[i] for i in s.ships[p]])
            pp += pp1 * b[1] + pp2 * b[2] + pp3 * b[3] + pp4 * b[4]
            pp += mansion_vp(b[MANSION]) + s.credit[p] // 5 - s.opium[p] - b[DEN] * den
            out.append(pp + 3 * s.sign[p] + bonus[p])
        return out

    def scores(self, state: DadaochengState) -> list[float]:
        """Prestige points (final scoring formula, valid at any time)."""
        return [float(x) for x in self.prestige(state)]

    def ranking_keys(self, state: DadaochengState) -> list[tuple[float, ...]]:
        """(prestige, credit): the most PP wins, credit breaks a tie, a tie on both is
        shared (DDC-13.9, R-35). Returns, rewards, captions and tournaments rank by it."""
        return [(float(pp), float(c)) for pp, c in zip(self.prestige(state), state.credit,
                                                        strict=True)]

    def winners(self, state: DadaochengState) -> list[int]:
        """The top (prestige, credit); solo: the player if the objective is met, else
        nobody (DDC-14.9, DDC-15), so ``returns`` gives +1 / -1 there."""
        if self.solo:
            return [0] if self.solo_result(state)["won"] else []
        return super().winners(state)

    def solo_result(self, s: DadaochengState) -> dict[str, Any]:
        """The single-player outcome: tier, both challenge conditions, won (DDC-14, 15)."""
        score = self.prestige(s)[0]
        level3 = sum(1 for i in s.ships[0] if self.ships[i].level == 3)
        ships_ok = level3 == self.ships_per_level and s.buildings[0][WORKSHOP] == 0
        buildings_ok = all(s.piles[t] == 0 for t in range(4))
        challenge = self.config.solo_challenge
        met = {"ships": ships_ok, "buildings": buildings_ok}.get(challenge, True)
        return {"score": score, "tier": solo_tier(score), "ships_challenge": ships_ok,
                "buildings_challenge": buildings_ok,
                "won": score >= self.config.solo_target and met}

    def potential(self, state: DadaochengState, seat: int) -> float:
        """Prestige so far plus about one prestige per cube in hand (the placeholder value
        logic, seeds/dadaocheng.md 4.6): rewards collecting, not only buying."""
        return float(self.prestige(state)[seat] + sum(state.hand[seat]))

    def final_info(self, state: DadaochengState, seat: int) -> dict[str, Any]:
        """Scores, and in the solo game the objective tier and challenge results."""
        info = super().final_info(state, seat)
        if self.solo:
            info.update(self.solo_result(state), target=self.config.solo_target,
                        challenge=self.config.solo_challenge)
        return info

    # ----- views ----------------------------------------------------------------------
    def render(self, state: DadaochengState, viewer: int | None = None) -> str:
        """The table as text."""
        return render_text(self, state, viewer)

    def render_svg(self, state: DadaochengState, viewer: int | None = None) -> str:
        """The table as an SVG picture (``picture.py``); ``viewer`` marks "you"."""
        return render_picture(self, state, viewer)

    def action_label(self, state: DadaochengState, action: int) -> str:
        """A readable label."""
        return label_action(self, state, action)

    def check_conservation(self, state: DadaochengState) -> None:
        """Discs, ships, building cards and events once each, storehouse and hand caps,
        credit and the round count agree (``invariants.py``); raise
        ``StateFormatError`` naming the field."""
        check_state(self, state)
