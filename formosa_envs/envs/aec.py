"""One PettingZoo AEC adapter for every formosa game.

``FormosaAECEnv("flowers", num_players=3)`` wraps a rules engine
(:class:`~formosa_envs.core.engine.Game`):

* ``observe(agent)`` returns ``{"observation": float32, "action_mask": int8}``;
  the mask is all zeros for an agent that is not deciding now;
* ``agent_selection`` is the engine's ``current_player`` (one agent may act
  several times in a row; out-of-turn decisions come for free);
* chance (deals, draws, dice) is resolved with the env's own seeded
  ``numpy.random.Generator``: ``reset(seed=...)`` makes the game reproducible;
* rewards arrive at the end, by ``reward_mode``: ``"rank"`` (default,
  zero-sum, +1/-1 with two players, ties shared), ``"win"`` (1/k to each of k
  winners) or ``"score"`` (final VP). Winners and ranks follow the game's own
  ordering, tie-breaks included (``Game.ranking_keys``: Taiwan Formosa's coins,
  Dadaocheng's credit);
* a game reaching ``max_game_length`` player decisions is truncated (the
  game's own guard by default; the ``max_game_length`` option overrides it);
* an illegal action raises :class:`~formosa_envs.core.errors.IllegalActionError`;
  a bad argument (a seed, an agent name) raises ``ArgumentError``, and a call out of
  order (``step``/``last``/``observe``/``state`` before ``reset()``, ``step``/``last``
  once every agent has left, ``agent_iter`` before ``reset()``, an action other than
  None for a finished agent) raises ``CallOrderError`` (both are ``FormosaError``);
* ``engine_state`` hands out the live engine state: once it has been read, the env no
  longer trusts its cached action mask for that game, and every ``step`` checks the
  state (``check_invariants``) and the action against the rules as they are now, so a
  state changed in place behind the env's back never gets an illegal action applied.
  One env is for one thread; a :class:`~formosa_envs.core.engine.Game` may be shared.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from formosa_envs.core.args import (
    ArgumentError,
    CallOrderError,
    before_reset,
    check_seed,
    check_state,
)
from formosa_envs.core.engine import CHANCE, TERMINAL, Game
from formosa_envs.core.errors import ConfigError, IllegalActionError
from formosa_envs.core.rewards import REWARD_MODES, check_reward_mode, final_rewards

__all__ = ["REWARD_MODES", "FormosaAECEnv", "env_name", "final_rewards", "render_state"]
from formosa_envs.games import GAMES, make_game

RENDER_MODES = ("ansi", "human", "svg", "rgb_array")


class FormosaAECEnv(AECEnv):
    """The AEC environment for any formosa game (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "formosa_v1",
                                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game: str = "flowers", render_mode: str | None = None,
                 reward_mode: str = "rank", max_game_length: int | None = None,
                 **options: Any) -> None:
        super().__init__()
        _check_env_options(game, render_mode, reward_mode, max_game_length)
        self.game: Game = make_game(game, **options)
        self.max_game_length = max_game_length or self.game.max_game_length
        self.game_name = game
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self.metadata = {**self.metadata, "name": env_name(game)}
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._build_spaces()
        self._rng = np.random.default_rng()
        self._state: Any = None
        self._exposed = False
        self.history: list[int] = []
        self._mask_cache: tuple[Any, int, str, np.ndarray] | None = None
        self.agents = []

    def _build_spaces(self) -> None:
        obs = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.game.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
        })
        act = spaces.Discrete(self.game.num_actions)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, 1.0, (self.game.state_size,), np.float32)

    def observation_space(self, agent: str) -> spaces.Space:
        """The Dict observation space (same object for every call)."""
        return self.observation_spaces[self._agent_name(agent, "observation_space")]

    def action_space(self, agent: str) -> spaces.Space:
        """The Discrete action space (same object for every call)."""
        return self.action_spaces[self._agent_name(agent, "action_space")]

    def _agent_name(self, agent: Any, where: str) -> str:
        """``agent`` if it names a seat of this env; else an ``ArgumentError``."""
        if isinstance(agent, str) and agent in self._seat_of:
            return agent
        raise ArgumentError(f"{where}(): agent must be one of {self.possible_agents}, "
                            f"got {agent!r}")

    @property
    def engine_state(self) -> Any:
        """The live engine state of the current game (None before ``reset()``).

        Reading it hands the state out: from then on, until the next ``reset()``, each
        ``step`` re-checks the state and the action instead of trusting the mask cached
        by ``observe`` (a caller may have changed the state in place).
        """
        self._exposed = True
        return self._state

    @engine_state.setter
    def engine_state(self, state: Any) -> None:
        """Replace the game's state (checked whole: ``check_invariants``)."""
        check_state(self.game, state, "engine_state")
        self.game.check_invariants(state)
        self._state, self._exposed, self._mask_cache = state, True, None

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """PettingZoo's agent iterator; ``CallOrderError`` before ``reset()``."""
        if self._state is None:
            raise before_reset("agent_iter")
        return super().agent_iter(max_iter)

    def _call_order_error(self, where: str) -> CallOrderError:
        """The error for ``where()`` called before ``reset()`` or after the game's end."""
        if self._state is None:
            return before_reset(where)
        return CallOrderError(f"{where}() after the game ended: every agent has left "
                              "(env.agents is empty); call reset() to play again")

    # ----- episode -------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; ``seed`` (None or an integer >= 0) fixes every chance event."""
        seed = check_seed(seed, "reset")
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._state, self._exposed = self.game.new_initial_state(), False
        self.history = []
        self._mask_cache: tuple[Any, int, str, np.ndarray] | None = None
        self._resolve_chance()
        self.agent_selection = self.agents[self.game.current_player(self._state)]

    def _resolve_chance(self) -> None:
        if self.game.current_player(self._state) == CHANCE:
            self.game.resolve_chance(self._state, self._rng, self.history)

    def step(self, action: Any) -> None:
        """Apply ``action`` for ``agent_selection``; resolve chance; hand out rewards."""
        try:
            agent = self.agent_selection
            done = self.terminations[agent] or self.truncations[agent]
        except (AttributeError, KeyError):  # not reset yet, or every agent has left
            raise self._call_order_error("step") from None
        if done:
            if action is not None:
                raise CallOrderError(f"step({action!r}) for {agent}, which has finished "
                                     "(terminated or truncated): the only valid action is "
                                     "None; step(None) until env.agents is empty, then "
                                     "call reset() to play again")
            self._was_dead_step(action)
            return
        state = self._state
        if action is None:
            raise IllegalActionError(f"{agent} must act, got None; "
                                     + self.game.decision_description(state))
        if not self._exposed and self._mask_is_current(agent, action):
            self.game.apply_legal_action(state, int(action))
        else:  # validates, and raises IllegalActionError naming the action and decision
            if self._exposed:
                self.game.check_invariants(state)
            self.game.apply_action(state, action)
        self.history.append(int(action))
        self._cumulative_rewards[agent] = 0.0
        self._resolve_chance()
        self._after_step()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after_step(self) -> None:
        state = self._state
        player = self.game.current_player(state)
        if player == TERMINAL:
            for seat, (agent, reward) in enumerate(zip(self.agents, self._final_rewards(),
                                                       strict=True)):
                self.rewards[agent] = reward
                self.infos[agent] = {**self.infos[agent],
                                     **self.game.final_info(state, seat)}
            self.terminations = {a: True for a in self.agents}
        else:
            if state.decisions >= self.max_game_length:
                self.truncations = {a: True for a in self.agents}
            self.agent_selection = self.agents[player]

    def _accumulate_rewards(self) -> None:
        """PettingZoo's ``_accumulate_rewards`` (each agent's reward of this step added to
        its cumulative reward), skipping the zeros every step before the end hands out."""
        cumulative = self._cumulative_rewards
        for agent, reward in self.rewards.items():
            if reward:
                cumulative[agent] += reward

    def _final_rewards(self) -> list[float]:
        return final_rewards(self.game, self._state, self.reward_mode)

    # ----- views ----------------------------------------------------------------
    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Observation, cumulative reward, terminated, truncated and info of
        ``agent_selection`` (PettingZoo's ``last``), once the game has started and while
        an agent is left."""
        if self._state is None or not self.agents:
            raise self._call_order_error("last")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation and action mask (zeros unless it decides now); any
        of ``possible_agents``, also after the game's end."""
        try:
            seat = self._seat_of[agent]
        except (KeyError, TypeError):
            raise ArgumentError(f"observe(): agent must be one of {self.possible_agents}, "
                                f"got {agent!r}") from None
        game, state = self.game, self._state
        if state is None:
            raise self._call_order_error("observe")
        obs = game.observe(state, seat)
        mask = np.zeros(game.num_actions, dtype=np.int8)
        if (agent == self.agent_selection and game.current_player(state) == seat
                and not self.terminations.get(agent, True)
                and not self.truncations.get(agent, True)):
            listed = None if self._exposed else getattr(game, "listed_legal_actions", None)
            legal = listed(state) if listed is not None else None
            mask[game.legal_actions(state) if legal is None else legal] = 1
            self._mask_cache = (state, len(self.history), agent, mask)
        return {"observation": obs, "action_mask": mask}

    def _mask_is_current(self, agent: str, action: Any) -> bool:
        """Whether ``action`` is legal by the mask computed for this agent in this very
        state (no action applied since), so the engine need not check it again."""
        cache = self._mask_cache
        if (cache is None or cache[0] is not self._state
                or cache[1] != len(self.history) or cache[2] != agent):
            return False
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            return False
        return 0 <= action < len(cache[3]) and bool(cache[3][action])

    def state(self) -> np.ndarray:
        """The global state vector (hidden information included), for centralised critics."""
        if self._state is None:
            raise self._call_order_error("state")
        return self.game.state_vector(self._state)

    def action_label(self, action: int) -> str:
        """A readable label of ``action`` in the current state."""
        if self._state is None:
            raise self._call_order_error("action_label")
        return self.game.action_label(self._state, action)

    def render(self) -> Any:
        """By ``render_mode``: ``ansi`` returns the table as text, ``human`` prints it,
        ``svg`` returns an SVG picture, ``rgb_array`` an RGB ``uint8`` image
        ``(height, width, 3)`` (needs the ``[render]`` extra). The spectator's view:
        every hand shown. Nothing is drawn unless ``render()`` is called."""
        if self.render_mode is None:
            return None
        if self._state is None:
            raise self._call_order_error("render")
        return render_state(self.game, self._state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def env_name(game: str) -> str:
    """PettingZoo's ``metadata["name"]`` of ``game``: its env id as a name, with the
    version (``formosa/dadaocheng-v2`` -> ``formosa_dadaocheng_v2``)."""
    return GAMES[game].env_id.replace("/", "_").replace("-", "_")


def render_state(game: Game, state: Any, mode: str, viewer: int | None = None) -> Any:
    """``state`` rendered in ``mode`` (one of :data:`RENDER_MODES`)."""
    if mode == "svg":
        return game.render_svg(state, viewer)
    if mode == "rgb_array":
        from formosa_envs.tools.picture import svg_to_rgb
        return svg_to_rgb(game.render_svg(state, viewer))
    text = game.render(state, viewer)
    if mode == "human":
        print(text + "\n")
        return None
    return text


def _check_env_options(game: str, render_mode: str | None, reward_mode: str,
                       max_game_length: int | None) -> None:
    if not isinstance(game, str) or game not in GAMES:
        raise ConfigError(f"unknown game {game!r}; available: {sorted(GAMES)}")
    if render_mode is not None and (not isinstance(render_mode, str)
                                    or render_mode not in RENDER_MODES):
        raise ConfigError(f"render_mode must be one of {RENDER_MODES} or None, "
                          f"got {render_mode!r}")
    check_reward_mode(reward_mode)
    if max_game_length is not None and (isinstance(max_game_length, bool) or not isinstance(
            max_game_length, int) or max_game_length < 1):
        raise ConfigError(f"max_game_length must be a positive integer or None, "
                          f"got {max_game_length!r}")
