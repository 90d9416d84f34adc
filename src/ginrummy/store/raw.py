"""The raw fast path: the hot statements of the web game (a request's read of who asks, a game's
save, a presence refresh) compiled once per dialect and run on the database driver's own cursor
(:class:`Raw`), on a pooled connection taken without SQLAlchemy's per-statement machinery
(:func:`driver_cursor`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine

__all__ = ["Raw", "Record", "raw_cursor", "driver_cursor"]


class Record:
    """A result row read by :class:`Raw`: its columns by name (``r.id``)."""

    __slots__ = ("_d",)

    def __init__(self, d: dict[str, Any]) -> None:
        self._d = d

    def __getattr__(self, name: str) -> Any:
        try:
            return self._d[name]
        except KeyError:
            raise AttributeError(name) from None


class Raw:
    """A statement compiled once per dialect and run on the DBAPI cursor itself: the hot
    statements of the web game (a request's read of who asks, a game's save, a presence
    refresh). SQLAlchemy's own ``execute`` costs about 0.3 ms of CPU per statement in cache
    keys, execution contexts and result objects; this costs the driver's own. Parameters by
    name, as with ``execute``; values are the driver's (no SQLAlchemy type processing: the
    statements here bind and read only strings, numbers, booleans and ``None``)."""

    __slots__ = ("stmt", "_compiled", "_columns")

    def __init__(self, stmt: Any) -> None:
        self.stmt = stmt
        self._compiled: dict[str, tuple[str, tuple[str, ...] | None, dict[str, Any]]] = {}
        self._columns: dict[str, list[str]] = {}

    def _sql(self, dialect: Any) -> tuple[str, tuple[str, ...] | None, dict[str, Any]]:
        got = self._compiled.get(dialect.name)
        if got is None:
            c = self.stmt.compile(dialect=dialect)
            names = tuple(c.positiontup) if c.positional and c.positiontup else None
            got = (str(c), names, dict(c.params))  # params: the literal values bound
            self._compiled[dialect.name] = got
        return got

    def execute(self, cur: Any, dialect: Any, params: dict[str, Any]) -> Any:
        """Run it on DBAPI cursor ``cur``; returns the cursor."""
        sql, names, literal = self._sql(dialect)
        given = {**literal, **params} if literal else params
        cur.execute(sql, tuple(given[n] for n in names) if names is not None else given)
        return cur

    def rows(self, cur: Any, dialect: Any, params: dict[str, Any]) -> list[Record]:
        """Run it and read every row."""
        return [Record(d) for d in self.dicts(cur, dialect, params)]

    def dicts(self, cur: Any, dialect: Any, params: dict[str, Any]) -> list[dict[str, Any]]:
        """Run it and read every row, each a dict of its columns by name (no per-column
        attribute lookup: for the rows read many columns at a time)."""
        self.execute(cur, dialect, params)
        got = cur.fetchall()
        names = self._columns.get(dialect.name)
        if names is None:
            names = self._columns[dialect.name] = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in got]


def raw_cursor(conn: Connection) -> Any:
    """A DBAPI cursor of ``conn``'s connection, in ``conn``'s transaction."""
    return conn.connection.driver_connection.cursor()  # type: ignore[union-attr]


@contextmanager
def driver_cursor(engine: Engine) -> Iterator[Any]:
    """A DBAPI cursor of a pooled connection of ``engine`` for reads and one-statement writes,
    each statement its own transaction (PostgreSQL: autocommit, so no BEGIN or ROLLBACK round
    trip; SQLite: a write is committed when the block ends). Use it with :class:`Raw`. A
    connection that fails (the driver's ``OperationalError``) is not given back to the pool."""
    postgres = engine.dialect.name == "postgresql"
    fairy = engine.raw_connection()
    try:
        dbc = fairy.driver_connection
        if postgres:
            dbc.autocommit = True  # type: ignore[union-attr]
        cur = dbc.cursor()  # type: ignore[union-attr]
        try:
            yield cur
            if not postgres and dbc.in_transaction:  # type: ignore[union-attr]
                dbc.commit()  # type: ignore[union-attr]
        finally:
            cur.close()
            if postgres and not dbc.closed:  # type: ignore[union-attr]
                dbc.autocommit = False  # type: ignore[union-attr]
    except engine.dialect.loaded_dbapi.OperationalError:
        fairy.invalidate()  # a broken connection is not given to the next request
        raise
    finally:
        fairy.close()
