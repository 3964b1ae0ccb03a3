"""A check shared by the recipes' tests: training is reproducible from its seed, leaves the
global generators alone, plays legal actions and changes the greedy policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from formosa_envs.envs import learner_env


def check_reproducible_training(train: Callable[..., Any], untrained: dict[str, Any],
                                trained: dict[str, Any]) -> None:
    """``train(**untrained)`` and two runs of ``train(**trained)`` give acting functions
    ``act(observation, mask)``: both trained ones agree on 100 Flowers decisions, every
    action is legal, at least one differs from the untrained policy's, and torch's and
    numpy's global generators are as they were."""
    torch_state, numpy_state = torch.random.get_rng_state(), np.random.get_state()
    before = train(**untrained)
    acts = [train(**trained) for _ in range(2)]
    assert torch.equal(torch.random.get_rng_state(), torch_state)
    assert np.array_equal(np.random.get_state()[1], numpy_state[1])
    env = learner_env("flowers", mask="info")
    observation, info = env.reset(seed=123)
    changed = 0
    for _ in range(100):
        mask = info["action_mask"]
        action = acts[0](observation, mask)
        assert mask[action] and acts[1](observation, mask) == action
        changed += action != before(observation, mask)
        observation, _, terminated, _, info = env.step(action)
        if terminated:
            observation, info = env.reset()
    assert changed > 0  # the updates moved the greedy policy
