"""Balance report of Dadaocheng's placeholder content by heuristic self-play.

For each player count (1 = the single-player game): final PP and PP by source (ships by
level, Mansions, other buildings, credit, opium used, Den penalty, loop sign cubes,
1920), cards bought per ship level and building type with their PP per cube, Stage 4
actions, cubes gained per turn before Stage 4 (cascade, Full House, loop reward), loops
and Full Houses per game, opium use, pile exhaustion, the turn of the first level-2 and
level-3 ship, and win share by seat (position after the start player). Solo: the tier
distribution and, with ``--challenge-games``, each challenge played for its win rate.
Usage::

    python scripts/dadaocheng_balance.py --players 1 2 3 4 --games 100 --seed 0
    python scripts/dadaocheng_balance.py --players 1 --games 200 --challenge-games 50
    python scripts/dadaocheng_balance.py --players 3 --games 60 --building-file my.toml
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from formosa_envs.agents import make_agent

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.games.dadaocheng import actions as A
from formosa_envs.games.dadaocheng.content import BUILDINGS, DEN, MANSION
from formosa_envs.games.dadaocheng.scoring import den_penalty, mansion_vp, most_buildings_bonus
from formosa_envs.tools.progress import progress

SOURCES = ("ships L1", "ships L2", "ships L3", "mansions", "other buildings", "credit",
           "opium used", "den penalty", "loop cubes", "1920")
ACTIONS = ("TEMPLE 1 white", "TEMPLE 2 any", "EXCHANGE 2-for-1", "MARKET", "DEN", "EVENT")
TIERS = ("none", "apprentice", "experienced", "master")


@dataclass
class Report:
    """Totals over the games of one player count (and solo challenge)."""

    players: int
    challenge: str | None = None
    games: int = 0
    truncated: int = 0
    final_pp: list[float] = field(default_factory=list)
    winner_pp: list[float] = field(default_factory=list)
    sources: Counter = field(default_factory=Counter)     # PP by source, all seats
    bought: Counter = field(default_factory=Counter)      # purchases: ("ship", lvl) / type
    spent: Counter = field(default_factory=Counter)       # nominal cubes of those purchases
    owned: Counter = field(default_factory=Counter)       # building cards owned at the end
    actions: Counter = field(default_factory=Counter)     # Stage 4 actions other than buying
    turn_cubes: list[int] = field(default_factory=list)   # active gain before Stage 4
    other: Counter = field(default_factory=Counter)       # sums and flags per game
    first_level: dict[int, list[int]] = field(default_factory=lambda: {1: [], 2: []})
    firsts: dict[tuple[int, int], int] = field(default_factory=dict)  # this game's
    seat_wins: np.ndarray | None = None
    seat_pp: np.ndarray | None = None
    tiers: Counter = field(default_factory=Counter)
    plans: Counter = field(default_factory=Counter)       # solo: purchase mix per game


class Recorder:
    """Wraps the game's ``full_house`` and ``stage4`` handlers to count Full Houses and
    each turn's cubes before Stage 4; only the state being played is counted."""

    def __init__(self, game: Any) -> None:
        self.state: Any = None
        self.report: Report | None = None
        self.turn_start = 0
        for kind in ("full_house", "stage4"):
            game.handlers[kind] = _Wrapped(game.handlers[kind], kind, self)

    def begin(self, state: Any, report: Report) -> None:
        """Follow a new game."""
        self.state, self.report = state, report

    def before(self, kind: str, s: Any, d: Any, action: int) -> int:
        """Called before a wrapped handler applies; returns a hand size to compare."""
        if s is not self.state or self.report is None:
            return -1
        if kind == "stage4":
            self.report.turn_cubes.append(sum(s.hand[s.turn]) - self.turn_start)
            return -1
        return sum(s.hand[d.player])

    def after(self, kind: str, s: Any, d: Any, before: int) -> None:
        """Called after a wrapped handler applied."""
        if kind != "full_house" or before < 0 or self.report is None:
            return
        who = "active" if d.player == s.turn else "other"
        self.report.other[f"full houses {who}"] += 1
        self.report.other[f"full house cubes {who}"] += sum(s.hand[d.player]) - before


