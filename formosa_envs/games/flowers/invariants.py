"""Conservation and consistency laws of a Formosa Flowers state (``check_conservation``).

Each law raises :class:`~formosa_envs.core.errors.StateFormatError` naming the field
that breaks it (``core/invariants.py``). Rule ids refer to ``seeds/flowers.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.invariants import (
    check_between,
    check_each,
    check_total,
    check_zones,
    require,
)

from .rules import CAPTURE_PLAYED, CAPTURE_REVEALED, DEAL, KEEP_OR_CASH, PLAY, REVEAL
from .state import MAX_TOKENS_PER_PLAYER, NUM_CARDS, TOKEN_SUPPLY, FlowersState, Phase

if TYPE_CHECKING:
    from .game import FlowersGame

PHASE_OF_KIND = {DEAL: Phase.DEAL, PLAY: Phase.REVEAL, CAPTURE_PLAYED: Phase.REVEAL,
                 REVEAL: Phase.SCORE, CAPTURE_REVEALED: Phase.SCORE,
                 KEEP_OR_CASH: Phase.END_TURN}
"""The phase the flow is in while each kind of decision is pending (``rules.FLOW``)."""


def check_state(game: FlowersGame, s: FlowersState) -> None:
    """Raise ``StateFormatError`` naming the first broken law."""
    n = game.num_players
    zones = {"deck": s.deck, "field": s.field,
             "pending": [s.pending] if s.pending >= 0 else []}
    zones.update({f"hands[{p}]": s.hands[p] for p in range(n)})
    zones.update({f"piles[{p}]": s.piles[p] for p in range(n)})
    check_zones("cards", zones, range(NUM_CARDS), item="card")          # F-1.1
    _check_tokens(s, n)
    for p in range(n):                                                   # F-1.4
        require(s.scores[p] >= 0, f"scores[{p}]", f"is {s.scores[p]}; VP are only ever added")
    check_each("hands", [len(h) for h in s.hands], 0, game.hand_size, "cards dealt per hand")
    for p in range(n):
        require(len(s.piles[p]) % 2 == 0, f"piles[{p}]", "captures come in pairs (F-3.2)")
    require(s.round >= 1, "round", f"is {s.round}; rounds count from 1")
    require(s.round_start == (s.round - 1) % n, "round_start",
            f"is {s.round_start}; round {s.round} starts at seat {(s.round - 1) % n} (F-2.3)")
    if s.over:
        _check_over(game, s)
    else:
        _check_stack(game, s)
        _check_round(game, s, n)


def _check_tokens(s: FlowersState, n: int) -> None:
    """F-1.3 / F-4.2 / F-4.3: 9 tokens, at most 3 a player, none kept after cashing out."""
    parts = {"supply": s.supply}
    parts.update({f"tokens[{p}]": s.tokens[p] for p in range(n)})
    check_total("tokens", parts, TOKEN_SUPPLY, item="Keep Playing token")
    check_each("tokens", s.tokens, 0, MAX_TOKENS_PER_PLAYER, "F-4.2")
    for p in range(n):
        require(not (s.cashed[p] and s.tokens[p]), f"tokens[{p}]",
                "a player who cashed out returned their tokens (F-4.3)")


def _check_over(game: FlowersGame, s: FlowersState) -> None:
    """F-6.1: the game ends only at the end of a round, with a score at the target."""
    require(s.phase == Phase.END_ROUND, "over", f"is true but phase is {s.phase}, "
            f"not the end of a round ({Phase.END_ROUND})")
    require(max(s.scores) >= game.config.target_vp, "over",
            f"is true but no score reaches target_vp {game.config.target_vp}")
    require(not s.stack, "stack", "a finished game has no pending decision")


def _check_stack(game: FlowersGame, s: FlowersState) -> None:
    """One decision at a time, of the kind the phase expects, for the active player."""
    require(len(s.stack) == 1, "stack", f"holds {len(s.stack)} decisions; Flowers has "
            "exactly one pending decision while the game is on")
    d = s.stack[-1]
    require(s.phase == PHASE_OF_KIND.get(d.kind, -1), "phase",
            f"is {s.phase}, but a {d.kind!r} decision is pending")
    if d.kind in (DEAL, REVEAL):
        require(d.player == CHANCE and bool(s.deck), "stack", f"{d.kind!r} draws from the deck")
    else:
        require(d.player == s.turn, "stack", f"the {d.kind!r} decision is for seat "
                f"{d.player}, but it is seat {s.turn}'s turn")
    capturing = d.kind in (CAPTURE_PLAYED, CAPTURE_REVEALED)
    require(capturing == (s.pending >= 0), "pending",
            f"is {s.pending}; a card is pending exactly while a capture is decided")
    if capturing:
        require(tuple(d.ctx) == (s.pending,), "stack",
                f"the capture matches card {d.ctx}, but the pending card is {s.pending}")
    if d.kind == PLAY:
        require(bool(s.hands[s.turn]), f"hands[{s.turn}]", "is empty but must play a card")
    if d.kind == KEEP_OR_CASH:
        require(s.pile_vp[s.turn] >= game.vp_threshold, f"pile_vp[{s.turn}]",
                f"Keep or Cash is offered only at {game.vp_threshold}+ set VP (F-4.1)")


def _check_round(game: FlowersGame, s: FlowersState, n: int) -> None:
    """The deal, the active players and the set VP agree with the cards."""
    if s.phase == Phase.DEAL:
        _check_deal(game, s, n)
        return
    require(s.dealt == game.deal_total, "dealt", f"is {s.dealt}; the deal of "
            f"{game.deal_total} cards is over once turns start")
    active = [p for p in range(n) if not s.cashed[p]]
    require(len(active) >= 2, "cashed", "a round ends when one player is left (F-5.1)")
    require(not s.cashed[s.turn], "turn", f"seat {s.turn} cashed out and has no turns")
    sizes = [len(s.hands[p]) for p in active]
    require(max(sizes) - min(sizes) <= 1, "cashed", f"the players still in the round "
            f"({active}) hold {sizes} cards: they play one card each in turn, so their "
            "hands differ by one card at most")
    _check_hand_order(s, n, active)
    tc = s.turn_captures
    if s.phase == Phase.REVEAL:
        require(not tc, "turn_captures", "no capture yet before the play is resolved")
    else:
        pile = s.piles[s.turn]
        require(len(tc) <= len(pile) and pile[len(pile) - len(tc):] == tc, "turn_captures",
                f"{tc} are not the last cards of piles[{s.turn}]")
    for p in range(n):
        pile = s.piles[p]
        if p == s.turn and s.phase != Phase.END_TURN:
            pile = pile[:len(pile) - len(tc)]  # this turn's captures are scored at F-4
        vp = game.score_cards(pile).vp
        require(s.pile_vp[p] == vp, f"pile_vp[{p}]",
                f"is {s.pile_vp[p]}; piles[{p}] scores {vp} set VP (F-7.1)")


def _check_hand_order(s: FlowersState, n: int, active: list[int]) -> None:
    """F-3: the players still in the round play one card each in seat order from the
    round's start player, so those who have played in the current cycle (the seats from
    ``round_start`` up to ``turn``, the turn player too once its card is played) hold one
    card fewer than those still to play."""
    played_now = s.stack[-1].kind != PLAY
    ahead: set[int] = set()
    for k in range(n):
        p = (s.round_start + k) % n
        if p == s.turn:
            if played_now:
                ahead.add(p)
            break
        ahead.add(p)
    sizes = {p: len(s.hands[p]) + (p in ahead) for p in active}
    want = sizes[s.turn]
    for p in active:
        require(sizes[p] == want, f"hands[{p}]",
                f"holds {len(s.hands[p])} cards, but seat {s.turn} is to play with "
                f"{len(s.hands[s.turn])} (round start seat {s.round_start}): the players "
                f"still in the round play one card each in turn from the start seat, so "
                f"seat {p} must hold {want - (p in ahead)}")


def _check_deal(game: FlowersGame, s: FlowersState, n: int) -> None:
    """F-2.1: hands are dealt round-robin from the start player, then the field."""
    check_between("dealt", s.dealt, 0, game.deal_total - 1, "a deal is in progress")
    in_hands = min(s.dealt, game.hand_size * n)
    for p in range(n):
        want = sum(1 for k in range(in_hands) if (s.round_start + k) % n == p)
        require(len(s.hands[p]) == want, f"hands[{p}]",
                f"holds {len(s.hands[p])} cards after {s.dealt} dealt; expected {want}")
        require(not (s.piles[p] or s.cashed[p] or s.pile_vp[p] or s.tokens[p]), f"piles[{p}]",
                "a round starts with empty piles, no tokens, nobody cashed out (F-2.4)")
    require(len(s.field) == s.dealt - in_hands, "field",
            f"holds {len(s.field)} cards after {s.dealt} dealt")
