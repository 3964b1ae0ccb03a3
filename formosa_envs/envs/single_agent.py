"""A single-agent gymnasium view of any formosa game, for self-play training.

The learner sits in one seat (rotated every episode by default); every other
seat is played by an opponent agent *inside* :meth:`step`, until the learner
must decide again or the game ends. The reward is the learner's own: the
engine's final outcome for the learner's seat (``rank`` by default), read
directly from the engine by seat — never the reward of whichever agent moved
last (the self-play attribution bug fixed in PettingZoo PR #1203).

``action_masks()`` serves sb3-contrib's MaskablePPO; ``info["action_mask"]``
carries the same mask. Winners and ranks follow the game's ordering with its
tie-breaks (``Game.ranking_keys``), as in the AEC env. ``step``, ``action_masks`` and
``render`` before ``reset()``, and ``step`` once the episode has terminated or been
truncated, raise ``CallOrderError``; a bad seed raises ``ArgumentError``. An illegal
action raises ``IllegalActionError`` (nothing applied), or, with ``illegal_action="lose"``,
ends the episode with reward -1 (what gymnasium's ``check_env``, which steps random
actions, and learners without a mask need).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from formosa_envs.core.args import CallOrderError, before_reset, check_seed
from formosa_envs.core.engine import CHANCE, TERMINAL
from formosa_envs.core.errors import ConfigError, IllegalActionError
from formosa_envs.core.rewards import check_reward_mode, final_rewards
from formosa_envs.games import make_game

from .aec import render_state

ILLEGAL_ACTION_MODES = ("raise", "lose")
"""``SingleAgentEnv(illegal_action=...)``: raise ``IllegalActionError`` (the default, for
masked learners), or end the episode as a loss (for checkers and unmasked learners)."""
ILLEGAL_REWARD = -1.0
"""The reward of an illegal action under ``illegal_action="lose"``."""

OpponentFactory = Callable[[np.random.Generator, int], Sequence[Any]]
"""``factory(rng, count)`` returns ``count`` agents for the non-learner seats."""


class SingleAgentEnv(gym.Env):
    """One learner against opponents acting inside ``step`` (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "svg", "rgb_array"], "render_fps": 2}

    def __init__(self, game: str = "flowers", opponents: OpponentFactory | None = None,
                 learner_seat: int | str = "rotate", reward_mode: str = "rank",
                 render_mode: str | None = None, shaping: float = 0.0,
                 illegal_action: str = "raise", **options: Any) -> None:
        self.game = make_game(game, **options)
        n = self.game.num_players
        if learner_seat != "rotate" and learner_seat not in range(n):
            raise ConfigError(f"learner_seat must be 'rotate' or 0..{n - 1}, got {learner_seat!r}")
        check_reward_mode(reward_mode)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode must be one of {self.metadata['render_modes']} "
                              f"or None, got {render_mode!r}")
        if not isinstance(illegal_action, str) or illegal_action not in ILLEGAL_ACTION_MODES:
            raise ConfigError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, "
                              f"got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.game_name = game
        self.opponents_factory = opponents or random_opponents
        self.learner_seat_option = learner_seat
        self.reward_mode = reward_mode
        if isinstance(shaping, bool) or not isinstance(shaping, (int, float)) or shaping < 0:
            raise ConfigError(f"shaping must be a number >= 0, got {shaping!r}")
        self.shaping = float(shaping)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self.game.observation_size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state: Any = None
        self.seat = 0
        self.episode = -1
        self.opponents: dict[int, Any] = {}
        self._rng = np.random.default_rng()
        self._ended = False  # the episode terminated or was truncated

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game: choose the learner's seat and the opponents, play until it decides.

        ``seed``: None or an integer >= 0 (numpy integers too)."""
        seed = check_seed(seed, "reset")
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.episode += 1
        n = self.game.num_players
        rotate = self.learner_seat_option == "rotate"
        self.seat = self.episode % n if rotate else int(self.learner_seat_option)
        agents = list(self.opponents_factory(self._rng, n - 1))
        self.opponents = dict(zip([s for s in range(n) if s != self.seat], agents, strict=True))
        for agent in agents:
            agent.reset()
        self.state = self.game.new_initial_state()
        self._ended = False
        self._advance()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, let the opponents play, return the learner's view.

        An action the rules do not allow raises ``IllegalActionError`` (nothing applied);
        with ``illegal_action="lose"`` it ends the episode instead, with reward -1 and
        ``info["illegal_action"] = True`` (the state is left as it was)."""
        if self.state is None or self._ended:
            raise self._call_order_error("step")
        before = self._potential() if self.shaping else 0.0
        try:
            self.game.apply_action(self.state, _action_id(action))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._ended = True
            return self._obs(), ILLEGAL_REWARD, True, False, {**self._info(),
                                                              "illegal_action": True}
        self._advance()
        terminated = self.game.is_terminal(self.state)
        truncated = not terminated and self.state.decisions >= self.game.max_game_length
        self._ended = terminated or truncated
        reward = self.learner_reward() if terminated else 0.0
        if self.shaping:
            after = 0.0 if terminated else self._potential()
            reward += self.shaping * (after - before)
        return self._obs(), reward, terminated, truncated, self._info()

    def _potential(self) -> float:
        """The learner's shaping potential (0 once the game is over)."""
        if self.game.is_terminal(self.state):
            return 0.0
        return self.game.potential(self.state, self.seat)

    def _advance(self) -> None:
        """Resolve chance and opponents' decisions until the learner decides or the end."""
        game, state = self.game, self.state
        while True:
            player = game.current_player(state)
            if player == TERMINAL or player == self.seat:
                return
            if state.decisions >= game.max_game_length:
                return
            if player == CHANCE:
                game.resolve_chance(state, self._rng)
            else:
                game.apply_action(state, self.opponents[player].act_on_state(game, state))

    def learner_reward(self) -> float:
        """The learner seat's final outcome under ``reward_mode`` (the AEC env's
        :func:`~formosa_envs.envs.aec.final_rewards`, read for the learner's seat)."""
        if self.state is None:
            raise self._call_order_error("learner_reward")
        return float(final_rewards(self.game, self.state, self.reward_mode)[self.seat])

    def _call_order_error(self, where: str) -> CallOrderError:
        if self.state is None:
            return before_reset(where)
        return CallOrderError(f"{where}() after the episode ended (terminated or "
                              "truncated): call reset() to play again")

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (for MaskablePPO)."""
        if self.state is None:
            raise self._call_order_error("action_masks")
        if self.game.is_terminal(self.state):
            return np.ones(self.game.num_actions, dtype=bool)
        return self.game.legal_mask(self.state).astype(bool)

    def _obs(self) -> np.ndarray:
        return self.game.observe(self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "learner_seat": self.seat,
                "scores": self.game.scores(self.state)}

    def render(self) -> Any:
        """The table from the learner's seat: text (``ansi``), an SVG picture (``svg``)
        or an RGB ``uint8`` image (``rgb_array``, needs the ``[render]`` extra)."""
        if self.render_mode is None:
            return None
        if self.state is None:
            raise self._call_order_error("render")
        return render_state(self.game, self.state, self.render_mode, viewer=self.seat)


def _action_id(action: Any) -> Any:
    """A numpy integer or 0-d integer array as an ``int``; anything else unchanged, for
    the engine to refuse with an ``IllegalActionError`` naming it."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    if isinstance(action, np.integer):
        return int(action)
    return action


class UniformOpponent:
    """The default opponent: a uniformly random legal action (its own generator)."""

    name = "uniform"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def reset(self) -> None:
        """Nothing to forget."""

    def act_on_state(self, game: Any, state: Any) -> int:
        """A uniformly random legal action."""
        legal = game.legal_actions(state)
        return legal[int(self.rng.integers(len(legal)))]


def random_opponents(rng: np.random.Generator, count: int) -> list[Any]:
    """Default opponents: uniform-random players seeded from the env's generator."""
    return [UniformOpponent(np.random.default_rng(int(rng.integers(2**31))))
            for _ in range(count)]
