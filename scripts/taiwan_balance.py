"""Balance check of Taiwan Formosa's placeholder content by heuristic self-play.

For every building type and landmark: how often it is bought, how often completed,
and the win share of players who bought it against those who did not; plus game
length, final VP and seat win shares. Usage::

    python scripts/taiwan_balance.py --players 3 --games 200 --seed 0
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from agents import make_agent
from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.games.taiwan.state import LANDMARK0
from formosa_envs.tools.progress import progress


def play(game, seed: int):
    """One heuristic self-play game; returns the final state."""
    rng = np.random.default_rng(seed)
    agents = [make_agent("heuristic", "taiwan", seed=seed * 10 + p)
              for p in range(game.num_players)]
    state = game.new_initial_state()
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
        else:
            game.apply_action(state, agents[game.current_player(state)].act_on_state(
                game, state))
    return state


def collect(game, games: int, seed: int) -> dict:
    """Per-card purchase / completion / win statistics over ``games`` games."""
    stats = defaultdict(lambda: {"bought": 0, "completed": 0, "owner_wins": 0.0,
                                 "owners": 0})
    rounds, vps, seat_wins = [], [], np.zeros(game.num_players)
    for g in progress(range(games), games, "balance"):
        s = play(game, seed + g)
        shares = game.returns(s)
        winners = [p for p, r in enumerate(shares) if r == max(shares)]
        for p in winners:
            seat_wins[p] += 1 / len(winners)
        rounds.append(s.round)
        vps.extend(s.vp)
        for p in range(game.num_players):
            owned = _cards_of(s, p)
            for code, done in owned.items():
                row = stats[code]
                row["bought"] += done[0]
                row["completed"] += done[1]
                row["owners"] += 1
                row["owner_wins"] += (1 / len(winners)) if p in winners else 0.0
    return {"stats": stats, "rounds": rounds, "vps": vps, "seat_wins": seat_wins / games}


def _cards_of(s, p: int) -> dict[int, tuple[int, int]]:
    cards: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for t, count in enumerate(s.bought[p]):
        if count:
            cards[t][0] += count
    for code in s.built[p]:
        cards[code][1] += 1
        if code >= LANDMARK0:
            cards[code][0] += 1
    for code, _space in s.track[p]:
        if code >= LANDMARK0:
            cards[code][0] += 1
    return {c: (v[0], v[1]) for c, v in cards.items()}


def report(game, data: dict, games: int) -> str:
    """A readable table."""
    n = game.num_players
    lines = [f"Taiwan Formosa balance, {n} players, {games} heuristic self-play games",
             f"rounds per game: mean {np.mean(data['rounds']):.1f}; final VP: mean "
             f"{np.mean(data['vps']):.1f} (sd {np.std(data['vps']):.1f})",
             "seat win share: " + " ".join(f"{w:.1%}" for w in data["seat_wins"]),
             f"{'card':28} {'bought/game':>11} {'completed%':>10} {'owner win%':>10}"]
    for code in sorted(data["stats"]):
        row = data["stats"][code]
        name = (game.buildings[code].name if code < LANDMARK0
                else game.landmarks[code - LANDMARK0].name)
        done = row["completed"] / row["bought"] if row["bought"] else 0.0
        win = row["owner_wins"] / row["owners"] if row["owners"] else 0.0
        lines.append(f"{name:28} {row['bought'] / games:11.2f} {done:10.0%} {win:10.1%}")
    lines.append(f"(a fair card's owners win about {1 / n:.0%} of their games)")
    return "\n".join(lines)


def main() -> None:
    """Run and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = make_game("taiwan", num_players=args.players)
    print(report(game, collect(game, args.games, args.seed), args.games))


if __name__ == "__main__":
    main()
