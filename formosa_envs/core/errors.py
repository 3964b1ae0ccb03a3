"""Exceptions shared by every formosa game.

All of them derive from :class:`ValueError`, so callers that only know the
standard library still catch bad input cleanly.
"""

from __future__ import annotations


class FormosaError(ValueError):
    """Base class of every error raised on bad input to formosa_envs."""


class IllegalActionError(FormosaError):
    """An action that the rules do not allow in the current decision."""


class ConfigError(FormosaError):
    """A game or environment configuration that cannot be built."""


class DataError(FormosaError):
    """A content data file (TOML) that is missing, malformed or inconsistent."""


class StateFormatError(FormosaError):
    """A saved state (JSON) that is corrupt or belongs to another game."""


class ArgumentError(FormosaError):
    """A public function was called with an argument it does not accept (a seat, a
    viewer, an action, a seed, an agent name out of range or of the wrong type)."""


class CallOrderError(IllegalActionError):
    """A method called when it cannot run yet or any more: an env used before
    ``reset()``, or stepped after the end of the game. An ``IllegalActionError`` (so a
    ``FormosaError``), as a step taken when no action can be taken always was."""
