"""Stages 1 and 2: planning movements and the collect / stock cascade with loop checks.

Decision kinds: ``move`` (FLIP or SWAP, twice), ``swap_to``, ``line`` (which
candidate line), ``loop_any`` and ``loop_gift`` (loop rewards; gifts out of turn),
``place_disc`` (chance: a disc layout, at setup and after a loop). Automatic:
``after_planning``, ``cascade``. Rule ids refer to ``seeds/dadaocheng.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision, FunctionHandler
from formosa_envs.core.engine import AUTO, CHANCE
from formosa_envs.core.observer import per_game

from . import actions as A
from .content import GREEN, RED, YELLOW
from .grid import CORNERS, LINES, NUM_CELLS, candidates, showing, stocked_spaces
from .state import DadaochengState, space_id

if TYPE_CHECKING:
    from .game import DadaochengGame

LAST_CELL = NUM_CELLS - 1
NON_CORNERS = tuple(c for c in range(16) if c not in CORNERS)


# ----- Stage 1: planning ------------------------------------------------------------------

def start_planning(s: DadaochengState, p: int) -> None:
    """Two movements, then the cascade (DDC-4)."""
    s.stack.append(Decision("after_planning", AUTO))
    s.stack.append(Decision("move", p, count=2))


def _move_legal(game: DadaochengGame, s: DadaochengState, d: Decision) -> list[int]:
    """Every flip, and a swap from every cell but the last: a swap names its lower cell
    first (DDC-4.4), so each unordered pair of cells has exactly one pair of ids."""
    return list(range(A.FLIP0, A.SWAP0 + LAST_CELL))


def _move_is_legal(game: DadaochengGame, s: DadaochengState, d: Decision, action: int) -> bool:
    """:func:`_move_legal`'s range, tested without listing it."""
    return A.FLIP0 <= action < A.SWAP0 + LAST_CELL


def _move_apply(game: DadaochengGame, s: DadaochengState, d: Decision, action: int) -> None:
    if d.count > 1:
        s.stack.append(Decision("move", d.player, d.count - 1))
    if action < A.SWAP0:
        cell = action - A.FLIP0
        s.flipped[cell] ^= 1
        s.last_event = f"player {d.player} flips cell {cell}"
    else:
        s.stack.append(Decision("swap_to", d.player, ctx=(action - A.SWAP0,)))


def _swap_to_legal(game: DadaochengGame, s: DadaochengState, d: Decision) -> list[int]:
    """The swap's second cell: any cell above its first (DDC-4.4)."""
    return [A.SWAP_TO0 + c for c in range(d.ctx[0] + 1, LAST_CELL + 1)]


def _swap_to_is_legal(game: DadaochengGame, s: DadaochengState, d: Decision,
                      action: int) -> bool:
    """:func:`_swap_to_legal`'s range, tested without listing it."""
    return A.SWAP_TO0 + d.ctx[0] + 1 <= action <= A.SWAP_TO0 + LAST_CELL


def _swap_to_apply(game: DadaochengGame, s: DadaochengState, d: Decision, action: int) -> None:
    a, b = d.ctx[0], action - A.SWAP_TO0
    s.cell_disc[a], s.cell_disc[b] = s.cell_disc[b], s.cell_disc[a]
    s.flipped[a], s.flipped[b] = s.flipped[b], s.flipped[a]
    s.last_event = f"player {d.player} swaps cells {a} and {b}"


# ----- Stage 2: the cascade ---------------------------------------------------------------

def faces_of(game: DadaochengGame, s: DadaochengState) -> tuple[tuple[int, int], ...]:
    """(sun, back) colour of the disc in each cell."""
    faces = game.disc_faces
    return tuple(faces[d] for d in s.cell_disc)


def _after_planning_apply(game: DadaochengGame, s: DadaochengState, d: Decision,
                          _action: int) -> None:
    s.history = [s.bits()]
    s.stack.append(Decision("cascade", AUTO))


def _cascade_apply(game: DadaochengGame, s: DadaochengState, d: Decision,
                   _action: int) -> None:
    """One step: stop, detect a loop, or collect the (chosen) line (DDC-5, DDC-6.2)."""
    faces = faces_of(game, s)
    bits = s.bits()
    lines = candidates(showing(faces, bits))
    if not lines:
        return
    if not game.can_end(faces, s.history[0])[bits]:
        resolve_loop(game, s)
    elif len(lines) == 1:
        collect(game, s, lines[0])
    else:
        s.stack.append(Decision("line", s.turn))


def _line_legal(game: DadaochengGame, s: DadaochengState, d: Decision) -> list[int]:
    return [A.LINE0 + line for line in candidates(showing(faces_of(game, s), s.bits()))]


