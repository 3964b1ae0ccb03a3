"""The Formosa Flowers heuristic on JAX: pure, jittable and vmap-able.

:class:`FlowersHeuristicJax` makes the same decisions as the Python heuristic
(:mod:`formosa_envs.agents.heuristics.flowers`) from a :class:`~.state.State`: every
option scored by the gain in the seat's pile *potential* (set VP plus weighted progress
toward each set's next tier that the cards outside the other piles can still reach), a
capture's denial value, a card left on the field by its chance of being recaptured less
its exposure, and the keep-or-cash rule. It reads what the acting seat may see.

**Tie-break.** The Python heuristic adds seeded noise (uniform x 1e-6) to the values and
takes the best; its values are rationals whose distinct values differ by far more than
that (measured: no gap between 1e-12 and 9e-4 over 37,000 decisions), so it takes, among
the options tied for the best, the one with the largest noise. This engine computes in
float32, so it treats values within :data:`TIE_TOLERANCE` x max(1, |best|) of the best as
tied and
takes the tied option with the largest entry of ``noise`` (float[111], one per action).
Given the Python heuristic's own draws as ``noise`` (``rng.random(len(legal))``, spread
over the legal actions in order) both pick the same action; :meth:`act` draws the noise
from a key. A single legal action, and keep-or-cash, draw no noise in either.

Keep-or-cash compares a rival's potential with 0.8 x the threshold; a potential exactly
at that line cashes in both (the Python heuristic compares with a 1e-9 margin since this
engine was added: before, float64 rounding decided those rare exact cases).
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from formosa_envs.agents.heuristics.flowers import DEFAULT_WEIGHTS, Weights, set_table
from formosa_envs.games.flowers.actions import CAPTURE0, CASH, KEEP, LEAVE, MULTIPLIER, PLAY0
from formosa_envs.games.flowers.cards import load_cards
from formosa_envs.games.flowers.state import NUM_CARDS

from ..sample import sample_legal
from . import bits
from .engine import FlowersJax
from .scoring import score_pile
from .state import KEEP_OR_CASH, PLAY, State

TIE_TOLERANCE = 1e-6
"""Values within this share of the best (at least 1e-6 absolute) count as tied: float32
rounding stays below it, and distinct values of the Python heuristic differ by more (the
closest pair seen: 3e-5 apart at 0.23)."""
_NEVER = 99
"""``next_size`` of a set with no further tier (no pile holds 99 cards)."""
_FULL = bits.pack(np.ones(NUM_CARDS, bool))
"""Every card (the set of all 54 ids), numpy ``uint32[2]``."""


class PotentialTables(NamedTuple):
    """Each scoring set's cards and, by cards held, its next tier's size and progress term."""

    set_cards: jnp.ndarray   # uint32[S, 2]
    next_size: jnp.ndarray   # int32[S, 55]: the next tier's size (_NEVER: none)
    next_term: jnp.ndarray   # float32[S, 55]: extra VP x (held / size)^2
    partners: jnp.ndarray    # int32[54, M]: the cards each card matches, -1 padded


def potential_tables(engine: FlowersJax) -> PotentialTables:
    """The tables of ``engine``'s deck, read from the Python heuristic's own set table."""
    cards = load_cards(engine.config.card_file)
    table = set_table(cards)
    sizes = np.full((len(table), NUM_CARDS + 1), _NEVER, np.int32)
    terms = np.zeros((len(table), NUM_CARDS + 1), np.float64)
    for row, (_, tiers) in enumerate(table):
        for held in range(NUM_CARDS + 1):
            nxt = next(((size, extra) for size, extra in tiers if held < size), None)
            if nxt is not None:
                sizes[row, held] = nxt[0]
                terms[row, held] = nxt[1] * (held / nxt[0]) ** 2
    masks = np.array([[mask >> c & 1 for c in range(NUM_CARDS)] for mask, _ in table], bool)
    match = np.asarray(bits.unpack(engine.ctx.cards.match))
    width = int(match.sum(axis=1).max())
    partners = np.full((NUM_CARDS, width), -1, np.int32)
    for card in range(NUM_CARDS):
        found = np.flatnonzero(match[card])
        partners[card, :len(found)] = found
    return PotentialTables(jnp.asarray(bits.pack(masks)), jnp.asarray(sizes),
                           jnp.asarray(terms.astype(np.float32)), jnp.asarray(partners))


class FlowersHeuristicJax:
    """The Python Flowers heuristic for one :class:`~.engine.FlowersJax` configuration."""

    def __init__(self, engine: FlowersJax, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.engine, self.weights = engine, weights
        self.ctx = engine.ctx
        self.tables = potential_tables(engine)
        self.hand_slots = engine.ctx.hand_size

    def act(self, state: State, key: jax.Array) -> jnp.ndarray:
        """int32: the heuristic's action for ``state.current_player`` (ties by ``key``)."""
        noise = jax.random.uniform(key, (self.engine.num_actions,))
        return self.choose(state, noise)

    def choose(self, state: State, noise: jnp.ndarray) -> jnp.ndarray:
        """int32: the action, ties broken by the largest ``noise`` (see the module)."""
        legal = state.legal_action_mask
        values = jnp.where(legal, self.option_values(state), -jnp.inf)
        best = values.max()
        tied = legal & (values >= best - TIE_TOLERANCE * jnp.maximum(1.0, jnp.abs(best)))
        pick = jnp.argmax(jnp.where(tied, noise, -1.0))
        pick = jnp.where(state.kind == KEEP_OR_CASH, self.keep_or_cash(state), pick)
        only = jnp.argmax(legal)
        return jnp.where(legal.sum() == 1, only, pick).astype(jnp.int32)

    # ----- potentials ---------------------------------------------------------------

    def _potential(self, pile: jnp.ndarray, possible: jnp.ndarray) -> jnp.ndarray:
        """float32: set VP plus weighted progress of ``pile`` (a card set)."""
        t = self.tables
        vp, _ = score_pile(self.ctx.scorer, pile)
        held = bits.count(pile & t.set_cards)
        reach = bits.count(possible & t.set_cards)
        rows = jnp.arange(held.shape[0])
        size, term = t.next_size[rows, held], t.next_term[rows, held]
        progress = jnp.where(reach >= size, term, 0.0).sum()
        return vp.astype(jnp.float32) + jnp.float32(self.weights.progress) * progress

    def _possible(self, s: State) -> jnp.ndarray:
        """uint32[n, 2]: per seat, the cards outside the other seats' piles."""
        every = jnp.bitwise_or.reduce(s.piles, axis=0)
        return ~(every & ~s.piles)

    def _single_gains(self, s: State, possible: jnp.ndarray) -> jnp.ndarray:
        """float32[n, 54]: each seat's potential gain from each card added alone."""
        singles = bits.card_bits(jnp.arange(NUM_CARDS))

        def seat_gains(pile: jnp.ndarray, reach: jnp.ndarray) -> jnp.ndarray:
            base = self._potential(pile, reach)
            grown = jax.vmap(self._potential, in_axes=(0, None))(pile | singles, reach)
            return grown - base

        return jax.vmap(seat_gains)(s.piles, possible)

    # ----- option values ------------------------------------------------------------

    def option_values(self, s: State) -> jnp.ndarray:
        """float32[111]: the heuristic's value of each play or capture option (-inf for
        actions no play/capture decision of ``s`` offers; keep-or-cash is a rule)."""
        w, me = self.weights, s.turn
        possible = self._possible(s)
        gains = self._single_gains(s, possible)
        threat = self._threat(s, gains)
        own = gains[me]
        chance = self._recapture_chance(s)
        leave = chance * own - jnp.float32(w.exposure) * threat           # [54]
        cards, take, valid = self._takes(s, possible[me], threat)         # [C], [C, M]
        card = jnp.clip(cards, 0, NUM_CARDS - 1)
        best_take = jnp.where(valid, take, -jnp.inf).max(axis=1)
        play = jnp.where(valid.any(axis=1), best_take,
                         leave[card] - jnp.float32(w.hold) * own[card])
        values = jnp.full(self.engine.num_actions, -jnp.inf, jnp.float32)
        is_play = s.kind == PLAY
        nowhere = self.engine.num_actions  # out of bounds: dropped (-1 would wrap around)
        values = values.at[jnp.where(is_play & (cards >= 0), PLAY0 + card, nowhere)].set(
            play, mode="drop")
        targets = self.tables.partners[card[0]]
        capture_ids = jnp.where(~is_play & valid[0], CAPTURE0 + targets, nowhere)
        values = values.at[capture_ids].set(take[0], mode="drop")
        return values.at[LEAVE].set(jnp.where(is_play, -jnp.inf, leave[card[0]]))

    def _threat(self, s: State, gains: jnp.ndarray) -> jnp.ndarray:
        """float32[54]: the most each card would be worth to an active opponent (0 when
        none is active)."""
        rivals = (jnp.arange(self.ctx.num_players) != s.turn) & ~s.cashed
        best = jnp.where(rivals[:, None], gains, -jnp.inf).max(axis=0)
        return jnp.where(rivals.any(), best, 0.0)

    def _recapture_chance(self, s: State) -> jnp.ndarray:
        """float32[54]: the share of unseen cards that would match each card."""
        me = s.turn
        every = jnp.bitwise_or.reduce(s.piles, axis=0)
        seen = every | s.hands[me] | s.field | bits.card_bits(s.pending)
        unseen = ~seen & _FULL
        hits = bits.count(unseen[None, :] & self.ctx.cards.match)
        return hits.astype(jnp.float32) / jnp.maximum(1, bits.count(unseen)).astype(jnp.float32)

    def _takes(self, s: State, possible: jnp.ndarray, threat: jnp.ndarray
               ) -> tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]:
        """The cards to match (hand slots for a play, else the pending card first), the
        value of capturing each partner with each ([C, M]) and which partners lie on the
        field."""
        hand_cards = jnp.nonzero(bits.unpack(s.hands[s.turn]), size=self.hand_slots,
                                 fill_value=-1)[0].astype(jnp.int32)
        pending = jnp.full(self.hand_slots, -1, jnp.int32).at[0].set(s.pending)
        cards = jnp.where(s.kind == PLAY, hand_cards, pending)
        partners = self.tables.partners[jnp.clip(cards, 0, NUM_CARDS - 1)]   # [C, M]
        on_field = bits.unpack(s.field)[jnp.clip(partners, 0, NUM_CARDS - 1)]
        valid = (partners >= 0) & on_field & (cards >= 0)[:, None]
        pile = s.piles[s.turn]
        base = self._potential(pile, possible)
        pairs = pile | bits.card_bits(cards)[:, None, :] | bits.card_bits(partners)
        grown = jax.vmap(jax.vmap(self._potential, in_axes=(0, None)), in_axes=(0, None))(
            pairs, possible)
        deny = jnp.float32(self.weights.deny) * threat[jnp.clip(partners, 0, NUM_CARDS - 1)]
        return cards, (grown - base) + deny, valid

    # ----- keep playing or cash out ---------------------------------------------------

    def keep_or_cash(self, s: State) -> jnp.ndarray:
        """int32: KEEP or CASH by the Python heuristic's rule."""
        w, ctx, me = self.weights, self.ctx, s.turn
        payout = s.pile_vp[me] * jnp.asarray(MULTIPLIER)[s.tokens[me]]
        sure = (s.scores[me] + payout >= ctx.target_vp) | (payout >= w.cash_payout)
        sure = sure | (bits.count(s.hands[me]) <= w.cash_hand)
        rivals = (jnp.arange(ctx.num_players) != me) & ~s.cashed
        possible = self._possible(s)
        danger = jax.vmap(self._potential)(s.piles, possible)
        danger = jnp.where(rivals.any(), jnp.where(rivals, danger, -jnp.inf).max(), 0.0)
        line = w.threat * ctx.threshold - TIE_TOLERANCE  # exactly at the line cashes
        risky = (rivals.sum() <= w.crowd) & (danger >= line)
        return jnp.where(sure | risky, CASH, KEEP).astype(jnp.int32)



def epsilon_actions(heuristic: FlowersHeuristicJax, states: State, epsilon: jnp.ndarray,
                    key: jax.Array) -> jnp.ndarray:
    """int32[B]: for a batch, the heuristic's action, or with probability ``epsilon``
    (per lane) a uniformly random legal one."""
    k_noise, k_random, k_coin = jax.random.split(key, 3)
    batch = states.legal_action_mask.shape[0]
    greedy = jax.vmap(heuristic.act)(states, jax.random.split(k_noise, batch))
    wild = sample_legal(k_random, states.legal_action_mask)
    coin = jax.random.uniform(k_coin, (batch,)) < epsilon
    return jnp.where(coin, wild, greedy)
