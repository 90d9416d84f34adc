"""One process's listening connection to PostgreSQL: ``LISTEN`` on a channel, in a daemon thread
that hands each notification's payload to a callback and reconnects after a failure.

:class:`ginrummy.store.db.Store` starts one per process once a change listener is added; the
writers ``NOTIFY`` inside their transactions (PostgreSQL delivers a notification at commit, to
every listening connection of every process, in commit order).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

__all__ = ["PgListener"]

log = logging.getLogger("ginrummy.store")

#: seconds the thread waits for notifications before it looks at its stop flag again
_POLL = 0.5
#: seconds between two checks that an idle connection is still alive
_HEALTH_CHECK = 30.0
#: first and longest wait before reconnecting (doubling in between)
_RETRY_FIRST, _RETRY_MAX = 0.2, 5.0


class PgListener:
    """``LISTEN channel`` on ``conninfo`` (a libpq URL) until :meth:`close`.

    :param deliver: called with each notification's payload, from the listening thread.
    :param resync: called once the connection is back after a failure (notifications sent
        while it was down are lost: the callback should make its users read again).
    """

    def __init__(self, conninfo: str, channel: str, deliver: Callable[[str], None],
                 resync: Callable[[], None]) -> None:
        if not channel.isidentifier():
            raise ValueError(f"not a channel name: {channel!r}")
        self._conninfo = conninfo
        self._channel = channel
        self._deliver = deliver
        self._resync = resync
        self._stop = threading.Event()
        self._ready = threading.Event()
        self.reconnects = 0
        self._thread = threading.Thread(target=self._run, name=f"listen-{channel}", daemon=True)
        self._thread.start()

    def wait_ready(self, timeout: float) -> bool:
        """Wait until the connection listens (at most ``timeout`` seconds); True if it does."""
        return self._ready.wait(timeout)

    def close(self) -> None:
        """Stop listening (the thread ends within about half a second)."""
        self._stop.set()
        self._thread.join(timeout=5.0)

    def _run(self) -> None:
        import psycopg

        delay = _RETRY_FIRST
        failed = False
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {self._channel}")
                    self._ready.set()
                    if failed:
                        self.reconnects += 1
                        log.info("listening for game changes again")
                        self._resync()
                    failed, delay = False, _RETRY_FIRST
                    checked = time.monotonic()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=_POLL):
                            self._deliver(note.payload)
                        if time.monotonic() - checked > _HEALTH_CHECK:
                            conn.execute("SELECT 1")
                            checked = time.monotonic()
            except Exception as e:
                self._ready.clear()
                if self._stop.is_set():
                    break
                if not failed:
                    log.warning("the connection listening for game changes failed (%s): "
                                "reconnecting", type(e).__name__)
                failed = True
                self._stop.wait(delay)
                delay = min(delay * 2, _RETRY_MAX)
