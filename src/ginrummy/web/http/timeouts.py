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

It also bounds what a request's line and headers may take on the wire
(:data:`~ginrummy.web.http.headers.MAX_HEADER_BYTES`, issue 21): httptools keeps a header however
long it is until its end arrives (a 10 MB ``Authorization`` header was read whole); past the
bound the client gets ``431 Request Header Fields Too Large`` (JSON, as the API's errors) and
the connection is closed, so a connection never holds more than the bound and one read.

The deadlines are read from ``$GINRUMMY_HEADER_TIMEOUT`` and ``$GINRUMMY_BODY_TIMEOUT`` (seconds;
:func:`ginrummy.web.http.app.serve` sets them from its options), so that uvicorn's worker processes,
which import this class by name, see the same ones.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .headers import MAX_HEADER_BYTES, security_headers

__all__ = ["TimedHttpToolsProtocol", "HEADER_TIMEOUT", "BODY_TIMEOUT", "timeout_from_env",
           "too_large_answer"]

log = logging.getLogger("ginrummy.web")

#: seconds a client has to send a request's headers, then its body (16 KB at most here)
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0

_TIMEOUT_ANSWER = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                   b"content-length: 16\r\nconnection: close\r\n\r\nrequest timeout\n")


def too_large_answer(limit: int) -> bytes:
    """The whole 431 answer to headers over ``limit`` bytes: the API's error shape
    (``{"detail": {"code", "message", "reason"}}``, in English: the request was not read) and
    the security headers of every answer."""
    body = json.dumps({"detail": {
        "code": "headers_too_large",
        "message": f"The request's headers are too large (over {limit} bytes).",
        "reason": {"code": "headers_too_large", "params": {"limit": limit}}}}).encode()
    head = [b"HTTP/1.1 431 Request Header Fields Too Large",
            b"content-type: application/json", b"content-length: %d" % len(body),
            b"cache-control: no-store", b"connection: close",
            *(f"{k}: {v}".encode("latin-1") for k, v in security_headers(False))]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


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
    """uvicorn's httptools protocol with the header and body deadlines above, and the bound
    on a request's line and headers (``max_header_bytes``)."""

    #: the most bytes a request's line and headers may take
    max_header_bytes = MAX_HEADER_BYTES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._in_head = True  # reading a request's line and headers
        self._head_bytes = 0  # bytes received while reading them
        self._refused = False  # answered 431: the connection is closing
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

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._in_head:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._refused or (self._in_head and self._head_bytes > self.max_header_bytes):
            self._refuse()

    def _head_size(self) -> int:
        """The request's line and headers in bytes, as on the wire (as
        :class:`ginrummy.web.http.app.HeaderLimit` counts them)."""
        return len(self.url) + 16 + sum(len(k) + len(v) + 4 for k, v in self.headers)

    def _refuse(self) -> None:
        """Answer 431 (unless an answer is under way) and close the connection."""
        self._refused = True
        if self.transport is None or self.transport.is_closing():
            return
        log.info("%s: refused a request whose headers were over %d bytes",
                 self.client[0] if self.client else "?", self.max_header_bytes)
        self._disarm()
        if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
            self.transport.write(too_large_answer(self.max_header_bytes))
        self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:
            self._arm(self.header_timeout, "headers")

    def on_headers_complete(self) -> None:
        self._in_head = False
        if self._head_size() > self.max_header_bytes:
            self._refused = True  # answered once the parser has returned
            return
        self._arm(self.body_timeout, "body")
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        if self._refused:
            return
        self._in_head, self._head_bytes = True, 0  # the next request's
        super().on_message_complete()
