"""Text rendering and action labels for Taiwan Formosa."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.payment import pay_units
from formosa_envs.core.text import table_footer, table_header, to_move
from formosa_envs.core.wording import amounts, plural, seat_tags

from . import actions as A
from .flow import RED_KEYS
from .payment import SOURCE_NAMES, describe_unit
from .state import LANDMARK0, TaiwanState

if TYPE_CHECKING:
    from .game import TaiwanGame

PHASES = ("setup", "dice", "actions", "building", "income", "cleanup", "round end")
FACES = ("wood", "brick", "steel", "stone", "worker", "merchant")


def card_name(game: TaiwanGame, code: int) -> str:
    """The name of a building type or landmark code, unique among the game's cards.

    A name that a data file gives to two cards gets the card's kind and id
    (``Tower (building 4)``, ``Tower (landmark 2)``), so labels stay distinct.
    """
    return _unique_names(tuple(b.name for b in game.buildings),
                         tuple(lm.name for lm in game.landmarks))[code]


@lru_cache(maxsize=16)
def _unique_names(buildings: tuple[str, ...], landmarks: tuple[str, ...]) -> tuple[str, ...]:
    names = [(n, f"building {i}") for i, n in enumerate(buildings)]
    names += [(n, f"landmark {i}") for i, n in enumerate(landmarks)]
    seen = Counter(n for n, _ in names)
    return tuple(n if seen[n] == 1 else f"{n} ({what})" for n, what in names)


def cost_text(card: object) -> str:
    """``2 brick + 2 steel + 3 coins`` for a card's printed cost (worker icons as
    ``+ 1 workers``; the worker every purchase costs is not printed)."""
    parts = [f"{getattr(card, k)} {k}"
             for k in ("wood", "brick", "steel", "stone", "coins", "workers")
             if getattr(card, k, 0)]
    return " + ".join(parts) or "free"


def render_text(game: TaiwanGame, s: TaiwanState, viewer: int | None = None) -> str:
    """The whole (public) table as text: buildings and landmarks for sale, regions, and
    every player's holdings, cards under construction and completed cards."""
    turn = s.turn if s.phase in (1, 2) and not s.over else None
    lines = [table_header(game.title, [
        f"round {s.round}{' (final)' if s.final_round else ''}", f"{PHASES[s.phase]} phase",
        to_move(turn, "roll" if s.phase == 1 else "act"), f"start player {s.start_player}"])]
    lines.append("Buildings for sale (cost, and 1 worker per purchase; rounds to build; VP):")
    lines += [f"  {b.name} ({s.piles[b.id]} left): {cost_text(b)}; {plural(b.time, 'round')};"
              f" {b.vp} VP" for b in game.buildings if s.in_game[b.id]]
    lines.append("Landmarks face up (region: cost; rounds to build; VP; cards below):")
    for d, card in enumerate(s.face_up):
        if card < 0:
            lines.append(f"  deck {d}: (empty, {len(s.decks[d])} below)")
            continue
        lm = game.landmarks[card]
        lines.append(f"  deck {d}: {lm.name} ({lm.region}): {cost_text(lm)}; {lm.time} rounds; "
                     f"{lm.vp} VP; {len(s.decks[d])} below")
    lines.append(_regions_line(s))
    lines += _red_line(game, s)
    for p in range(s.num_players):
        lines += _player_lines(game, s, p, viewer, turn)
    return "\n".join(lines + table_footer(s.last_event, game.decision_description(s)))


def _regions_line(s: TaiwanState) -> str:
    def owner(o: int) -> str:
        return "neutral" if o == s.num_players else f"P{o}"
    parts = [f"{name.split()[0]}: {' '.join(owner(o) for o in s.regions[r]) or '-'}"
             for r, name in enumerate(A.REGION_NAMES)]
    return "Regions (markers, first placed first): " + " | ".join(parts)


def _red_line(game: TaiwanGame, s: TaiwanState) -> list[str]:
    held = [f"{card_name(game, game.type_id[key])}: player {owner}"
            for key, owner in zip(RED_KEYS, s.exclusive, strict=True) if owner >= 0]
    return ["Red building abilities held: " + ", ".join(held)] if held else []


