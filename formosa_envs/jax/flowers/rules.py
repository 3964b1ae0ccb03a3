"""The Flowers rules as pure JAX functions (rule ids: ``seeds/flowers.md``).

One player decision runs the turn forward as a fixed pipeline, each stage gated by a
boolean instead of Python control flow: apply the decision, finish the matching of the
played card, reveal and match (F-3.3), score (F-4.1), keep or cash (F-4.2/4.3), end the
turn (F-5) and, at the end of a round, finish the game (F-6.1) or deal the next round
(F-2, :mod:`.deal`). The pipeline stops at the next player decision, exactly where the
Python engine's ``resolve_chance`` stops. Card sets are packed words (:mod:`.bits`).
"""

from __future__ import annotations

from dataclasses import dataclass

import jax.numpy as jnp

from formosa_envs.games.flowers.actions import CAPTURE0, CASH, KEEP, LEAVE, MULTIPLIER
from formosa_envs.games.flowers.state import MAX_TOKENS_PER_PLAYER, NUM_CARDS, TOKEN_SUPPLY

from . import bits
from .scoring import Scorer, score_pile
from .state import CAPTURE_PLAYED, CAPTURE_REVEALED, KEEP_OR_CASH, OVER, PLAY, State
from .tables import CardTables

NONE = jnp.uint32(0)
"""The empty card set's word."""


@dataclass(frozen=True, eq=False)
class Ctx:
    """The static part of a configuration: sizes, limits and constant tables."""

    num_players: int
    hand_size: int
    deal_total: int
    threshold: int
    target_vp: int
    cards: CardTables
    scorer: Scorer


def seat_mask(ctx: Ctx, seat: jnp.ndarray) -> jnp.ndarray:
    """bool[n]: one-hot of ``seat``."""
    return jnp.arange(ctx.num_players) == seat


def match_info(ctx: Ctx, field: jnp.ndarray, card: jnp.ndarray
               ) -> tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]:
    """Field cards matching ``card`` (a card set), their number, and whether a wild may
    stay (F-3.5: one of its months has no card on the field)."""
    t = ctx.cards
    card = jnp.clip(card, 0, NUM_CARDS - 1)
    targets = field & t.match[card]
    leave = t.wild[card] & (~bits.nonempty(field & t.month_a[card])
                            | ~bits.nonempty(field & t.month_b[card]))
    return targets, bits.count(targets), leave


def auto_target(ctx: Ctx, field: jnp.ndarray, card: jnp.ndarray
                ) -> tuple[jnp.ndarray, jnp.ndarray]:
    """``(ask, target)``: a real choice, else the forced capture (-1: leave) (F-3.2)."""
    targets, count, leave = match_info(ctx, field, card)
    ask = (count >= 2) | ((count == 1) & leave)
    return ask, jnp.where(count == 1, bits.lowest(targets), -1)


def apply_match(ctx: Ctx, s: State, card: jnp.ndarray, target: jnp.ndarray,
                do: jnp.ndarray) -> State:
    """When ``do``: capture ``target`` with ``card`` into the active pile, or (target -1)
    leave ``card`` on the field."""
    take = do & (target >= 0)
    card_set = jnp.where(do, bits.card_bits(card), NONE)
    target_set = jnp.where(take, bits.card_bits(target), NONE)
    field = (s.field | jnp.where(take, NONE, card_set)) & ~target_set
    gained = jnp.where(take, card_set | target_set, NONE)
    piles = jnp.where(seat_mask(ctx, s.turn)[:, None], s.piles | gained, s.piles)
    return s._replace(field=field, piles=piles, captured=s.captured | take,
                      pending=jnp.where(do, -1, s.pending))


def seat_cards(ctx: Ctx, sets: jnp.ndarray, seat: jnp.ndarray) -> jnp.ndarray:
    """The card set of ``seat`` in ``sets`` (uint32[n, 2], one set per seat)."""
    return jnp.where(seat_mask(ctx, seat)[:, None], sets, NONE).sum(axis=0, dtype=jnp.uint32)


