"""Text rendering of a Formosa Flowers state (render modes ``ansi`` and ``human``, and
the table ``formosa play`` prints before every human decision)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.text import table_footer, table_header
from formosa_envs.core.wording import plural, seat_tags

from .actions import MULTIPLIER
from .state import FlowersState

if TYPE_CHECKING:
    from .game import FlowersGame


def render_text(game: FlowersGame, s: FlowersState, viewer: int | None = None) -> str:
    """The table as a person sees it; hands other than ``viewer``'s are hidden.

    ``viewer=None`` shows every hand (a spectator's or debugger's view). Cards are
    named ``month-Icon`` (``3-Bird``, ``9/10`` for a wild card).
    """
    lines = [table_header(game.title, [f"round {s.round}",
                                       f"first to {game.config.target_vp} VP wins"]),
             f"Deck: {plural(len(s.deck), 'card')} face down; token supply: {s.supply}"]
    lines.append("Field: " + (f"{_cards(game, s.field)} ({plural(len(s.field), 'card')})"
                              if s.field else "(empty)"))
    if s.pending >= 0:
        lines.append(f"Being matched: [{game.cards[s.pending].short}]")
    for p in range(s.num_players):
        lines.extend(_seat_lines(game, s, p, viewer))
    return "\n".join(lines + table_footer(s.last_event, game.decision_description(s)))


def _cards(game: FlowersGame, cards: list[int]) -> str:
    return " ".join(f"[{game.cards[c].short}]" for c in sorted(cards))


def _seat_lines(game: FlowersGame, s: FlowersState, p: int, viewer: int | None) -> list[str]:
    extra = ["starts the round"] if p == s.round_start else []
    if s.cashed[p]:
        extra.append("cashed out")
    head = seat_tags(p, viewer, None if s.over else s.turn, extra)
    tokens = s.tokens[p]
    head += (f": {s.scores[p]} VP, {plural(tokens, 'token')} (cash out x{MULTIPLIER[tokens]}),"
             f" sets worth {game.score_cards(s.piles[p]).vp} VP")
    if viewer is None or viewer == p:
        hand = f"hand ({len(s.hands[p])}): " + (_cards(game, s.hands[p]) or "(empty)")
    else:
        hand = f"hand: {len(s.hands[p])} hidden card(s)"
    pile = " ".join(game.cards[c].short for c in sorted(s.piles[p])) or "(none)"
    sets = ", ".join(f"{x.name} ({x.cards} cards, {x.vp} VP)"
                     for x in game.score_cards(s.piles[p]).sets) or "none yet"
    return [head, f"    {hand}",
            f"    captured ({len(s.piles[p])}): {pile}; sets: {sets}"]