class _Wrapped:
    """A handler that reports to the recorder around the original's ``apply``."""

    def __init__(self, inner: Any, kind: str, recorder: Recorder) -> None:
        self.inner, self.kind, self.recorder = inner, kind, recorder

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def apply(self, game: Any, state: Any, d: Any, action: int) -> None:
        before = self.recorder.before(self.kind, state, d, action)
        self.inner.apply(game, state, d, action)
        self.recorder.after(self.kind, state, d, before)


def play(game: Any, seed: int, report: Report, recorder: Recorder) -> Any:
    """One heuristic self-play game, counting decisions and opium on the way."""
    rng = np.random.default_rng(seed)
    n = game.num_players
    agents = [make_agent("heuristic", "dadaocheng", seed=seed * 10 + p) for p in range(n)]
    s = game.new_initial_state()
    recorder.begin(s, report)
    opium = [0] * n
    while not game.is_terminal(s) and s.decisions < game.max_game_length:
        if game.current_player(s) == CHANCE:
            game.resolve_chance(s, rng)
        else:
            d = s.stack[-1]
            if d.kind == "move" and d.count == 2:
                recorder.turn_start = sum(s.hand[s.turn])
            action = agents[d.player].act_on_state(game, s)
            if d.kind == "purchase":
                note_purchase(game, s, d.player, action, report)
            game.apply_action(s, action)
        for p in range(n):
            step = s.opium[p] - opium[p]
            report.other["opium used" if step > 0 else "opium relieved"] += abs(step)
            opium[p] = s.opium[p]
    return s


def note_purchase(game: Any, s: Any, p: int, action: int, report: Report) -> None:
    """Count a Stage 4 action: a card bought (nominal cube cost) or another action."""
    if action == A.DONE:
        return
    seg, i = game.action_space.decode(action)
    if seg == "SHIP":
        ship = game.ships[s.ship_up[i]]
        report.bought[("ship", i + 1)] += 1
        report.spent[("ship", i + 1)] += sum(ship.cost)
        if i >= 1:
            report.firsts.setdefault((i, p), s.round)
    elif seg == "BUILDING":
        report.bought[BUILDINGS[i]] += 1
        report.spent[BUILDINGS[i]] += sum(game.buildings[i].cost)
    else:
        name = {"TEMPLE": ACTIONS[i], "EXCHANGE": ACTIONS[2]}.get(seg, seg)
        report.actions[name] += 1


def pp_sources(game: Any, s: Any, p: int) -> dict[str, float]:
    """Player ``p``'s final PP split by source (they add up to ``game.prestige``)."""
    n = s.num_players
    ships = [0, 0, 0]
    for i in s.ships[p]:
        ships[game.ships[i].level - 1] += game.ships[i].prestige
    bonus = 0
    if game.event_index["e1920"] in s.events:
        bonus = most_buildings_bonus([sum(b) for b in s.buildings])[p]
    out = {"ships L1": ships[0], "ships L2": ships[1], "ships L3": ships[2],
           "mansions": mansion_vp(s.buildings[p][MANSION]),
           "other buildings": sum(game.buildings[t].prestige * s.buildings[p][t]
                                  for t in range(1, 5)),
           "credit": s.credit[p] // 5, "opium used": -s.opium[p],
           "den penalty": -s.buildings[p][DEN] * den_penalty(sum(s.opium), n),
           "loop cubes": 3 * s.sign[p], "1920": bonus}
    assert sum(out.values()) == game.prestige(s)[p], (out, game.prestige(s)[p])
    return out


