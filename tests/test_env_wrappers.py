"""``formosa_envs.env()``'s wrappers behave as PettingZoo's own three wrappers.

The wrappers (:mod:`formosa_envs.envs.wrappers`) are subclasses of PettingZoo's
``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``
whose bookkeeping reads go straight to the base env. These tests play the same games
through them and through PettingZoo's classes side by side and compare every output,
illegal and out-of-bounds moves and calls out of order included.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test
from pettingzoo.utils import wrappers as pz

import formosa_envs
from formosa_envs.envs import wrappers as direct


def pettingzoo_chain(game: str, **options: Any) -> Any:
    """The env wrapped by PettingZoo's own classes (what ``env()`` did before)."""
    inner = pz.TerminateIllegalWrapper(formosa_envs.raw_env(game, **options), illegal_reward=-1)
    return pz.OrderEnforcingWrapper(pz.AssertOutOfBoundsWrapper(inner))


def transcript(env: Any, seed: int, illegal_at: int | None = None) -> list[Any]:
    """Everything ``last()`` returns along a seeded random game, and the agents left;
    at decision ``illegal_at`` the agent plays an action its mask forbids."""
    rng, out = np.random.default_rng(seed), []
    env.reset(seed=seed)
    for k, agent in enumerate(env.agent_iter(max_iter=400)):
        obs, reward, term, trunc, info = env.last()
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                    term, trunc, repr(sorted(info.items())), list(env.agents),
                    dict(env.rewards), dict(env._cumulative_rewards)))
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        pool = np.flatnonzero(mask == 0) if k == illegal_at else np.flatnonzero(mask)
        env.step(int(pool[int(rng.integers(pool.size))]))
    return out


@pytest.mark.parametrize("game", ["flowers", "taiwan", "tea", "dadaocheng"])
@pytest.mark.parametrize("illegal_at", [None, 5])
def test_same_games_as_pettingzoos_wrappers(game: str, illegal_at: int | None) -> None:
    """Same observations, masks, rewards, ends and agents left, an illegal move included
    (PettingZoo's rule: the game ends with -1 for the agent that made it)."""
    ours = transcript(formosa_envs.env(game), 3, illegal_at)
    theirs = transcript(pettingzoo_chain(game), 3, illegal_at)
    assert ours == theirs
    if illegal_at is not None:
        assert any(row[3] == -1 for row in ours)


def test_they_are_pettingzoos_wrapper_classes() -> None:
    """isinstance checks of PettingZoo's wrappers (and its order-enforcing iterator) hold."""
    env = formosa_envs.env("flowers")
    assert isinstance(env, pz.OrderEnforcingWrapper)
    assert isinstance(env.env, pz.AssertOutOfBoundsWrapper)
    assert isinstance(env.env.env, pz.TerminateIllegalWrapper)
    assert isinstance(env.unwrapped, formosa_envs.FormosaAECEnv)
    assert str(env) == str(pettingzoo_chain("flowers")) == str(env.unwrapped)


@pytest.mark.parametrize("name", sorted(direct.BEFORE_RESET) + ["num_agents"])
def test_bookkeeping_before_reset_is_refused_as_pettingzoo_refuses_it(name: str) -> None:
    """OrderEnforcingWrapper's AttributeError, with its message, before reset()."""
    with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
        getattr(formosa_envs.env("tea"), name)


def test_reads_follow_the_base_env() -> None:
    """A wrapper hands out the base env's own objects, updated as the game goes."""
    env = formosa_envs.env("dadaocheng", num_players=3)
    env.reset(seed=1)
    base = env.unwrapped
    for name in direct.DIRECT:
        assert getattr(env, name) is getattr(base, name)
        assert getattr(env.env.env, name) is getattr(base, name)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert env.agent_selection == base.agent_selection
    assert env.terminations is base.terminations


def test_bookkeeping_is_read_only_on_a_wrapper() -> None:
    """The base env owns the bookkeeping: a wrapper refuses a write instead of hiding the
    base env's value behind its own."""
    env = formosa_envs.env("flowers")
    env.reset(seed=0)
    with pytest.raises(AttributeError):
        env.agent_selection = "player_1"
    assert env.agent_selection == env.unwrapped.agent_selection


def test_out_of_bounds_action_is_asserted() -> None:
    """AssertOutOfBoundsWrapper's check: an action outside the space fails its assertion."""
    env = formosa_envs.env("taiwan")
    env.reset(seed=0)
    with pytest.raises(AssertionError, match="action is not in action space"):
        env.step(env.unwrapped.game.num_actions)


@pytest.mark.parametrize("game", ["flowers", "dadaocheng"])
def test_api_test_passes(game: str) -> None:
    """PettingZoo's own API test on the wrapped env."""
    api_test(formosa_envs.env(game), num_cycles=60)
