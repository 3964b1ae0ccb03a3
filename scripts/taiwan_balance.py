"""Balance report of Taiwan Formosa's placeholder content by heuristic self-play.

For every building type and landmark: how often it is bought and completed, the VP it
earned (printed VP on completion or its unfinished value, plus what its ability scored:
Temple and Hot Spring VP, Baseball Field and Train Station final VP), and the win share
of the players who bought it against those who did not (in games where it was on offer).
Then final VP, game length, VP by source and win share by turn order. Usage::

    python scripts/taiwan_balance.py --players 3 --games 300 --seed 0
    python scripts/taiwan_balance.py --players 2 3 4 --games 200 --building-file my.toml
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from formosa_envs.agents import make_agent

from formosa_envs.core.engine import CHANCE
from formosa_envs.games.taiwan import actions as A
from formosa_envs.games.taiwan import make_game
from formosa_envs.games.taiwan.rules import HOT_SPRING
from formosa_envs.games.taiwan.scoring import TRAIN_VP, area_points, uncompleted_vp
from formosa_envs.games.taiwan.state import LANDMARK0
from formosa_envs.tools.progress import progress

SOURCES = ("buildings", "landmarks", "temple", "hot spring", "baseball", "train",
           "unfinished", "majority")


@dataclass
class CardStats:
    """Totals for one card (a building type or a landmark) over many games."""

    offered: int = 0          # games in which it was on offer
    bought: int = 0           # copies bought
    completed: int = 0        # copies completed
    vp: float = 0.0           # VP earned by its bought copies
    buyer_wins: float = 0.0   # win shares of (player, game) pairs that bought it
    buyers: int = 0
    other_wins: float = 0.0   # ... and of those that did not, in games it was offered
    others: int = 0


@dataclass
class Report:
    """Everything the balance report prints."""

    players: int
    cards: dict[int, CardStats] = field(default_factory=lambda: defaultdict(CardStats))
    rounds: list[int] = field(default_factory=list)
    final_vp: list[float] = field(default_factory=list)
    winner_vp: list[float] = field(default_factory=list)
    sources: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    order_wins: np.ndarray | None = None
    truncated: int = 0


def play(game: Any, seed: int) -> tuple[Any, np.ndarray, int, set[int]]:
    """One self-play game: the final state, Temple / Hot Spring VP, first player, offers."""
    rng = np.random.default_rng(seed)
    agents = [make_agent("heuristic", "taiwan", seed=seed * 10 + p)
              for p in range(game.num_players)]
    s = game.new_initial_state()
    ability_vp = np.zeros((game.num_players, 2))
    first, seen = -1, set()
    while not game.is_terminal(s) and s.decisions < game.max_game_length:
        if game.current_player(s) == CHANCE:
            game.resolve_chance(s, rng)
            seen.update(LANDMARK0 + c for c in s.face_up if c >= 0)
            continue
        d, p = s.stack[-1], game.current_player(s)
        first = p if first < 0 else first
        action = agents[p].act_on_state(game, s)
        before = s.vp[p]
        game.apply_action(s, action)
        if action == A.TEMPLE:
            ability_vp[p, 0] += s.vp[p] - before
        elif d.kind == "region" and d.ctx[0] == HOT_SPRING:
            ability_vp[p, 1] += s.vp[p] - before
    return s, ability_vp, first, seen


def card_vp(game: Any, s: Any, p: int, ability_vp: np.ndarray) -> dict[int, float]:
    """VP player ``p`` earned from each card it bought (abilities included)."""
    vp: dict[int, float] = defaultdict(float)
    for code in s.built[p]:
        vp[code] += game.card_vp(code)
    for code, space in s.track[p]:
        vp[code] += uncompleted_vp(game.card_vp(code), space)
    for key, extra in final_bonus(game, s, p).items():
        vp[game.type_id[key]] += extra
    vp[game.type_id["temple"]] += ability_vp[p, 0]
    vp[game.type_id["hot_spring_hotel"]] += ability_vp[p, 1]
    return vp


def final_bonus(game: Any, s: Any, p: int) -> dict[str, int]:
    """Baseball Field and Train Station final-scoring VP of player ``p``."""
    ball, train = game.type_id["baseball_field"], game.type_id["train_station"]
    done = sum(1 for code in s.built[p] if code < LANDMARK0)
    trains = sum(b[train] for b in s.bought)
    return {"baseball_field": s.bought[p][ball] * done,
            "train_station": s.bought[p][train] * TRAIN_VP[min(trains, 4)]}


def vp_sources(game: Any, s: Any, p: int, ability_vp: np.ndarray) -> dict[str, float]:
    """Player ``p``'s final VP split by source (they add up to ``s.vp[p]``)."""
    bonus = final_bonus(game, s, p)
    out = {"buildings": sum(game.card_vp(c) for c in s.built[p] if c < LANDMARK0),
           "landmarks": sum(game.card_vp(c) for c in s.built[p] if c >= LANDMARK0),
           "temple": ability_vp[p, 0], "hot spring": ability_vp[p, 1],
           "baseball": bonus["baseball_field"], "train": bonus["train_station"],
           "unfinished": sum(uncompleted_vp(game.card_vp(c), sp) for c, sp in s.track[p]),
           "majority": sum(area_points(r, s.num_players).get(p, 0) for r in s.regions)}
    assert abs(sum(out.values()) - s.vp[p]) < 1e-9, (out, s.vp[p])
    return out


