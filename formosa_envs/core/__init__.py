"""The shared core (stdlib + numpy only): engine contract, decision stack, action
segments, observer pieces, payments with alternative sources, data loading and the
contract-check kit."""

from .actions import ActionSpace, Segment
from .decisions import Decision, Handler
from .engine import AUTO, CHANCE, TERMINAL, Game, rank_returns
from .errors import (
    ArgumentError,
    CallOrderError,
    ConfigError,
    DataError,
    FormosaError,
    IllegalActionError,
    StateFormatError,
)
from .observer import ObservationLayout, Piece, seat_order
from .payment import PayHandler, PaymentModel, feasible, legal_sources, start_payment
from .stack_game import StackGame

__all__ = ["AUTO", "CHANCE", "TERMINAL", "ActionSpace", "ArgumentError", "CallOrderError",
           "ConfigError", "DataError", "Decision",
           "FormosaError", "Game", "Handler", "IllegalActionError", "ObservationLayout",
           "PayHandler", "PaymentModel", "Piece", "Segment", "StackGame", "StateFormatError",
           "feasible", "legal_sources", "rank_returns", "seat_order", "start_payment"]
