"""``pretrained:mcts``: MCTS whose horizon values mix in the shipped network's value head
(agents/mcts.py ``value_mix``, agents/pretrained_parts.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import make_agent
from formosa_envs.agents.mcts import MCTSAgent, _resolve_chance
from formosa_envs.agents.policy import PolicyAgent
from formosa_envs.agents.pretrained import (
    PretrainedError,
    load_network,
)

from formosa_envs.games import make_game


class FixedValues:
    """A stand-in value network: seat ``p``'s value is ``values[p]``; counts its calls."""

    has_value = True

    def __init__(self, values: list[float]) -> None:
        self.fixed = np.asarray(values, dtype=np.float32)
        self.calls = 0

    def bind(self, game: Any) -> FixedValues:
        return self

    def values(self, x: np.ndarray) -> np.ndarray:
        assert x.shape[0] == len(self.fixed)  # one observation per seat, in one batch
        self.calls += 1
        return self.fixed.copy()


def first_decision(seed: int = 3) -> tuple[Any, Any]:
    game = make_game("flowers", num_players=2)
    state = game.new_initial_state()
    _resolve_chance(game, state, np.random.default_rng(seed))
    return game, state


def horizon_value(agent: MCTSAgent, seed: int = 11) -> list[float]:
    """The value of one play-out from the first decision, the agent's generator reseeded."""
    game, state = first_decision()
    agent.rng = np.random.default_rng(seed)
    return agent._rollout(game, game.clone(state), (game.scores(state), state.round))


@pytest.mark.parametrize("mix", [0.25, 0.5, 1.0])
def test_a_horizon_cut_mixes_the_score_value_and_the_value_head(mix: float) -> None:
    plain = horizon_value(MCTSAgent(rollout="heuristic"))
    network = FixedValues([0.8, -0.6])
    mixed = horizon_value(MCTSAgent(rollout="heuristic", value_network=network, value_mix=mix))
    expected = [(1 - mix) * v + mix * w for v, w in zip(plain, [0.8, -0.6], strict=True)]
    assert mixed == pytest.approx(expected, abs=1e-6) and network.calls == 1
    assert plain != pytest.approx(expected)  # the mix changes the value


def test_without_a_mix_the_network_is_never_asked() -> None:
    network = FixedValues([0.8, -0.6])
    agent = MCTSAgent(rollout="heuristic", value_network=network, value_mix=0.0)
    assert agent.value_network is None
    assert horizon_value(agent) == horizon_value(MCTSAgent(rollout="heuristic"))
    assert network.calls == 0


@pytest.mark.parametrize("network, mix, message", [
    (FixedValues([0, 0]), 1.5, "value_mix must be a number in \\[0, 1\\]"),
    (FixedValues([0, 0]), -0.1, "value_mix must be a number in \\[0, 1\\]"),
    (FixedValues([0, 0]), True, "value_mix must be a number"),
    (None, 0.5, "needs a value_network with a value head"),
    (object(), 0.5, "needs a value_network with a value head"),
])
def test_bad_value_mixes_are_refused(network: Any, mix: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MCTSAgent(rollout="heuristic", value_network=network, value_mix=mix)


def test_pretrained_mcts_searches_with_the_shipped_value_head() -> None:
    """pretrained:mcts:N is a search of its own; pretrained stays the network alone at
    2 players (the search is not stronger than mcts:200:heuristic: not shipped as it)."""
    assert isinstance(make_agent("pretrained", "flowers", 0).pick(2), PolicyAgent)
    agent = make_agent("pretrained:mcts:8", "flowers", 0)
    assert isinstance(agent, MCTSAgent) and agent.simulations == 8
    assert agent.rollout == "heuristic" and agent.value_mix == 0.5
    assert agent.value_network.has_value
    game, state = first_decision()
    assert agent.act_on_state(game, game.clone(state)) in game.legal_actions(state)
    assert sum(visits for visits, _ in agent.last_search.values()) == 8


def test_a_network_without_a_value_head_cannot_be_searched(monkeypatch: Any) -> None:
    network = load_network("flowers")
    monkeypatch.setattr(network, "value_layers", None)
    monkeypatch.setattr("formosa_envs.agents.pretrained.load_network", lambda *a: network)
    with pytest.raises(PretrainedError, match="has no value head"):
        make_agent("pretrained:mcts:4", "flowers", 0)
