"""The live channel: who is told when a game changes.

Each committed change of a game (a save, a new game, an announcement) is told to this process's
change listeners (:class:`ChangeFeed`). On SQLite (one process) the committing thread calls them.
On PostgreSQL the writers ``NOTIFY`` :data:`LIVE_CHANNEL` inside their transactions (PostgreSQL
delivers a notification at commit, to every listening connection of every process, in commit
order), and each process ``LISTEN``s on one connection of its own, in a daemon thread that hands
each notification to the listeners and reconnects after a failure (:class:`PgListener`).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import make_url

from .rows import storable_id

__all__ = ["ChangeFeed", "PgListener", "LIVE_CHANNEL", "NOTIFY", "payload"]

log = logging.getLogger("ginrummy.store")

#: the PostgreSQL channel of committed game changes; payload ``"<game_id>:<seq>"``.
LIVE_CHANNEL = "ginrummy_live"
#: the notification of a change, inside the writing transaction: parameters ``c`` (the
#: channel) and ``p`` (:func:`payload`)
NOTIFY = text("SELECT pg_notify(:c, :p)")
#: seconds the thread waits for notifications before it looks at its stop flag again
_POLL = 0.5
#: seconds between two checks that an idle connection is still alive
_HEALTH_CHECK = 30.0
#: first and longest wait before reconnecting (doubling in between)
_RETRY_FIRST, _RETRY_MAX = 0.2, 5.0


def payload(game_id: str, seq: int) -> str:
    """The notification's text of a change of ``game_id`` to ``seq``.

    >>> payload("abc", 7)
    'abc:7'
    """
    return f"{game_id}:{seq}"


class ChangeFeed:
    """The change listeners of one process on the database of ``url``. ``postgres``: the
    database is PostgreSQL (notifications reach every process; else calls stay in this
    process); ``single``: the engine of one-statement writes (autocommit on PostgreSQL), for
    :meth:`announce`."""

    def __init__(self, url: str, single: Engine, postgres: bool) -> None:
        self.url = url
        self.single = single
        self.postgres = postgres
        self._listeners: list[Callable[[str, int], None]] = []
        self._resyncs: list[Callable[[], None]] = []
        self._listener: Any = None  # the LISTEN thread (PostgreSQL), once a listener is added
        self._listener_lock = threading.Lock()

    def add_listener(self, fn: Callable[[str, int], None],
                     on_resync: Callable[[], None] | None = None) -> None:
        """Call ``fn(game_id, seq)`` after every committed change of a game (a save, a new
        game, or :meth:`announce`). A notification means "this table changed: read it again";
        ``seq`` is the game's sequence number after the change. A listener's exception is
        logged and does not fail the write.

        SQLite (one process): ``fn`` is called by the committing thread. PostgreSQL: by this
        process's listening thread, for the changes committed by ANY process on the database
        (this one included, once); the first call waits (up to 10 s) until that thread listens.
        A notification can be missed only while the listening connection is down: once it is
        back, ``on_resync()`` is called, meaning "changes may have been missed: read again
        everything you show".
        """
        self._listeners.append(fn)
        if on_resync is not None:
            self._resyncs.append(on_resync)
        if self.postgres:
            with self._listener_lock:
                if self._listener is None:
                    self._listener = PgListener(self._listen_conninfo(), LIVE_CHANNEL,
                                                self._deliver_payload, self._resync)
            self._listener.wait_ready(10.0)

    def _listen_conninfo(self) -> str:
        """The libpq URL of the listening connection: ``$GINRUMMY_DATABASE_LISTEN_URL`` if
        set (a direct connection when the store's own goes through a pooler in transaction
        mode, where LISTEN does not work), else the store's URL."""
        url = os.environ.get("GINRUMMY_DATABASE_LISTEN_URL") or self.url
        return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)

    def call_listeners(self, game_id: str, seq: int) -> None:
        """Tell this process's listeners that ``game_id`` changed to ``seq`` (SQLite: after
        the commit, from the committing thread)."""
        for fn in list(self._listeners):
            try:
                fn(game_id, seq)
            except Exception:  # pragma: no cover - a listener's bug must not fail a write
                log.exception("change listener failed")

    def _deliver_payload(self, text_: str) -> None:
        game_id, _, seq = text_.rpartition(":")
        try:
            n = int(seq)
        except ValueError:
            log.warning("unreadable change notification ignored")
            return
        if storable_id(game_id):
            self.call_listeners(game_id, n)

    def _resync(self) -> None:
        for fn in list(self._resyncs):
            try:
                fn()
            except Exception:  # pragma: no cover
                log.exception("change listener's resync failed")

    @staticmethod
    def notify(conn: Connection, game_id: str, seq: int) -> None:
        """``NOTIFY`` the change inside the writing transaction ``conn`` (PostgreSQL): it is
        delivered to every listening connection when (and only if) the transaction commits."""
        conn.execute(NOTIFY, {"c": LIVE_CHANNEL, "p": payload(game_id, seq)})

    def announce(self, game_id: str, seq: int) -> None:
        """Tell the listeners (of every process, on PostgreSQL) that ``game_id`` changed in a
        way that did not go through a save (a seat's presence, a seat taken)."""
        if self.postgres:
            with self.single.connect() as conn:  # autocommit: delivered when it returns
                self.notify(conn, game_id, seq)
        else:
            self.call_listeners(game_id, seq)

    def close(self) -> None:
        """Stop listening (PostgreSQL: the listening thread ends)."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None


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
