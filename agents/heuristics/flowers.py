"""A greedy Formosa Flowers player.

* Every option is scored by the *potential* of the pile it leads to: the pile's
  set VP plus ``progress`` x (VP of each set's next tier) x (share of it held)^2,
  counting only sets that can still be completed (enough of their cards lie
  outside the other players' piles).
* ``play`` / capture decisions: the gain in the player's own potential, plus
  ``deny`` x what the captured field card would be worth to the best-placed
  active opponent. A card that matches nothing joins the field: it costs
  ``exposure`` x its worth to opponents, less the chance that this turn's reveal
  captures it back; among such cards the least useful to keep is played.
* ``keep_or_cash``: cash out when that reaches the game target, when the payout
  is large, when few cards remain in hand, or when an opponent is close to
  cashing (its potential near the threshold); otherwise keep playing.

It reads only what the acting seat may see: its own hand, the field, every pile,
tokens, scores, the token supply and hand sizes (never other hands or the deck).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from formosa_envs.games.flowers.actions import CAPTURE0, CASH, KEEP, LEAVE, MULTIPLIER, PLAY0
from formosa_envs.games.flowers.cards import Card
from formosa_envs.games.flowers.rules import KEEP_OR_CASH, PLAY
from formosa_envs.games.flowers.scoring import (
    ANIMAL_SIZE,
    ANIMAL_VP,
    BIRD_VP,
    CASUAL_SIZE,
    CASUAL_VP,
    NIGHT_VP,
    SEPTEMBER,
    TREASURE_MONTHS,
    TREASURE_VP,
    TYPHOON_MONTHS,
    TYPHOON_VP,
    WEATHER_SIZE,
    WEATHER_VP,
)

Tiers = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Weights:
    """Tunable knobs of the heuristic (the defaults were tuned against random and itself)."""

    progress: float = 0.6     # weight of partial set progress in a pile's potential
    deny: float = 0.5         # value of taking a card an opponent wants
    exposure: float = 0.5     # cost of leaving a card on the field for opponents
    hold: float = 0.3         # cost of giving up a hand card's own worth when discarding it
    cash_payout: int = 30     # always cash out a payout at least this large
    cash_hand: int = 1        # cash out when at most this many cards remain in hand
    threat: float = 0.8       # cash out when an opponent's potential >= threat x threshold
    crowd: int = 1            # ... but only with at most this many opponents still active


DEFAULT_WEIGHTS = Weights()


def choose(game: Any, state: Any, rng: np.random.Generator,
           weights: Weights = DEFAULT_WEIGHTS) -> int:
    """The heuristic's action for the deciding seat of a Flowers ``state``."""
    legal = game.legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    d = state.stack[-1]
    if d.kind == KEEP_OR_CASH:
        return _keep_or_cash(game, state, d.player, weights)
    view = _View(game, state, d.player, weights)
    if d.kind == PLAY:
        values = [view.play_value(a - PLAY0) for a in legal]
    else:
        values = [view.capture_value(d.ctx[0], a) for a in legal]
    noise = rng.random(len(values)) * 1e-6  # seeded tie-break
    return legal[int(np.argmax(np.asarray(values) + noise))]


# ----- set tables --------------------------------------------------------------

def _increments(vp_by_size: dict[int, int]) -> Tiers:
    """``(size, extra VP)`` per printed tier of a set scored by size."""
    out, prev = [], 0
    for size in sorted(vp_by_size):
        out.append((size, vp_by_size[size] - prev))
        prev = vp_by_size[size]
    return tuple(out)


def _growing(base: int, vp: int, most: int) -> Tiers:
    """Tiers of a set worth ``vp`` at ``base`` cards and +1 per further card."""
    return ((base, vp), *((k, 1) for k in range(base + 1, most + 1)))


def card_mask(ids: Any) -> int:
    """The bit mask of some card ids (bit ``c`` set for card ``c``)."""
    mask = 0
    for c in ids:
        mask |= 1 << c
    return mask


@lru_cache(maxsize=8)
def set_table(cards: tuple[Card, ...]) -> tuple[tuple[int, Tiers], ...]:
    """``(card mask, tiers)`` of each scoring set, read from the deck's icons."""
    def having(test: Any) -> int:
        return card_mask(c.id for c in cards if test(c))

    def single(c: Card, months: tuple[int, ...]) -> bool:
        return len(c.months) == 1 and c.months[0] in months

    animal = having(lambda c: "animal" in c.icons
                    and not (c.months == (SEPTEMBER,) and "night" in c.icons))
    treasure = having(lambda c: "animal" in c.icons and single(c, TREASURE_MONTHS))
    typhoon = having(lambda c: "weather" in c.icons and single(c, TYPHOON_MONTHS))
    plain = having(lambda c: not c.icons)
    return (
        (having(lambda c: "night" in c.icons), _increments(NIGHT_VP)),
        (having(lambda c: "bird" in c.icons), _increments(BIRD_VP)),
        (animal, _growing(ANIMAL_SIZE, ANIMAL_VP, animal.bit_count())),
        (treasure, ((len(TREASURE_MONTHS), TREASURE_VP),)),
        (having(lambda c: "weather" in c.icons), ((WEATHER_SIZE, WEATHER_VP),)),
        (typhoon, ((len(TYPHOON_MONTHS), TYPHOON_VP),)),
        (plain, _growing(CASUAL_SIZE, CASUAL_VP, plain.bit_count())),
    )


