"""Named scenario builders: put a Flowers game in a chosen position.

Used by rule tests, notebooks and anyone exploring a rule::

    s = scenario(game, hands=[[cid(game, 3, "bird")], [0]], field=[cid(game, 3)])

Cards not placed anywhere stay in the deck. The state is left at the
``play`` decision of ``turn`` (the start of that player's turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision

from .rules import PLAY
from .state import NUM_CARDS, TOKEN_SUPPLY, FlowersState, Phase, card_locations, new_state

if TYPE_CHECKING:
    from .game import FlowersGame


def cid(game: FlowersGame, month: int | tuple[int, int], icon: str | None = None,
        nth: int = 0) -> int:
    """The id of a card by month (a pair for a wild card) and icon (None = plain)."""
    months = month if isinstance(month, tuple) else (month,)
    wanted = () if icon is None else (icon,)
    found = [c.id for c in game.cards if c.months == months and c.icons == wanted]
    if len(found) <= nth:
        raise KeyError(f"no card #{nth} with months {months} and icon {icon!r}")
    return found[nth]


def scenario(game: FlowersGame, *, hands: list[list[int]], field: list[int],
             piles: list[list[int]] | None = None, deck: list[int] | None = None,
             turn: int = 0, round_start: int = 0, tokens: list[int] | None = None,
             scores: list[int] | None = None, cashed: list[bool] | None = None,
             round_no: int = 1) -> FlowersState:
    """A state at the start of ``turn``'s turn with the given card placement."""
    n = game.num_players
    s = new_state(n)
    s.hands = [list(h) for h in hands]
    s.field = list(field)
    s.piles = [list(p) for p in (piles or [[] for _ in range(n)])]
    used = {c for group in (*s.hands, s.field, *s.piles) for c in group}
    s.deck = [c for c in range(NUM_CARDS) if c not in used] if deck is None else list(deck)
    s.tokens = list(tokens or [0] * n)
    s.supply = TOKEN_SUPPLY - sum(s.tokens)
    s.scores = list(scores or [0] * n)
    s.cashed = list(cashed or [False] * n)
    s.pile_vp = [game.score_cards(p).vp for p in s.piles]
    s.turn, s.round_start, s.round = turn, round_start, round_no
    s.dealt = game.config.hand_size * n + game.config.field_size
    s.phase = Phase.REVEAL
    s.stack = [Decision(PLAY, turn)]
    card_locations(s)
    return s