def add_game(game: Any, report: Report, seed: int, recorder: Recorder) -> None:
    """Play one game and add its numbers to ``report``."""
    before = Counter(report.bought)
    s = play(game, seed, report, recorder)
    n = game.num_players
    report.games += 1
    report.truncated += not game.is_terminal(s)
    pp = game.prestige(s)
    report.final_pp.extend(pp)
    report.winner_pp.append(max(pp))
    shares = game.returns(s) if n > 1 else [1.0]
    top = max(shares)
    wins = [1 / shares.count(top) if r == top else 0.0 for r in shares]
    for p in range(n):
        pos = (p - s.start_player) % n
        report.seat_wins[pos] += wins[p]
        report.seat_pp[pos] += pp[p]
        for source, value in pp_sources(game, s, p).items():
            report.sources[source] += value
        for t in range(5):
            report.owned[BUILDINGS[t]] += s.buildings[p][t]
        report.other["den owners"] += s.buildings[p][DEN] > 0
        report.other["den owner wins"] += wins[p] * (s.buildings[p][DEN] > 0)
        report.other["credit"] += s.credit[p]
        report.other["final opium track"] += s.opium[p]
    report.other["loops"] += sum(s.sign)
    report.other["empty L3 pile"] += s.ship_up[2] < 0
    report.other["empty mansion pile"] += s.piles[MANSION] == 0
    for (level, _), rnd in report.firsts.items():
        report.first_level[level].append(rnd)
    report.firsts = {}
    if n == 1:
        result = game.solo_result(s)
        report.tiers[result["tier"]] += 1
        report.other["won"] += result["won"]
        report.other["ships condition"] += result["ships_challenge"]
        report.other["buildings condition"] += result["buildings_challenge"]
        got = report.bought - before
        report.plans[(got[("ship", 1)], got[("ship", 2)], got[("ship", 3)],
                      got["mansion"])] += 1


def collect(game: Any, games: int, seed: int, challenge: str | None = None) -> Report:
    """Play ``games`` self-play games (seeds ``seed``, ``seed + 1``, ...)."""
    n = game.num_players
    report = Report(n, challenge, seat_wins=np.zeros(n), seat_pp=np.zeros(n))
    recorder = Recorder(game)
    label = f"dadaocheng balance, {n} player{'s' * (n > 1)}" + (
        f", challenge {challenge}" if challenge else "")
    for k in progress(range(games), games, label):
        add_game(game, report, seed + k, recorder)
    return report


