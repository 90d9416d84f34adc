"""Web games as event logs in SQL (DESIGN.md principle 5).

Per game: the rules, the computer's level, the first dealer, the secret that seeds the computer's
random source (never sent anywhere), a SHA-256 of the owner's token (never the token), the
creating browser's player id, the person's hand order, the sequence number and the last accepted
``(action, seq)`` (duplicate detection). Per deal: the deck, its salt and commitment, and the
action texts in order; plus the deal's result once it is over (for statistics). A game is rebuilt
by replaying its deals (:class:`ginrummy.records.GameRecord`).

SQLite (the default) runs in WAL mode with ``synchronous=FULL`` (``$GINRUMMY_SQLITE_SYNC``
may choose ``NORMAL``: see :data:`SYNC_MODES`); every save is committed before the caller
answers (saves made at the same moment share one commit: see :class:`Store`). SQLite serves one
process.

PostgreSQL (``postgresql+psycopg://...``, the ``postgres`` extra) serves any number of processes
on one database (docs/deploy.md): the schema is created once under an advisory lock
(:func:`create_schema`) and its version checked; a game and its deals are read in one statement
(:meth:`Store.get_game_with_deals`); a save applies only at the sequence number it was made on
(the row's ``seq`` in the ``UPDATE``'s condition: of two processes saving the same game at once,
the second waits for the first's row lock, then finds the new ``seq`` and applies nothing); and
each committed change is announced to every process with ``NOTIFY`` (:data:`LIVE_CHANNEL`, see
:meth:`Store.add_listener`). A move's save is one statement there (one round trip: see
:meth:`Store._save_in_one`), reads run in autocommit (no BEGIN/ROLLBACK round trips), and the hot
statements run on the driver's cursor (:class:`Raw`).
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import StaticPool

__all__ = ["Store", "GameRow", "DealRow", "FINISHED", "default_database_url", "SCHEMA_VERSION",
           "SYNC_MODES", "seats_text", "seats_of_text",
           "sqlite_sync_mode", "create_schema", "storable_id", "SchemaError", "LIVE_CHANNEL",
           "DEFAULT_POOL_SIZE"]

log = logging.getLogger("ginrummy.store")

#: the version of the tables' layout, kept in ``schema_info``; a server migrates an older
#: database (:func:`create_schema`) and refuses a newer one. 2: ``games.turns`` (the table of
#: each action of a partnership with people at both tables) and the tables of
#: :mod:`ginrummy.store.tables`. 3: score keeper sheets of the first layout (their hands inside
#: the heading) moved to ``sheet_hands`` (:func:`ginrummy.store.sheets.move_old_hands`). 4:
#: every seat's side of the results (``games.winner_seats``; ``deals.players``,
#: ``winner_seat``, ``knocker_seat``) and the browser at each seat (``seats.player_id``), for
#: the statistics of every person at a table. 5: ``deals.turn_at`` (when the deal's turn began:
#: a turn clock per table of a partnership).
SCHEMA_VERSION = 5
#: the ``games.status`` values of a finished game: over by the score, or resigned (given up by
#: its person: a lost game, docs/api.md "Resigning").
FINISHED = ("over", "resigned")
#: the PostgreSQL channel of committed game changes; payload ``"<game_id>:<seq>"``.
LIVE_CHANNEL = "ginrummy_live"
#: connections kept open to PostgreSQL by one process when no size is given (web/app.py passes
#: its request threads): each request thread holds at most one at a time.
DEFAULT_POOL_SIZE = 16
#: pg_advisory_xact_lock key held while the schema is created or checked ("ginrumm" in ASCII)
_SCHEMA_LOCK = 0x67696E72756D6D
_STORABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def storable_id(text_: object) -> bool:
    """True when ``text_`` can be an id of a stored game or sheet (1-64 characters of
    ``A-Z a-z 0-9 _ -``): any other text names nothing, and is never sent to the database (a
    NUL, for one, is an error in PostgreSQL).

    >>> storable_id("abcDEF_-12"), storable_id("a\\x00"), storable_id("x" * 65)
    (True, False, False)
    """
    return isinstance(text_, str) and _STORABLE_ID.fullmatch(text_) is not None


class SchemaError(RuntimeError):
    """The database holds tables of another schema version than this program's."""

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(64), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("player_id", String(64), index=True),
    Column("level", String(64), nullable=False),
    Column("preset", String(64), nullable=False),
    Column("rules", Text, nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("secret", String(128), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("last_action", Text),
    Column("last_action_seq", Integer),
    Column("hand_order", Text),
    Column("status", String(16), nullable=False),  # waiting | playing | over | resigned
    Column("winner", Integer),
    Column("margin", Integer),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("finished_at", Float),
    Column("version", Integer, nullable=False, default=SCHEMA_VERSION),
    Column("turns", Text),  # see ginrummy.web.engines.MatchEngine
    Column("winner_seats", String(16)),  # "0" / "1,3": the winning seats once over
)

deals = Table(
    "deals", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("dealer", Integer, nullable=False),
    Column("deck", Text, nullable=False),  # 52 card texts, space-separated, deal order
    Column("salt", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("actions", Text, nullable=False, default=""),  # action texts, one a line
    Column("finished", Boolean, nullable=False, default=False),
    Column("result_kind", String(16)),
    Column("result_winner", Integer),
    Column("result_knocker", Integer),
    Column("result_points", Integer),
    Column("players", String(16)),  # "0,2": the seats at engine seats 0 and 1
    Column("winner_seat", Integer),  # once over: the winning seat (None: dead or tie)
    Column("knocker_seat", Integer),
    Column("turn_at", Float),  # when the deal's current turn began (its last action or deal)
)


schema_info = Table(
    "schema_info", metadata,
    Column("name", String(64), primary_key=True),
    Column("value", Integer, nullable=False),
)


def create_schema(engine: Engine, *metadatas: MetaData) -> None:
    """Create the missing tables of ``metadatas`` and check the schema version, in one
    transaction that first takes a lock (PostgreSQL: an advisory lock; SQLite: the write lock),
    so that processes starting at once on an empty database create the tables once (the others
    wait, then find them) instead of racing to a duplicate-key or "already exists" error.

    :raises SchemaError: the database's schema version is not :data:`SCHEMA_VERSION`.
    """
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SCHEMA_LOCK})
        elif conn.dialect.name == "sqlite":
            # the database's write lock from the start (the driver would begin the transaction
            # only at the first INSERT, after the checks of which tables exist)
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        schema_info.create(conn, checkfirst=True)
        for md in metadatas:
            md.create_all(conn)
        found = conn.execute(select(schema_info.c.value)
                             .where(schema_info.c.name == "version")).scalar()
        if found is not None and found < SCHEMA_VERSION:
            _migrate(conn, found)
            conn.execute(update(schema_info).where(schema_info.c.name == "version")
                         .values(value=SCHEMA_VERSION))
        elif found is None:
            _migrate(conn, 1)  # a database of version 1 made before schema_info existed
            conn.execute(insert(schema_info).values(name="version", value=SCHEMA_VERSION))
        elif found != SCHEMA_VERSION:
            raise SchemaError(f"the database's tables are of schema version {found}, this "
                              f"program's are of version {SCHEMA_VERSION}: use the ginrummy "
                              "version that made them, or another database")


