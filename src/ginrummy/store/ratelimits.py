"""Rate-limit counters in PostgreSQL, shared by every server process on the database (issue 10:
nothing that matters lives in one process).

Table ``rate_hits`` (:data:`ginrummy.store.schema.rate_hits`): ``(key, window_start, count)``,
one row per key and fixed window. A hit is allowed when the sliding-window estimate ``previous
window's count * (share of the previous window still inside the last `window` seconds) + this
window's count + 1`` stays within the limit (the estimate avoids the fixed window's double burst
at a boundary). The check and the count are one statement: an ``INSERT ... ON CONFLICT DO
UPDATE ... WHERE`` that locks the key's row, so processes counting the same key at once are
counted one after the other. Time is the database's clock, the same for every machine. Refused
hits are not counted.

SQLite (one process) keeps the in-memory limiter of :mod:`ginrummy.web.http.ratelimit`.
"""

from __future__ import annotations

import hashlib
import threading

from sqlalchemy import Engine, text

from .schema import create_schema, rate_hits, rate_limits_metadata

__all__ = ["RateCounter"]

_HIT = text("""
WITH t AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS now),
w AS (SELECT floor(now / :win) * :win AS cur, now - floor(now / :win) * :win AS pos FROM t),
prev AS (SELECT coalesce((SELECT r.count FROM rate_hits r, w
                          WHERE r.key = :key AND r.window_start = w.cur - :win), 0) AS n),
up AS (
  INSERT INTO rate_hits AS r (key, window_start, count)
  SELECT :key, w.cur, 1 FROM w, prev WHERE prev.n * (1 - w.pos / :win) + 1 <= :limit
  ON CONFLICT (key, window_start) DO UPDATE SET count = r.count + 1
    WHERE (SELECT n FROM prev) * (1 - (SELECT pos FROM w) / :win) + r.count + 1 <= :limit
  RETURNING r.count)
SELECT (SELECT count FROM up) AS counted, (SELECT n FROM prev) AS prev_n,
       (SELECT pos FROM w) AS pos,
       coalesce((SELECT r.count FROM rate_hits r, w
                 WHERE r.key = :key AND r.window_start = w.cur), 0) AS cur_n
""")
_PRUNE = text("DELETE FROM rate_hits "
              "WHERE window_start < extract(epoch FROM clock_timestamp()) - :keep")


def _stored_key(key: str) -> str:
    """``key`` as stored: itself when short and plain, else its SHA-256 (hex)."""
    if len(key) <= 80 and key.isascii() and key.isprintable():
        return key
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _wait(limit: int, window: float, prev_n: int, pos: float, cur_n: int) -> float:
    """Seconds until the estimate leaves room for one more hit (see the module docstring)."""
    f = pos / window
    if cur_n + 1 <= limit:
        need = 1 - (limit - 1 - cur_n) / prev_n if prev_n else 0.0
        return max(0.001, (need - f) * window)
    need = 1 - (limit - 1) / cur_n if cur_n else 0.0
    return max(0.001, (1 - f) * window + need * window)


class RateCounter:
    """The ``rate_hits`` table of a PostgreSQL database (created if missing)."""

    #: prune windows that ended more than this many window lengths ago, every this many hits
    PRUNE_EVERY = 1000

    def __init__(self, engine: Engine) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError("shared rate-limit counters need PostgreSQL")
        self.engine = engine
        create_schema(engine, rate_limits_metadata)
        self._hits = 0
        self._lock = threading.Lock()
        self._longest = 0.0

    def hit(self, key: str, limit: int, window: float) -> float:
        """Count one hit of ``key`` if at most ``limit`` hits (counting it) fall in the last
        ``window`` seconds: returns 0. Else counts nothing and returns the seconds to wait.

        :raises sqlalchemy.exc.SQLAlchemyError: the database failed.
        """
        with self._lock:
            self._hits += 1
            prune = self._hits % self.PRUNE_EVERY == 0
            self._longest = max(self._longest, window)
        with self.engine.begin() as conn:
            r = conn.execute(_HIT, {"key": _stored_key(key), "win": float(window),
                                    "limit": limit}).one()
            if prune:
                conn.execute(_PRUNE, {"keep": 3 * self._longest})
        if r.counted is not None:
            return 0.0
        return _wait(limit, window, int(r.prev_n), float(r.pos), int(r.cur_n))

    def clear(self) -> None:
        """Forget every count (tests)."""
        with self.engine.begin() as conn:
            conn.execute(rate_hits.delete())