def summary(game: Any, report: Report) -> list[str]:
    """The report's lines."""
    n, g = report.players, max(1, report.games)
    seats = n * g
    pp = np.asarray(report.final_pp)
    head = "solo" if n == 1 else f"{n} players"
    if report.challenge:
        head += f", challenge {report.challenge}"
    o = report.other
    lines = [f"Dadaocheng balance: {head}, {report.games} heuristic self-play games "
             f"({report.truncated} truncated)",
             f"final PP: mean {pp.mean():.1f} (sd {pp.std():.1f}, range {pp.min():.0f}-"
             f"{pp.max():.0f}); winner {np.mean(report.winner_pp):.1f}",
             "PP per player by source: " + ", ".join(
                 f"{k} {report.sources[k] / seats:.1f}" for k in SOURCES)]
    total = sum(max(0.0, report.sources[k]) for k in SOURCES)
    lines.append("share of positive PP: " + ", ".join(
        f"{k} {report.sources[k] / total:.0%}" for k in SOURCES[:6] + SOURCES[8:]
        if report.sources[k] > 0))
    lines.append(f"{'card':16} {'bought/player':>13} {'cubes':>6} {'PP':>6} {'PP/cube':>7}")
    for key, name, src in ((("ship", 1), "ship level 1", "ships L1"),
                           (("ship", 2), "ship level 2", "ships L2"),
                           (("ship", 3), "ship level 3", "ships L3"),
                           ("mansion", "mansion", "mansions")):
        lines.append(_card_line(name, report.bought[key], report.spent[key],
                                report.sources[src], seats))
    for t in range(1, 5):
        key = BUILDINGS[t]
        value = game.buildings[t].prestige * report.owned[key]
        lines.append(_card_line(key, report.bought[key], report.spent[key], value, seats))
    lines.append("  (PP/cube: printed PP over the nominal cube cost, before the Workshop and "
                 "1884; Mansions by their set score; owned at the end: " + ", ".join(
                     f"{k} {report.owned[k] / seats:.2f}" for k in BUILDINGS) + ")")
    turns = np.asarray(report.turn_cubes) if report.turn_cubes else np.zeros(1)
    fh = o["full houses active"] + o["full houses other"]
    lines += [
        f"cubes per turn before Stage 4 (active player): mean {turns.mean():.2f} "
        f"(sd {turns.std():.2f}, 0 on {np.mean(turns == 0):.0%} of turns); of which "
        f"Full House {o['full house cubes active'] / len(turns):.2f}",
        f"Full Houses per game: {fh / g:.2f} ({o['full houses active'] / g:.2f} active, "
        f"{o['full houses other'] / g:.2f} out of turn, {o['full house cubes other'] / g:.2f}"
        f" cubes out of turn); loops per game {o['loops'] / g:.2f}",
        "Stage 4 actions per player: " + ", ".join(
            f"{k} {report.actions[k] / seats:.2f}" for k in ACTIONS),
        f"opium per player: used {o['opium used'] / seats:.2f}, relieved by events "
        f"{o['opium relieved'] / seats:.2f}, final track {o['final opium track'] / seats:.2f};"
        f" Den owners {o['den owners'] / seats:.0%} of players"
        + (f", win share {o['den owner wins'] / max(1, o['den owners']):.0%}" if n > 1 else ""),
        f"credit per player {o['credit'] / seats:.1f}; first level-2 ship: round "
        f"{_mean(report.first_level[1])} ({len(report.first_level[1]) / seats:.0%} of players);"
        f" first level-3 ship: round {_mean(report.first_level[2])} "
        f"({len(report.first_level[2]) / seats:.0%})",
        f"piles emptied: level 3 ships {o['empty L3 pile'] / g:.0%} of games, Mansions "
        f"{o['empty mansion pile'] / g:.0%}"]
    if n > 1:
        lines.append("by seat (1st = start player): win share " + " ".join(
            f"{w / g:.1%}" for w in report.seat_wins) + "; mean PP " + " ".join(
            f"{v / g:.1f}" for v in report.seat_pp))
    else:
        lines.append("solo tiers: " + ", ".join(
            f"{t} {report.tiers[t] / g:.0%}" for t in TIERS) + f"; won {o['won'] / g:.0%}; "
            f"conditions met: ships {o['ships condition'] / g:.0%}, buildings "
            f"{o['buildings condition'] / g:.0%}")
        common = report.plans.most_common(4)
        lines.append("commonest purchase mixes (ships L1/L2/L3, Mansions): " + ", ".join(
            f"{a}/{b}/{c}, {m}M: {k / g:.0%}" for (a, b, c, m), k in common))
    return lines


def _card_line(name: str, bought: int, cubes: int, value: float, seats: int) -> str:
    per = f"{value / cubes:7.2f}" if cubes else "      -"
    return f"{name:16} {bought / seats:13.2f} {cubes / seats:6.1f} {value / seats:6.1f} {per}"


def _mean(values: list[int]) -> str:
    return f"{np.mean(values):.1f}" if values else "-"


def main() -> None:
    """Parse arguments, simulate and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4], help="1 to 4")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--challenge-games", type=int, default=0,
                        help="solo games per challenge (ships, buildings, hand2); 0 = none")
    parser.add_argument("--ship-file", help="alternative ships.toml (a balance trial)")
    parser.add_argument("--building-file", help="alternative buildings.toml (a balance trial)")
    args = parser.parse_args()
    files = {"ship_file": args.ship_file, "building_file": args.building_file}
    runs: list[tuple[int, str | None, int]] = [(n, None, args.games) for n in args.players]
    if 1 in args.players and args.challenge_games:
        runs += [(1, c, args.challenge_games) for c in ("ships", "buildings", "hand2")]
    for players, challenge, games in runs:
        game = make_game("dadaocheng", num_players=players, solo_challenge=challenge, **files)
        report = collect(game, games, args.seed, challenge)
        print("\n".join(summary(game, report)))
        print(flush=True)


if __name__ == "__main__":
    main()
