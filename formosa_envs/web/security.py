"""Defence in depth for ``formosa serve``: response headers, and dropping connections
that never finish their requests.

* Every answer carries ``X-Frame-Options: DENY`` and a ``Content-Security-Policy``
  (``frame-ancestors 'none'``: no other site may frame the page and trick clicks on it;
  ``default-src 'self'``: the page runs only its own script and style sheet, so markup
  that slipped into a view could run nothing), and ``X-Content-Type-Options: nosniff``.
* uvicorn drops an idle keep-alive connection, but it sets no deadline on a request: a
  client that opens connections and sends half a request line, or whole headers and
  then a body one byte at a time, holds each one open for ever. :class:`HeaderTimeoutH11`
  (uvicorn's h11 protocol) closes a connection whose request, headers and body, is not
  complete ``header_timeout`` seconds after it opened, or after the first byte of its
  next request. The body's size is bounded by the app (64 KiB, read as it comes).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data:; object-src 'none'; "
                           "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
                    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
                    "Referrer-Policy": "no-referrer"}
DEFAULT_HEADER_TIMEOUT = 10.0
INCOMPLETE = (h11.IDLE, h11.SEND_BODY)
"""The client's h11 states of a request not yet complete: headers partial, body partial."""


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to the answer's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def header_timeout_protocol(seconds: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol class, closing connections whose request (headers and body)
    takes longer than ``seconds`` (give it to ``uvicorn.Config(http=...)``)."""
    return type("HeaderTimeoutH11", (HeaderTimeoutH11,), {"header_timeout": float(seconds)})


class HeaderTimeoutH11(H11Protocol):
    """H11Protocol with a deadline on every request's headers and body
    (:attr:`header_timeout`)."""

    header_timeout = DEFAULT_HEADER_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the clock on the first request."""
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Feed the bytes to h11; the clock runs until a request is complete."""
        super().data_received(data)
        if self.conn.their_state in INCOMPLETE and not self.transport.is_closing():
            if self._header_timer is None:
                self._arm()
        else:
            self._disarm()

    def on_response_complete(self) -> None:
        """Between requests uvicorn's keep-alive timeout applies (the next request's
        first byte starts this clock again)."""
        super().on_response_complete()
        self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock with the connection."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        timer: Any = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing() and self.conn.their_state in INCOMPLETE:
            self.transport.close()