def default_database_url() -> str:
    """SQLite file ``ginrummy.sqlite3`` in the user's data directory (created if needed)."""
    import platformdirs

    d = Path(platformdirs.user_data_dir("ginrummy"))
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / 'ginrummy.sqlite3'}"


@dataclass
class GameRow:
    """One game's row (see the module docstring)."""

    id: str
    token_hash: str
    player_id: str | None
    level: str
    preset: str
    rules: dict[str, Any]
    first_dealer: int
    secret: str
    seq: int
    last_action: str | None = None
    last_action_seq: int | None = None
    hand_order: dict[str, Any] | None = None
    status: str = "playing"
    winner: int | None = None
    margin: int | None = None
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    turns: str | None = None
    #: the seats that won (a partnership: both partners'), once over; ``()``: nobody
    winner_seats: tuple[int, ...] | None = None


@dataclass
class DealRow:
    """One deal: deck (card texts, deal order), salt, commitment, actions (texts), result.

    ``finished``, ``result_winner`` and ``result_knocker`` are seat 0's side (0: seat 0, 1:
    its opponent; ``finished`` only on the deals seat 0 plays); ``players`` (the seats at the
    deal's engine seats 0 and 1), ``winner_seat`` and ``knocker_seat`` are seats, for every
    deal; ``result_kind`` and ``result_points`` are set once the deal is over."""

    number: int
    dealer: int
    deck: list[str]
    salt: str
    commitment: str
    actions: list[str] = field(default_factory=list)
    finished: bool = False
    result_kind: str | None = None
    result_winner: int | None = None
    result_knocker: int | None = None
    result_points: int | None = None
    players: tuple[int, int] | None = None
    winner_seat: int | None = None
    knocker_seat: int | None = None
    #: when the deal's current turn began, seconds since the epoch (its last action, or its
    #: dealing); ``None`` in deals stored before schema 5
    turn_at: float | None = None


