"""Text rendering of a Formosa Flowers state (render modes ``ansi`` and ``human``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import MULTIPLIER
from .state import FlowersState

if TYPE_CHECKING:
    from .game import FlowersGame


def render_text(game: FlowersGame, s: FlowersState, viewer: int | None = None) -> str:
    """The table as a person sees it; hands other than ``viewer``'s are hidden.

    ``viewer=None`` shows every hand (a spectator's or debugger's view).
    """
    names = game.cards
    lines = [f"Formosa Flowers - round {s.round} - deck {len(s.deck)} cards - "
             f"token supply {s.supply} - target {game.config.target_vp} VP"]
    lines.append("Field: " + (" ".join(f"[{names[c].short}]" for c in sorted(s.field))
                              or "(empty)"))
    if s.pending >= 0:
        lines.append(f"Being matched: [{names[s.pending].short}]")
    for p in range(s.num_players):
        lines.extend(_seat_lines(game, s, p, viewer))
    if s.last_event:
        lines.append(f"Last: {s.last_event}")
    lines.append("Now: " + game.decision_description(s))
    return "\n".join(lines)


def _seat_lines(game: FlowersGame, s: FlowersState, p: int, viewer: int | None) -> list[str]:
    tags = []
    if p == viewer:
        tags.append("you")
    if p == s.round_start:
        tags.append("start")
    if p == s.turn and not s.over:
        tags.append("turn")
    if s.cashed[p]:
        tags.append("cashed out")
    head = (f"Player {p}" + (f" ({', '.join(tags)})" if tags else "")
            + f": {s.scores[p]} VP, tokens {s.tokens[p]} (x{MULTIPLIER[s.tokens[p]]}),"
            f" sets worth {game.score_cards(s.piles[p]).vp} VP")
    if viewer is None or viewer == p:
        hand = " ".join(f"[{game.cards[c].short}]" for c in sorted(s.hands[p])) or "(empty)"
    else:
        hand = f"{len(s.hands[p])} hidden card(s)"
    pile = " ".join(game.cards[c].short for c in sorted(s.piles[p])) or "(empty)"
    sets = ", ".join(f"{x.name} {x.cards} cards {x.vp} VP"
                     for x in game.score_cards(s.piles[p]).sets) or "none"
    return [head, f"    hand: {hand}", f"    pile: {pile}", f"    sets: {sets}"]
