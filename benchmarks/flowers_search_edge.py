"""Diagnostic: where ``mcts:200:heuristic`` beats the Flowers heuristic at P seats.

``python benchmarks/flowers_search_edge.py disagree --games 40 --seed 9200000 [--players 4]``
plays heuristic games and, at a quarter of the decisions with a choice, asks the search
too: how often it picks another move, by decision kind (play a card, capture, keep or
cash). Prints a running tally per game.

``python benchmarks/flowers_search_edge.py search-only --kinds play --games 120 --seed
9400000 [--players 4]`` (``--kinds``: any of play, capture, cash) seats one player that
searches on the named kinds only (the heuristic elsewhere) against P-1 heuristics, seats
rotated: its win share every 20 games. ``--search SPEC`` names another search (default
``mcts:200:heuristic``; e.g. ``flat:64``, the keep-or-cash teacher of
``training/configs/flowers_4p_cash_bc.toml``).

``python benchmarks/flowers_search_edge.py cash-regret --network RUN/best.npz --games 160
--seed 9600000`` plays heuristic games and, at every keep-or-cash choice of the seat
``game % P``, values both answers with ``flat:128`` (the values the network's teacher
estimates, with twice the play-outs): the mean regret (best value minus the chosen
answer's) and the agreement with the best answer, of the heuristic, of the network's
answer and of always keeping or always cashing. With ``--on-policy`` that seat plays the
network's answer at its keep-or-cash choices (the heuristic elsewhere), so the choices
valued are the ones the network's own play leads to.

``python benchmarks/flowers_search_edge.py split --part rejected --network RUN/best.npz
--games 800 --seed 9800000`` splits the keep-or-cash network's edge: one seat plays the
heuristic except at its keep-or-cash choices where ``agreed``: the network deviates from
the heuristic and ``flat:64`` agrees; ``rejected``: the network deviates and ``flat:64``
does not agree; ``missed``: ``flat:64`` deviates and the network does not; there it plays
the deviation. Its win share against P-1 heuristics, seats rotated (as ``search-only``).

All read only what the deciding seat may see (the search determinizes, as ``mcts`` does);
the seeds are diagnostic seeds, disjoint from the tournament seed 7,000,000 and the
validation seed 8,000,000. docs/learned-agents.md ("Where the 4-player edge is") reports
their figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from formosa_envs.agents import AgentSpecError, make_agent  # noqa: E402
from formosa_envs.agents.base import StateAgent  # noqa: E402
from formosa_envs.agents.heuristics import flowers as heuristic  # noqa: E402

from formosa_envs.evaluation import ratings  # noqa: E402
from formosa_envs.games import make_game  # noqa: E402
from formosa_envs.games.flowers.rules import KEEP_OR_CASH, PLAY  # noqa: E402
from formosa_envs.tools.simulate import play_game  # noqa: E402
from formosa_envs.tools.usage import positive_int  # noqa: E402

SEARCH = "mcts:200:heuristic"
KINDS = ("play", "capture", "cash")


def decision_kind(state: Any) -> str:
    """``play``, ``capture`` or ``cash`` (keep or cash) for the decision on top."""
    kind = state.stack[-1].kind
    return "cash" if kind == KEEP_OR_CASH else ("play" if kind == PLAY else "capture")


def disagree(players: int, games: int, seed: int) -> Counter:
    """Heuristic games; a quarter of the choices also searched; (kind, same move) counts."""
    game = make_game("flowers", num_players=players)
    search = make_agent(SEARCH, "flowers", 5)
    rng, tally, start = np.random.default_rng(seed), Counter(), time.time()
    for k in range(games):
        state, chance = game.new_initial_state(), np.random.default_rng(seed + k)
        while not game.is_terminal(state):
            if game.current_player(state) < 0:
                game.resolve_chance(state, chance)
                continue
            move = heuristic.choose(game, state, rng)
            if len(game.legal_actions(state)) > 1 and rng.random() < 0.25:
                searched = search.act_on_state(game, game.clone(state))
                tally[(decision_kind(state), searched == move)] += 1
            game.apply_action(state, move)
        print(k, dict(tally), round(time.time() - start), flush=True)
    return tally


class SearchOn(StateAgent):
    """The search on decisions of ``kinds`` with a choice, the heuristic on the others."""

    def __init__(self, kinds: set[str], seed: int, search: str = SEARCH) -> None:
        self.kinds = kinds
        self.search = make_agent(search, "flowers", seed)
        self.heuristic = make_agent("heuristic", "flowers", seed + 1)

    def reset(self) -> None:
        """Nothing per game."""

    def act_on_state(self, game: Any, state: Any) -> int:
        """Search where the kind is named and there is a choice."""
        if decision_kind(state) in self.kinds and len(game.legal_actions(state)) > 1:
            return self.search.act_on_state(game, state)
        return self.heuristic.act_on_state(game, state)


class SplitOn(SearchOn):
    """The heuristic, except at keep-or-cash choices of one ``part`` of the network's
    and ``flat:64``'s deviations from it (see the module)."""

    PARTS = ("agreed", "rejected", "missed")

    def __init__(self, part: str, policy: Any, seed: int) -> None:
        super().__init__({"cash"}, seed, "flat:64")
        self.part, self.policy = part, policy

    def act_on_state(self, game: Any, state: Any) -> int:
        """The heuristic's move unless this choice is in the part: then the deviation."""
        from formosa_envs.games.flowers.actions import CASH, KEEP
        move = self.heuristic.act_on_state(game, state)
        if decision_kind(state) != "cash" or len(game.legal_actions(state)) < 2:
            return move
        logits = self.policy.logits(np.asarray(game.observe(state, state.stack[-1].player),
                                               np.float32))
        network = KEEP if logits[KEEP] > logits[CASH] else CASH
        searched = self.search.act_on_state(game, state)
        if self.part == "agreed":
            return network if network != move and searched == network else move
        if self.part == "rejected":
            return network if network != move and searched != network else move
        return searched if searched != move and network == move else move