def play_and_match(ctx: Ctx, s: State, kind: jnp.ndarray, action: jnp.ndarray
                   ) -> tuple[State, jnp.ndarray]:
    """F-3.1/F-3.2: a play or a capture choice for the played card (``kind``: the decision
    answered); returns ``(s, go on)``."""
    is_play, is_choice = kind == PLAY, kind == CAPTURE_PLAYED
    played = jnp.where(is_play & seat_mask(ctx, s.turn)[:, None], bits.card_bits(action), NONE)
    hands = s.hands & ~played
    card = jnp.where(is_play, action, s.pending)
    ask, forced = auto_target(ctx, s.field, card)
    ask = ask & is_play
    target = jnp.where(is_play, forced, choice_target(action))
    s = apply_match(ctx, s._replace(hands=hands), card, target, (is_play & ~ask) | is_choice)
    s = s._replace(pending=jnp.where(ask, card, s.pending),
                   kind=jnp.where(ask, CAPTURE_PLAYED, s.kind))
    return s, (is_play & ~ask) | is_choice


def choice_target(action: jnp.ndarray) -> jnp.ndarray:
    """The field card a capture decision names (-1 for LEAVE_ON_FIELD)."""
    return jnp.where(action == LEAVE, -1, action - CAPTURE0)


def reveal_and_match(ctx: Ctx, s: State, kind: jnp.ndarray, action: jnp.ndarray,
                     go: jnp.ndarray) -> tuple[State, jnp.ndarray, jnp.ndarray]:
    """F-3.3/F-3.4: reveal (when ``go``) or a capture choice for the revealed card. The
    deck is the undealt tail of the round's shuffle, so its next card is a uniform draw
    from the cards left.

    Returns ``(s, go on to scoring, revealed card or -1)``."""
    is_choice = kind == CAPTURE_REVEALED
    reveal = go & (s.deck_next < NUM_CARDS)
    drawn = s.deck_order[jnp.minimum(s.deck_next, NUM_CARDS - 1)]
    s = s._replace(deck_next=s.deck_next + reveal)
    card = jnp.where(is_choice, s.pending, drawn)
    ask, forced = auto_target(ctx, s.field, card)
    ask = ask & reveal
    target = jnp.where(is_choice, choice_target(action), forced)
    s = apply_match(ctx, s, card, target, (reveal & ~ask) | is_choice)
    s = s._replace(pending=jnp.where(ask, card, s.pending),
                   kind=jnp.where(ask, CAPTURE_REVEALED, s.kind))
    return s, (go & ~ask) | is_choice, jnp.where(reveal, drawn, -1)


def score_turn(ctx: Ctx, s: State, go: jnp.ndarray) -> tuple[State, jnp.ndarray]:
    """F-4.1: rescore a pile that grew; offer Keep/Cash on a new set at the threshold."""
    me = seat_mask(ctx, s.turn)
    vp, sets = score_pile(ctx.scorer, seat_cards(ctx, s.piles, s.turn))
    do = go & s.captured
    before = jnp.sum(jnp.where(me, s.pile_sets, 0))
    offer = do & ((sets & ~before) != 0) & (vp >= ctx.threshold)
    s = s._replace(pile_vp=jnp.where(me & do, vp, s.pile_vp),
                   pile_sets=jnp.where(me & do, sets, s.pile_sets),
                   kind=jnp.where(offer, KEEP_OR_CASH, s.kind))
    return s, go & ~offer


def keep_or_cash(ctx: Ctx, s: State, kind: jnp.ndarray, action: jnp.ndarray
                 ) -> tuple[State, jnp.ndarray]:
    """F-4.2/F-4.3 for a Keep Playing / Cash Out decision; returns ``(s, it was one)``."""
    do = kind == KEEP_OR_CASH
    me = seat_mask(ctx, s.turn)
    held = jnp.sum(jnp.where(me, s.tokens, 0))
    take = do & (action == KEEP) & (held < MAX_TOKENS_PER_PLAYER) & (s.supply > 0)
    cash = do & (action == CASH)
    gained = jnp.sum(jnp.where(me, s.pile_vp, 0)) * jnp.asarray(MULTIPLIER)[held]
    tokens = jnp.where(me & take, s.tokens + 1, s.tokens)
    return s._replace(
        scores=jnp.where(me & cash, s.scores + gained, s.scores),
        tokens=jnp.where(me & cash, 0, tokens),
        supply=s.supply - take + jnp.where(cash, held, 0),
        cashed=s.cashed | (me & cash)), do


