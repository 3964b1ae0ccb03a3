"""OpenSpiel observers of the formosa games (:mod:`formosa_envs.spiel`).

OpenSpiel asks a Python game for an observer per ``IIGObservationType``:

* the default observation (no perfect recall, the seat's private information): the
  tensor is the env's observation vector, ``Game.observe(state, seat)``, with the
  observation's named pieces as the ``dict`` views when they tile the vector; the string
  is the text picture drawn for that seat;
* the information state (perfect recall): no tensor (the observation vector is not
  perfect recall); the string is the seat's picture plus the digest of its whole
  observation history and own actions, so two histories give the same string exactly
  when the seat cannot tell them apart (up to a 128-bit hash collision);
* everything (``private_info=ALL_PLAYERS``): the global state vector and the open picture.

A public-only view of a game with private information (Flowers' hands) is not provided:
the observation vectors are per seat, so asking for one raises a ``ValueError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel


class FormosaObserver:
    """A PyObserver (``tensor``, ``dict``, ``set_from``, ``string_from``) of one game."""

    def __init__(self, game: Any, iig_obs_type: Any) -> None:
        engine = game.engine
        self.engine = engine
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        self.everything = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        if private == pyspiel.PrivateInfoType.NONE and engine.hidden_information:
            raise ValueError(f"{game.game_name} has private information and no public-only "
                             "observation: use private_info=SINGLE_PLAYER or ALL_PLAYERS")
        if self.perfect_recall:
            self.tensor, self.dict = None, {}
            return
        size = engine.state_size if self.everything else engine.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = self._views(engine, size)

    def _views(self, engine: Any, size: int) -> dict[str, np.ndarray]:
        """Named views of the tensor: the observation's pieces if they tile it in order."""
        pieces = [] if self.everything else engine.observation_pieces()
        offset, views = 0, {}
        for name, start, shape, _ in pieces:
            count = int(np.prod(shape))
            if start != offset:
                break
            views[name] = self.tensor[start:start + count].reshape(shape)
            offset += count
        return views if offset == size else {"observation": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        """Fill ``tensor`` with ``state`` as ``player`` sees it."""
        if self.tensor is None:
            return
        engine, s = state.engine, state.engine_state
        self.tensor[:] = engine.state_vector(s) if self.everything else engine.observe(s, player)

    def string_from(self, state: Any, player: int) -> str:
        """The text picture for ``player`` (the open one for ``ALL_PLAYERS``), and, for
        the information state, the seat's recall digest."""
        engine, s = state.engine, state.engine_state
        picture = engine.render(s, None if self.everything else player)
        if not self.perfect_recall:
            return picture
        return f"{picture}\nseat {player} recall {state.recall_digest(player)}"


def make_observer(game: Any, iig_obs_type: Any = None,
                  params: dict[str, Any] | None = None) -> FormosaObserver:
    """The observer OpenSpiel's ``make_py_observer`` returns (no observer parameters)."""
    if isinstance(iig_obs_type, dict):       # OpenSpiel's call without an observation type
        iig_obs_type, params = None, iig_obs_type
    if params:
        raise ValueError(f"observer parameters are not supported, got {sorted(params)}")
    if iig_obs_type is None:
        iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
    return FormosaObserver(game, iig_obs_type)
