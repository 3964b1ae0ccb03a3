"""The web app's error: an HTTP status and a message for the client."""

from __future__ import annotations

from formosa_envs.core.errors import FormosaError

BAD_REQUEST = 400
FORBIDDEN = 403
NOT_FOUND = 404
CONFLICT = 409
TOO_LARGE = 413
UNSUPPORTED_TYPE = 415
UNPROCESSABLE = 422


class WebError(FormosaError):
    """A request the server refuses: answered with ``status`` and ``{"error": message}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def clip(text: str, limit: int = 240) -> str:
    """``text``, cut to ``limit`` characters when longer (a client's value echoed in a
    message must not make the message itself unreadable)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def bad_request(message: str) -> WebError:
    """A 400: the request itself is malformed (a body, a field, a game, an option)."""
    return WebError(BAD_REQUEST, message)


def conflict(message: str) -> WebError:
    """A 409: the request does not fit the game's state now (stale, out of turn, over)."""
    return WebError(CONFLICT, message)