def seats_text(seats: tuple[int, ...] | None) -> str | None:
    """``(1, 3)`` -> ``"1,3"`` (``None`` stays ``None``)."""
    return None if seats is None else ",".join(str(s) for s in seats)


def seats_of_text(text_: str | None) -> tuple[int, ...] | None:
    """``"1,3"`` -> ``(1, 3)``; ``""`` -> ``()``; ``None`` stays ``None``."""
    if text_ is None:
        return None
    return tuple(int(s) for s in text_.split(",") if s)


def _game_values(g: GameRow) -> dict[str, Any]:
    return {
        "id": g.id, "token_hash": g.token_hash, "player_id": g.player_id, "level": g.level,
        "preset": g.preset, "rules": json.dumps(g.rules), "first_dealer": g.first_dealer,
        "secret": g.secret, "seq": g.seq, "last_action": g.last_action,
        "last_action_seq": g.last_action_seq,
        "hand_order": None if g.hand_order is None else json.dumps(g.hand_order),
        "status": g.status, "winner": g.winner, "margin": g.margin, "created_at": g.created_at,
        "updated_at": g.updated_at, "finished_at": g.finished_at, "version": SCHEMA_VERSION,
        "turns": g.turns, "winner_seats": seats_text(g.winner_seats),
    }


def _deal_values(game_id: str, d: DealRow) -> dict[str, Any]:
    return {
        "game_id": game_id, "number": d.number, "dealer": d.dealer, "deck": " ".join(d.deck),
        "salt": d.salt, "commitment": d.commitment, "actions": "\n".join(d.actions),
        "finished": d.finished, "result_kind": d.result_kind, "result_winner": d.result_winner,
        "result_knocker": d.result_knocker, "result_points": d.result_points,
        "players": seats_text(d.players), "winner_seat": d.winner_seat,
        "knocker_seat": d.knocker_seat, "turn_at": d.turn_at,
    }


def _game_row(r: Any) -> GameRow:
    return GameRow(
        id=r.id, token_hash=r.token_hash, player_id=r.player_id, level=r.level, preset=r.preset,
        rules=json.loads(r.rules), first_dealer=r.first_dealer, secret=r.secret, seq=r.seq,
        last_action=r.last_action, last_action_seq=r.last_action_seq,
        hand_order=None if r.hand_order is None else json.loads(r.hand_order), status=r.status,
        winner=r.winner, margin=r.margin, created_at=r.created_at, updated_at=r.updated_at,
        finished_at=r.finished_at, turns=r.turns, winner_seats=seats_of_text(r.winner_seats),
    )


def _deal_row(r: Any) -> DealRow:
    return DealRow(
        number=r.number, dealer=r.dealer, deck=r.deck.split(), salt=r.salt,
        commitment=r.commitment, actions=[a for a in r.actions.split("\n") if a],
        finished=bool(r.finished), result_kind=r.result_kind, result_winner=r.result_winner,
        result_knocker=r.result_knocker, result_points=r.result_points,
        players=_pair(seats_of_text(r.players)), winner_seat=r.winner_seat,
        knocker_seat=r.knocker_seat, turn_at=r.turn_at,
    )


def _pair(seats: tuple[int, ...] | None) -> tuple[int, int] | None:
    return (seats[0], seats[1]) if seats is not None and len(seats) == 2 else None


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
        self.execute(cur, dialect, params)
        got = cur.fetchall()
        names = self._columns.get(dialect.name)
        if names is None:
            names = self._columns[dialect.name] = [d[0] for d in cur.description]
        return [Record(dict(zip(names, r, strict=True))) for r in got]


def raw_cursor(conn: Connection) -> Any:
    """A DBAPI cursor of ``conn``'s connection, in ``conn``'s transaction."""
    return conn.connection.driver_connection.cursor()  # type: ignore[union-attr]


# Statements built once, with bound parameters: SQLAlchemy then reuses their compiled form
# instead of building and compiling a new statement for every request (several ms each).
_INSERT_GAME = insert(games)
_INSERT_DEAL = insert(deals)
_SELECT_GAME = select(games).where(games.c.id == bindparam("k_id"))
_SELECT_DEALS = select(deals).where(deals.c.game_id == bindparam("k_id")).order_by(deals.c.number)
_DEAL_FIELDS = [c.name for c in deals.c if c.name not in ("game_id", "number")]
_UPDATE_DEAL = (update(deals)
                .where(deals.c.game_id == bindparam("k_game"),
                       deals.c.number == bindparam("k_number"))
                .values({k: bindparam(f"v_{k}") for k in _DEAL_FIELDS}))