def _line_apply(game: DadaochengGame, s: DadaochengState, d: Decision, action: int) -> None:
    collect(game, s, action - A.LINE0)


def collect(game: DadaochengGame, s: DadaochengState, line: int) -> None:
    """Collect, stock, corruption, exhaustion; then the repetition check (DDC-5.5-5.9)."""
    cells = LINES[line]
    colour = showing(faces_of(game, s), s.bits())[cells[0]]
    s.hand[s.turn][colour] += 2 if len(cells) == 4 else 1
    for side, k in stocked_spaces(line):
        space = space_id(side, k)
        if not s.covered[side] and not s.remodelled[space]:
            s.storehouse[space][colour] += 1
    for space in range(16):
        if sum(s.storehouse[space]) >= 3:
            s.storehouse[space] = [0] * 5                      # corruption
    for cell in cells:
        s.flipped[cell] ^= 1
    s.last_event = f"player {s.turn} collects line {line}"
    bits = s.bits()
    if bits in s.history:
        resolve_loop(game, s)
        return
    s.history.append(bits)
    s.stack.append(Decision("cascade", AUTO))


def resolve_loop(game: DadaochengGame, s: DadaochengState) -> None:
    """An infinite loop (DDC-6.4): empty storehouses, new layout, the rewards."""
    p, n = s.turn, s.num_players
    s.storehouse = [[0] * 5 for _ in range(16)]
    for colour in (YELLOW, RED, GREEN):
        s.hand[p][colour] += 1
    s.sign[p] += 1
    s.last_event = f"an infinite loop: player {p} gains the loop reward"
    for k in reversed(range(1, n)):
        s.stack.append(Decision("loop_gift", (p + k) % n, count=2))
    s.stack.append(Decision("loop_any", p))
    push_layout(s)


def push_layout(s: DadaochengState) -> None:
    """Reset the discs: all sun side up, a fresh random layout (DDC-2.2, DDC-2.3)."""
    s.cell_disc = [-1] * 16
    s.flipped = [0] * 16
    for cell in reversed((*CORNERS, *NON_CORNERS)):
        s.stack.append(Decision("place_disc", CHANCE, ctx=(cell,)))


def _place_outcomes(game: DadaochengGame, s: DadaochengState,
                    d: Decision) -> list[tuple[int, float]]:
    cell, placed = d.ctx[0], set(s.cell_disc)
    if cell in CORNERS:
        left = [disc.id for disc in game.discs if disc.faces[0] == 4 and disc.id not in placed]
        return [(disc, 1 / len(left)) for disc in left]
    suns = game.disc_faces
    prefix = tuple(suns[s.cell_disc[c]][0] for c in NON_CORNERS if s.cell_disc[c] >= 0)
    commodity = per_game(game, "dadaocheng.commodity_discs", lambda: [
        (disc.id, disc.faces[0]) for disc in game.discs if disc.faces[0] != 4])
    # disc_probabilities' distribution, its per-colour odds remembered by the prefix (the
    # state's placed and unplaced discs agree: a loaded state is checked whole)
    odds = game.layout_table.colour_odds(prefix)
    return [(disc, odds[colour]) for disc, colour in commodity
            if disc not in placed and odds[colour] > 0]


def _place_apply(game: DadaochengGame, s: DadaochengState, d: Decision, disc: int) -> None:
    s.cell_disc[d.ctx[0]] = disc


def _colour_legal(game: DadaochengGame, s: DadaochengState, d: Decision) -> list[int]:
    return [A.COLOUR0 + c for c in range(5)]


def _gain_apply(game: DadaochengGame, s: DadaochengState, d: Decision, action: int) -> None:
    """A cube of the chosen colour (the loop's "any" cube and the others' gifts)."""
    s.hand[d.player][action - A.COLOUR0] += 1
    if d.count > 1:
        s.stack.append(Decision(d.kind, d.player, d.count - 1))


HANDLERS = {
    "move": FunctionHandler("planning a movement (flip or swap)", _move_apply, _move_legal,
                            is_legal=_move_is_legal),
    "swap_to": FunctionHandler("choosing the second disc of a swap", _swap_to_apply,
                               _swap_to_legal, is_legal=_swap_to_is_legal),
    "after_planning": FunctionHandler("starting the cascade", _after_planning_apply),
    "cascade": FunctionHandler("collecting lines", _cascade_apply),
    "line": FunctionHandler("choosing the line to collect", _line_apply, _line_legal),
    "place_disc": FunctionHandler("placing a disc", _place_apply, outcomes=_place_outcomes),
    "loop_any": FunctionHandler("choosing the loop's cube of any colour", _gain_apply,
                                _colour_legal),
    "loop_gift": FunctionHandler("taking a cube after another player's loop", _gain_apply,
                                 _colour_legal),
}
