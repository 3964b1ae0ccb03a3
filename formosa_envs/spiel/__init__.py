"""The four games as OpenSpiel games (``pip install formosa_envs[spiel]``).

Importing this module registers ``formosa_flowers``, ``formosa_taiwan``, ``formosa_tea``
and ``formosa_dadaocheng`` with pyspiel::

    import pyspiel
    import formosa_envs.spiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("formosa_tea", {"players": 3, "advanced": True})

Every game option is a parameter (:mod:`formosa_envs.spiel.params` says how None is
written), plus ``players`` and ``reward_mode`` (``rank``: zero-sum in [-1, 1]; ``win``:
1/k to each of k winners, constant-sum 1; solo games are general-sum). The bridge is thin:
the engine (:class:`~formosa_envs.core.engine.Game`) stays the rules, and

* the ``GameType`` and ``GameInfo`` are built per configuration from the engine's contract
  (``num_actions``, ``max_chance_outcomes``, ``utility_bounds``, ``max_game_length``,
  ``hidden_information``): sequential, explicit chance, perfect information for Taiwan
  Formosa, Formosa Tea and Dadaocheng (only chance is hidden), imperfect for Flowers;
* states hold the engine state: ``clone`` uses the engine's clone, serialization its
  ``to_json`` (``pyspiel.serialize_game_and_state`` works), chance outcomes are the
  engine's ``(outcome, probability)`` lists, action strings its unique labels;
* observation tensors are the env's observation vector (``Game.observe``: only what the
  seat may see; its named pieces as the observer's ``dict``), observation strings the
  text picture drawn for that seat; the information-state string adds a digest of the
  seat's whole observation history and own actions (perfect recall);
* ``state.resample_from_infostate(player, sampler)`` (OpenSpiel's Python IS-MCTS calls it)
  comes from the engine's ``determinize`` with a generator seeded by the sampler;
* a game reaching the engine's ``max_game_length`` player decisions (a guard that random
  play does not reach) ends as a draw (:func:`~formosa_envs.core.rewards.draw_rewards`).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("formosa_envs.spiel needs OpenSpiel: pip install 'formosa_envs[spiel]' "
                      "(the open_spiel package)") from exc

from formosa_envs.core.engine import TERMINAL, Game
from formosa_envs.core.errors import IllegalActionError
from formosa_envs.core.rewards import draw_rewards, final_rewards
from formosa_envs.games import GAMES, make_game

from .params import SPIEL_PREFIX, options_from_params, parameter_defaults
from .recall import Recall

__all__ = ["GAME_CLASSES", "FormosaBot", "FormosaSpielGame", "FormosaSpielState", "bot_from_spec",
           "engine_of", "register", "sample_chance"]

_ENGINES: dict[str, Game] = {}


def _engine(game: str, options: dict[str, Any]) -> Game:
    """One engine per configuration (engines hold no game state, so states share it)."""
    key = json.dumps([game, options], sort_keys=True)
    if key not in _ENGINES:
        _ENGINES[key] = make_game(game, **options)
    return _ENGINES[key]


class _Engine:
    """What a pyspiel state carries: the engine, its state, the recall digests.

    OpenSpiel clones a Python state by deep-copying its ``__dict__`` and serializes it by
    pickling that dict; this holder makes both go through the engine (``clone``,
    ``to_json``/``from_json``), never through the generic machinery.
    """

    __slots__ = ("engine", "name", "options", "state", "recall")

    def __init__(self, name: str, options: dict[str, Any], state: Any,
                 recall: Recall) -> None:
        self.name, self.options = name, options
        self.engine = _engine(name, options)
        self.state, self.recall = state, recall

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.name, self.options, self.engine.clone(self.state),
                       self.recall.copy())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        self.recall.settle(self.engine)
        return _restore, (self.name, self.options, self.engine.to_json(self.state),
                          [d.hex() for d in self.recall.digests])


def _restore(name: str, options: dict[str, Any], text: str, digests: list[str]) -> _Engine:
    """Rebuild a pickled :class:`_Engine` (the engine validates the saved state whole)."""
    engine = _engine(name, options)
    state = engine.from_json(text)
    base = engine.clone(state) if engine.hidden_information else None
    return _Engine(name, options, state, Recall([bytes.fromhex(d) for d in digests], base))


def _game_type(name: str, engine: Game, reward_mode: str) -> Any:
    info, bounds = GAMES[name], engine.utility_bounds(reward_mode)
    T = pyspiel.GameType
    if bounds.total is None:
        utility = T.Utility.GENERAL_SUM
    else:
        utility = T.Utility.ZERO_SUM if bounds.total == 0 else T.Utility.CONSTANT_SUM
    information = (T.Information.IMPERFECT_INFORMATION if engine.hidden_information
                   else T.Information.PERFECT_INFORMATION)
    return T(short_name=SPIEL_PREFIX + name, long_name=f"{info.title} (formosa_envs)",
             dynamics=T.Dynamics.SEQUENTIAL, chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC,
             information=information, utility=utility, reward_model=T.RewardModel.TERMINAL,
             max_num_players=info.max_players, min_num_players=info.min_players,
             provides_information_state_string=True, provides_information_state_tensor=False,
             provides_observation_string=True, provides_observation_tensor=True,
             parameter_specification=parameter_defaults(name))


class FormosaSpielGame(pyspiel.Game):
    """One formosa game at one configuration, as an OpenSpiel game."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.game_name = name
        self.options, self.reward_mode = options_from_params(name, params)
        self.engine = _engine(name, self.options)
        bounds = self.engine.utility_bounds(self.reward_mode)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions,
            max_chance_outcomes=self.engine.max_chance_outcomes,
            num_players=self.engine.num_players, min_utility=bounds.low,
            max_utility=bounds.high, utility_sum=bounds.total,
            max_game_length=self.engine.max_game_length)
        full = {**parameter_defaults(name), **params}
        super().__init__(_game_type(name, self.engine, self.reward_mode), game_info, full)

    def new_initial_state(self) -> FormosaSpielState:
        """A new game at its first (chance) node."""
        return FormosaSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Any:
        """The observer of ``iig_obs_type`` (see :mod:`formosa_envs.spiel.observer`)."""
        from .observer import make_observer
        return make_observer(self, iig_obs_type, params)