_SET_ORDER = (update(games).where(games.c.id == bindparam("k_id"))
              .values(hand_order=bindparam("v_hand_order")))
_UPDATE_GAME: dict[tuple[str, ...], Any] = {}
_SELECT_GAME_DEALS = (select(games, *[c.label(f"d_{c.name}") for c in deals.c
                                      if c.name != "game_id"])
                      .select_from(games.outerjoin(deals, deals.c.game_id == games.c.id))
                      .where(games.c.id == bindparam("k_id"))
                      .order_by(deals.c.number))
_NOTIFY = text("SELECT pg_notify(:c, :p)")
_RAW_SELECT_GAME = Raw(_SELECT_GAME)
# the game's row and its deals numbered k_from and on (a cached game catching up)
_RAW_SELECT_GAME_DEALS_FROM = Raw(
    select(games, *[c.label(f"d_{c.name}") for c in deals.c if c.name != "game_id"])
    .select_from(games.outerjoin(deals, (deals.c.game_id == games.c.id)
                                 & (deals.c.number >= bindparam("k_from"))))
    .where(games.c.id == bindparam("k_id"))
    .order_by(deals.c.number))
_RAW_SELECT_GAME_DEALS = Raw(_SELECT_GAME_DEALS)
_RAW_UPDATE_DEAL = Raw(_UPDATE_DEAL)
_RAW_INSERT_DEAL = Raw(_INSERT_DEAL)
_RAW_NOTIFY = Raw(_NOTIFY)
_RAW_UPDATE_GAME: dict[tuple[str, ...], Raw] = {}


def _update_game(keys: tuple[str, ...]) -> Any:
    """``UPDATE games SET <keys> WHERE id = :k_id AND seq = :k_old_seq``, built once per key
    set."""
    stmt = _UPDATE_GAME.get(keys)
    if stmt is None:
        stmt = (update(games)
                .where(games.c.id == bindparam("k_id"), games.c.seq == bindparam("k_old_seq"))
                .values({k: bindparam(f"v_{k}") for k in keys}))
        _UPDATE_GAME[keys] = stmt
    return stmt


#: ``PRAGMA synchronous`` of SQLite files, from ``$GINRUMMY_SQLITE_SYNC``: ``FULL`` (the default:
#: a commit waits for the disk, so an acknowledged action survives even a power cut) or
#: ``NORMAL`` (WAL mode: an acknowledged action survives the server being killed, but the last
#: ones may be lost in an operating-system crash or power cut; commits do not wait for the disk).
SYNC_MODES = ("FULL", "NORMAL")


def sqlite_sync_mode() -> str:
    """The ``synchronous`` mode named by ``$GINRUMMY_SQLITE_SYNC`` (default ``FULL``).

    :raises ValueError: another value.
    """
    mode = (os.environ.get("GINRUMMY_SQLITE_SYNC") or "FULL").strip().upper()
    if mode not in SYNC_MODES:
        raise ValueError(f"GINRUMMY_SQLITE_SYNC must be one of {', '.join(SYNC_MODES)}, "
                         f"not {mode!r}")
    return mode


def _make_engine(url: str, pool_size: int) -> Engine:
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


#: seconds a pooled PostgreSQL connection may stay unused before it is checked (a round trip)
#: when it is taken again: one taken back sooner was working a moment ago.
IDLE_PING = 5.0


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


def _migrate(conn: Connection, found: int) -> None:
    """From schema ``found`` to :data:`SCHEMA_VERSION`, in the caller's (locked) transaction,
    once per database (the new tables are created by ``create_all``):

    * 1 -> 2: add ``games.turns`` to a database made before it;
    * 2 -> 3: move the hands of score keeper sheets of the first layout to ``sheet_hands``;
    * 3 -> 4: the columns of every seat's results and of the browser at each seat (empty for
      the games played before: their statistics stay seat 0's, its creator's);
    * 4 -> 5: ``deals.turn_at`` (empty for the deals before: their turn clock counts from the
      game's last change, as it did).
    """
    from sqlalchemy import inspect

    found_tables = inspect(conn)
    if found < 2 and found_tables.has_table("games") and \
            "turns" not in {c["name"] for c in found_tables.get_columns("games")}:
        conn.execute(text("ALTER TABLE games ADD COLUMN turns TEXT"))
    if found < 3 and found_tables.has_table("sheets"):
        from .sheets import move_old_hands  # sheets builds on this module

        move_old_hands(conn)
    if found < 4:
        for table, column, kind in (("games", "winner_seats", "VARCHAR(16)"),
                                    ("deals", "players", "VARCHAR(16)"),
                                    ("deals", "winner_seat", "INTEGER"),
                                    ("deals", "knocker_seat", "INTEGER"),
                                    ("seats", "player_id", "VARCHAR(64)")):
            if found_tables.has_table(table) and \
                    column not in {c["name"] for c in found_tables.get_columns(table)}:
                conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {column} {kind}"))
        if found_tables.has_table("seats"):
            conn.execute(text("CREATE INDEX IF NOT EXISTS ix_seats_player_id "
                              "ON seats (player_id)"))
    if found < 5 and found_tables.has_table("deals") and \
            "turn_at" not in {c["name"] for c in found_tables.get_columns("deals")}:
        conn.execute(text("ALTER TABLE deals ADD COLUMN turn_at FLOAT"))


