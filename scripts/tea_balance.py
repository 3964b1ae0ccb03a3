"""Balance report of Formosa Tea's placeholder content by heuristic self-play.

For each player count: game length, final VP, VP by source (merchants, Domestic
Market, flavor bonus, Scented Tea, events, merchant icons), how often each main action,
market space and track is used, A/B choices, batch quality per track, sales by
quality, technology levels, disc / deck / bag exhaustion and win share by seat (and by
character with ``--advanced``). Usage::

    python scripts/tea_balance.py --players 2 3 4 --games 200 --seed 0
    python scripts/tea_balance.py --players 3 --games 100 --advanced --board-file my.toml
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from formosa_envs.agents import make_agent

from formosa_envs.core.engine import CHANCE
from formosa_envs.games.tea import actions as A
from formosa_envs.games.tea import make_game, markets, turn
from formosa_envs.games.tea.content import CHARACTER_NAMES, TRACKS
from formosa_envs.games.tea.events import end_game_vp
from formosa_envs.games.tea.flow import deck_size
from formosa_envs.games.tea.scoring import batch_quality, icon_multiplier
from formosa_envs.games.tea.state import EVENTS_IN_GAME as EVENTS
from formosa_envs.games.tea.state import FLAVOR, SCENTED, Phase
from formosa_envs.tools.progress import progress

SOURCES = ("merchants", "domestic", "flavor bonus", "scented", "events", "icons")
QUALITY = ("poor", "normal", "good")
MAIN = ("HARVEST", "PROCESS", "COMPLETE", "GLOBAL_MARKET", "DOMESTIC", "USE_ACTION_DISC",
        "USE_TECH_DISC")


@dataclass
class Report:
    """Totals over the games of one player count."""

    players: int
    games: int = 0
    truncated: int = 0
    decisions: list[int] = field(default_factory=list)
    final_vp: list[float] = field(default_factory=list)
    winner_vp: list[float] = field(default_factory=list)
    sources: Counter = field(default_factory=Counter)         # VP by source, all seats
    actions: Counter = field(default_factory=Counter)         # (segment, index) uses
    modes: Counter = field(default_factory=Counter)           # (track, "A"/"B"/"auto")
    batches: Counter = field(default_factory=Counter)         # (track, quality) batches
    batch_cubes: Counter = field(default_factory=Counter)     # (track, quality) cubes
    batch_rounds: Counter = field(default_factory=Counter)    # track -> rounds to finish
    flavor: Counter = field(default_factory=Counter)          # flavor bonus VP -> batches
    sales: Counter = field(default_factory=Counter)           # (quality, "n"/"vp"/"cubes")
    scented: Counter = field(default_factory=Counter)         # "n", "vp", "cubes", "buds"
    other: Counter = field(default_factory=Counter)           # flags and sums per game
    tech: np.ndarray | None = None
    order_wins: np.ndarray | None = None
    characters: Counter = field(default_factory=Counter)      # (character, "n"/"win"/"vp")


class Recorder:
    """Hooks on the engine's VP events; counts only the game being played (not the
    heuristic's look-ahead copies, which are other state objects)."""

    def __init__(self) -> None:
        self.state: Any = None
        self.report: Report | None = None
        self.vp: dict[str, list[float]] = {}
        self.started: dict[tuple[int, int], int] = {}

    def begin(self, state: Any, report: Report) -> None:
        """Follow a new game."""
        self.state, self.report = state, report
        self.vp = {k: [0.0] * state.num_players for k in SOURCES}
        self.started = {}

    def sale(self, original: Any, game: Any, s: Any, p: int, slot: int) -> None:
        """Wraps ``markets.settle_sale``: merchant VP and the sale's quality."""
        before = s.vp[p]
        card = game.merchants[s.display[slot // 3][slot % 3]]
        original(game, s, p, slot)
        if s is self.state and self.report is not None:
            gained = s.vp[p] - before
            self.vp["merchants"][p] += gained
            sales = self.report.sales
            sales[(s.pay_low, "n")] += 1
            sales[(s.pay_low, "vp")] += gained
            sales[(s.pay_low, "cubes")] += sum(card.demand)

    def complete(self, original: Any, game: Any, s: Any, p: int, track: int) -> None:
        """Wraps ``turn.complete``: flavor bonus / scented VP, quality, time taken."""
        before = s.vp[p]
        f = s.factory[p][4 * track:4 * track + 4] if track < SCENTED else None
        scent = list(s.scent[p])
        original(game, s, p, track)
        if s is not self.state or self.report is None:
            return
        r, gained = self.report, s.vp[p] - before
        r.batch_rounds[track] += s.round - self.started.pop((p, track), s.round)
        r.batch_rounds[(track, "n")] += 1
        if f is None:
            self.vp["scented"][p] += gained
            r.scented.update({"n": 1, "vp": gained, "cubes": scent[1], "buds": sum(scent[2:])})
            return
        self.vp["flavor bonus"][p] += gained
        quality = batch_quality(f[:3], f[FLAVOR])
        r.batches[(track, quality)] += 1
        r.batch_cubes[(track, quality)] += sum(f)
        r.flavor[gained] += quality == 2


RECORDER = Recorder()


def install() -> None:
    """Wrap the engine's sale and completion functions once (this process only)."""
    if getattr(markets.settle_sale, "_recorded", False):
        return
    sale, complete = markets.settle_sale, turn.complete

    def settle_sale(game: Any, s: Any, p: int, slot: int) -> None:
        RECORDER.sale(sale, game, s, p, slot)

    def complete_batch(game: Any, s: Any, p: int, track: int) -> None:
        RECORDER.complete(complete, game, s, p, track)

    settle_sale._recorded = True  # type: ignore[attr-defined]
    markets.settle_sale, turn.complete = settle_sale, complete_batch


def play(game: Any, seed: int, report: Report) -> tuple[Any, int]:
    """One self-play game; returns the final state and the first player."""
    rng = np.random.default_rng(seed)
    agents = [make_agent("heuristic", "tea", seed=seed * 10 + p)
              for p in range(game.num_players)]
    s = game.new_initial_state()
    RECORDER.begin(s, report)
    first, low = -1, {"bag": 99, "gm": 99, "tp": 99, "tech": 99}
    while not game.is_terminal(s) and s.decisions < game.max_game_length:
        if game.current_player(s) == CHANCE:
            game.resolve_chance(s, rng)
            low = {"bag": min(low["bag"], sum(s.bag)), "gm": min(low["gm"], s.action_supply[0]),
                   "tp": min(low["tp"], s.action_supply[1]),
                   "tech": min(low["tech"], min(s.tech_supply))}
            continue
        if first < 0 and s.phase == Phase.ACTIONS:
            first = s.start_player
        d = s.stack[-1]
        action = agents[d.player].act_on_state(game, s)
        note_decision(game, s, d, action, report)
        game.apply_action(s, action)
    for key, value in low.items():
        report.other[f"min {key}"] += value
        report.other[f"empty {key}"] += value == 0
    return s, first


def note_decision(game: Any, s: Any, d: Any, action: int, report: Report) -> None:
    """Count main actions, disc uses and A/B choices."""
    if d.kind == "advance_mode":
        report.modes[(d.ctx[0], "B" if action == A.MODE0 + A.MODE_B else "A")] += 1
        return
    if d.kind != "turn" or action in (A.PASS, A.DONE):
        return
    seg, i = game.action_space.decode(action)
    report.actions[(seg, i)] += 1
    if seg == "HARVEST":
        row = i // 4
        last = game.last[row]
        for q in range(s.num_players):
            pos = s.master_pos[q][row]
            n = sum(1 for c in range(4) if s.occupant[4 * row + c] >= 0) + 1
            if 0 <= pos < last and pos + n >= last:
                report.modes[(row, "auto")] += 1
    elif seg == "PROCESS":
        RECORDER.started[(d.player, i)] = s.round


def add_game(game: Any, report: Report, seed: int) -> None:
    """Play one game and add its numbers to ``report``."""
    s, first = play(game, seed, report)
    n = game.num_players
    report.games += 1
    report.truncated += not game.is_terminal(s)
    report.decisions.append(s.decisions)
    report.final_vp.extend(s.vp)
    report.winner_vp.append(max(s.vp))
    top = max(s.vp)
    wins = [1 / s.vp.count(top) if v == top else 0.0 for v in s.vp]
    final_parts(game, s)
    for p in range(n):
        report.order_wins[(p - first) % n] += wins[p]
        report.tech += np.asarray(s.tech[p], dtype=float)
        for k in SOURCES:
            report.sources[k] += RECORDER.vp[k][p]
        report.other["buds left"] += sum(s.buds[p])
        if s.character[p] >= 0:
            c = s.character[p]
            report.characters.update({(c, "n"): 1, (c, "win"): wins[p], (c, "vp"): s.vp[p]})
    report.other["deck left"] += deck_size(s)
    report.other["deck empty"] += deck_size(s) == 0
    report.other["display empty"] += sum(1 for row in s.display for c in row if c < 0)
    report.other["stage"] += max((k + 1 for k, pool in enumerate(s.deck_pools)
                                  if len(pool) < len(game.stage_pools[k])), default=1)


def final_parts(game: Any, s: Any) -> None:
    """Final scoring split (Domestic, icons, event game-end parts); in-play event VP is
    the rest of each player's total."""
    end = end_game_vp(game, s)
    vp = RECORDER.vp
    for p in range(s.num_players):
        vp["domestic"][p] = game.board.domestic.vp[s.domestic[p]]
        vp["icons"][p] = sum(
            icon_multiplier(s.tech[p][t], row.rewards, row.values)
            * sum(1 for c in s.kept[p] if game.merchants[c].icon_index == t)
            for t, row in enumerate(game.board.technology))
        known = sum(vp[k][p] for k in SOURCES if k != "events")
        vp["events"][p] = s.vp[p] - known
        assert vp["events"][p] >= end[p], (p, s.vp[p], vp)


def collect(game: Any, games: int, seed: int) -> Report:
    """Play ``games`` self-play games (seeds ``seed``, ``seed + 1``, ...)."""
    install()
    n = game.num_players
    report = Report(n, tech=np.zeros(3), order_wins=np.zeros(n))
    for k in progress(range(games), games, f"tea balance, {n} players"):
        add_game(game, report, seed + k)
    return report


def _pct(part: float, whole: float) -> str:
    return f"{part / whole:.0%}" if whole else "-"


def summary(game: Any, r: Report) -> list[str]:
    """Game length, final VP, VP by source and win share by turn order."""
    seats = r.games * r.players
    total = sum(r.sources.values())
    main = sum(v for (seg, _), v in r.actions.items() if seg not in MAIN[5:])
    return [
        f"Formosa Tea balance: {r.players} players, {r.games} heuristic self-play games "
        f"({r.truncated} truncated); {EVENTS[r.players]} rounds, "
        f"decisions per game {np.mean(r.decisions):.0f}, main actions per player "
        f"{main / seats:.1f}",
        f"final VP: mean {np.mean(r.final_vp):.1f} (sd {np.std(r.final_vp):.1f}); "
        f"winner {np.mean(r.winner_vp):.1f}; spread winner - mean "
        f"{np.mean(r.winner_vp) - np.mean(r.final_vp):.1f}",
        "VP per player by source: " + ", ".join(
            f"{k} {r.sources[k] / seats:.1f} ({_pct(r.sources[k], total)})" for k in SOURCES),
        "win share by turn order (1st = start player of round 1): " + " ".join(
            f"{w / r.games:.1%}" for w in r.order_wins),
    ]


def action_lines(game: Any, r: Report) -> list[str]:
    """Main actions and disc uses per player and game."""
    seats = r.games * r.players
    per = {seg: sum(v for (s, _), v in r.actions.items() if s == seg) / seats for seg in MAIN}

    def by(seg: str, size: int, names: Any = None) -> str:
        return " / ".join(f"{(names or range(1, size + 1))[i]} "
                          f"{r.actions[(seg, i)] / seats:.2f}" for i in range(size))
    rows = [sum(r.actions[("HARVEST", 4 * row + c)] for c in range(4)) / seats
            for row in range(4)]
    return [
        "main actions per player and game: " + ", ".join(
            f"{seg.lower()} {per[seg]:.2f}" for seg in MAIN),
        "  harvest by row: " + " / ".join(f"{TRACKS[i]} {rows[i]:.2f}" for i in range(4)),
        "  process by track: " + by("PROCESS", 4, TRACKS),
        "  Global Market by space: " + by("GLOBAL_MARKET", 3, [m.bonus for m in game.board.market]),
        "  Domestic by sale: " + by("DOMESTIC", 4, ("2 oolong", "2 black", "2 green",
                                                    "one of each")),
        "  discs: " + by("USE_ACTION_DISC", 2, ("GM disc", "TP disc")) + " / "
        + by("USE_TECH_DISC", 4, ("fixation", "rolling", "oxidation", "drying")),
    ]


def batch_lines(r: Report) -> list[str]:
    """A/B choices, batches, quality and time per track."""
    seats = r.games * r.players
    lines = ["track     A     B  auto  B share | batches/pl  cubes  good normal poor  "
             "rounds to finish"]
    for t in range(4):
        a, b, auto = r.modes[(t, "A")], r.modes[(t, "B")], r.modes[(t, "auto")]
        n = r.batch_rounds[(t, "n")]
        if t < SCENTED:
            qs = [r.batches[(t, q)] for q in (2, 1, 0)]
            cubes = sum(r.batch_cubes[(t, q)] for q in range(3)) / max(1, sum(qs))
            quality = " ".join(f"{_pct(x, sum(qs)):>5}" for x in qs)
        else:
            cubes, quality = r.scented["cubes"] / max(1, n), "    -     -    -"
        lines.append(f"{TRACKS[t]:8} {a / seats:5.2f} {b / seats:5.2f} {auto / seats:5.2f} "
                     f"{_pct(b, a + b):>7} | {n / seats:10.2f} {cubes:6.1f} {quality}  "
                     f"{r.batch_rounds[t] / max(1, n):.2f}")
    good = sum(r.flavor.values())
    bonus = sorted((vp, k) for vp, k in r.flavor.items() if k)
    lines.append("flavor bonus on good batches: " + ", ".join(
        f"{vp} VP {_pct(k, good)}" for vp, k in bonus))
    return lines


def sale_lines(r: Report) -> list[str]:
    """Merchant sales by quality, Domestic and Scented yields, technology, supplies."""
    seats, g = r.games * r.players, r.games
    sales = ", ".join(
        f"{QUALITY[q]} {r.sales[(q, 'n')] / seats:.2f} "
        f"({r.sales[(q, 'vp')] / max(1, r.sales[(q, 'cubes')]):.2f} VP/cube)"
        for q in (2, 1, 0))
    dom = sum(r.actions[("DOMESTIC", k)] * (3 if k == 3 else 2) for k in range(4))
    sc = r.scented
    o = r.other
    return [
        f"merchant sales per player: {sales}",
        f"Domestic: {dom / seats:.2f} cubes per player, "
        f"{r.sources['domestic'] / max(1, dom):.2f} track VP per cube (rewards not counted)",
        f"Scented: {sc['n'] / seats:.2f} batches per player, {sc['vp'] / max(1, sc['n']):.1f} VP"
        f" per batch, {sc['cubes'] / max(1, sc['n']):.1f} cubes and "
        f"{sc['buds'] / max(1, sc['n']):.1f} buds per batch; buds unused at the end "
        f"{o['buds left'] / seats:.1f} per player",
        "technology level at the end: " + " / ".join(
            f"{TRACKS[t]} {r.tech[t] / seats:.1f}" for t in range(3)),
        f"supply empty at some point (games): GM discs {_pct(o['empty gm'], g)}, TP discs "
        f"{_pct(o['empty tp'], g)}, bag {_pct(o['empty bag'], g)} (lowest bag "
        f"{o['min bag'] / g:.0f} cubes); every copy of a tech disc kind handed out "
        f"{_pct(o['empty tech'], g)} (harmless: one space per kind)",
        f"merchant deck: {o['deck left'] / g:.1f} cards left, empty in {_pct(o['deck empty'], g)}"
        f" of games, {o['display empty'] / g:.1f} empty display slots at the end, "
        f"last stage drawn {o['stage'] / g:.1f}",
    ]


def character_lines(r: Report) -> list[str]:
    """Win share and mean VP of each character (advanced games)."""
    lines = []
    for c, name in enumerate(CHARACTER_NAMES):
        n = r.characters[(c, "n")]
        if n:
            win, vp = r.characters[(c, "win")] / n, r.characters[(c, "vp")] / n
            lines.append(f"  {name:16} drafted {n:4d}  win share {win:5.1%}  VP {vp:.1f}")
    return ["characters:", *lines] if lines else []


def main() -> None:
    """Parse arguments, simulate and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], help="2 to 4")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--advanced", action="store_true", help="starting harvest, characters")
    parser.add_argument("--merchant-cards", type=int, default=28, choices=(24, 28))
    parser.add_argument("--board-file", help="alternative board.toml (a balance trial)")
    parser.add_argument("--merchant-file", help="alternative merchants.toml")
    args = parser.parse_args()
    for players in args.players:
        game = make_game(num_players=players, advanced=args.advanced,
                         merchant_cards=args.merchant_cards, board_file=args.board_file,
                         merchant_file=args.merchant_file)
        report = collect(game, args.games, args.seed)
        print("\n".join(summary(game, report) + action_lines(game, report) + batch_lines(report)
                        + sale_lines(report) + character_lines(report)))
        print()


if __name__ == "__main__":
    main()