def progress(table: tuple[tuple[int, Tiers], ...], pile: int, possible: int) -> float:
    """Partial credit toward each set's next tier that ``possible`` cards can still reach."""
    total = 0.0
    for mask, tiers in table:
        held = (pile & mask).bit_count()
        reachable = (possible & mask).bit_count()
        for size, extra in tiers:
            if held < size:
                if reachable >= size:
                    share = held / size
                    total += extra * share * share
                break
    return total


# ----- evaluation of options -------------------------------------------------------

class _View:
    """What the acting seat sees, with memoised pile potentials."""

    def __init__(self, game: Any, s: Any, me: int, w: Weights) -> None:
        self.game, self.s, self.me, self.w = game, s, me, w
        self.table = set_table(game.cards)
        self.masks = [card_mask(p) for p in s.piles]
        full = (1 << len(game.cards)) - 1
        every = card_mask(c for p in s.piles for c in p)
        self.possible = [full & ~(every & ~m) for m in self.masks]
        self.rivals = [p for p in range(s.num_players) if p != me and not s.cashed[p]]
        self.base = {}
        seen = self.masks[me] | card_mask(s.hands[me]) | card_mask(s.field) | every
        if s.pending >= 0:
            seen |= 1 << s.pending
        self.unseen = full & ~seen

    def potential(self, seat: int, extra: tuple[int, ...]) -> float:
        """Set VP plus weighted progress of ``seat``'s pile with ``extra`` cards added."""
        pile = self.s.piles[seat]
        vp = self.game.score_cards(pile + list(extra) if extra else pile).vp
        mask = self.masks[seat] | card_mask(extra)
        return vp + self.w.progress * progress(self.table, mask, self.possible[seat])

    def gain(self, seat: int, extra: tuple[int, ...]) -> float:
        """How much ``extra`` cards would raise ``seat``'s potential."""
        if seat not in self.base:
            self.base[seat] = self.potential(seat, ())
        return self.potential(seat, extra) - self.base[seat]

    def threat(self, card: int) -> float:
        """The most ``card`` would be worth to an active opponent."""
        return max((self.gain(p, (card,)) for p in self.rivals), default=0.0)

    def take_value(self, card: int, target: int) -> float:
        """Value of capturing field card ``target`` with ``card``."""
        return self.gain(self.me, (card, target)) + self.w.deny * self.threat(target)

    def leave_value(self, card: int) -> float:
        """Value of putting ``card`` on the field (it may be recaptured by the reveal)."""
        match = self.game.match_mask[card]
        hits = (self.unseen & match).bit_count()
        chance = hits / max(1, self.unseen.bit_count())
        own = self.gain(self.me, (card,))
        return chance * own - self.w.exposure * self.threat(card)

    def play_value(self, card: int) -> float:
        """Value of playing ``card`` from hand (its best capture, or joining the field)."""
        match = self.game.match_mask[card]
        targets = [f for f in self.s.field if match >> f & 1]
        if targets:
            return max(self.take_value(card, t) for t in targets)
        return self.leave_value(card) - self.w.hold * self.gain(self.me, (card,))

    def capture_value(self, card: int, action: int) -> float:
        """Value of a capture decision's option for the card being matched."""
        if action == LEAVE:
            return self.leave_value(card)
        return self.take_value(card, action - CAPTURE0)


def seat_value(game: Any, s: Any, seat: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """A position's worth to ``seat`` in VP: its banked score plus, while it is still in
    the round, its pile's potential (set VP and weighted progress, as the heuristic counts
    it) times its tokens' multiplier. Reads only the piles, scores and tokens (open)."""
    if s.cashed[seat]:
        return float(s.scores[seat])
    masks = [card_mask(p) for p in s.piles]
    every = 0
    for mask in masks:
        every |= mask
    possible = ((1 << len(game.cards)) - 1) & ~(every & ~masks[seat])
    pile = game.score_cards(s.piles[seat]).vp + w.progress * progress(
        set_table(game.cards), masks[seat], possible)
    return s.scores[seat] + MULTIPLIER[s.tokens[seat]] * pile


def play_values(game: Any, s: Any, seat: int, played: int, cards: list[int],
                w: Weights = DEFAULT_WEIGHTS) -> tuple[float, list[float]]:
    """The heuristic's value of playing ``played`` at ``seat``'s play decision ``s``, and
    of playing each of ``cards`` there instead, as if ``played`` were the only card of its
    hand that others can place (its other cards are unknown to them: they count as unseen
    in the recapture chance). Reads only what every seat sees, and ``played``."""
    view_state = s.clone()
    view_state.hands[seat] = [played]
    view = _View(game, view_state, seat, w)
    return view.play_value(played), [view.play_value(c) for c in cards]


# ----- keep playing or cash out -----------------------------------------------------

def _keep_or_cash(game: Any, s: Any, me: int, w: Weights) -> int:
    """Cash out when the payout is big, the target is reached or the round is risky."""
    payout = s.pile_vp[me] * MULTIPLIER[s.tokens[me]]
    if s.scores[me] + payout >= game.config.target_vp or payout >= w.cash_payout:
        return CASH
    if len(s.hands[me]) <= w.cash_hand:
        return CASH
    view = _View(game, s, me, w)
    if len(view.rivals) > w.crowd:  # no single opponent can end the round yet
        return KEEP
    danger = max((view.potential(p, ()) for p in view.rivals), default=0.0)
    # a potential exactly at the line counts as reaching it (float rounding must not
    # decide: the JAX heuristic computes in float32 and makes the same call)
    return CASH if danger >= w.threat * game.vp_threshold - 1e-9 else KEEP