_SAVE_SQL: dict[tuple[tuple[str, ...], int], str] = {}


def _save_sql(dialect: Any, keys: tuple[str, ...], n_deals: int) -> str:
    """The one statement of :meth:`Store._save_in_one` (PostgreSQL), built once per game
    column set and deal count: parameters ``v_<column>``, ``k_id``, ``k_old_seq``,
    ``d<i>_<column>`` of each deal, and ``c``/``p`` (the notification). Its one row: how many
    game rows it saved (0 or 1), and the notification's result."""
    got = _SAVE_SQL.get((keys, n_deals))
    if got is not None:
        return got
    q = dialect.identifier_preparer.quote
    sets = ", ".join(f"{q(k)} = %(v_{k})s" for k in keys)
    ctes = [f"g AS (UPDATE games SET {sets} WHERE id = %(k_id)s AND seq = %(k_old_seq)s "
            "RETURNING id)"]
    cols = [c.name for c in deals.c]
    names = ", ".join(q(c) for c in cols)
    upd = ", ".join(f"{q(c)} = excluded.{q(c)}" for c in cols if c not in ("game_id", "number"))
    for i in range(n_deals):
        vals = ", ".join(f"CAST(%(d{i}_{c.name})s AS {c.type.compile(dialect=dialect)})"
                         for c in deals.c)
        ctes.append(f"d{i} AS (INSERT INTO deals ({names}) SELECT {vals} FROM g "
                    f"ON CONFLICT (game_id, number) DO UPDATE SET {upd})")
    sql = ("WITH " + ", ".join(ctes) + " SELECT (SELECT count(*) FROM g), CASE WHEN EXISTS "
           "(SELECT 1 FROM g) THEN pg_notify(%(c)s, %(p)s) END")
    _SAVE_SQL[(keys, n_deals)] = sql
    return sql


class _Conflict(Exception):
    """The game moved on meanwhile: nothing of this write is applied. ``row``: the game as it
    is now, when the write read it."""

    def __init__(self, row: GameRow | None = None) -> None:
        super().__init__("conflict")
        self.row = row


class _Job:
    """One write waiting for its commit (see :meth:`Store._write`)."""

    __slots__ = ("fn", "result", "error", "done")

    def __init__(self, fn: Callable[[Connection], Any]) -> None:
        self.fn = fn
        self.result: Any = None
        self.error: BaseException | None = None
        self.done = False


