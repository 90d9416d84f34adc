"""Opening a database: the SQLAlchemy engine of a SQLite file or of PostgreSQL, set up for the
web game's store.

SQLite (the default) runs in WAL mode with ``synchronous=FULL`` (``$GINRUMMY_SQLITE_SYNC``
may choose ``NORMAL``: see :data:`SYNC_MODES`), with foreign keys on and a 30 s busy timeout,
and keeps a connection for every request thread. PostgreSQL (``postgresql+psycopg://...``, the
``postgres`` extra) keeps a pool sized to the process's request threads, each connection checked
only when taken after :data:`IDLE_PING` seconds unused. Bound values never appear in a database
error's message (``hide_parameters``): decks, salts and the computer's secret reach no log.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import StaticPool

__all__ = ["make_engine", "default_database_url", "sqlite_sync_mode", "SYNC_MODES",
           "DEFAULT_POOL_SIZE", "IDLE_PING", "is_outage"]

#: connections kept open to PostgreSQL by one process when no size is given (web/app.py passes
#: its request threads): each request thread holds at most one at a time.
DEFAULT_POOL_SIZE = 16

#: ``PRAGMA synchronous`` of SQLite files, from ``$GINRUMMY_SQLITE_SYNC``: ``FULL`` (the default:
#: a commit waits for the disk, so an acknowledged action survives even a power cut) or
#: ``NORMAL`` (WAL mode: an acknowledged action survives the server being killed, but the last
#: ones may be lost in an operating-system crash or power cut; commits do not wait for the disk).
SYNC_MODES = ("FULL", "NORMAL")

#: seconds a pooled PostgreSQL connection may stay unused before it is checked (a round trip)
#: when it is taken again: one taken back sooner was working a moment ago.
IDLE_PING = 5.0


def default_database_url() -> str:
    """SQLite file ``ginrummy.sqlite3`` in the user's data directory (created if needed)."""
    import platformdirs

    d = Path(platformdirs.user_data_dir("ginrummy"))
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / 'ginrummy.sqlite3'}"


def sqlite_sync_mode() -> str:
    """The ``synchronous`` mode named by ``$GINRUMMY_SQLITE_SYNC`` (default ``FULL``).

    :raises ValueError: another value.
    """
    mode = (os.environ.get("GINRUMMY_SQLITE_SYNC") or "FULL").strip().upper()
    if mode not in SYNC_MODES:
        raise ValueError(f"GINRUMMY_SQLITE_SYNC must be one of {', '.join(SYNC_MODES)}, "
                         f"not {mode!r}")
    return mode


def make_engine(url: str, pool_size: int) -> Engine:
    """The engine of ``url`` (any SQLAlchemy URL), set up as the module docstring says.
    ``pool_size``: PostgreSQL connections kept open (plus up to 4 more at busy moments);
    SQLite keeps its own pool (32 + 32 for a file, one connection for ``:memory:``).

    :raises ValueError: ``$GINRUMMY_SQLITE_SYNC`` names no mode (a SQLite URL).
    """
    u = make_url(url)
    if u.get_backend_name() != "sqlite":
        # one connection per request thread, a few more for the moments when a thread has
        # returned its answer but not yet its connection (and for the rate limiter)
        pg = create_engine(url, pool_size=pool_size, max_overflow=4, pool_timeout=30,
                           pool_recycle=1800, hide_parameters=True)
        _ping_when_idle(pg)
        return pg
    memory = u.database in (None, "", ":memory:")
    sync = sqlite_sync_mode()
    # hide_parameters: a database error's message (which reaches the server log) must not carry
    # the bound values: decks, salts, the computer's secret
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30},
                              "hide_parameters": True}
    if memory:
        kwargs["poolclass"] = StaticPool
    else:
        if u.database:
            Path(u.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        # keep a connection for every request thread: beyond the pool, SQLAlchemy opens and
        # closes a new connection per use (with its PRAGMAs), and waits once 5 + 10 are out
        kwargs["pool_size"] = 32
        kwargs["max_overflow"] = 32
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
        cur = dbapi_conn.cursor()
        if not memory:
            _set_wal(cur)
        cur.execute(f"PRAGMA synchronous={sync}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    return engine


def _set_wal(cur: Any, wait: float = 30.0) -> None:
    """``PRAGMA journal_mode=WAL`` on a new SQLite connection. Switching an empty file to WAL
    needs its exclusive lock, and SQLite answers "database is locked" at once (without its
    busy handler) while another connection does the same, as processes starting together on a
    new file do: try again for up to ``wait`` seconds."""
    deadline = time.monotonic() + wait
    pause = 0.005
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)


def _ping_when_idle(engine: Engine) -> None:
    """Check a pooled connection that was idle for :data:`IDLE_PING` seconds or more when it is
    taken (a dead one is replaced: the database restarted, or dropped it), instead of every
    connection at every checkout (SQLAlchemy's ``pool_pre_ping``: one more round trip per
    use, a sixth of the database's statements under load)."""

    @event.listens_for(engine, "checkin")
    def _idle_from(_dbapi_conn: Any, record: Any) -> None:
        record.info["ginrummy_idle"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("ginrummy_idle")
        if since is None or time.monotonic() - since < IDLE_PING:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)
        except Exception as e:  # the pool tries another connection (up to 3 times)
            raise DisconnectionError("a pooled connection is gone") from e


def is_outage(e: BaseException) -> bool:
    """Whether ``e`` says that the database cannot be reached or used just now (a refused or
    lost connection, a server shutting down, no pooled connection in time, SQLite's file
    locked), so that the same request may succeed a moment later: the web answers 503
    ``unavailable`` with ``Retry-After`` (issue 21 item 4). An exception group is an outage when
    one of its exceptions is.

    >>> from sqlalchemy.exc import OperationalError
    >>> is_outage(OperationalError("SELECT 1", {}, ConnectionRefusedError())), is_outage(KeyError())
    (True, False)
    """
    from sqlalchemy import exc

    if isinstance(e, BaseExceptionGroup):
        return any(is_outage(x) for x in e.exceptions)
    if isinstance(e, exc.OperationalError | exc.InterfaceError | exc.TimeoutError
                  | exc.DisconnectionError):
        return True
    if isinstance(e, exc.DBAPIError) and e.connection_invalidated:
        return True
    # the drivers' own, raised outside SQLAlchemy (the listener's connection)
    return type(e).__name__ in ("OperationalError", "InterfaceError") and \
        type(e).__module__.split(".")[0] in ("psycopg", "sqlite3")
