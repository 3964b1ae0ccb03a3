"""Formosa Flowers action space (111 ids) and labels.

========================  =========  ================================================
segment                   ids        meaning
========================  =========  ================================================
``PLAY_CARD[54]``         0-53       play card ``id`` from hand
``CAPTURE[54]``           54-107     capture field card ``id - 54`` with the card being
                                     matched (the one played or revealed)
``LEAVE_ON_FIELD``        108        leave the wild card being matched on the field,
                                     declaring its month that matches nothing
``KEEP_PLAYING``          109        take a Keep Playing token and end the turn
``CASH_OUT``              110        score completed sets x multiplier, leave the round
========================  =========  ================================================

Chance outcomes (deals and reveals) are card ids 0-53; they are not agent actions.
"""

from __future__ import annotations

from formosa_envs.core.actions import ActionSpace, Segment

from .cards import NUM_CARDS

ACTION_SPACE = ActionSpace([
    Segment("PLAY_CARD", NUM_CARDS, "play this card from your hand"),
    Segment("CAPTURE", NUM_CARDS, "capture this field card with the card being matched"),
    Segment("LEAVE_ON_FIELD", 1, "leave the wild card being matched on the field"),
    Segment("KEEP_PLAYING", 1, "take a Keep Playing token, end the turn"),
    Segment("CASH_OUT", 1, "score your sets and end your round"),
])
PLAY0 = ACTION_SPACE.offsets["PLAY_CARD"]
CAPTURE0 = ACTION_SPACE.offsets["CAPTURE"]
LEAVE = ACTION_SPACE.offsets["LEAVE_ON_FIELD"]
KEEP = ACTION_SPACE.offsets["KEEP_PLAYING"]
CASH = ACTION_SPACE.offsets["CASH_OUT"]
NUM_ACTIONS = ACTION_SPACE.size

MULTIPLIER = (1, 2, 4, 8)
"""Cash Out multiplier by Keep Playing tokens held (rulebook table: 1/2/3 -> x2/x4/x8)."""
