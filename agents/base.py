"""The one Agent interface used by the CLI, simulations, tournaments and training.

Every driver calls :meth:`Agent.act_on_state` with the engine and its state.
Agents that only need the observation (random, trained policies) implement
:meth:`Agent.act` on the observation dict (``{"observation", "action_mask"}``,
as the PettingZoo env returns); the default :meth:`act_on_state` builds that
dict for them. Agents that search or reason about the rules (heuristics, MCTS)
override :meth:`act_on_state` and may only use what the acting seat may see
(search agents determinize the rest). Agents import only ``formosa_envs.core``
/ ``formosa_envs.games`` and numpy: never pettingzoo or torch.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np


class Agent(ABC):
    """Base class of every formosa agent."""

    name: str = "agent"

    @abstractmethod
    def act(self, observation: dict[str, np.ndarray]) -> int:
        """Choose an action id from an observation dict (must respect the mask)."""

    def act_on_state(self, game: Any, state: Any) -> int:
        """Choose an action for the deciding seat (default: from its observation)."""
        seat = game.current_player(state)
        obs = {"observation": game.observe(state, seat), "action_mask": game.legal_mask(state)}
        return self.act(obs)

    def reset(self) -> None:
        """Forget any per-game memory (called at the start of each game)."""
        return None

    def inform(self, game: Any, state: Any, player: int, action: int) -> None:
        """Told that seat ``player`` chose ``action`` at ``state`` (any seat's move, before
        it is applied; as OpenSpiel's ``Bot.inform_action``). An agent may remember what
        every seat sees of it; the default ignores it. Called by
        :func:`formosa_envs.tools.simulate.play_game` (``formosa simulate``, tournaments,
        the benchmarks) and ``formosa play``; the web app does not call it (its undo
        would leave an agent remembering moves taken back)."""
        return None


class StateAgent(Agent):
    """An agent that decides from the engine state (heuristics, search)."""

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """State agents cannot act from an observation alone."""
        raise TypeError(f"{type(self).__name__} needs the engine state: call act_on_state")

    @abstractmethod
    def act_on_state(self, game: Any, state: Any) -> int:
        """Choose an action for the deciding seat from the engine state."""


class SeatCountAgent(Agent):
    """One agent per table size: ``by_count[n]`` plays at tables of ``n`` seats,
    ``default`` at the others (a shipped agent whose parts were trained per seat count)."""

    def __init__(self, by_count: dict[int, Agent], default: Agent) -> None:
        self.by_count = dict(by_count)
        self.default = default
        self.name = default.name

    def pick(self, num_players: int) -> Agent:
        """The agent that plays at a table of ``num_players`` seats."""
        return self.by_count.get(num_players, self.default)

    def act(self, observation: dict[str, np.ndarray]) -> int:
        """From an observation alone the table size is unknown: the default agent acts."""
        return self.default.act(observation)

    def act_on_state(self, game: Any, state: Any) -> int:
        """The move of the agent of this table's seat count."""
        return self.pick(game.num_players).act_on_state(game, state)

    def inform(self, game: Any, state: Any, player: int, action: int) -> None:
        """Hand a move to the part that plays at this table size."""
        self.pick(game.num_players).inform(game, state, player, action)

    def parts(self) -> tuple[Agent, ...]:
        """Every agent it holds, the default last."""
        return (*self.by_count.values(), self.default)

    @property
    def simulations(self) -> int:
        """The largest search budget of its parts (0 where none searches), so a server's
        cap on simulations holds for whichever part plays."""
        return max(getattr(agent, "simulations", 0) or 0 for agent in self.parts())

    @property
    def max_seconds(self) -> float | None:
        """The think-time cap given to every part (``None``: no cap)."""
        return getattr(self.default, "max_seconds", None)

    @max_seconds.setter
    def max_seconds(self, seconds: float | None) -> None:
        for agent in self.parts():
            agent.max_seconds = seconds

    @property
    def should_stop(self) -> Any:
        """The stop check handed to every part (a search reads it between simulations)."""
        return getattr(self.default, "should_stop", None)

    @should_stop.setter
    def should_stop(self, check: Any) -> None:
        for agent in self.parts():
            agent.should_stop = check

    def reset(self) -> None:
        """Reset every part."""
        for agent in self.parts():
            agent.reset()