class FormosaSpielState(pyspiel.State):
    """An OpenSpiel state around one engine state."""

    def __init__(self, game: FormosaSpielGame) -> None:
        super().__init__(game)
        state = game.engine.new_initial_state()
        self._e = _Engine(game.game_name, game.options, state,
                          Recall.start(game.engine, state))
        self._reward_mode = game.reward_mode

    # ----- the engine behind it ---------------------------------------------------------
    @property
    def engine(self) -> Game:
        """The rules engine (shared by every state of this game)."""
        return self._e.engine

    @property
    def engine_state(self) -> Any:
        """The engine state (read it; change it only through ``apply_action``)."""
        return self._e.state

    def _truncated(self) -> bool:
        e = self._e
        return not e.engine.is_terminal(e.state) and e.state.decisions >= (
            e.engine.max_game_length)

    # ----- the OpenSpiel API ----------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, ``pyspiel.PlayerId.CHANCE`` (-1) or ``TERMINAL`` (-4)."""
        return TERMINAL if self._truncated() else self._e.engine.current_player(self._e.state)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._e.engine.legal_actions(self._e.state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The engine's ``(outcome, probability)`` list, by outcome."""
        return sorted(self._e.engine.chance_outcomes(self._e.state))

    def _apply_action(self, action: int) -> None:
        e = self._e
        if self._truncated():
            raise IllegalActionError("the game was stopped by its max_game_length guard")
        mover = e.engine.current_player(e.state)
        e.engine.apply_action(e.state, int(action))   # first: an illegal one changes nothing
        e.recall.record(e.engine, mover, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        e = self._e
        if player != e.engine.current_player(e.state):
            return f"action {action} (player {player})"
        return e.engine.action_label(e.state, int(action))

    def is_terminal(self) -> bool:
        """Whether the game is over (or stopped by the length guard)."""
        return self.current_player() == TERMINAL

    def returns(self) -> list[float]:
        """Final rewards by the game's ``reward_mode`` (0 each before the end)."""
        e = self._e
        if e.engine.is_terminal(e.state):
            return final_rewards(e.engine, e.state, self._reward_mode)
        if self._truncated():
            return draw_rewards(self._reward_mode, e.engine.num_players)
        return [0.0] * e.engine.num_players

    def __str__(self) -> str:
        return self._e.engine.render(self._e.state, None)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> FormosaSpielState:
        """A state ``player_id`` cannot tell from this one, hidden items resampled by the
        engine's ``determinize`` (seeded from ``probability_sampler``, a uniform sampler)."""
        seed = int(float(probability_sampler()) * 2 ** 53)
        out = self.clone()
        e = out._e
        e.state = e.engine.determinize(e.state, int(player_id), np.random.default_rng(seed))
        e.recall.rebase(e.engine, e.state)
        return out

    def recall_digest(self, player: int) -> str:
        """The hex digest of ``player``'s observation history and own actions."""
        return self._e.recall.digest(self._e.engine, player).hex()


def engine_of(state: Any) -> tuple[Game, Any]:
    """``(engine, engine state)`` of a formosa pyspiel state."""
    if not isinstance(state, FormosaSpielState):
        raise TypeError(f"expected a formosa OpenSpiel state, got {type(state).__name__}")
    return state.engine, state.engine_state


def sample_chance(state: Any, rng: np.random.Generator) -> int:
    """The chance outcome the envs would draw here with ``rng`` (``Game.sample_chance``),
    so a game driven through OpenSpiel with the env's generator is the env's game."""
    engine, engine_state = engine_of(state)
    return engine.sample_chance(engine_state, rng)


class FormosaBot(pyspiel.Bot):
    """A formosa agent (anything with ``act_on_state(game, state)``) as an OpenSpiel bot,
    for ``evaluate_bots`` and other OpenSpiel drivers; it sees the engine state and must,
    like every formosa agent, use only what the deciding seat may see."""

    def __init__(self, agent: Any) -> None:
        pyspiel.Bot.__init__(self)
        if not callable(getattr(agent, "act_on_state", None)):
            raise TypeError(f"FormosaBot needs a formosa agent (with act_on_state), got "
                            f"{type(agent).__name__}")
        self.agent = agent

    def step(self, state: Any) -> int:
        """The agent's action for the deciding seat of ``state``."""
        engine, engine_state = engine_of(state)
        return int(self.agent.act_on_state(engine, engine_state))

    def restart_at(self, state: Any) -> None:
        """A new game: the agent forgets its per-game memory."""
        self.agent.reset()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Other seats' moves need no bookkeeping (the agent reads the state)."""


def bot_from_spec(spec: str, game: Any, seed: int | None = None) -> FormosaBot:
    """An OpenSpiel bot of agent ``spec`` (``heuristic``, ``mcts:200``, ``pretrained``...:
    every spec ``formosa tournament`` takes) for the formosa pyspiel ``game``."""
    from formosa_envs.agents.specs import make_agent
    if not isinstance(game, FormosaSpielGame):
        raise TypeError(f"bot_from_spec needs a formosa OpenSpiel game, got {game!r}")
    return FormosaBot(make_agent(spec, game.game_name, seed))


def _game_class(name: str) -> type:
    """The class pyspiel builds ``formosa_<name>`` with. OpenSpiel's registry outlives the
    interpreter; a class (unlike a closure) is still alive when the registry lets go of
    it at exit, so no Python object is freed after finalization."""
    def __init__(self: FormosaSpielGame, params: dict[str, Any] | None = None) -> None:
        FormosaSpielGame.__init__(self, name, params)
    title = "".join(part.title() for part in name.split("_"))
    return type(f"Formosa{title}SpielGame", (FormosaSpielGame,),
                {"__init__": __init__, "__doc__": f"{GAMES[name].title} as an OpenSpiel game."})


GAME_CLASSES: dict[str, type] = {}
"""The registered game class of each game (``GAME_CLASSES["tea"]()`` is the default game)."""


def register() -> list[str]:
    """Register every game with pyspiel (repeat calls are harmless); return the names."""
    known = set(pyspiel.registered_names())
    for name in GAMES:
        if SPIEL_PREFIX + name not in known:
            engine = make_game(name, num_players=parameter_defaults(name)["players"])
            GAME_CLASSES[name] = _game_class(name)
            pyspiel.register_game(_game_type(name, engine, "rank"), GAME_CLASSES[name])
    return [SPIEL_PREFIX + name for name in GAMES]


register()
