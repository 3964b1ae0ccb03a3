"""Formosa Flowers rules: decision handlers and the phase flow (rule ids: seeds/flowers.md).

Decision kinds: ``deal`` and ``reveal`` (chance), ``play``, ``capture_played``,
``capture_revealed`` and ``keep_or_cash`` (player). The phase flow (``FLOW``)
runs whenever the stack is empty: deal the round, start turns, reveal, score,
end turns and rounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from formosa_envs.core.decisions import Decision, Handler
from formosa_envs.core.engine import CHANCE

from .actions import CAPTURE0, CASH, KEEP, LEAVE, MULTIPLIER, PLAY0
from .scoring import completes_new_set
from .state import MAX_TOKENS_PER_PLAYER, NUM_CARDS, FlowersState, Phase

if TYPE_CHECKING:
    from .game import FlowersGame

DEAL, REVEAL, PLAY = "deal", "reveal", "play"
CAPTURE_PLAYED, CAPTURE_REVEALED, KEEP_OR_CASH = "capture_played", "capture_revealed", \
    "keep_or_cash"


DEAL_FRAME = Decision(DEAL, CHANCE)
REVEAL_FRAME = Decision(REVEAL, CHANCE)


class DrawHandler(Handler):
    """A chance draw of one card, uniform over the unordered deck."""

    def outcomes(self, game: FlowersGame, s: FlowersState, d: Decision) -> list[tuple[int, float]]:
        """Every deck card, equally likely."""
        p = 1.0 / len(s.deck)
        return [(c, p) for c in s.deck]

    def is_legal(self, game: FlowersGame, s: FlowersState, d: Decision, action: int) -> bool:
        """A draw outcome must be a card still in the deck."""
        return action in s.deck


class Deal(DrawHandler):
    """F-2.1: deal one card to the next hand (round-robin from the start player), then field."""

    label = "dealing a card"

    def apply(self, game: FlowersGame, s: FlowersState, d: Decision, card: int) -> None:
        """Move ``card`` from the deck to the next hand, or to the field once hands are full."""
        s.deck.remove(card)
        if s.dealt < game.hand_size * s.num_players:
            s.hands[(s.round_start + s.dealt) % s.num_players].append(card)
        else:
            s.field.append(card)
        s.dealt += 1

    def resolve_run(self, game: FlowersGame, s: FlowersState, rng: Any,
                    record: list[int] | None) -> bool:
        """Deal the rest of the round in one loop: the same draws as card by card."""
        s.stack.pop()
        deck, n, in_hands = s.deck, s.num_players, game.hand_size * s.num_players
        for k in range(s.dealt, game.deal_total):
            card = deck.pop(int(rng.random() * len(deck)))
            if k < in_hands:
                s.hands[(s.round_start + k) % n].append(card)
            else:
                s.field.append(card)
            if record is not None:
                record.append(card)
        s.dealt = game.deal_total
        return True


class Reveal(DrawHandler):
    """F-3.3: reveal one card from the deck and match it against the field."""

    label = "revealing a card from the deck"

    def apply(self, game: FlowersGame, s: FlowersState, d: Decision, card: int) -> None:
        """Take ``card`` out of the deck and resolve its match for the active player."""
        s.deck.remove(card)
        s.last_event = f"revealed {game.cards[card].short}"
        resolve_match(game, s, card, CAPTURE_REVEALED)


class Play(Handler):
    """F-3.1: the active player plays one card from hand."""

    label = "choosing a card to play"

    def legal(self, game: FlowersGame, s: FlowersState, d: Decision) -> list[int]:
        """One PLAY_CARD id per card in hand."""
        return sorted(PLAY0 + c for c in s.hands[d.player])

    def is_legal(self, game: FlowersGame, s: FlowersState, d: Decision, action: int) -> bool:
        """Any card in the deciding player's hand may be played."""
        return action - PLAY0 in s.hands[d.player]

    def apply(self, game: FlowersGame, s: FlowersState, d: Decision, action: int) -> None:
        """Remove the card from hand and resolve its match."""
        card = action - PLAY0
        s.hands[d.player].remove(card)
        s.last_event = f"player {d.player} played {game.cards[card].short}"
        resolve_match(game, s, card, CAPTURE_PLAYED)


class Capture(Handler):
    """F-3.2 / F-3.4: choose which matching field card to capture (or leave a wild)."""

    def __init__(self, label: str) -> None:
        self.label = label

    def legal(self, game: FlowersGame, s: FlowersState, d: Decision) -> list[int]:
        """CAPTURE ids of matching field cards, plus LEAVE when a wild may be left."""
        card = d.ctx[0]
        options = sorted(CAPTURE0 + f for f in matching_field(game, s, card))
        if may_leave(game, s, card):
            options.append(LEAVE)
        return options

    def apply(self, game: FlowersGame, s: FlowersState, d: Decision, action: int) -> None:
        """Capture the chosen field card, or leave the wild on the field."""
        if action == LEAVE:
            leave_on_field(s, d.ctx[0])
        else:
            capture(s, d.ctx[0], action - CAPTURE0)

    def describe(self, game: FlowersGame, s: FlowersState, d: Decision) -> str:
        """Name the card being matched."""
        return f"{self.label} with {game.cards[d.ctx[0]].short}"


