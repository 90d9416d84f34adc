"""Bounds on slow clients for uvicorn's HTTP server (issue 14 item 5).

uvicorn closes a connection that stays idle between two requests (``timeout_keep_alive``) but
puts no bound on the time a client takes to send a request: a connection that drips its
headers, or its body, one byte a second is held open for as long as the client likes, and
enough of them hold every file descriptor. :class:`TimedHttpToolsProtocol` is uvicorn's
httptools protocol with two deadlines added:

* ``header_timeout``: from the connection's first moment (or, on a kept-alive connection, from
  the first byte of the next request) until its headers are complete;
* ``body_timeout``: from then until the request's body is complete.

A client that misses one gets ``408 Request Timeout`` (if no answer has begun) and the
connection is closed. Answering takes as long as it takes: the live streams stay open.

The deadlines are read from ``$GINRUMMY_HEADER_TIMEOUT`` and ``$GINRUMMY_BODY_TIMEOUT`` (seconds;
:func:`ginrummy.web.app.serve` sets them from its options), so that uvicorn's worker processes,
which import this class by name, see the same ones.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["TimedHttpToolsProtocol", "HEADER_TIMEOUT", "BODY_TIMEOUT", "timeout_from_env"]

log = logging.getLogger("ginrummy.web")

#: seconds a client has to send a request's headers, then its body (16 KB at most here)
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0

_TIMEOUT_ANSWER = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                   b"content-length: 16\r\nconnection: close\r\n\r\nrequest timeout\n")


def timeout_from_env(name: str, default: float) -> float:
    """The positive number of seconds in ``$name`` (``default`` when unset).

    :raises ValueError: not a positive number.
    """
    text = os.environ.get(name)
    if not text:
        return default
    try:
        value = float(text)
        if not value > 0 or value == float("inf"):
            raise ValueError
    except ValueError:
        raise ValueError(f"{name} must be a positive number of seconds, not {text!r}") from None
    return value


class TimedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the header and body deadlines above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self.header_timeout = timeout_from_env("GINRUMMY_HEADER_TIMEOUT", HEADER_TIMEOUT)
        self.body_timeout = timeout_from_env("GINRUMMY_BODY_TIMEOUT", BODY_TIMEOUT)

    def _arm(self, seconds: float, what: str) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._expired, what)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self, what: str) -> None:
        self._deadline = None
        if self.transport is None or self.transport.is_closing():
            return
        log.info("%s: closed a connection that did not send its %s in time",
                 self.client[0] if self.client else "?", what)
        if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
            self.transport.write(_TIMEOUT_ANSWER)
        self.transport.close()

    # uvicorn's callbacks
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_timeout, "headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:
            self._arm(self.header_timeout, "headers")

    def on_headers_complete(self) -> None:
        self._arm(self.body_timeout, "body")
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()
