"""gymnasium's own env checker on the single-agent view of every game.

``check_env`` steps random actions, so it runs with ``illegal_action="lose"`` (an illegal
action ends the episode as a loss); the default (``"raise"``) refuses them. It also resets
twice with one seed and expects the same observations, so the learner's seat is fixed.
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from formosa_envs.core.errors import ConfigError, IllegalActionError
from formosa_envs.envs import SingleAgentEnv


@pytest.mark.parametrize(("game", "players"), [("flowers", 2), ("taiwan", 3), ("tea", 2),
                                               ("dadaocheng", 1), ("dadaocheng", 2)])
def test_gymnasium_check_env_passes(game: str, players: int) -> None:
    """A fixed learner seat: with ``learner_seat="rotate"`` (the default) the seat moves on
    every episode, so two resets with one seed seat the learner differently on purpose."""
    check_env(SingleAgentEnv(game, num_players=players, illegal_action="lose",
                             learner_seat=0), skip_render_check=True)


def _illegal(env: SingleAgentEnv) -> int:
    return int(np.flatnonzero(env.action_masks() == 0)[0])


def test_an_illegal_action_is_a_loss_or_an_error() -> None:
    env = SingleAgentEnv("taiwan", num_players=2, illegal_action="lose")
    env.reset(seed=0)
    before = env.game.to_json(env.state)
    _, reward, terminated, truncated, info = env.step(_illegal(env))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.game.to_json(env.state) == before  # nothing applied
    strict = SingleAgentEnv("taiwan", num_players=2)
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(_illegal(strict))


@pytest.mark.parametrize("mode", ["ignore", None, 1])
def test_illegal_action_mode_is_checked(mode: object) -> None:
    with pytest.raises(ConfigError, match="illegal_action must be one of"):
        SingleAgentEnv("flowers", illegal_action=mode)
