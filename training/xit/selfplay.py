"""Self-play games of expert iteration, played in worker processes (one code path, any game).

Iteration ``i`` plays ``games`` games. Game ``g``:

* **Seats.** Every seat is an :class:`~formosa_envs.agents.az.AZAgent` on the iteration's network,
  with root Dirichlet noise and, for the first ``temperature_moves`` recorded decisions of
  the game, moves sampled from ``visits ** (1 / temperature)`` (later: the most visited).
  The first ``round(league_fraction * games)`` games are *league games*: seat
  ``g % num_players`` is played by ``league[(g // num_players) % len(league)]`` instead
  (``past``: a network of an earlier iteration other than the incumbent, the init
  included, drawn per game and played as ``az:N``; the incumbent itself while there is
  none), and its decisions are not recorded.
* **Records.** For each learner decision with more than one legal action: the deciding
  seat's observation, the legal mask, the search's normalised visit counts (the policy
  target) and, once the game is over, that seat's own final return ``Game.returns``
  (the value target; 0 for a game cut at ``max_game_length``).
* **Seeds.** Chance: ``SeedSequence(seed, spawn_key=(XIT_STREAM, i, g, 0))`` as a 64-bit
  number with bit 63 set, so it never equals a tournament chance seed (32-bit, used by
  the gating evaluations); agents: ``spawn_key=(XIT_STREAM, i, g, 1)``. Results depend
  only on the settings, never on the number of workers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from formosa_envs.agents import make_agent
from formosa_envs.agents.az import AZAgent
from formosa_envs.agents.network import Network
from formosa_envs.training.xit.config import PAST, XitConfig

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game

XIT_STREAM = 0x14E1  # spawn-key tag of the self-play seeds (any fixed value, kept)
SAMPLE_KEYS = ("obs", "mask", "policy", "ret", "seat", "game")


@dataclass(frozen=True)
class SelfPlayTask:
    """What one worker plays: games ``first .. last - 1`` of ``iteration`` (picklable)."""

    game: str
    options: dict[str, Any]
    config: XitConfig
    iteration: int
    first: int
    last: int
    network: str
    """Path of the network every learner seat searches with."""
    past: tuple[str, ...] = ()
    """Paths of earlier iterations' networks (for ``past`` league seats)."""


def selfplay_seeds(seed: int, iteration: int, g: int, num_players: int
                   ) -> tuple[int, list[int]]:
    """Game ``g`` of ``iteration``: its chance seed (64-bit, bit 63 set) and agent seeds."""
    chance = np.random.SeedSequence(seed, spawn_key=(XIT_STREAM, iteration, g, 0))
    agents = np.random.SeedSequence(seed, spawn_key=(XIT_STREAM, iteration, g, 1))
    value = int(chance.generate_state(1, np.uint64)[0]) | (1 << 63)
    return value, [int(s) for s in agents.generate_state(num_players + 1)]