def _player_lines(game: TaiwanGame, s: TaiwanState, p: int, viewer: int | None,
                  turn: int | None) -> list[str]:
    held = [*(f"{k} {FACES[r]}" for r, k in enumerate(s.res[p]) if k)]
    held += [plural(k, noun) for k, noun in ((s.workers[p], "worker"),
                                             (s.merchants[p], "merchant")) if k]
    head = (f"{seat_tags(p, viewer, turn)}: {s.vp[p]} VP, {s.coins[p]} coins; hand: "
            f"{', '.join(held) or 'nothing'}; {s.markers[p]} markers left")
    more = []
    if s.tribal[p]:
        more.append(f"Tribal Village: {plural(s.tribal[p], 'worker')}")
    if sum(s.warehouse[p]):
        more.append("Warehouse: " + amounts(s.warehouse[p], FACES[:4]))
    if s.track[p]:
        more.append("being built: " + ", ".join(
            f"{card_name(game, c)} ({plural(sp, 'round')} left)" for c, sp in s.track[p]))
    if s.built[p]:
        more.append("built: " + ", ".join(card_name(game, c) for c in s.built[p]))
    return [head] + (["    " + "; ".join(more)] if more else [])


def label_action(game: TaiwanGame, s: TaiwanState, action: int) -> str:
    """A readable label for a player action or a chance outcome."""
    if not s.over and s.stack and s.stack[-1].player == CHANCE:
        kind = s.stack[-1].kind
        if kind == "roll":
            return f"roll {FACES[action]}"
        if kind == "draw_type":
            return f"draw {card_name(game, action)}"
        if kind == "reveal":
            return f"reveal {card_name(game, LANDMARK0 + action)}"
        return f"start player {action}"
    seg, i = game.action_space.decode(action)
    return _LABELS[seg](game, s, i)


def _pay_label(game: TaiwanGame, s: TaiwanState, i: int) -> str:
    d = s.stack[-1] if s.stack else None
    unit = f" one {describe_unit(pay_units(d)[0])}" if d is not None and d.kind == "pay" else ""
    return f"pay{unit} with {SOURCE_NAMES[i]}"


def _track_label(game: TaiwanGame, s: TaiwanState, i: int) -> str:
    p = s.stack[-1].player if s.stack else 0
    if i < len(s.track[p]):
        code, space = s.track[p][i]
        twins = [j for j, (c, sp) in enumerate(s.track[p]) if (c, sp) == (code, space)]
        copy = f", copy {twins.index(i) + 1} of {len(twins)}" if len(twins) > 1 else ""
        return f"work overtime on {card_name(game, code)} ({space} -> {space - 1}{copy})"
    return f"work overtime on track entry {i}"


_LABELS = {
    "DECLARE_DICE": lambda g, s, i: f"roll {2 + i} dice ({5 * i} coins)",
    "PASS": lambda g, s, i: "pass",
    "BUY_BUILDING": lambda g, s, i: f"buy {card_name(g, i)}",
    "BUY_LANDMARK": lambda g, s, i: (f"buy landmark {card_name(g, LANDMARK0 + s.face_up[i])}"
                                     if s.face_up[i] >= 0 else f"buy from landmark deck {i}"),
    "EXCHANGE_ITEMS": lambda g, s, i: f"exchange 3 items for 1 {A.OUTPUTS[i]}",
    "EXCHANGE_COINS": lambda g, s, i: f"exchange 9 coins for 1 {A.OUTPUTS[i]}",
    "EXCHANGE_MERCHANT": lambda g, s, i: f"exchange a merchant + 2 coins for 1 {A.OUTPUTS[i]}",
    "OVERTIME": _track_label,
    "CHARITY": lambda g, s, i: f"charitable contribution to {A.REGION_NAMES[i]}",
    "TEMPLE": lambda g, s, i: "Temple: 2 coins for 2 VP",
    "PAY": _pay_label,
    "REGION": lambda g, s, i: f"place in {A.REGION_NAMES[i]}",
    "WAREHOUSE": lambda g, s, i: f"Warehouse stores 3 {A.OUTPUTS[i + 1]}",
    "DISCARD": lambda g, s, i: f"discard 1 {A.OUTPUTS[i + 1]}",
}