class KeepOrCash(Handler):
    """F-4.2 / F-4.3: after completing a new set at the threshold, keep playing or cash out."""

    label = "choosing Keep Playing or Cash Out"

    def legal(self, game: FlowersGame, s: FlowersState, d: Decision) -> list[int]:
        """Both options are always open (seeds ruling on the token limit)."""
        return [KEEP, CASH]

    def apply(self, game: FlowersGame, s: FlowersState, d: Decision, action: int) -> None:
        """Take a token (if allowed) or convert sets into VP and leave the round."""
        p = d.player
        if action == KEEP:
            if s.tokens[p] < MAX_TOKENS_PER_PLAYER and s.supply > 0:
                s.tokens[p] += 1
                s.supply -= 1
            s.last_event = f"player {p} keeps playing ({s.tokens[p]} token(s))"
            return
        gained = s.pile_vp[p] * MULTIPLIER[s.tokens[p]]
        s.scores[p] += gained
        s.supply += s.tokens[p]
        s.tokens[p] = 0
        s.cashed[p] = True
        s.last_event = f"player {p} cashed out for {gained} VP"


HANDLERS: dict[str, Handler] = {
    DEAL: Deal(), REVEAL: Reveal(), PLAY: Play(),
    CAPTURE_PLAYED: Capture("choosing a field card to capture"),
    CAPTURE_REVEALED: Capture("choosing a field card to capture"),
    KEEP_OR_CASH: KeepOrCash(),
}


# ----- matching helpers -----------------------------------------------------

def matching_field(game: FlowersGame, s: FlowersState, card: int) -> list[int]:
    """Field cards sharing a month with ``card`` (wilds match either month)."""
    mask = game.match_mask[card]
    return [f for f in s.field if mask >> f & 1]


def may_leave(game: FlowersGame, s: FlowersState, card: int) -> bool:
    """Whether a wild ``card`` can be declared as a month that matches nothing (F-3.5)."""
    months = game.cards[card].months
    if len(months) < 2:
        return False
    return any(not any(m in game.cards[f].months for f in s.field) for m in months)


def resolve_match(game: FlowersGame, s: FlowersState, card: int, kind: str) -> None:
    """Capture automatically when forced, leave when nothing matches, else ask (F-3.2)."""
    targets = matching_field(game, s, card)
    if not targets:
        leave_on_field(s, card)
    elif len(targets) == 1 and not may_leave(game, s, card):
        capture(s, card, targets[0])
    else:
        s.pending = card
        s.stack.append(Decision(kind, s.turn, ctx=(card,)))


def capture(s: FlowersState, card: int, target: int) -> None:
    """Move ``card`` and field card ``target`` into the active player's pile."""
    s.field.remove(target)
    s.piles[s.turn] += (card, target)
    s.turn_captures += (card, target)
    s.pending = -1


def leave_on_field(s: FlowersState, card: int) -> None:
    """Put ``card`` on the field as a new field card."""
    s.field.append(card)
    s.pending = -1


# ----- phase flow -------------------------------------------------------------

def flow_deal(game: FlowersGame, s: FlowersState) -> None:
    """Deal hands then field one chance event at a time; then the start player's turn."""
    if s.dealt < game.deal_total:
        s.stack.append(DEAL_FRAME)
    else:
        s.turn = s.round_start
        s.phase = Phase.TURN


def flow_turn(game: FlowersGame, s: FlowersState) -> None:
    """Start the active player's turn with a play decision."""
    s.turn_captures.clear()
    s.phase = Phase.REVEAL
    s.stack.append(Decision(PLAY, s.turn))


def flow_reveal(game: FlowersGame, s: FlowersState) -> None:
    """Reveal from the deck unless it ran out (F-3.6)."""
    s.phase = Phase.SCORE
    if s.deck:
        s.stack.append(REVEAL_FRAME)


def flow_score(game: FlowersGame, s: FlowersState) -> None:
    """Offer Keep Playing / Cash Out on a new set at the VP threshold (F-4.1)."""
    s.phase = Phase.END_TURN
    if not s.turn_captures:
        return
    p = s.turn
    pile = s.piles[p]
    before = game.score_cards(pile[:len(pile) - len(s.turn_captures)])  # captures come last
    after = game.score_cards(pile)
    s.pile_vp[p] = after.vp
    if completes_new_set(before, after) and after.vp >= game.vp_threshold:
        s.stack.append(Decision(KEEP_OR_CASH, p))


def flow_end_turn(game: FlowersGame, s: FlowersState) -> None:
    """End the round if it is over (F-5.1, F-5.2), else pass the turn clockwise."""
    active = [p for p in range(s.num_players) if not s.cashed[p]]
    if len(active) <= 1 or all(not s.hands[p] for p in active):
        s.phase = Phase.END_ROUND
        return
    nxt = (s.turn + 1) % s.num_players
    while s.cashed[nxt]:
        nxt = (nxt + 1) % s.num_players
    s.turn = nxt
    s.phase = Phase.TURN


def flow_end_round(game: FlowersGame, s: FlowersState) -> None:
    """Finish the game at the target VP (F-6.1), else gather the cards for a new round."""
    if max(s.scores) >= game.config.target_vp:
        s.over = True
        return
    n = s.num_players
    s.supply += sum(s.tokens)
    s.tokens = [0] * n
    s.deck = list(range(NUM_CARDS))
    s.hands = [[] for _ in range(n)]
    s.field = []
    s.piles = [[] for _ in range(n)]
    s.pile_vp = [0] * n
    s.cashed = [False] * n
    s.round += 1
    s.round_start = (s.round_start + 1) % n
    s.dealt = 0
    s.phase = Phase.DEAL


FLOW = {Phase.DEAL: flow_deal, Phase.TURN: flow_turn, Phase.REVEAL: flow_reveal,
        Phase.SCORE: flow_score, Phase.END_TURN: flow_end_turn, Phase.END_ROUND: flow_end_round}
