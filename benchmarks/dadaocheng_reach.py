"""How many grid states can one Dadaocheng cascade reach? (sizes the JAX engine's search queue)

``python benchmarks/dadaocheng_reach.py [--dealt 300] [--shuffled 1500] [--climb 600] [--seed 0]
[--disc-file FILE] [--out FILE.json]``

A cascade flips one candidate line at a time (``seeds/dadaocheng.md`` DDC-5, DDC-6.2), so from
a side state it can reach only the states of a graph whose edges are line flips. For one
arrangement of the discs this script builds every side state's successors (all 65,536 states,
with numpy) and searches forward from *every* state, reporting the largest reachable set and
how many states cannot end (infinite loops). Arrangements: ``--dealt`` layouts dealt by the
engine's setup (half with the solo condition, half with the multiplayer one), ``--shuffled``
random arrangements of the same discs (swaps in planning move discs anywhere), then
``--climb`` steps of hill climbing from the worst arrangement found (swap two cells, keep the
swap when the largest reachable set does not shrink). The queue of
:func:`formosa_envs.jax.dadaocheng.grid.can_end` must hold the largest set.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from formosa_envs.games.dadaocheng import grid  # noqa: E402
from formosa_envs.games.dadaocheng.config import DadaochengConfig  # noqa: E402
from formosa_envs.games.dadaocheng.game import DadaochengGame  # noqa: E402
from formosa_envs.games.dadaocheng.scenario import new_game  # noqa: E402

STATES = np.arange(1 << 16, dtype=np.int64)
AXIS_CELLS = [grid.LINES[3 * k + 2] for k in range(8)]


def successor_table(faces: np.ndarray) -> np.ndarray:
    """int64[65536, 8]: the state after collecting each axis's candidate line, -1 for none."""
    masks = np.array([*grid.LINE_MASKS, 0])
    table = np.full((1 << 16, 8), -1, dtype=np.int64)
    for k, cells in enumerate(AXIS_CELLS):
        colours = [faces[c][(STATES >> c) & 1] for c in cells]
        a, b, c, d = colours
        first, last = (b == c) & (a == b), (b == c) & (c == d)
        span = np.where(first & last, 2, np.where(first, 0, np.where(last, 1, -1)))
        line = np.where(span >= 0, 3 * k + span, -1)
        table[:, k] = np.where(line >= 0, STATES ^ masks[line], -1)
    return table


def reach_profile(faces: np.ndarray) -> tuple[int, int]:
    """(the largest set of states reachable from one state, the states that cannot end)."""
    table = successor_table(faces)
    moves = [[int(s) for s in row if s >= 0] for row in table]
    largest = 1
    for start in np.flatnonzero(table.max(axis=1) >= 0):
        seen, stack = {int(start)}, [int(start)]
        while stack:
            for nxt in moves[stack.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        largest = max(largest, len(seen))
    can_end = table.max(axis=1) < 0
    while True:
        grown = can_end | np.where(table >= 0, can_end[np.maximum(table, 0)], False).any(axis=1)
        if (grown == can_end).all():
            return largest, int((~can_end).sum())
        can_end = grown


def dealt_layout(game: DadaochengGame, rng: np.random.Generator) -> np.ndarray:
    """The faces of one layout dealt by the engine's setup chance nodes."""
    state = new_game(game, int(rng.integers(1 << 31)))
    return np.array([game.disc_faces[d] for d in state.cell_disc])


def main() -> None:
    """Measure and print (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dealt", type=int, default=300)
    parser.add_argument("--shuffled", type=int, default=1500)
    parser.add_argument("--climb", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--disc-file", default=None, help="a disc TOML file (default: the game's)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    extra = {"disc_file": args.disc_file} if args.disc_file else {}
    games = [DadaochengGame(DadaochengConfig(num_players=n, **extra)) for n in (1, 2)]
    rng = np.random.default_rng(args.seed)
    report: dict[str, dict[str, float]] = {}
    arrangements = {
        "dealt": lambda i: dealt_layout(games[i % 2], rng),
        "shuffled": lambda i: np.array(games[0].disc_faces)[rng.permutation(16)]}
    worst = (0, np.array(games[0].disc_faces))
    for kind, make in arrangements.items():
        sizes, loops = [], []
        for i in tqdm(range(getattr(args, kind)), desc=kind):
            faces = make(i)
            largest, looping = reach_profile(faces)
            sizes.append(largest)
            loops.append(looping)
            worst = max(worst, (largest, faces), key=lambda pair: pair[0])
        report[kind] = {"layouts": len(sizes), "largest": max(sizes, default=0),
                        "p99": float(np.percentile(sizes, 99)) if sizes else 0.0,
                        "layouts_with_loops": int(np.count_nonzero(loops))}
    largest, faces = worst
    for _ in tqdm(range(args.climb), desc="climb"):
        a, b = rng.choice(16, 2, replace=False)
        trial = faces.copy()
        trial[[a, b]] = trial[[b, a]]
        size = reach_profile(trial)[0]
        if size >= largest:
            largest, faces = size, trial
    report["climbed"] = {"steps": args.climb, "largest": largest,
                         "faces (sun back per cell)": " ".join(f"{s}{b}" for s, b in faces)}
    print(json.dumps(report, indent=1))
    if args.out:
        args.out.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
