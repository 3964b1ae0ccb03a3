"""The engine contract every formosa game implements (OpenSpiel-style, pure Python).

A game is a :class:`Game` object (rules at one configuration) plus a mutable
state dataclass. All rule functions take the state explicitly, PGX-style::

    game = FlowersGame(FlowersConfig(num_players=3))
    s = game.new_initial_state()
    while not game.is_terminal(s):
        if game.current_player(s) == CHANCE:
            game.apply_action(s, game.sample_chance(s, rng))
        else:
            game.apply_action(s, rng.choice(game.legal_actions(s)))

Nothing here touches a global random generator: whoever drives the game passes
its own ``numpy.random.Generator`` to :meth:`Game.sample_chance`.

:class:`~formosa_envs.core.stack_game.StackGame` implements the contract on top of the
decision stack (``decisions.py``): games supply a handler table and a phase-flow function.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from .actions import ActionSpace
from .args import check_own_state, guard_entry_points
from .errors import IllegalActionError, StateFormatError
from .ranking import rank_returns, ranks_of, shares_of, top_positions
from .rewards import UtilityBounds, utility_bounds
from .schema import StateSchema, check_schema
from .serialize import state_from_dict, state_to_dict

CHANCE = -1
"""``current_player`` value while chance (a deal, a draw, a die) must be resolved."""
AUTO = -2
"""``player`` of an automatic frame: a queued continuation the engine runs itself."""
TERMINAL = -4
"""``current_player`` value once the game is over."""
_SAVE_KEYS = frozenset({"game", "config", "state"})
"""The top-level keys of a saved state (:meth:`Game.to_json`)."""


class Game(ABC):
    """Rules of one game at one configuration; stateless apart from config and data."""

    name: ClassVar[str] = "game"
    hidden_information: ClassVar[bool] = True
    """False for games where every seat sees everything (only chance is unknown)."""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    state_class: ClassVar[type]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every game's view entry points check their arguments (``core/args.py``)."""
        super().__init_subclass__(**kwargs)
        guard_entry_points(cls)

    def __init__(self, config: Any) -> None:
        self.config = config
        self.num_players: int = config.num_players
        self.action_space: ActionSpace = self.build_action_space()
        self.num_actions = self.action_space.size

    # ----- structure -------------------------------------------------------
    @abstractmethod
    def build_action_space(self) -> ActionSpace:
        """The game's named action segments for this configuration."""

    @property
    @abstractmethod
    def observation_size(self) -> int:
        """Length of the per-seat observation vector."""

    @property
    @abstractmethod
    def state_size(self) -> int:
        """Length of the global state vector (for centralised critics)."""

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """Player decisions after which a game is truncated (a guard, not a rule)."""

    # ----- dynamics -------------------------------------------------------
    @property
    @abstractmethod
    def max_chance_outcomes(self) -> int:
        """An upper bound on chance outcome ids: every outcome of every chance node of this
        configuration lies in ``0 .. max_chance_outcomes - 1`` (OpenSpiel's
        ``max_chance_outcomes``). Derived from the game's content, so data-file
        overrides move it; the contract tests check it over random games."""

    def utility_bounds(self, reward_mode: str = "rank") -> UtilityBounds:
        """The range and sum of the final rewards under ``reward_mode``
        (:func:`~formosa_envs.core.rewards.utility_bounds`)."""
        return utility_bounds(reward_mode, self.num_players)

    @abstractmethod
    def new_initial_state(self) -> Any:
        """A fresh state at the start of the game (usually at a chance node)."""

    @abstractmethod
    def current_player(self, state: Any) -> int:
        """The seat that must decide now, ``CHANCE`` or ``TERMINAL``."""

    @abstractmethod
    def legal_actions(self, state: Any) -> list[int]:
        """Legal action ids for the deciding seat (chance outcomes at chance nodes)."""

    @abstractmethod
    def apply_action(self, state: Any, action: int) -> None:
        """Apply one atomic decision (or chance outcome) in place."""

    def apply_legal_action(self, state: Any, action: int) -> None:
        """Apply an action the caller has already checked against the legal mask of this
        very state (the env's fast path); by default the same as :meth:`apply_action`."""
        self.apply_action(state, action)

    @abstractmethod
    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` at a chance node."""

    @abstractmethod
    def scores(self, state: Any) -> list[float]:
        """The game's own score per seat (victory points)."""

    @abstractmethod
    def action_label(self, state: Any, action: int) -> str:
        """A human-readable description of ``action`` in ``state``."""

    @abstractmethod
    def observe(self, state: Any, seat: int) -> np.ndarray:
        """The float32 observation of ``seat`` (only what that seat may see)."""

    def observe_many(self, states: Sequence[Any], seat: int) -> np.ndarray:
        """The observations of ``seat`` in each of ``states``, one row per state: the
        rows of :meth:`observe`, byte for byte. Search and afterstate evaluators encode a
        decision's candidates at once; a game may override this with a batched encoder."""
        if not states:
            return np.zeros((0, self.observation_size), dtype=np.float32)
        return np.stack([self.observe(state, seat) for state in states])

    @abstractmethod
    def state_vector(self, state: Any) -> np.ndarray:
        """The full float32 global state (hidden information included)."""

    @abstractmethod
    def render(self, state: Any, viewer: int | None = None) -> str:
        """A text picture of the state, hiding what ``viewer`` may not see."""

    def render_svg(self, state: Any, viewer: int | None = None) -> str:
        """An SVG picture of the state as ``viewer`` sees it (``None``: all shown),
        with a caption naming the pending decision. Games draw with ``core.svg``."""
        raise NotImplementedError(f"{type(self).__name__} has no SVG picture")

    @abstractmethod
    def determinize(self, state: Any, viewer: int, rng: np.random.Generator) -> Any:
        """A copy with every hidden item ``viewer`` cannot see resampled consistently.

        The result must depend only on ``rng`` and on what ``viewer`` sees (resample
        from a canonical ordering of the hidden items), so that search agents built
        on it cannot be influenced by hidden information.
        """

    @abstractmethod
    def decision_description(self, state: Any) -> str:
        """A sentence naming the pending decision."""

    # ----- shared behaviour ----------------------------------------------
    def is_terminal(self, state: Any) -> bool:
        """Whether the game is over."""
        return self.current_player(state) == TERMINAL

    def legal_mask(self, state: Any) -> np.ndarray:
        """An int8 mask over the action space marking the legal actions."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if not self.is_terminal(state) and self.current_player(state) != CHANCE:
            mask[self.legal_actions(state)] = 1
        return mask

    def sample_chance(self, state: Any, rng: np.random.Generator) -> int:
        """Draw one chance outcome with the caller's generator; ``IllegalActionError``
        when no chance event is pending (a player decision, or the game is over)."""
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            raise IllegalActionError("sample_chance called but no chance event is pending: "
                                     + self.decision_description(state))
        probs = np.fromiter((p for _, p in outcomes), dtype=np.float64, count=len(outcomes))
        index = int(rng.choice(len(outcomes), p=probs / probs.sum()))
        return outcomes[index][0]

    def ranking_keys(self, state: Any) -> list[tuple[float, ...]]:
        """Per-seat sort keys of the game's own ordering, its tie-breaks included.

        A higher key (compared as tuples) ranks higher; equal keys are a tie the rules
        leave shared. The default is the score alone; a game whose rulebook breaks ties
        adds the tie-break quantities, e.g. ``(VP, coins)``. :meth:`returns`,
        :meth:`ranks`, :meth:`winners` and :meth:`win_shares` all derive from it: it is
        the one place that says who wins.
        """
        return [(float(v),) for v in self.scores(state)]

    def winners(self, state: Any) -> list[int]:
        """The seats that win (several share a tie) if the game ended now: the top
        :meth:`ranking_keys`. A single-player game overrides it with its objective
        (an empty list when the objective is missed)."""
        return top_positions(self.ranking_keys(state))

    def win_shares(self, state: Any) -> list[float]:
        """Each seat's share of the victory: ``1/k`` to each of the ``k`` winners."""
        return shares_of(self.winners(state), self.num_players)

    def ranks(self, state: Any) -> list[float]:
        """Each seat's place by :meth:`ranking_keys`: 1 = first; ties share the average."""
        return ranks_of(self.ranking_keys(state))

    def returns(self, state: Any) -> list[float]:
        """Rank-based zero-sum returns from :meth:`ranking_keys` (zero before the end).

        Two players: +1 / -1 (0 each on a tie the tie-breaks leave). More players: each
        seat gets the average over opponents of +1 (ranked above), 0 (tie) or -1
        (ranked below). One player: +1 if :meth:`winners` names the seat, else -1.
        """
        if not self.is_terminal(state):
            return [0.0] * self.num_players
        if self.num_players == 1:
            return [1.0 if self.winners(state) else -1.0]
        return rank_returns(self.ranking_keys(state))

    def clone(self, state: Any) -> Any:
        """An independent copy of ``state``."""
        return state.clone()

    def child(self, state: Any, action: int) -> Any:
        """A new state: ``state`` with ``action`` applied (checked, as by
        :meth:`apply_action`); ``state`` itself is left as it was, also when the action is
        refused. What search expands: a clone and one apply, nothing else."""
        check_own_state(self, state, "child")
        after = self.clone(state)
        self.apply_action(after, action)
        return after

    state_schema: ClassVar[StateSchema | None] = None
    """The declarative schema of the state's fields (``core.schema``), checked by
    :meth:`validate_state`; None checks only the generic fields (player count, stack)."""

    def to_json(self, state: Any) -> str:
        """Serialise ``state`` (with the game name and config) as a JSON string.

        ``state`` must be a state of this game (its state class and player count):
        ``ArgumentError`` otherwise, so no save is written that loads nowhere.
        """
        check_own_state(self, state, "to_json")
        payload = {"game": self.name, "config": self.config_dict(),
                   "state": state_to_dict(state)}
        return json.dumps(payload, separators=(",", ":"))

    def from_json(self, text: str) -> Any:
        """Restore a state saved by :meth:`to_json`, validated whole (every field's type,
        length and range, the decision stack, the game's conservation laws).

        Raises ``StateFormatError`` naming the first broken field; a state that loads
        plays exactly like the one that was saved.
        """
        try:
            payload = json.loads(text)
        except (TypeError, ValueError, RecursionError) as exc:  # ValueError: a number of
            # more than 4,300 digits (Python's int conversion limit), JSONDecodeError
            raise StateFormatError(f"saved {self.name} state is not valid JSON: {exc}") from None
        if not isinstance(payload, dict) or payload.get("game") != self.name:
            found = payload.get("game") if isinstance(payload, dict) else type(payload).__name__
            raise StateFormatError(f"saved state is for game {found!r}, not {self.name!r}")
        keys = set(payload)
        if keys != _SAVE_KEYS:
            raise StateFormatError(
                f"saved state must have exactly the keys {sorted(_SAVE_KEYS)}: "
                f"missing {sorted(_SAVE_KEYS - keys)}, unknown {sorted(keys - _SAVE_KEYS)}")
        if payload["config"] != self.config_dict():
            raise StateFormatError(
                f"saved state has config {payload['config']!r:.200}, "
                f"this game has {self.config_dict()!r}")
        state = state_from_dict(self.state_class, payload["state"],
                                check_types=self.state_schema is None)
        self.validate_state(state)
        return state

    def validate_state(self, state: Any) -> None:
        """Check ``state`` whole: :meth:`check_invariants`, then its pending decision.

        First the schema (:func:`~formosa_envs.core.schema.check_schema`: every field's
        type, length and range, the decision stack and each frame's ``ctx``), then the
        game's :meth:`check_conservation` (together: :meth:`check_invariants`), then
        :func:`~formosa_envs.core.dry_run.check_playable`: the pending decision's legal
        actions (or chance outcomes) are computed and each is applied to a clone.
        Raises ``StateFormatError`` naming the field or the decision that cannot be played.
        """
        from .dry_run import check_playable  # loaded on first use (no import cycle)
        _check_whole(self, state)
        check_playable(self, state)

    def public_label(self, state: Any, action: int, viewer: int | None) -> str | None:
        """How ``action`` is narrated to ``viewer`` (None: a table of spectators).

        Returns None when there is nothing to narrate (e.g. a deal, which the
        table picture shows, or a card dealt into another player's hand).
        The default narrates everything.
        """
        return self.action_label(state, action)

    def potential(self, state: Any, seat: int) -> float:
        """A progress estimate for reward shaping (0 by default: no shaping information).

        Training may add ``w * (potential after - potential before)`` to each step's
        reward; the potential of a finished game counts as 0, so the shaping sums to a
        constant over a game and leaves the best policy unchanged.
        """
        return 0.0

    def final_info(self, state: Any, seat: int) -> dict[str, Any]:
        """What the env reports in ``infos`` when the game ends: by default the scores."""
        scores = self.scores(state)
        return {"score": scores[seat], "scores": scores}

    def observation_pieces(self) -> list[tuple[str, int, tuple[int, ...], str]]:
        """Rows ``(name, offset, shape, doc)`` describing the observation vector."""
        return []

    def check_invariants(self, state: Any) -> None:
        """Check ``state`` whole (schema, then conservation); raise ``StateFormatError``.

        The same field and conservation checks as :meth:`validate_state` (which
        :meth:`from_json` runs), without its dry run of the pending decision: a state that
        passes ``validate_state`` passes this. Called by the contract-check kit after every
        step of its random games.
        """
        _check_whole(self, state)

    def check_conservation(self, state: Any) -> None:
        """Each game's conservation check (cards, cubes, coins, no duplicates in a zone):
        raise ``StateFormatError`` via :func:`formosa_envs.core.invariants.require`.

        Runs after :func:`~formosa_envs.core.schema.check_schema` has passed, so every
        field already has its declared type, length and range. Default: nothing.
        """
        return None

    def config_dict(self) -> dict[str, Any]:
        """The configuration as a JSON-friendly dict."""
        from dataclasses import asdict
        return asdict(self.config)


def _check_whole(game: Game, state: Any) -> None:
    """The one state check behind ``validate_state`` and ``check_invariants``: the schema,
    then the game's conservation laws."""
    check_schema(game, state)
    try:
        game.check_conservation(state)
    except AssertionError as exc:  # a conservation law still written as an assert
        raise StateFormatError(f"{game.name} state is inconsistent: {exc}") from None


guard_entry_points(Game)  # subclasses are guarded by Game.__init_subclass__
