"""Dadaocheng action ids: one Discrete(96) space for every player count.

==============  ====  ===========================================================
segment         size  meaning
==============  ====  ===========================================================
DONE               1  end the turn's purchases; stop 1905 / 1908 after one step
FLIP              16  a planning movement: flip the disc in cell 4*row + col
SWAP              16  a planning movement: the lower cell of a swap (0-14)
SWAP_TO           16  the higher cell of that swap
LINE              24  the line to collect: 12*o + 3*i + v (o row/column, i index,
                      v cells 0-2 / 1-3 / 0-3)
SPACE              4  one of your storehouse spaces (Full House, a new Store)
COLOUR             5  a cube colour red/white/green/yellow/black (pay, give, take,
                      discard, lose, loop gifts)
SHIP               3  buy the face-up ship of level 1 / 2 / 3
BUILDING           5  Mansion, Store, Market, Workshop, Opium Den (buy or convert)
TEMPLE             2  1 white -> 2 dice; 2 cubes of any colours -> 3 dice
EXCHANGE           1  2-for-1
MARKET             1  use an unused Market
DEN                1  use an unused Opium Den
EVENT              1  execute this round's event
==============  ====  ===========================================================
"""

from __future__ import annotations

from formosa_envs.core.actions import ActionSpace, Segment

ACTION_SPACE = ActionSpace([
    Segment("DONE", 1), Segment("FLIP", 16), Segment("SWAP", 16), Segment("SWAP_TO", 16),
    Segment("LINE", 24), Segment("SPACE", 4), Segment("COLOUR", 5), Segment("SHIP", 3),
    Segment("BUILDING", 5), Segment("TEMPLE", 2), Segment("EXCHANGE", 1), Segment("MARKET", 1),
    Segment("DEN", 1), Segment("EVENT", 1),
])

_first = ACTION_SPACE.offsets.__getitem__
DONE, FLIP0, SWAP0, SWAP_TO0 = _first("DONE"), _first("FLIP"), _first("SWAP"), _first("SWAP_TO")
LINE0, SPACE0, COLOUR0, SHIP0 = _first("LINE"), _first("SPACE"), _first("COLOUR"), _first("SHIP")
BUILDING0, TEMPLE0, EXCHANGE = _first("BUILDING"), _first("TEMPLE"), _first("EXCHANGE")
MARKET, DEN, EVENT = _first("MARKET"), _first("DEN"), _first("EVENT")
