"""Formosa Tea action ids: one Discrete(104) space for every player count.

========================  ====  ==========================================================
segment                   size  meaning
========================  ====  ==========================================================
PASS                         1  pass for the round (only with no worker in the supply)
DONE                         1  end the turn / stop or decline an optional step
CONFIRM                      1  yes to an optional step (tech reward, Arai, bonus)
HARVEST                     16  main action: a worker on plantation space 4*row + column
PROCESS                      4  main action: a Tea Master on track oolong/black/green/scented
COMPLETE                     4  main action: Tea Completion on that track
GLOBAL_MARKET                3  main action: a worker on Global Market space g
DOMESTIC                     4  main action: sell 2 oolong / 2 black / 2 green / one of each
USE_ACTION_DISC              2  Global Market disc, Tea Processing disc
USE_TECH_DISC                4  Fixation, Rolling, Oxidation, Drying disc
WORKER                       2  place a Tea Farmer / a Tea Master
TAKE                         4  harvest: all oolong / all black / all green / one of each
SPACE                       16  a plantation space (bonus harvest, extra cube, start)
TYPE                         3  a colour: cube to take, bud for Scenting
ADVANCE_MODE                 2  A (step by step with effects) / B (jump to the last space)
LOWER                        2  lower one cube from WL 2 / from WL 1
TRACK                        4  one of your Tea Masters (by track) / a Factory
TECH                         3  advance technology track oolong/black/green
MERCHANT                    12  display slot 3*row + slot (slot 2 = rightmost column)
CUBE                         9  a Warehouse cube: 3*tea + quality (pay, scent, discard)
CHARACTER                    7  draft a character
========================  ====  ==========================================================
"""

from __future__ import annotations

from formosa_envs.core.actions import ActionSpace, Segment

ACTION_SPACE = ActionSpace([
    Segment("PASS", 1), Segment("DONE", 1), Segment("CONFIRM", 1), Segment("HARVEST", 16),
    Segment("PROCESS", 4), Segment("COMPLETE", 4), Segment("GLOBAL_MARKET", 3),
    Segment("DOMESTIC", 4), Segment("USE_ACTION_DISC", 2), Segment("USE_TECH_DISC", 4),
    Segment("WORKER", 2), Segment("TAKE", 4), Segment("SPACE", 16), Segment("TYPE", 3),
    Segment("ADVANCE_MODE", 2), Segment("LOWER", 2), Segment("TRACK", 4), Segment("TECH", 3),
    Segment("MERCHANT", 12), Segment("CUBE", 9), Segment("CHARACTER", 7),
])

_first = ACTION_SPACE.offsets.__getitem__
PASS, DONE, CONFIRM = _first("PASS"), _first("DONE"), _first("CONFIRM")
HARVEST0, PROCESS0, COMPLETE0 = _first("HARVEST"), _first("PROCESS"), _first("COMPLETE")
GLOBAL0, DOMESTIC0 = _first("GLOBAL_MARKET"), _first("DOMESTIC")
ACTION_DISC0, TECH_DISC0, WORKER0 = (_first("USE_ACTION_DISC"), _first("USE_TECH_DISC"),
                                     _first("WORKER"))
TAKE0, SPACE0, TYPE0 = _first("TAKE"), _first("SPACE"), _first("TYPE")
MODE0, LOWER0, TRACK0, TECH0 = (_first("ADVANCE_MODE"), _first("LOWER"), _first("TRACK"),
                                _first("TECH"))
MERCHANT0, CUBE0, CHARACTER0 = _first("MERCHANT"), _first("CUBE"), _first("CHARACTER")
ONE_EACH = 3          # TAKE index of "one cube of each colour"
MODE_A, MODE_B = 0, 1
