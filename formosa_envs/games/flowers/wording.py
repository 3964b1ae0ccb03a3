"""Formosa Flowers in words: what each decision asks and how chance is told.

Read by ``formosa_envs.tools.narrate`` (the contract is in its docstring). Deals are
hidden from every seat (``FlowersGame.public_label``): their summary only counts cards.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.wording import plural

from .actions import LEAVE, MULTIPLIER
from .rules import CAPTURE_PLAYED, CAPTURE_REVEALED, DEAL, KEEP_OR_CASH, PLAY, matching_field
from .state import MAX_TOKENS_PER_PLAYER, FlowersState

if TYPE_CHECKING:
    from .game import FlowersGame

FIELD = "field"


def whose_turn(game: FlowersGame, s: FlowersState) -> int | None:
    """The active player (every Flowers decision is theirs)."""
    return None if s.over else s.turn


def prompt(game: FlowersGame, s: FlowersState) -> str:
    """The pending decision as an instruction to the deciding seat."""
    d = s.stack[-1]
    if d.kind == PLAY:
        return "choose a card from your hand to play"
    if d.kind in (CAPTURE_PLAYED, CAPTURE_REVEALED):
        return _capture_prompt(game, s, d.kind, d.ctx[0])
    if d.kind == KEEP_OR_CASH:
        return _keep_prompt(s, d.player)
    return game.decision_description(s)


def _capture_prompt(game: FlowersGame, s: FlowersState, kind: str, card: int) -> str:
    whose = "your played" if kind == CAPTURE_PLAYED else "the revealed"
    targets = len(matching_field(game, s, card))
    text = (f"{whose} {game.cards[card].short} matches {plural(targets, 'field card')}: "
            "choose which field card to capture")
    if LEAVE in game.legal_actions(s):
        text += " (or leave it on the field)"
    return text


def _keep_prompt(s: FlowersState, p: int) -> str:
    vp, tokens = s.pile_vp[p], s.tokens[p]
    token = (f"take a token, x{MULTIPLIER[tokens + 1]}"
             if tokens < MAX_TOKENS_PER_PLAYER and s.supply else "no token left to take")
    return (f"you completed a new set (sets worth {vp} VP). Keep playing ({token}) or "
            f"cash out now for {vp} x{MULTIPLIER[tokens]} = {vp * MULTIPLIER[tokens]} VP?")


def chance_note(game: FlowersGame, s: FlowersState, card: int) -> tuple[str, str, str]:
    """A deal goes to a hand or the field; a reveal turns up a deck card."""
    d = s.stack[-1]
    if d.player == CHANCE and d.kind == DEAL:
        n = s.num_players
        who = FIELD if s.dealt >= game.hand_size * n else f"{(s.round_start + s.dealt) % n}"
        return DEAL, who, game.cards[card].short
    return d.kind, "", game.cards[card].short


def chance_line(game: FlowersGame, group: str, items: list[tuple[str, str | None]]) -> str:
    """``cards dealt: 8 to each hand (hidden), 8 face up on the field``; reveals by name."""
    if group != DEAL:
        shown = [what or "a card" for _, what in items]
        return f"revealed from the deck: {', '.join(shown)}"
    counts = Counter(who for who, _ in items)
    field = counts.pop(FIELD, 0)
    hands = set(counts.values())
    if len(hands) == 1 and len(counts) == game.num_players:
        parts = [f"{hands.pop()} to each hand (hidden)"]
    else:
        parts = [f"{k} to player {who}" for who, k in counts.items()]
    if field:
        parts.append(f"{field} face up on the field")
    return f"cards dealt: {', '.join(parts)}"
