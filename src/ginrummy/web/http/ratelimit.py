"""Rate limits per client: in memory for one process (SQLite), or counted in PostgreSQL and
shared by every process on the database (:class:`SharedRateLimiter`).

Why SQLite keeps the in-memory limiter: SQLite serves one process, so a count in memory is
already the whole count; kept in the file it would make every API request a write, queued
behind the game's commits on SQLite's single writer and waiting for a disk flush each.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ...store import RateCounter

__all__ = ["Limiter", "RateLimiter", "RateLimits", "SharedRateLimiter", "make_limiter",
           "KEY_MAX", "bounded_key"]

log = logging.getLogger("ginrummy.web")


class Limiter(Protocol):
    """What the server asks of a limiter. ``blocking``: :meth:`hit` may wait for the network
    (call it from a worker thread, not the event loop)."""

    blocking: bool

    def hit(self, key: str) -> float:
        """Count one hit for ``key``: 0 when allowed, else the seconds to wait."""
        ...


@dataclass(frozen=True)
class RateLimits:
    """Limits per client: ``creates`` new games and ``requests`` API calls per ``window``
    seconds. ``None`` switches a limit off."""

    creates: int | None = 30
    requests: int | None = 600
    window: float = 60.0

    @classmethod
    def from_env(cls, text: str | None) -> RateLimits:
        """The limits named by ``$GINRUMMY_RATE_LIMITS``: unset or empty = the defaults;
        ``off`` = no limits (a load test on loopback); else ``creates=N,requests=N,window=S``
        (any subset; ``off`` for one limit switches just that one off).

        >>> RateLimits.from_env("off")
        RateLimits(creates=None, requests=None, window=60.0)
        >>> RateLimits.from_env("requests=5000, window=10")
        RateLimits(creates=30, requests=5000, window=10.0)

        :raises ValueError: an unreadable setting.
        """
        t = (text or "").strip().lower()
        if not t:
            return cls()
        if t in ("off", "none", "0", "false", "no"):
            return cls(creates=None, requests=None)
        d = cls()
        creates, requests, window = d.creates, d.requests, d.window
        for part in t.split(","):
            key, eq, value = (x.strip() for x in part.partition("="))
            try:
                if not eq:
                    raise ValueError
                if key == "window":
                    window = float(value)
                    if not window > 0:
                        raise ValueError
                elif key in ("creates", "requests"):
                    n = None if value in ("off", "none") else int(value)
                    if n is not None and n < 1:
                        raise ValueError
                    if key == "creates":
                        creates = n
                    else:
                        requests = n
                else:
                    raise ValueError
            except ValueError:
                raise ValueError(f"GINRUMMY_RATE_LIMITS: cannot read {part.strip()!r}; "
                                 "write off, or creates=N,requests=N,window=SECONDS") from None
        return cls(creates=creates, requests=requests, window=window)


#: the longest key a limiter keeps as it is (characters); a longer one is kept as its digest
KEY_MAX = 80


def bounded_key(key: str) -> str:
    """``key`` as a limiter keeps it: itself when at most :data:`KEY_MAX` plain ASCII
    characters, else its SHA-256 (64 hex characters), so that what a limiter holds per key does
    not grow with what a client sends.

    >>> bounded_key("203.0.113.7")
    '203.0.113.7'
    >>> len(bounded_key("x" * 1_000_000))
    64
    """
    if len(key) <= KEY_MAX and key.isascii() and key.isprintable():
        return key
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class RateLimiter:
    """At most ``limit`` hits per ``window`` seconds for each key, counted in this process.

    Its memory is bounded: at most ``max_keys`` keys of at most :data:`KEY_MAX` characters
    (:func:`bounded_key`), each with at most ``limit`` moments."""

    blocking = False

    def __init__(self, limit: int, window: float = 60.0, max_keys: int = 100_000) -> None:
        self.limit = limit
        self.window = window
        self.max_keys = max_keys
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str, now: float | None = None) -> float:
        """Count one hit for ``key``. Returns 0 when allowed, else the seconds to wait."""
        t = time.monotonic() if now is None else now
        key = bounded_key(key)
        with self._lock:
            q = self._hits.get(key)
            if q is None:
                if len(self._hits) >= self.max_keys:
                    self._prune(t)
                q = self._hits[key] = deque()
            while q and q[0] <= t - self.window:
                q.popleft()
            if len(q) >= self.limit:
                return max(0.001, q[0] + self.window - t)
            q.append(t)
            return 0.0

    def __len__(self) -> int:
        """The keys held now."""
        return len(self._hits)

    def _prune(self, t: float) -> None:
        for k in [k for k, q in self._hits.items() if not q or q[-1] <= t - self.window]:
            del self._hits[k]
        if len(self._hits) >= self.max_keys:  # still full: forget the oldest half
            for k in list(self._hits)[: self.max_keys // 2]:
                del self._hits[k]


class SharedRateLimiter:
    """At most ``limit`` hits per ``window`` seconds for each key, counted in the database
    (:class:`ginrummy.store.ratelimits.RateCounter`): N processes share one limit. ``name``
    keeps this limit's keys apart from other limits'. If the database fails, the hit is
    counted in memory instead (a limit per process, logged) rather than failing the request.
    """

    blocking = True

    def __init__(self, counter: RateCounter, name: str, limit: int, window: float = 60.0
                 ) -> None:
        self.counter = counter
        self.name = name
        self.limit = limit
        self.window = window
        self._fallback = RateLimiter(limit, window)

    def hit(self, key: str) -> float:
        """Count one hit for ``key``. Returns 0 when allowed, else the seconds to wait."""
        try:
            return self.counter.hit(f"{self.name}:{key}", self.limit, self.window)
        except Exception as e:
            log.warning("shared rate limit %s counted in memory: the database failed (%s)",
                        self.name, type(e).__name__)
            return self._fallback.hit(key)


def make_limiter(name: str, limit: int | None, window: float,
                 counter: RateCounter | None) -> Limiter | None:
    """The limiter of one limit: ``None`` when ``limit`` is off; shared through ``counter``
    when there is one (PostgreSQL), else in memory."""
    if not limit:
        return None
    if counter is not None:
        return SharedRateLimiter(counter, name, limit, window)
    return RateLimiter(limit, window)