def split(part: str, network: str, players: int, games: int, seed: int) -> float:
    """The win share of :class:`SplitOn` against ``players - 1`` heuristics."""
    from formosa_envs.agents.policy import PolicyAgent
    policy = PolicyAgent.load(network)
    return seat_share(lambda s: SplitOn(part, policy, s), players, games, seed, every=100)


def search_only(kinds: set[str], players: int, games: int, seed: int,
                search: str = SEARCH) -> float:
    """The searching seat's win share against ``players - 1`` heuristics, seats rotated."""
    return seat_share(lambda s: SearchOn(kinds, s, search), players, games, seed, every=20)


def seat_share(make_seat: Any, players: int, games: int, seed: int, every: int) -> float:
    """The win share of the agent ``make_seat(agent_seed)`` against ``players - 1``
    heuristics, its seat rotated game by game; the running share every ``every`` games."""
    game = make_game("flowers", num_players=players)
    wins, start = 0.0, time.time()
    for k in range(games):
        me = k % players
        agents = [make_seat(seed + 10 * k) if i == me else
                  make_agent("heuristic", "flowers", seed + 10 * k + i) for i in range(players)]
        wins += play_game(game, agents, seed + k).wins[me]
        if (k + 1) % every == 0 or k + 1 == games:
            low, high = ratings.wilson_interval(wins, k + 1)
            print(k + 1, f"{wins / (k + 1):.3f} [{low:.3f},{high:.3f}]",
                  round(time.time() - start), flush=True)
    return wins / games


def cash_regret(network: str, players: int, games: int, seed: int,
                on_policy: bool = False) -> dict[str, float]:
    """Regret of each answer at one seat's keep-or-cash choices (``flat:128``); that seat
    plays the heuristic's answer, or the network's with ``on_policy``."""
    from formosa_envs.agents.policy import PolicyAgent

    from formosa_envs.games.flowers.actions import CASH, KEEP

    game, policy = make_game("flowers", num_players=players), PolicyAgent.load(network)
    flat, rng, rows = make_agent("flat:128", "flowers", seed), np.random.default_rng(seed), []
    for k in range(games):
        state, chance = game.new_initial_state(), np.random.default_rng(seed + k)
        while not game.is_terminal(state):
            seat = game.current_player(state)
            if seat < 0:
                game.resolve_chance(state, chance)
                continue
            move = heuristic.choose(game, state, rng)
            if seat == k % players and decision_kind(state) == "cash":
                flat.act_on_state(game, state)
                keep, cash = (flat.last_search[a][1] for a in (KEEP, CASH))
                logits = policy.logits(np.asarray(game.observe(state, seat), np.float32))
                rows.append((keep, cash, move == KEEP, logits[KEEP] > logits[CASH]))
                if on_policy:
                    move = KEEP if rows[-1][3] else CASH
            game.apply_action(state, move)
    keep, cash, heuristic_keeps, network_keeps = (np.array(c) for c in zip(*rows, strict=True))
    best = np.maximum(keep, cash)
    answers = {"heuristic": heuristic_keeps, "network": network_keeps,
               "always keep": np.ones_like(keep, bool), "always cash": np.zeros_like(keep, bool)}
    print(f"{len(rows)} keep-or-cash choices; flat:128 prefers keeping at "
          f"{np.mean(keep > cash):.1%}")
    out = {}
    for name, keeps in answers.items():
        chosen = np.where(keeps, keep, cash)
        out[name] = float(np.mean(best - chosen))
        print(f"{name:12s} mean regret {out[name]:.4f}, the best answer at "
              f"{np.mean(chosen == best):.1%}, keeps at {np.mean(keeps):.1%}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Run one diagnostic."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=("disagree", "search-only", "cash-regret", "split"))
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    p.add_argument("--games", type=positive_int, default=40)
    p.add_argument("--seed", type=positive_int, default=9_200_000)
    p.add_argument("--kinds", default="cash", help=f"comma-separated, of {KINDS}")
    p.add_argument("--network", default="", help="cash-regret: the network's .npz")
    p.add_argument("--part", choices=SplitOn.PARTS, default="rejected",
                   help="split: which deviations the seat plays")
    p.add_argument("--on-policy", action="store_true",
                   help="cash-regret: the measured seat plays the network's answers")
    p.add_argument("--search", default=SEARCH, help=f"the search's spec (default {SEARCH})")
    args = p.parse_args(argv)
    kinds = set(args.kinds.split(","))
    if not kinds <= set(KINDS):
        p.error(f"--kinds: unknown {sorted(kinds - set(KINDS))}; known: {KINDS}")
    if args.mode in ("cash-regret", "split") and not args.network:
        p.error(f"{args.mode} needs --network PATH.npz")
    try:  # a bad spec or network file is one line, before any game
        make_agent(args.search, "flowers")
        if args.network:
            make_agent(f"residual:{args.network}", "flowers")
    except AgentSpecError as exc:
        p.error(str(exc))
    if args.mode == "split":
        split(args.part, args.network, args.players, args.games, args.seed)
    elif args.mode == "cash-regret":
        cash_regret(args.network, args.players, args.games, args.seed, args.on_policy)
    elif args.mode == "disagree":
        disagree(args.players, args.games, args.seed)
    else:
        search_only(kinds, args.players, args.games, args.seed, args.search)
    return 0


if __name__ == "__main__":
    sys.exit(main())
