"""Thinking time per decision, an agent beside the heuristic in the same games.

The fair-compute rule of the learned-agent tables: an agent that searches at play time is
reported with its mean time per decision beside its opponent's, measured in the same games
on the same machine. :func:`think_times` times every ``act_on_state`` call with
``time.perf_counter`` (wall time: engine steps and chance are not counted).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from formosa_envs.agents import make_agent
from formosa_envs.agents.base import StateAgent
from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game


def think_times(game_name: str, agent_spec: str, games: int, seed: int,
                num_players: int = 2, opponent: str = "heuristic",
                agent_factory: Callable[..., Any] = make_agent) -> dict[str, Any]:
    """Mean milliseconds per decision of ``agent_spec`` and of ``opponent`` in ``games``
    games (the agent in seat ``g % num_players``, the opponent in the others; chance from
    ``seed + g``) and their ratio; and the *control*: the same deals with ``opponent``
    in the agent's seat too, timed in that seat. The heuristics keep small memos shared by
    every seat of a process (the last inputs of a value), so a seat's time depends on who
    else plays; ``ratio_to_control`` compares the agent with the opponent in the same
    seat against the same opponents. The two runs alternate deal by deal, so a change in
    the machine's load falls on both alike. A ratio whose divisor never decided (a solo
    table has no opponent) is None, so the result stays valid JSON. ``agent_factory(spec,
    game, seed)`` builds the agents (default: the spec registry). A seat's time includes
    what its agent spends when told the other seats' moves (``Agent.inform``)."""
    game = make_game(game_name, num_players=num_players)
    spent = {"agent": [0.0, 0], "opponent": [0.0, 0]}
    control = {"agent": [0.0, 0], "opponent": [0.0, 0]}
    for g in range(games):
        _timed_game(game, game_name, (agent_spec, opponent), g, seed, spent, agent_factory)
        _timed_game(game, game_name, (opponent, opponent), g, seed, control, agent_factory)
    agent_ms, opponent_ms = (_ms(*spent[k]) for k in ("agent", "opponent"))
    control_ms = _ms(*control["agent"])
    return {"games": games, "agent_ms_per_decision": agent_ms,
            f"{opponent}_ms_per_decision": opponent_ms,
            "ratio": agent_ms / opponent_ms if opponent_ms else None,   # None: no opponent
            "control_ms_per_decision": control_ms,
            "ratio_to_control": agent_ms / control_ms if control_ms else None,
            "agent_decisions": spent["agent"][1], "opponent_decisions": spent["opponent"][1]}


def _ms(seconds: float, decisions: int) -> float:
    return 1000 * seconds / max(1, decisions)


class _Timed(StateAgent):
    """An agent whose ``act_on_state`` calls add their seconds and count to ``spent``."""

    def __init__(self, agent: Any, spent: list) -> None:
        self.agent, self.spent = agent, spent

    def act_on_state(self, game: Any, state: Any) -> int:
        start = time.perf_counter()
        action = self.agent.act_on_state(game, state)
        self.spent[0] += time.perf_counter() - start
        self.spent[1] += 1
        return action

    def inform(self, game: Any, state: Any, player: int, action: int) -> None:
        start = time.perf_counter()
        self.agent.inform(game, state, player, action)
        self.spent[0] += time.perf_counter() - start

    def reset(self) -> None:
        self.agent.reset()


def _timed_game(game: Any, game_name: str, specs: tuple[str, str], g: int, seed: int,
                spent: dict[str, list], factory: Callable[..., Any]) -> None:
    """Play deal ``g`` (chance from ``seed + g``) with ``specs[0]`` in seat ``g % n`` and
    ``specs[1]`` in the others (:func:`formosa_envs.tools.simulate.play_game`), adding each
    side's seconds and decisions to ``spent``."""
    n = game.num_players
    names = ["agent" if i == g % n else "opponent" for i in range(n)]
    agents = [_Timed(factory(specs[0] if name == "agent" else specs[1], game_name,
                             seed + 10 * g + i), spent[name])
              for i, name in enumerate(names)]
    play_game(game, agents, seed + g)
