"""Shared pieces of the Formosa Tea rule tests.

The rule tests load a frozen copy of the placeholder content (``tests/tea/data``: the
tables of ``seeds/tea.md`` section 4 as of this battery) through the config's file
options, so tuning the packaged data does not change the numbers asserted here.

Content used below (0-based track positions; tech spaces 1-based):
- oolong track: withering, oxidation, withering, fixation, oxidation, rolling, drying, last(7)
- black track: withering, rolling, oxidation, rolling, oxidation, drying, last(6)
- green track: fixation, rolling, fixation, drying, last(4); scented: scenting x4, last(4)
- tech oolong: 1 Oxidation disc, 2 1VP/icon, 3 GM disc, 4 any, 5 2VP/icon, 6 Drying disc,
  7 TP disc, 8 4VP/icon; black: Rolling disc, 1VP, TP disc, any, 2VP, GM disc, any, 4VP;
  green: Fixation disc, 1VP, GM disc, any, 2VP, TP disc, any, 4VP
- Domestic VP 0 1 2 3 4 6 7 9 10 12 14 16 18 20 23 26; rewards: 2 tech, 4 GM disc,
  6 Masters, 8 TP disc, 10 harvest, 12 GM disc, 14 tech
- Global Market spaces: 0 Masters, 1 technology, 2 harvest
- weather tiles: W0 0/1, W1 1/2, W2 2/0, W3 1/1
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from formosa_envs.games.tea import TeaGame, make_game

DATA = Path(__file__).parent / "data"
BOARD, MERCHANTS = str(DATA / "board.toml"), str(DATA / "merchants.toml")

OOLONG, BLACK, GREEN, SCENTED = range(4)
POOR, NORMAL, GOOD = range(3)
FIXATION_DISC, ROLLING_DISC, OXIDATION_DISC, DRYING_DISC = range(4)
GM_DISC, TP_DISC = range(2)
WANG, WEI, DODD, LI, ARAI, WU, HSU = range(7)
LAST = {OOLONG: 7, BLACK: 6, GREEN: 4, SCENTED: 4}

# merchant ids (merchants.toml): demand [oolong, black, green], VP good/normal/poor
S1_1O, S1_1B, S1_1G, S1_2O = 0, 1, 2, 3          # 5/3/1, 5/3/1, 5/3/1, 8/5/2
S1_2B, S1_2G, S1_OB, S1_OG, S1_BG = 5, 7, 8, 9, 10  # 8/5/2, 8/5/2, 9/6/2 (icons O, G, B)
S2_2O, S2_3O, S2_OOB, S2_OBG, S2_BG = 12, 13, 17, 18, 19
S3_3O = 20


@cache
def game(n: int = 2, advanced: bool = False, cards: int = 28) -> TeaGame:
    """A game on the frozen test content."""
    return make_game(num_players=n, advanced=advanced, merchant_cards=cards,
                     board_file=BOARD, merchant_file=MERCHANTS)


def space(row: int, column: int) -> int:
    """Plantation space id of row / column (0-based)."""
    return 4 * row + column


def seat_list(n: int, value: object, **at: object) -> list:
    """``n`` seats' values: ``value`` (called if callable) except seats named p0, p1, ..."""
    out = [value() if callable(value) else value for _ in range(n)]
    for name, v in at.items():
        out[int(name[1:])] = v
    return out