def bought_codes(s: Any, p: int) -> dict[int, int]:
    """Copies of each card player ``p`` bought (building types and landmarks)."""
    counts = {t: c for t, c in enumerate(s.bought[p]) if c}
    for code in [c for c in s.built[p] if c >= LANDMARK0] + [
            c for c, _ in s.track[p] if c >= LANDMARK0]:
        counts[code] = 1
    return counts


def add_game(game: Any, report: Report, seed: int) -> None:
    """Play one game and add it to ``report``."""
    s, ability_vp, first, seen = play(game, seed)
    n = game.num_players
    report.truncated += not game.is_terminal(s)
    shares = game.returns(s)
    top = max(shares)
    wins = [1 / shares.count(top) if r == top else 0.0 for r in shares]
    report.rounds.append(s.round)
    report.final_vp.extend(s.vp)
    report.winner_vp.append(max(s.vp))
    for p in range(n):
        report.order_wins[(p - first) % n] += wins[p]
        for source, vp in vp_sources(game, s, p, ability_vp).items():
            report.sources[source] += vp
    offered = {t for t in range(18) if s.in_game[t]} | seen
    for code in offered:
        add_card(game, report.cards[code], s, code, wins, ability_vp)


def add_card(game: Any, row: CardStats, s: Any, code: int, wins: list[float],
             ability_vp: np.ndarray) -> None:
    """Add one game's numbers for card ``code`` to its row."""
    row.offered += 1
    for p, share in enumerate(wins):
        copies = bought_codes(s, p).get(code, 0)
        if copies:
            row.bought += copies
            row.completed += s.built[p].count(code)
            row.vp += card_vp(game, s, p, ability_vp)[code]
            row.buyers += 1
            row.buyer_wins += share
        else:
            row.others += 1
            row.other_wins += share


def collect(game: Any, games: int, seed: int) -> Report:
    """Play ``games`` self-play games (seeds ``seed``, ``seed + 1``, ...)."""
    players = game.num_players
    report = Report(players, order_wins=np.zeros(players))
    for k in progress(range(games), games, f"taiwan balance, {players} players"):
        add_game(game, report, seed + k)
    return report


def card_table(game: Any, report: Report) -> list[str]:
    """One line per card: offered, bought, completed, VP per copy, buyer / other win share."""
    lines = [f"{'card':26} {'offered':>7} {'bought':>6} {'done':>5} {'VP/copy':>7} "
             f"{'buyers':>6} {'buyers win':>10} {'others win':>10}"]
    codes = sorted(report.cards)
    for part in ([c for c in codes if c < LANDMARK0], [c for c in codes if c >= LANDMARK0]):
        lines += [_card_line(game, code, report.cards[code]) for code in part] + [""]
    return lines[:-1]


def _card_line(game: Any, code: int, row: CardStats) -> str:
    name = game.buildings[code].name if code < LANDMARK0 else \
        game.landmarks[code - LANDMARK0].name
    bought = row.bought / max(1, row.offered)
    done = f"{row.completed / row.bought:5.0%}" if row.bought else "    -"
    per = f"{row.vp / row.bought:7.1f}" if row.bought else "      -"
    return (f"{name:26} {row.offered:7d} {bought:6.2f} {done} {per} {row.buyers:6d} "
            f"{_share(row.buyer_wins, row.buyers)} {_share(row.other_wins, row.others)}")


def _share(wins: float, count: int) -> str:
    return f"{wins / count:10.1%}" if count else "-".rjust(10)


def summary(report: Report) -> list[str]:
    """Game length, final VP, VP by source and win share by turn order."""
    n, games = report.players, len(report.rounds)
    rounds = np.asarray(report.rounds)
    seats = len(report.final_vp)
    lines = [f"Taiwan Formosa balance: {n} players, {games} heuristic self-play games "
             f"({report.truncated} truncated)",
             f"rounds per game: mean {rounds.mean():.1f}, median {np.median(rounds):.0f}, "
             f"range {rounds.min()}-{rounds.max()}",
             f"final VP: mean {np.mean(report.final_vp):.1f} (sd {np.std(report.final_vp):.1f});"
             f" winner {np.mean(report.winner_vp):.1f}",
             "VP per player by source: " + ", ".join(
                 f"{k} {report.sources[k] / seats:.1f}" for k in SOURCES),
             "win share by turn order (1st = first to act in round 1): " + " ".join(
                 f"{w / games:.1%}" for w in report.order_wins),
             "(per card: 'offered' = games it was on offer; 'bought' = copies bought per game"
             " offered; 'done' = completed share;",
             f" 'buyers' = (player, game) pairs that bought it; a neutral card's buyers win "
             f"about {1 / n:.0%})"]
    return lines


def main() -> None:
    """Parse arguments, simulate and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[3], help="2 to 5")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--building-file", help="alternative buildings.toml (a balance trial)")
    parser.add_argument("--landmark-file", help="alternative landmarks.toml (a balance trial)")
    args = parser.parse_args()
    for players in args.players:
        game = make_game(num_players=players, building_file=args.building_file,
                         landmark_file=args.landmark_file)
        report = collect(game, args.games, args.seed)
        print("\n".join(summary(report) + [""] + card_table(game, report)))
        print()


if __name__ == "__main__":
    main()