def end_turn(ctx: Ctx, s: State, go: jnp.ndarray) -> tuple[State, jnp.ndarray]:
    """F-5.1/F-5.2: pass the turn to the next active seat, or end the round."""
    n = ctx.num_players
    active = ~s.cashed
    left = jnp.any(bits.nonempty(s.hands) & active)
    round_over = go & ((active.sum() <= 1) | ~left)
    order = (s.turn + 1 + jnp.arange(n)) % n
    nxt = order[jnp.argmax(active[order])]
    passing = go & ~round_over
    s = s._replace(turn=jnp.where(passing, nxt, s.turn),
                   kind=jnp.where(passing, PLAY, s.kind),
                   captured=s.captured & ~passing)
    return s, round_over


def end_round(ctx: Ctx, s: State, go: jnp.ndarray) -> tuple[State, jnp.ndarray, jnp.ndarray]:
    """F-5.3/F-6.1: when ``go``, finish the game at the target VP (kind OVER), else clean
    up for a new round (dealt by :func:`.deal.deal`). Returns ``(s, new round, game over)``."""
    over = go & (s.scores.max() >= ctx.target_vp)
    fresh = go & ~over
    n = ctx.num_players
    s = s._replace(
        kind=jnp.where(over, OVER, s.kind),
        supply=jnp.where(fresh, s.supply + s.tokens.sum(), s.supply),
        tokens=jnp.where(fresh, 0, s.tokens), piles=jnp.where(fresh, NONE, s.piles),
        pile_vp=jnp.where(fresh, 0, s.pile_vp), pile_sets=jnp.where(fresh, 0, s.pile_sets),
        cashed=s.cashed & ~fresh, round=s.round + fresh,
        round_start=jnp.where(fresh, (s.round_start + 1) % n, s.round_start))
    return s, fresh, over


def restart(s: State, do: jnp.ndarray) -> State:
    """When ``do``: the state of a new game before its first deal (F-2.4)."""
    def sel(new: jnp.ndarray, old: jnp.ndarray) -> jnp.ndarray:
        return jnp.where(do, new, old)

    return s._replace(
        scores=sel(0, s.scores), tokens=sel(0, s.tokens), supply=sel(TOKEN_SUPPLY, s.supply),
        piles=jnp.where(do, NONE, s.piles), pile_vp=sel(0, s.pile_vp),
        pile_sets=sel(0, s.pile_sets),
        cashed=s.cashed & ~do, round=sel(1, s.round), round_start=sel(0, s.round_start),
        decisions=sel(0, s.decisions))


def before_deal(ctx: Ctx, s: State, action: jnp.ndarray, ok: jnp.ndarray,
                autoreset: bool, max_decisions: int
                ) -> tuple[State, jnp.ndarray, jnp.ndarray, jnp.ndarray, jnp.ndarray]:
    """Apply one player decision (only when ``ok``: legal) and run the game up to the next
    decision, or to the next deal (which the caller makes: :func:`deal`).

    When not ``ok`` no stage runs and the position is unchanged. With ``autoreset``
    (static), a game that ends, or reaches ``max_decisions``, is replaced by a new game
    waiting for its deal. Returns ``(s, revealed card or -1, needs a deal, game over,
    scores before any restart)``."""
    kind = jnp.where(ok, s.kind, -1)  # -1 matches no stage
    s, go = play_and_match(ctx, s, kind, action)
    s, go, revealed = reveal_and_match(ctx, s, kind, action, go)
    s, go = score_turn(ctx, s, go)
    s, decided = keep_or_cash(ctx, s, kind, action)
    s, round_over = end_turn(ctx, s, go | decided)
    s, fresh, over = end_round(ctx, s, round_over)
    s = s._replace(decisions=s.decisions + ok)
    scores = s.scores
    again = jnp.zeros((), bool)
    if autoreset:
        again = over | (ok & (s.decisions >= max_decisions))
        s = restart(s, again)
    return s, revealed, fresh | again, over, scores
