"""The parts of ``pretrained`` by seat count, and a search over the shipped network.

:func:`seat_count_agent` builds ``pretrained`` where a manifest entry has ``residual_at``
parts (the heuristic overruled by a network at those seat counts, the network alone at
the others).

``pretrained[:GAME]:mcts[:N]`` (:func:`value_mcts`) is
:class:`~formosa_envs.agents.mcts.MCTSAgent` with the game's heuristic for play-outs and
tree prior (as ``mcts:N:heuristic``) and the shipped network's value head mixed into the
value of every play-out cut at its horizon (the end of the round): ``(1 - m)`` times the
score-gain value plus ``m`` times the value head, ``m`` = :data:`DEFAULT_VALUE_MIX`. The
play-out says what the rest of this round brings; the value head what the position is
worth for the rest of the game (who is near the target), which a round's score gain does
not say. In 2-player Flowers it thinks as long per decision as ``mcts:200:heuristic`` at
160 simulations and is not stronger than it (46.75% of 400 games; docs/learned-agents.md),
so it is a spec of its own, not what ``pretrained`` plays.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

import numpy as np

from .base import Agent, SeatCountAgent
from .mcts import MCTSAgent
from .pretrained import (  # the manifest's checks, shared with the package's other parts
    REGENERATE,
    PretrainedError,
    Root,
    _check_current,
    _read_checked,
    _seat_count_parts,
    manifest_entry,
    network_alone,
    package_root,
)

DEFAULT_MCTS_SIMULATIONS = 160
"""The budget of ``pretrained:mcts`` without ``N``: about ``mcts:200:heuristic``'s time per
decision in 2-player Flowers (0.91x measured side by side)."""
DEFAULT_VALUE_MIX = 0.5
"""The weight of the value head in a horizon value (the best of 0.25, 0.5 and 1.0 on 60
validation games; no better than ``mcts:200:heuristic`` on 100 more)."""


def value_mcts(network: Any, simulations: int = DEFAULT_MCTS_SIMULATIONS,
               seed: int | None = None, value_mix: float = DEFAULT_VALUE_MIX) -> MCTSAgent:
    """``mcts:N:heuristic`` whose horizon values mix in ``network``'s value head."""
    return MCTSAgent(simulations=simulations, seed=seed, rollout="heuristic",
                     value_network=network, value_mix=value_mix)


def seat_count_agent(spec: str, game: str, network: Any, seed: int | None,
                     root: Root | None) -> Agent:
    """The residual agent at the seat counts of the entry's ``residual_at`` parts, each
    with its margin and, where the part names its own ``file``, that network (checked by
    its own sha256); the shipped network alone at the other seat counts."""
    from .residual import ResidualAgent

    entry = manifest_entry(game, root)
    shared, own = {}, {}
    for count, part in _seat_count_parts(game, entry, "residual_at").items():
        margin = _part_margin(game, count, part)
        if "file" in part:
            own[count] = ResidualAgent(game, _part_policy(game, part, root, seed), margin,
                                       seed)
        else:
            shared[count] = margin
    policy = network_alone(network, seed)
    default: Agent = ResidualAgent(game, policy, seed=seed, at_players=shared) \
        if shared else policy
    agent = SeatCountAgent(own, default) if own else default
    for part_agent in (default, agent, *own.values()):
        part_agent.name = spec
    return agent


def _part_margin(game: str, count: int, part: dict[str, Any]) -> float:
    """The margin of a ``residual_at`` part (:class:`PretrainedError` unless >= 0)."""
    margin = part.get("margin")
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) \
            or not 0 <= margin < float("inf"):
        raise PretrainedError(f"pretrained manifest for {game}: residual_at[{count}] "
                              f"needs a margin >= 0, got {margin!r}; run "
                              f"{REGENERATE.format(game=game)}")
    return float(margin)


def _part_policy(game: str, part: dict[str, Any], root: Root | None,
                 seed: int | None) -> Any:
    """The network a ``residual_at`` part ships in its own ``file`` (sha256 checked,
    its sizes those of the game now)."""
    from .policy import PolicyAgent, PolicyFileError, _activation_of, _layers_of, kinds_of

    entry = manifest_entry(game, root)
    path = (package_root() if root is None else root) / str(part["file"])
    data = _read_checked(game, path, part)
    _check_current(game, path, entry)
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
        policy = PolicyAgent(_layers_of(arrays, str(path)), _activation_of(arrays, str(path)),
                             seed=seed, kinds=kinds_of(arrays, str(path)))
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, PolicyFileError) as exc:
        raise PretrainedError(f"pretrained network for {game}: {path} cannot be played "
                              f"({exc}); run {REGENERATE.format(game=game)}") from None
    policy.path = str(path)
    policy.check_fits(entry["observation_size"], entry["num_actions"], game)
    return policy
