"""Simple in-memory sliding-window rate limits (per process)."""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass

__all__ = ["RateLimiter", "RateLimits"]


@dataclass(frozen=True)
class RateLimits:
    """Limits per client: ``creates`` new games and ``requests`` API calls per ``window``
    seconds. ``None`` switches a limit off."""

    creates: int | None = 30
    requests: int | None = 600
    window: float = 60.0


class RateLimiter:
    """At most ``limit`` hits per ``window`` seconds for each key."""

    def __init__(self, limit: int, window: float = 60.0, max_keys: int = 100_000) -> None:
        self.limit = limit
        self.window = window
        self.max_keys = max_keys
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str, now: float | None = None) -> float:
        """Count one hit for ``key``. Returns 0 when allowed, else the seconds to wait."""
        t = time.monotonic() if now is None else now
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

    def _prune(self, t: float) -> None:
        for k in [k for k, q in self._hits.items() if not q or q[-1] <= t - self.window]:
            del self._hits[k]
        if len(self._hits) >= self.max_keys:  # still full: forget the oldest half
            for k in list(self._hits)[: self.max_keys // 2]:
                del self._hits[k]
