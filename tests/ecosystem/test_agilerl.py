"""AgileRL recipe: a DQN's masked action selection on the flat view."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
import torch


@pytest.fixture(scope="module")
def play_with_dqn() -> Callable[..., Any]:
    """The recipe, imported in the test (not at collection, where AgileRL's import-time
    deprecation notice would escape this folder's warning filters)."""
    return importlib.import_module("examples.ecosystem.agilerl_recipe").play_with_dqn


def test_dqn_plays_a_whole_game_with_legal_actions_only(play_with_dqn: Callable) -> None:
    decisions = play_with_dqn("flowers", 2, seed=0, epsilon=0.3)
    assert len(decisions) > 20
    assert {agent for agent, _, _ in decisions} == {"player_0", "player_1"}
    assert all(mask[action] == 1 for _, action, mask in decisions)
    assert all(mask.sum() >= 1 for _, _, mask in decisions)


def test_greedy_choices_follow_the_mask_and_the_seed_and_leave_torch_rng_alone(
        play_with_dqn: Callable) -> None:
    before = torch.random.get_rng_state()
    first = play_with_dqn("tea", 3, seed=1, epsilon=0.0, max_decisions=15)
    again = play_with_dqn("tea", 3, seed=1, epsilon=0.0, max_decisions=15)
    assert torch.equal(torch.random.get_rng_state(), before)
    assert len(first) == 15
    assert [(a, x) for a, x, _ in first] == [(a, x) for a, x, _ in again]
    assert all(mask[action] == 1 for _, action, mask in first)
