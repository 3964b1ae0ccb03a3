"""Shared pieces of the Dadaocheng rule tests.

The rule tests load a frozen copy of the placeholder content (``tests/dadaocheng/data``:
the tables of ``seeds/dadaocheng.md`` section 4 as of this battery) through the config's
file options, so tuning the packaged data does not change the numbers asserted here.

Content used below (``seeds/dadaocheng.md`` section 4):
- discs (sun / back): D01 K/R, D02 K/W, D03 K/G, D04 K/Y, D05 R/W, D06 R/G, D07 R/K,
  D08 W/Y, D09 W/G, D10 W/K, D11 G/R, D12 G/W, D13 G/Y, D14 Y/R, D15 Y/G, D16 Y/K
  (R red, W white, G green, Y yellow, K black);
- ships (cost red/white/green/yellow, required credit, credit, prestige): J01 1R 1G, 0, 1, 2;
  J02 1W 1G, 0, 1, 2; J04 1R 1W, 0, 2, 1; J05 1W 1Y, 0, 2, 1; J07 1R 2G, 0, 2, 2;
  S01 1R 1W 2G, 3, 2, 4; S05 2R 1W 1Y, 4, 2, 5; L01 2R 1W 2G 1Y, 7, 3, 9;
  L06 2R 2W 2Y, 8, 4, 9;
- buildings (cost, prestige): Mansion 1R 1W 1G 1Y (sets); Store 2R 1W, 2; Market 1W 1G 1Y,
  1; Workshop 1R 1G 1Y, 1; Opium Den 1R 1W 1G 1Y, 4. Piles for 1/2/3/4 players:
  Mansions 12/12/16/24, Stores, Markets, Workshops 2/3/4/6, Dens 1/1/1/2;
- Temple faces 1-6 (outcomes 0-5): red, white, green, yellow, black, any.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from formosa_envs.games.dadaocheng import DadaochengGame, make_game
from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.grid import candidates, showing
from formosa_envs.games.dadaocheng.scenario import parse_grid

DATA = Path(__file__).parent / "data"
FILES = {f"{name}_file": str(DATA / f"{name}s.toml") for name in ("disc", "ship", "building")}
FILES["board_file"] = str(DATA / "board.toml")

R, W, G, Y, K = range(5)
MANSION, STORE, MARKET, WORKSHOP, DEN = range(5)
LEVEL1, LEVEL2, LEVEL3 = range(3)
FACE_RED, FACE_WHITE, FACE_GREEN, FACE_YELLOW, FACE_BLACK, FACE_ANY = range(6)

# Ship ids (ships.toml, in code order).
J01, J02, J03, J04, J05, J06, J07 = range(7)
S01, S05 = 12, 16
L01, L06 = 24, 29

# A grid with no line (all sun sides up): K Y R K / G W Y R / W R G Y / K G W K.
QUIET = "D01 D14 D05 D02 / D11 D08 D15 D06 / D09 D07 D12 D16 / D03 D13 D10 D04"

# A T: row 0 cells 0-2 (G G G, line 0) and column 0 rows 0-3 (G G G G, line 14).
# Showing G G G K / G R W Y / G K W Y / G R K K.
T_GRID = "D11 D12 D13 D02 / D09* D05 D08 D14 / D15* D01 D10 D16 / D06* D07 D03 D04"

# Its transpose: row 0 cells 0-3 (G G G G, line 2) and column 0 rows 0-2 (G G G K, line 12).
ROW4_GRID = "D11 D09* D15* D06* / D12 D05 D01 D07 / D13 D08 D10 D03 / D02 D14 D16 D04"

# The two loops of seeds/dadaocheng.md section 4.1.
LOOP_3X3 = "D01 D02 D04 D05 / D07* D10* D16* D08 / D11 D12 D13 D14 / D09 D15 D06 D03"
LOOP_3X4 = "D07 D01* D06 D11* / D10 D02* D09 D12* / D16 D04* D15 D13* / D05 D08 D14 D03"


@cache
def game(n: int = 2, **options: object) -> DadaochengGame:
    """A game on the frozen test content."""
    return make_game(num_players=n, **FILES, **options)


def lines_of(g: DadaochengGame, grid: str) -> list[int]:
    """The candidate line ids of a grid (a guard that a test's grid is what it claims)."""
    cells, flipped = parse_grid(g, grid)
    bits = sum(f << c for c, f in enumerate(flipped))
    return candidates(showing([g.discs[d].faces for d in cells], bits))


def seat_list(n: int, value: object, **at: object) -> list:
    """``n`` seats' values: ``value`` (called if callable) except seats named p0, p1, ..."""
    out = [value() if callable(value) else value for _ in range(n)]
    for name, v in at.items():
        out[int(name[1:])] = v
    return out


def colour(c: int) -> int:
    """The COLOUR action of colour code ``c``."""
    return A.COLOUR0 + c


def hand(r: int = 0, w: int = 0, g: int = 0, y: int = 0, k: int = 0) -> list[int]:
    """A hand (or storehouse space) by colour."""
    return [r, w, g, y, k]
