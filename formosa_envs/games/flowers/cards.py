"""The Formosa Flowers deck: card rows loaded from ``data/cards.toml``.

Card ids 0..53 are stable action ids. Cards 0..47 are the 12 months x 4 cards
(id ``4 * (month - 1) + k``); cards 48..53 are the six wild cards, each
bearing two months. ``icons`` names the scoring sets a card's icon belongs to
(empty for plain cards). See ``seeds/flowers.md`` for what is inferred.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from formosa_envs.core.data import bounded, load_rows, row_id
from formosa_envs.core.errors import DataError

DEFAULT_CARD_FILE = Path(__file__).parent / "data" / "cards.toml"
NUM_CARDS = 54
ICONS = ("night", "bird", "animal", "weather")


@dataclass(frozen=True, slots=True)
class Card:
    """One flower card: its months (two for a wild card) and icons."""

    id: int = row_id()
    months: tuple[int, ...] = bounded(1, 12, length=(1, 2), unique=True)
    icons: tuple[str, ...] = bounded(length=(0, len(ICONS)), unique=True)
    source: str
    note: str = ""

    @property
    def is_wild(self) -> bool:
        """Whether the card may be played as either of two months."""
        return len(self.months) == 2

    @property
    def short(self) -> str:
        """A compact name such as ``3-Bird``, ``9-Night``, ``5`` or ``9/10``."""
        months = "/".join(str(m) for m in self.months)
        icon = "+".join(i.capitalize() for i in self.icons)
        return f"{months}-{icon}" if icon else months


def display_names(cards: tuple[Card, ...]) -> tuple[str, ...]:
    """Each card's name in labels and text: its ``short`` name, made unique in the deck.

    Cards that look alike (the two plain cards of a month) get their card id, as the
    picture's tooltip shows it: ``1 (card 2)`` and ``1 (card 3)``. A card whose short
    name is unique keeps it (``3-Bird``, ``9/10``).
    """
    seen = Counter(c.short for c in cards)
    return tuple(c.short if seen[c.short] == 1 else f"{c.short} (card {c.id})" for c in cards)


@lru_cache(maxsize=8)
def load_cards(path: str | None = None) -> tuple[Card, ...]:
    """Load and validate the 54-card deck (the default file when ``path`` is None)."""
    file = Path(path) if path else DEFAULT_CARD_FILE
    cards = tuple(load_rows(file, "card", Card, ids=NUM_CARDS))
    _validate_deck(cards, file)
    return cards


def _validate_deck(cards: tuple[Card, ...], file: Path) -> None:
    if len(cards) != NUM_CARDS:
        raise DataError(f"{file}: the deck must have {NUM_CARDS} cards, found {len(cards)}")
    if [c.id for c in cards] != list(range(NUM_CARDS)):
        raise DataError(f"{file}: card ids must be 0..{NUM_CARDS - 1} in order")
    for card in cards:
        where = f"{file}: card {card.id}"
        if len(card.months) not in (1, 2) or len(set(card.months)) != len(card.months):
            raise DataError(f"{where}: 'months' must hold one month or two different months")
        if any(not 1 <= m <= 12 for m in card.months):
            raise DataError(f"{where}: months must be between 1 and 12, got {card.months}")
        bad = [i for i in card.icons if i not in ICONS]
        if bad:
            raise DataError(f"{where}: unknown icon(s) {bad}; allowed: {list(ICONS)}")
    per_month = Counter(c.months[0] for c in cards if not c.is_wild)
    if sorted(per_month.values()) != [4] * 12 or sum(c.is_wild for c in cards) != 6:
        raise DataError(f"{file}: the deck must hold 4 single-month cards of each month "
                        "and 6 wild cards")
