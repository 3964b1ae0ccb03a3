"""How much the other seat's plays say about its hand: the diagnostic behind
:class:`~formosa_envs.agents.belief.FlowersPlayBelief`'s ``eps``.

    python benchmarks/flowers_belief.py --opponent heuristic --games 40 --seed 5000000
    python benchmarks/flowers_belief.py --opponent mcts:200:heuristic --games 12 \\
        --seed 5100000

Plays 2-player Flowers games, the heuristic in the viewer's seat (seat ``g % 2`` in game
``g``) against ``--opponent``, the belief told every move. At each of the viewer's play
decisions with a choice and at least one kept play of the opponent this round it counts:
the kept plays, how many the opponent's true hand breaks, and the share of 50 uniform
deals (``game.determinize``) that break none. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import numpy as np
from formosa_envs.agents import make_agent
from formosa_envs.agents.belief import FlowersPlayBelief
from formosa_envs.agents.heuristics.flowers import card_mask

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.games.flowers.rules import PLAY

UNIFORM_DEALS = 50


def broken(hand: list[int], constraints: list[tuple[int, int]], seat: int) -> int:
    """How many of ``seat``'s kept plays a hand ``hand`` of that seat breaks."""
    mask = card_mask(hand)
    return sum(1 for who, preferred in constraints if who == seat and mask & preferred)


def diagnose(opponent: str, games: int, seed: int) -> dict[str, Any]:
    """The counts of the module docstring over ``games`` games from ``seed``."""
    game = make_game("flowers", num_players=2)
    kept, true_broken, uniform_clean = [], [], []
    for g in range(games):
        rng, viewer = np.random.default_rng(seed + g), g % 2
        agents = [make_agent(opponent, "flowers", seed=seed + g + 2)] * 2
        agents[viewer] = make_agent("heuristic", "flowers", seed=seed + g + 1)
        belief, state = FlowersPlayBelief(), game.new_initial_state()
        while not game.is_terminal(state):
            player = game.current_player(state)
            if player == CHANCE:
                game.resolve_chance(state, rng)
                continue
            constraints = belief.constraints(state, viewer)
            if (player == viewer and constraints and state.stack[-1].kind == PLAY
                    and len(game.legal_actions(state)) > 1):
                deals = np.random.default_rng(g)
                kept.append(len(constraints))
                true_broken.append(broken(state.hands[1 - viewer], constraints, 1 - viewer))
                uniform_clean.append(np.mean([
                    broken(game.determinize(state, viewer, deals).hands[1 - viewer],
                           constraints, 1 - viewer) == 0 for _ in range(UNIFORM_DEALS)]))
            action = agents[player].act_on_state(game, state)
            belief.inform(game, state, player, action)
            game.apply_action(state, action)
    return {"opponent": opponent, "games": games, "seed": seed, "decisions": len(kept),
            "kept_plays_per_decision": round(float(np.mean(kept)), 4) if kept else 0.0,
            "true_hand_breaks_none": round(float(np.mean(np.equal(true_broken, 0))), 4)
            if kept else 0.0,
            "true_hand_broken_per_decision": round(float(np.mean(true_broken)), 4)
            if kept else 0.0,
            "uniform_deal_breaks_none": round(float(np.mean(uniform_clean)), 4)
            if kept else 0.0}


def main(argv: list[str] | None = None) -> None:
    """Parse the flags and print the counts."""
    from formosa_envs.tools.usage import non_negative_int, positive_int
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--games", type=positive_int, default=40)
    p.add_argument("--seed", type=non_negative_int, default=5_000_000)
    args = p.parse_args(argv)
    print(json.dumps(diagnose(args.opponent, args.games, args.seed)))


if __name__ == "__main__":
    main()