class Store:
    """The games of one database.

    :param url: any SQLAlchemy URL (``sqlite:///path``, ``postgresql+psycopg://...``).
    :param pool_size: PostgreSQL connections kept open by this process (plus up to 4 more at
        busy moments, and one for :meth:`add_listener`); size it to the threads that use the
        store at once (docs/deploy.md). SQLite keeps its own pool.
    :raises SchemaError: the database is of another schema version.

    Writes to SQLite are committed in groups: SQLite has one writer at a time and every commit
    waits for the disk (``synchronous=FULL``), so the writes that queue up while one commit is
    on its way are all committed together by the next one (one disk flush for all). Each write
    still returns only once its transaction is committed. Writers of this process queue on a
    lock here rather than in SQLite's busy handler, which sleeps in steps of up to 100 ms; other
    processes on the same file still wait through ``busy_timeout``.

    On PostgreSQL each write is its own transaction, ordered per game by the row's ``seq`` (see
    the module docstring), and each change is announced through ``NOTIFY``.
    """

    def __init__(self, url: str, *, pool_size: int = DEFAULT_POOL_SIZE) -> None:
        self.url = url
        self.engine = _make_engine(url, pool_size)
        self.postgres = self.engine.dialect.name == "postgresql"
        #: the engine of reads and of one-statement writes: on PostgreSQL in autocommit (one
        #: statement is its own transaction and snapshot: no BEGIN and no ROLLBACK round
        #: trips); on SQLite the engine itself
        self.single: Engine = (self.engine.execution_options(isolation_level="AUTOCOMMIT")
                               if self.postgres else self.engine)
        create_schema(self.engine, metadata)
        self._grouped = self.engine.dialect.name == "sqlite"
        self._writer = threading.Lock()  # held by the thread committing a group
        self._pending_lock = threading.Lock()
        self._pending: list[_Job] = []
        self._listeners: list[Callable[[str, int], None]] = []
        self._resyncs: list[Callable[[], None]] = []
        self._listener: Any = None  # the LISTEN thread (PostgreSQL), once a listener is added
        self._listener_lock = threading.Lock()

    @contextmanager
    def cursor(self) -> Iterator[Any]:
        """A DBAPI cursor of a pooled connection for reads and one-statement writes, each
        statement its own transaction (PostgreSQL: autocommit, so no BEGIN or ROLLBACK round
        trip; SQLite: a write is committed when the block ends). Use it with :class:`Raw`."""
        fairy = self.engine.raw_connection()
        try:
            dbc = fairy.driver_connection
            if self.postgres:
                dbc.autocommit = True  # type: ignore[union-attr]
            cur = dbc.cursor()  # type: ignore[union-attr]
            try:
                yield cur
                if not self.postgres and dbc.in_transaction:  # type: ignore[union-attr]
                    dbc.commit()  # type: ignore[union-attr]
            finally:
                cur.close()
                if self.postgres and not dbc.closed:  # type: ignore[union-attr]
                    dbc.autocommit = False  # type: ignore[union-attr]
        except self.engine.dialect.loaded_dbapi.OperationalError:
            fairy.invalidate()  # a broken connection is not given to the next request
            raise
        finally:
            fairy.close()

    def close(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        self.engine.dispose()

    # ------------------------------------------------------------------------------ changes
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
                    from .live import PgListener

                    self._listener = PgListener(self._listen_conninfo(), LIVE_CHANNEL,
                                                self._deliver_payload, self._resync)
            self._listener.wait_ready(10.0)

    def _listen_conninfo(self) -> str:
        """The libpq URL of the listening connection: ``$GINRUMMY_DATABASE_LISTEN_URL`` if
        set (a direct connection when the store's own goes through a pooler in transaction
        mode, where LISTEN does not work), else the store's URL."""
        url = os.environ.get("GINRUMMY_DATABASE_LISTEN_URL") or self.url
        return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)

    def _call_listeners(self, game_id: str, seq: int) -> None:
        for fn in list(self._listeners):
            try:
                fn(game_id, seq)
            except Exception:  # pragma: no cover - a listener's bug must not fail a write
                log.exception("change listener failed")

    def _deliver_payload(self, payload: str) -> None:
        game_id, _, seq = payload.rpartition(":")
        try:
            n = int(seq)
        except ValueError:
            log.warning("unreadable change notification ignored")
            return
        if storable_id(game_id):
            self._call_listeners(game_id, n)

    def _resync(self) -> None:
        for fn in list(self._resyncs):
            try:
                fn()
            except Exception:  # pragma: no cover
                log.exception("change listener's resync failed")

    @staticmethod
    def _notify(conn: Connection, game_id: str, seq: int) -> None:
        """``NOTIFY`` the change inside the writing transaction: PostgreSQL delivers it to
        every listening connection when (and only if) the transaction commits."""
        conn.execute(_NOTIFY, {"c": LIVE_CHANNEL, "p": f"{game_id}:{seq}"})

    def announce(self, game_id: str, seq: int) -> None:
        """Tell the listeners (of every process, on PostgreSQL) that ``game_id`` changed in a
        way that did not go through :meth:`save` (a seat's presence, a seat taken)."""
        if self.postgres:
            with self.single.connect() as conn:  # autocommit: delivered when it returns
                self._notify(conn, game_id, seq)
        else:
            self._call_listeners(game_id, seq)

    # ---------------------------------------------------------------------------------- write
    def _write(self, fn: Callable[[Connection], Any]) -> Any:
        """Run ``fn(conn)`` in a committed transaction and return its result; ``fn`` raises
        :class:`_Conflict` before writing anything when the write must not happen (then
        ``_Conflict`` is raised here). With SQLite, ``fn`` shares its transaction with the other
        writes waiting at the same time."""
        if not self._grouped:
            with self.engine.begin() as conn:
                return fn(conn)
        job = _Job(fn)
        with self._pending_lock:
            self._pending.append(job)
        with self._writer:
            # a group taken before this thread got the lock has been committed already: if it
            # held this job, the job is done; else the job is still pending, in the group below
            if not job.done:
                with self._pending_lock:
                    group, self._pending = self._pending, []
                self._commit_group(group)
        if job.error is not None:
            raise job.error
        return job.result

    def _commit_group(self, group: list[_Job]) -> None:
        try:
            try:
                with self.engine.begin() as conn:
                    for job in group:
                        try:
                            job.result = job.fn(conn)
                        except _Conflict as e:  # nothing of it was written
                            job.error = e
            except Exception:
                # one write failed (or the commit): each on its own, so that only it fails
                for job in group:
                    job.result, job.error = None, None
                    try:
                        with self.engine.begin() as conn:
                            job.result = job.fn(conn)
                    except Exception as e:
                        job.error = e
        finally:
            for job in group:
                job.done = True

    def insert_game(self, game: GameRow, new_deals: list[DealRow],
                    first: Callable[[Connection], bool] | None = None) -> bool:
        """Create a game with its first deal(s), in one transaction. ``first(conn)``, if
        given, runs first in that transaction (the rows that must exist with the game, a claim
        that only one request may win): when it returns False it has written nothing, and
        nothing is written (False is returned)."""
        values = _game_values(game)
        deal_values = [_deal_values(game.id, d) for d in new_deals]

        def write(conn: Connection) -> None:
            if first is not None and not first(conn):
                raise _Conflict()  # nothing written
            conn.execute(_INSERT_GAME, values)
            for v in deal_values:
                conn.execute(_INSERT_DEAL, v)
            if self.postgres:
                self._notify(conn, game.id, game.seq)

        try:
            self._write(write)
        except _Conflict:
            return False
        if not self.postgres:
            self._call_listeners(game.id, game.seq)
        return True

    def save(self, game_id: str, old_seq: int, changes: dict[str, Any],
             changed_deals: list[DealRow]) -> bool:
        """Record progress in one transaction, only if the game is still at ``old_seq``
        (otherwise nothing is written and False is returned). ``changes``: game columns;
        ``changed_deals``: deals to update or insert."""
        return self.save_checked(game_id, old_seq, changes, changed_deals) is None

    def save_checked(self, game_id: str, old_seq: int, changes: dict[str, Any],
                     changed_deals: list[DealRow]) -> GameRow | None:
        """As :meth:`save`, returning ``None`` when saved, else the game's row as it is now
        (read in the same transaction, after whichever write moved the game on had committed):
        its ``last_action``/``last_action_seq`` tell whether that write was the same action.

        :raises LookupError: there is no such game.
        """
        values = dict(changes)
        if "hand_order" in values and values["hand_order"] is not None:
            values["hand_order"] = json.dumps(values["hand_order"])
        values["updated_at"] = time.time()
        keys = tuple(sorted(values))
        params = {f"v_{k}": values[k] for k in keys}
        params["k_id"] = game_id
        params["k_old_seq"] = old_seq
        deal_params = []
        for d in changed_deals:
            v = _deal_values(game_id, d)
            dp = {f"v_{k}": v[k] for k in _DEAL_FIELDS}
            dp["k_game"] = game_id
            dp["k_number"] = d.number
            deal_params.append((dp, v))
        announce = int(changes["seq"]) if "seq" in changes else None

        if self.postgres and announce is not None:
            return self._save_in_one(game_id, keys, params, [v for _dp, v in deal_params],
                                     announce)
        update_game = _RAW_UPDATE_GAME.get(keys)
        if update_game is None:
            update_game = _RAW_UPDATE_GAME[keys] = Raw(_update_game(keys))
        dialect = self.engine.dialect

        def write(conn: Connection) -> None:
            cur = raw_cursor(conn)
            try:
                # on PostgreSQL this UPDATE takes the row's lock: a concurrent save of the same
                # game waits here until this transaction ends, then finds the new seq and
                # matches nothing
                if update_game.execute(cur, dialect, params).rowcount != 1:
                    now = _RAW_SELECT_GAME.rows(cur, dialect, {"k_id": game_id})
                    raise _Conflict(_game_row(now[0]) if now else None)  # nothing written
                for dp, v in deal_params:
                    if _RAW_UPDATE_DEAL.execute(cur, dialect, dp).rowcount == 0:
                        _RAW_INSERT_DEAL.execute(cur, dialect, v)
                if self.postgres and announce is not None:
                    _RAW_NOTIFY.execute(cur, dialect, {"c": LIVE_CHANNEL,
                                                       "p": f"{game_id}:{announce}"})
            finally:
                cur.close()

        try:
            self._write(write)
        except _Conflict as e:
            if e.row is None:
                raise LookupError(f"no game {game_id!r}") from None
            return e.row
        if announce is not None and not self.postgres:
            self._call_listeners(game_id, announce)
        return None

    def _save_in_one(self, game_id: str, keys: tuple[str, ...], params: dict[str, Any],
                     deal_values: list[dict[str, Any]], announce: int) -> GameRow | None:
        """:meth:`save_checked` on PostgreSQL in ONE statement, its own transaction (one round
        trip instead of five: BEGIN, the game's UPDATE, the deal's, NOTIFY, COMMIT). The
        game's ``UPDATE ... WHERE seq = old`` is a CTE that the deals' upserts select from, and
        ``pg_notify`` runs only if it matched: when another save got there first (this
        statement waits for its row lock, then matches nothing) nothing is written or
        announced, and the row as it is now is read and returned."""
        sql = _save_sql(self.engine.dialect, keys, len(deal_values))
        args = dict(params)
        for i, v in enumerate(deal_values):
            args.update({f"d{i}_{k}": x for k, x in v.items()})
        args["c"], args["p"] = LIVE_CHANNEL, f"{game_id}:{announce}"
        with self.cursor() as cur:
            cur.execute(sql, args)
            saved = cur.fetchone()[0]
            if saved == 1:
                return None
            now = _RAW_SELECT_GAME.rows(cur, self.engine.dialect, {"k_id": game_id})
        if not now:
            raise LookupError(f"no game {game_id!r}")
        return _game_row(now[0])

    def set_hand_order(self, game_id: str, order: dict[str, Any]) -> None:
        params = {"k_id": game_id, "v_hand_order": json.dumps(order)}
        self._write(lambda conn: conn.execute(_SET_ORDER, params))

    # ----------------------------------------------------------------------------------- read
    def get_game(self, game_id: str) -> GameRow | None:
        """The game's row, or None (no such game; an id that is not :func:`storable_id`)."""
        if not storable_id(game_id):
            return None
        with self.cursor() as cur:
            rows = _RAW_SELECT_GAME.rows(cur, self.engine.dialect, {"k_id": game_id})
        return _game_row(rows[0]) if rows else None

    def get_deals(self, game_id: str) -> list[DealRow]:
        """The game's deals in order. Read with its row, use :meth:`get_game_with_deals`: two
        reads may see two moments of a game that another process is saving."""
        if not storable_id(game_id):
            return []
        with self.single.connect() as conn:
            rows = conn.execute(_SELECT_DEALS, {"k_id": game_id}).all()
        return [_deal_row(r) for r in rows]

    def get_game_with_deals(self, game_id: str, first: int | None = None
                            ) -> tuple[GameRow, list[DealRow]] | None:
        """The game's row and its deals in order (``first``: only those numbered ``first``
        and on), as of one moment (one statement: one snapshot on any database), or None (no
        such game)."""
        if not storable_id(game_id):
            return None
        with self.cursor() as cur:
            if first is None:
                rows = _RAW_SELECT_GAME_DEALS.rows(cur, self.engine.dialect, {"k_id": game_id})
            else:
                rows = _RAW_SELECT_GAME_DEALS_FROM.rows(cur, self.engine.dialect,
                                                        {"k_id": game_id, "k_from": first})
        if not rows:
            return None
        deal_rows = [_deal_row(_Prefixed(r, "d_")) for r in rows if r.d_number is not None]
        return _game_row(rows[0]), deal_rows

    def player_games(self, player_id: str) -> list[GameRow]:
        """The player's games, oldest first."""
        if not storable_id(player_id):
            return []
        with self.single.connect() as conn:
            rows = conn.execute(select(games).where(games.c.player_id == player_id)
                                .order_by(games.c.created_at)).all()
        return [_game_row(r) for r in rows]

    def player_results(self, player_id: str) -> list[tuple[str, int | None, int | None]]:
        """``(kind, winner, knocker)`` of each finished deal of the player's games."""
        if not storable_id(player_id):
            return []
        q = (select(deals.c.result_kind, deals.c.result_winner, deals.c.result_knocker)
             .join(games, games.c.id == deals.c.game_id)
             .where(games.c.player_id == player_id, deals.c.finished.is_(True)))
        with self.single.connect() as conn:
            return [(r[0], r[1], r[2]) for r in conn.execute(q).all()]


class _Prefixed:
    """The ``prefix``-named columns of a result row, by their names without the prefix."""

    __slots__ = ("_row", "_prefix")

    def __init__(self, row: Any, prefix: str) -> None:
        self._row = row
        self._prefix = prefix

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, self._prefix + name)
