"""Credit each seat's rewards to that seat's own transitions (Tianshou's final-reward gap).

Tianshou's ``PettingZooEnv`` returns, after every env step, the reward vector of all
seats (``env.rewards``), and its multi-agent policy stores that step as one transition
of the seat that acted (``obs.agent_id``); each seat then learns from column ``seat`` of
the reward on its own transitions only. The formosa envs pay every seat at the end of
the game, on the last step, which is a transition of the last mover: every other seat's
final reward lies on a transition that is not its own, and is never learnt from.

:func:`credit_rewards` moves each reward of a seat onto that seat's latest transition at
or before the step it arrived on (a reward arriving before the seat's first decision goes
to its first transition), so each seat finds its final reward on its own last transition.
Each seat's reward total over the episode is unchanged, and it all lies on its own
transitions. :class:`FinalRewardHook` applies it to every finished episode as a Tianshou
``Collector(..., on_episode_done_hook=...)``; Tianshou applies such hooks only when
collecting whole episodes (``collect(n_episode=...)``). Neither needs Tianshou to import.
The ``terminated`` flags are left as they are (a seat's last transition is not marked
done: the buffer's episode boundaries are shared by every seat).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from formosa_envs.core.args import ArgumentError


def credit_rewards(agent_ids: Sequence[Any], rewards: Any,
                   agents: Sequence[str]) -> np.ndarray:
    """The episode's rewards ``(steps, seats)``, each seat's moved onto its own transitions.

    ``agent_ids[t]`` is the agent that acted on step ``t`` and ``rewards[t]`` the reward
    vector returned after it, in the order of ``agents`` (the env's ``possible_agents``).
    Column ``s`` of the result holds seat ``s``'s rewards on the rows where seat ``s``
    acted: a reward on row ``t`` goes to the seat's latest own row ``<= t`` (its first own
    row if it had not acted yet). A seat that never acted keeps its column unchanged.
    """
    names = _check_agents(agents)
    table = np.asarray(rewards, dtype=np.float64)
    ids = np.asarray(agent_ids, dtype=object).reshape(-1)
    if table.ndim != 2 or table.shape != (len(ids), len(names)):
        raise ArgumentError(f"credit_rewards(): rewards must have shape (steps, seats) = "
                            f"({len(ids)}, {len(names)}), got {table.shape}")
    unknown = sorted({str(a) for a in ids} - set(names))
    if unknown:
        raise ArgumentError(f"credit_rewards(): agent ids {unknown} are not among {names}")
    credited = table.copy()
    steps = np.arange(len(ids))
    for seat, name in enumerate(names):
        own = np.flatnonzero(ids == name)
        if own.size == 0:
            continue
        owner = own[np.clip(np.searchsorted(own, steps, side="right") - 1, 0, None)]
        credited[:, seat] = np.bincount(owner, weights=table[:, seat], minlength=len(ids))
    return credited


class FinalRewardHook:
    """Tianshou ``on_episode_done_hook``: rewrites a finished episode's ``rew`` with
    :func:`credit_rewards`, so each seat's final reward lies on its own last transition.

    ``agents`` is the env's ``possible_agents`` (the order of Tianshou's reward vector,
    ``PettingZooEnv.agents``). Use with ``Collector(policy, envs, buffer,
    on_episode_done_hook=FinalRewardHook(agents))`` and ``collect(n_episode=...)``.
    """

    def __init__(self, agents: Sequence[str]) -> None:
        self.agents = _check_agents(agents)

    def __call__(self, episode_batch: Any) -> dict[str, np.ndarray]:
        """``{"rew": credited rewards}`` for the episode (Tianshou writes it back)."""
        try:
            ids, rewards = episode_batch.obs.agent_id, episode_batch.rew
        except AttributeError:
            raise ArgumentError("FinalRewardHook: the episode batch needs obs.agent_id and "
                                "rew (a multi-agent Tianshou PettingZooEnv rollout)") from None
        return {"rew": credit_rewards(ids, rewards, self.agents)}


def _check_agents(agents: Any) -> list[str]:
    names = [] if isinstance(agents, str) or not isinstance(agents, Sequence) else list(agents)
    if not names or not all(isinstance(a, str) for a in names) or len(set(names)) < len(names):
        raise ArgumentError("agents must be a non-empty sequence of distinct agent names "
                            f"(the env's possible_agents), got {agents!r}")
    return names