def league_seat(task: SelfPlayTask, g: int, seed: int) -> tuple[int, str] | None:
    """``(seat, spec)`` of game ``g``'s league opponent, or None for a pure self-play game."""
    c = task.config
    if g >= round(c.league_fraction * c.games) or not c.league:
        return None
    spec = c.league[(g // c.num_players) % len(c.league)]
    if spec == PAST:
        if not task.past:
            spec = f"az:{task.network}:{c.simulations}"
        else:
            pick = np.random.default_rng(seed).integers(len(task.past))
            spec = f"az:{task.past[pick]}:{c.simulations}"
    return g % c.num_players, spec


def _learner(task: SelfPlayTask, network: Network, seed: int) -> AZAgent:
    c = task.config
    return AZAgent(network, c.simulations, seed, dirichlet_alpha=c.dirichlet_alpha,
                   dirichlet_fraction=c.dirichlet_fraction)


def choose(agent: AZAgent, legal: list[int], visits: np.ndarray, temperature: float) -> int:
    """The move: sampled from ``visits ** (1/T)`` when ``temperature`` > 0, else the most
    visited (ties: higher mean value, then higher prior, as the play-time agent)."""
    if temperature > 0:
        v = visits[legal].astype(np.float64)
        weights = (v / v.max()) ** (1.0 / temperature)
        return legal[int(agent.rng.choice(len(legal), p=weights / weights.sum()))]
    return max(legal, key=lambda a: agent.last_root[a])


def play_selfplay_game(game: Any, task: SelfPlayTask, network: Network, g: int
                       ) -> tuple[dict[str, list], int]:
    """Play game ``g``; its recorded learner decisions (lists) and its decision count."""
    c = task.config
    chance_seed, seeds = selfplay_seeds(c.seed, task.iteration, g, game.num_players)
    league = league_seat(task, g, seeds[-1])
    agents: list[Any] = [_learner(task, network, s) for s in seeds[:-1]]
    if league is not None:
        agents[league[0]] = make_agent(league[1], task.game, seeds[league[0]])
    rng = np.random.default_rng(chance_seed)
    state = game.new_initial_state()
    rows: dict[str, list] = {k: [] for k in ("obs", "mask", "policy", "seat")}
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        seat = game.current_player(state)
        if seat == CHANCE:
            game.resolve_chance(state, rng)
            continue
        legal = game.legal_actions(state)
        if league is not None and seat == league[0]:
            action = int(agents[seat].act_on_state(game, state))
        elif len(legal) == 1:
            action = legal[0]
        else:
            action = _searched(game, state, agents[seat], legal, rows, seat, c)
        game.apply_action(state, action)
    returns = game.returns(state)
    rows["ret"] = [float(returns[s]) for s in rows["seat"]]
    rows["game"] = [g] * len(rows["seat"])
    return rows, int(state.decisions)


def _searched(game: Any, state: Any, agent: AZAgent, legal: list[int],
              rows: dict[str, list], seat: int, config: XitConfig) -> int:
    """Search, record the decision (observation, mask, visit distribution), pick the move."""
    visits, _ = agent.search(game, state)
    sampled = len(rows["seat"]) < config.temperature_moves
    rows["obs"].append(np.asarray(game.observe(state, seat), dtype=np.float32))
    rows["mask"].append(np.packbits(np.asarray(game.legal_mask(state), dtype=bool)))
    rows["policy"].append((visits / visits.sum()).astype(np.float32))
    rows["seat"].append(seat)
    return choose(agent, legal, visits, config.temperature if sampled else 0.0)


def play_selfplay_chunk(task: SelfPlayTask) -> tuple[dict[str, np.ndarray], dict[str, int]]:
    """Play ``task``'s games; their samples as arrays (game order) and the counts."""
    game = make_game(task.game, num_players=task.config.num_players, **task.options)
    network = Network.load(task.network).bind(game)
    rows: dict[str, list] = {k: [] for k in SAMPLE_KEYS}
    decisions = 0
    for g in range(task.first, task.last):
        one, count = play_selfplay_game(game, task, network, g)
        decisions += count
        for key in SAMPLE_KEYS:
            rows[key].extend(one[key])
    return samples_arrays(rows, game), {"games": task.last - task.first, "decisions": decisions,
                                        "samples": len(rows["seat"])}


def samples_arrays(rows: dict[str, list], game: Any) -> dict[str, np.ndarray]:
    """The recorded lists as typed arrays (mask packed to bits, one row per decision)."""
    width = -(-game.num_actions // 8)
    return {"obs": np.asarray(rows["obs"], np.float32).reshape(-1, game.observation_size),
            "mask": np.asarray(rows["mask"], np.uint8).reshape(-1, width),
            "policy": np.asarray(rows["policy"], np.float32).reshape(-1, game.num_actions),
            "ret": np.asarray(rows["ret"], np.float32), "seat": np.asarray(rows["seat"], np.int8),
            "game": np.asarray(rows["game"], np.int32)}
