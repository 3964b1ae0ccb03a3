"""One game at the web table: people's moves, agents thinking in a thread, undo, the record.

Every change (a move, an undo, abandoning) bumps :attr:`GameSession.version`; a
move or an undo names the version it answers, so a stale or repeated request is
refused (409) and no move is ever applied twice. Chance is drawn right after the
move that leads to it, from a generator seeded by ``(seed, step number)``, and after
the first undo by ``(seed, step number, undos so far)``: an undo goes back one
person's decision (with the agents' moves and draws after it), and what comes next is
drawn afresh, so undoing a reveal does not tell the person the card to come. The
record keeps every step actually drawn (it replays exactly) and the undo count (in
its ``web`` section, so a resumed game goes on drawing afresh). The record is handed
to ``saver`` after every change.

Agents act in one background thread per session (never on the server's event
loop) on a copy of the state; a move computed for a version that has since changed
(the person undid or abandoned) is dropped, and the search that computes it is told
to stop (``agent.should_stop``, read by MCTS between simulations), as is every search
when the server stops (:meth:`GameSession.stop`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import numpy as np

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.tools.record import RecordError, new_record

from .errors import WebError, conflict
from .newgame import GameSpec
from .seats import ServeLimits, build_agent

PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"
Saver = Callable[["GameSession"], None]


class GameSession:
    """A game in progress (or over) with its seats, steps and version."""

    def __init__(self, game_id: str, spec: GameSpec, saver: Saver | None = None,
                 created: str | None = None, limits: ServeLimits | None = None,
                 with_agents: bool = True) -> None:
        """A game not yet started (:meth:`start`); ``with_agents=False`` for a game over,
        whose agents are never asked to move (no agent is built)."""
        self.id = game_id
        self.spec = spec
        self.game = make_game(spec.game, num_players=spec.num_players, **spec.options)
        self.humans = spec.humans
        limits = limits or ServeLimits()
        self.agents = {seat: build_agent(s, spec.game, seat, spec.seed, limits)
                       for seat, s in enumerate(spec.seats)
                       if seat not in self.humans and with_agents}
        for agent in self.agents.values():
            agent.should_stop = self._should_stop
        self.undos = 0
        self._closing = False
        self._thought_for = -1
        self.created = created or datetime.now(timezone.utc).isoformat(timespec="seconds")
        self.lock = threading.RLock()
        self.version = 0
        self.status = PLAYING
        self.truncated = False
        self.thinking: int | None = None
        self.error: str | None = None
        self.steps: list[list[Any]] = []
        self.notes: list[dict[int | None, str | None]] = []
        self.state = self.game.new_initial_state()
        self._saver = saver
        self._worker: threading.Thread | None = None

    # ----- starting and resuming --------------------------------------------------------
    def start(self, steps: list[list[Any]] = (), status: str = PLAYING,
              version: int = 0, undos: int = 0) -> None:
        """Replay ``steps`` (a saved record's), settle chance, save, let agents move.

        A resumed game goes on from its saved ``version`` (a page open before a restart
        then gets 409 and reloads, instead of meeting a reused version number) and its
        ``undos`` (so chance after them is still drawn afresh).
        """
        with self.lock:
            self.version, self.undos = version, undos
            self._rebuild(list(steps))
            if status != PLAYING and self.status == PLAYING:
                self.status = status
                self.truncated = True
            self._changed()

    def _rebuild(self, steps: list[list[Any]]) -> None:
        """The state after ``steps`` from the start; :class:`RecordError` on a misfit."""
        self.state = self.game.new_initial_state()
        self.steps, self.notes = [], []
        self.status, self.truncated = PLAYING, False
        for index, step in enumerate(steps):
            player, action = int(step[0]), int(step[1])
            if not self._fits(player, action):
                raise RecordError(f"step {index} ({step!r:.60}) does not fit the game: "
                                  f"{self.game.decision_description(self.state)}")
            self._apply(player, action)
        self._settle()

    def _fits(self, player: int, action: int) -> bool:
        game, state = self.game, self.state
        if game.is_terminal(state) or game.current_player(state) != player:
            return False
        if player == CHANCE:
            return any(outcome == action for outcome, _ in game.chance_outcomes(state))
        return action in game.legal_actions(state)

    # ----- the moves ---------------------------------------------------------------------
    def play(self, action: int, version: int, seat: int | None = None) -> None:
        """A person's move: ``action`` by the deciding human seat, answering ``version``."""
        with self.lock:
            self._check_live(version)
            player = self.game.current_player(self.state)
            if player not in self.humans:
                raise conflict(f"it is not a person's decision now: player {player} "
                               f"({self.spec.seats[player]}) decides")
            if seat is not None and seat != player:
                raise conflict(f"it is player {player}'s decision, not player {seat}'s")
            if action not in self.game.legal_actions(self.state):
                raise WebError(422, f"action {action} is not a legal move for player {player} "
                                    f"now (see the moves offered)")
            self._apply(player, action)
            self._settle()
            self._changed()

    def undo(self, version: int) -> None:
        """Back to the last decision a person made (agents' moves and chance after it
        undone too); chance from there on is drawn afresh."""
        with self.lock:
            self._check_live(version)
            last = next((i for i in range(len(self.steps) - 1, -1, -1)
                         if self.steps[i][0] in self.humans), None)
            if last is None:
                raise conflict("there is no move of a person to undo")
            self._rebuild(self.steps[:last])
            self.undos += 1
            self._changed()

    def abandon(self, version: int | None = None) -> None:
        """Stop the game here; its record is saved as cut off (``truncated``)."""
        with self.lock:
            self._check_live(self.version if version is None else version)
            self.status, self.truncated = ABANDONED, True
            self._changed()

    def _check_live(self, version: int) -> None:
        if self.status != PLAYING:
            raise conflict(f"the game is {self.status}")
        if version != self.version:
            raise conflict(f"stale request: it answers version {version}, the game is at "
                           f"version {self.version}; reload the game")

    def _apply(self, player: int, action: int) -> None:
        """Apply one step and write it down, with how each person's seat hears of it."""
        game, state = self.game, self.state
        label = game.action_label(state, action)
        viewers: list[int | None] = list(self.humans) or [None]
        self.notes.append({v: game.public_label(state, action, v) for v in viewers})
        game.apply_action(state, action)
        self.steps.append([int(player), int(action), label])

    def _settle(self) -> None:
        """Draw chance until a player decides; mark the game finished at its end."""
        game, state = self.game, self.state
        while True:
            if game.is_terminal(state) or state.decisions >= game.max_game_length:
                self.status = FINISHED
                self.truncated = not game.is_terminal(state)
                return
            if game.current_player(state) != CHANCE:
                return
            key = [self.spec.seed, len(self.steps)] + ([self.undos] if self.undos else [])
            rng = np.random.default_rng(key)
            self._apply(CHANCE, game.sample_chance(state, rng))

    def _changed(self) -> None:
        """After every change: a new version, the record saved, agents woken."""
        self.version += 1
        self.error = None
        if self._saver is not None:
            self._saver(self)
        self._kick()

    # ----- agents --------------------------------------------------------------------------
    def agent_to_move(self) -> int | None:
        """The agent seat that decides now, if any."""
        if self.status != PLAYING:
            return None
        player = self.game.current_player(self.state)
        return player if player in self.agents else None

    def stop(self) -> None:
        """Tell a thinking agent to stop (its move is dropped) and no agent to start."""
        self._closing = True

    def _should_stop(self) -> bool:
        """Whether the thought under way is no longer wanted (stale, or the server stops)."""
        return self._closing or self.version != self._thought_for

    def _kick(self) -> None:
        if self._worker is None and self.agent_to_move() is not None and self.error is None \
                and not self._closing:
            self._worker = threading.Thread(target=self._drive, name=f"agents-{self.id}",
                                            daemon=True)
            self._worker.start()

    def _drive(self) -> None:
        """The agent thread: move while an agent decides; drop moves made stale."""
        while True:
            with self.lock:
                seat = self.agent_to_move()
                if seat is None or self.error is not None or self._closing:
                    self._worker = None
                    return
                version, state = self.version, self.game.clone(self.state)
                self.thinking, self._thought_for = seat, version
            try:
                action = int(self.agents[seat].act_on_state(self.game, state))
            except Exception as exc:  # a broken agent must not take the server down
                with self.lock:
                    self.thinking, self._worker = None, None
                    self.error = f"the agent at seat {seat} ({self.spec.seats[seat]}) " \
                                 f"failed: {type(exc).__name__}: {exc}"
                return
            with self.lock:
                self.thinking = None
                if version == self.version and not self._closing:
                    self._apply(seat, action)
                    self._settle()
                    self.version += 1
                    if self._saver is not None:
                        self._saver(self)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until no agent is thinking (True) or ``timeout`` seconds pass (False)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            worker = self._worker
            if worker is None:
                return True
            worker.join(max(0.0, deadline - time.monotonic()))
        return self._worker is None

    # ----- the record ----------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The game record (``formosa replay`` reads it), with a ``web`` section to resume."""
        with self.lock:
            spec = self.spec
            cut = self.status != FINISHED or self.truncated
            record = new_record(spec.game, spec.num_players, spec.options, spec.seed,
                                list(spec.seats), [list(s) for s in self.steps],
                                self.game.scores(self.state), cut)
            record["web"] = {"id": self.id, "status": self.status, "created": self.created,
                             "version": self.version, "undos": self.undos}
            return record
