"""Taiwan Formosa action space: named segments at fixed offsets.

=====================  =====================================================
``DECLARE_DICE[6]``    roll 2..7 dice (index k: 2 + k dice, 5 coins per extra)
``PASS``               end your action turn
``BUY_BUILDING[18]``   buy a copy of building type ``i`` (1 worker + its cost)
``BUY_LANDMARK[5]``    buy the face-up landmark of deck ``i``
``EXCHANGE_ITEMS[5]``  3 items -> output (worker, wood, brick, steel, stone)
``EXCHANGE_COINS[5]``  9 coins -> output
``EXCHANGE_MERCHANT[5]``  1 merchant + 2 coins -> output
``OVERTIME[24]``       worker + 2 coins: move track entry ``i`` one space on
``CHARITY[4]``         contribute to region ``i`` (north, central, south, east)
``TEMPLE``             pay 2 coins for 2 VP (once a round, with a Temple)
``PAY[16]``            pay the next unit of a cost from source ``i`` (``payment.py``)
``REGION[4]``          choose a region (Public Art Installation, Hot Spring Hotel)
``WAREHOUSE[4]``       the resource type a completed Warehouse stores
``DISCARD[4]``         discard one resource tile of type ``i``
=====================  =====================================================
"""

from __future__ import annotations

from formosa_envs.core.actions import ActionSpace, Segment

OUTPUTS = ("worker", "wood", "brick", "steel", "stone")
REGION_NAMES = ("Northern Taiwan", "Central Taiwan", "Southern Taiwan", "Eastern Taiwan")
TRACK_SLOTS = 24
NUM_SOURCES = 16

ACTION_SPACE = ActionSpace([
    Segment("DECLARE_DICE", 6, "roll 2 + i dice"),
    Segment("PASS", 1, "end your action turn"),
    Segment("BUY_BUILDING", 18, "buy building type i"),
    Segment("BUY_LANDMARK", 5, "buy the face-up landmark of deck i"),
    Segment("EXCHANGE_ITEMS", 5, "3 items -> output i"),
    Segment("EXCHANGE_COINS", 5, "9 coins -> output i"),
    Segment("EXCHANGE_MERCHANT", 5, "merchant + 2 coins -> output i"),
    Segment("OVERTIME", TRACK_SLOTS, "worker + 2 coins: advance track entry i"),
    Segment("CHARITY", 4, "charitable contribution to region i"),
    Segment("TEMPLE", 1, "2 coins -> 2 VP"),
    Segment("PAY", NUM_SOURCES, "pay the next unit from source i"),
    Segment("REGION", 4, "choose region i"),
    Segment("WAREHOUSE", 4, "store resource type i"),
    Segment("DISCARD", 4, "discard one resource of type i"),
])
A = ACTION_SPACE.offsets
DICE0, PASS, BUY_B0, BUY_L0 = A["DECLARE_DICE"], A["PASS"], A["BUY_BUILDING"], A["BUY_LANDMARK"]
EX_ITEMS0, EX_COINS0, EX_MERCH0 = A["EXCHANGE_ITEMS"], A["EXCHANGE_COINS"], A["EXCHANGE_MERCHANT"]
OVERTIME0, CHARITY0, TEMPLE = A["OVERTIME"], A["CHARITY"], A["TEMPLE"]
PAY0, REGION0, WAREHOUSE0, DISCARD0 = A["PAY"], A["REGION"], A["WAREHOUSE"], A["DISCARD"]
NUM_ACTIONS = ACTION_SPACE.size
