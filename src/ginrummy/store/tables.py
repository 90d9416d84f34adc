"""Tables of people and computers (docs/tables.md), in tables of their own beside ``games`` and
``deals`` (same :data:`~ginrummy.store.db.metadata`, created with them):

* ``tables``: one row per game created with seats (a game without one is a person playing the
  computer: seat 0 holds ``games.token_hash``, the other seats are computers at ``games.level``).
  Its status (``waiting`` before the start, then ``playing``; a finished game is ``over`` in
  ``games.status``), the creator's seat, the SHA-256 of the invite code (never the code), the
  turn clock, the rematch's game id, and ``version``, counting the changes of the seats and
  messages (a live stream compares it).
* ``seats``: one row per seat: its kind (``person`` | ``computer`` | ``open``), the computer's
  level, the person's display name and token hash (never the token), ``connected_until`` (the
  presence kept by the open live streams, seconds since the epoch), ``left`` (the person left:
  a computer plays the seat), ``computer_for_away`` (the creator handed the away seat to a
  computer), the person's hand order and the browser (its ``ginrummy_player`` id) that sits
  there, whose statistics count the seat's games (:meth:`TableStore.joined_games`).
* ``table_messages``: the preset quick messages sent at a table.
* ``seat_holders``: the server processes holding a live stream of a seat now (issue 21 item
  10), each with the end of its lease: a seat is connected while any process holds it, so
  that closing one of a person's two tabs, or a stream on one of two processes, leaves the
  person connected. ``seats.connected_until`` stays what every state reads: set from the
  holders when one lets go.

The rows of a new table are written before its ``games`` row, so that a game is never seen
without them. Every write is its own committed transaction.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    String,
    Table,
    Text,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    tuple_,
    update,
)

from .db import (
    GameRow,
    Raw,
    _game_row,
    _Prefixed,
    create_schema,
    deals,
    games,
    metadata,
    seats_of_text,
    storable_id,
)

__all__ = ["TableStore", "TableRow", "SeatRow", "MessageRow", "JoinedGame", "DealResult",
           "MESSAGES_KEPT", "seat_holders"]

#: the messages kept per table (the oldest go).
MESSAGES_KEPT = 50

tables = Table(
    "tables", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("status", String(16), nullable=False),  # waiting | playing
    Column("creator_seat", Integer, nullable=False, default=0),
    Column("invite_hash", String(64), index=True, unique=True),
    Column("turn_clock", Integer),
    Column("rematch_id", String(64)),
    Column("version", Integer, nullable=False, default=0),
    Column("created_at", Float, nullable=False),
)

seats = Table(
    "seats", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # person | computer | open
    Column("level", String(64)),
    Column("name", String(64)),
    Column("token_hash", String(64), index=True),
    Column("connected_until", Float, nullable=False, default=0.0),
    Column("left", Boolean, nullable=False, default=False),
    Column("computer_for_away", Boolean, nullable=False, default=False),
    Column("hand_order", Text),
    Column("player_id", String(64), index=True),
)

seat_holders = Table(
    "seat_holders", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("holder", String(32), primary_key=True),  # a server process (its app)
    Column("until", Float, nullable=False),  # its lease, seconds since the epoch
)

table_messages = Table(
    "table_messages", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), index=True, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("message", String(32), nullable=False),
    Column("seq_at", Integer, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass
class SeatRow:
    """One seat (see the module docstring)."""

    seat: int
    kind: str
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    connected_until: float = 0.0
    left: bool = False
    computer_for_away: bool = False
    hand_order: dict[str, Any] | None = None
    player_id: str | None = None


@dataclass
class TableRow:
    """One table (see the module docstring) with its seats, in seat order."""

    game_id: str
    status: str
    creator_seat: int = 0
    invite_hash: str | None = None
    turn_clock: int | None = None
    rematch_id: str | None = None
    version: int = 0
    created_at: float = field(default_factory=time.time)
    seats: list[SeatRow] = field(default_factory=list)


@dataclass(frozen=True)
class JoinedGame:
    """A game of a table a browser joined: the seat it holds and the game's result columns
    (``winner_seats``: see :class:`~ginrummy.store.db.GameRow`)."""

    game_id: str
    seat: int
    status: str
    winner_seats: tuple[int, ...] | None
    margin: int | None
    created_at: float
    finished_at: float | None
    preset: str = "standard"


@dataclass(frozen=True)
class DealResult:
    """A finished deal's result in seats: the two seats that played it, its kind, the
    winning and the knocking seat (``None``: none)."""

    game_id: str
    players: tuple[int, ...]
    kind: str
    winner_seat: int | None
    knocker_seat: int | None


@dataclass(frozen=True)
class MessageRow:
    """A quick message: the seat that sent it, its code, the table's ``seq`` then, the time."""

    seat: int
    message: str
    seq_at: int
    at: float


def _seat_values(game_id: str, s: SeatRow) -> dict[str, Any]:
    return {"game_id": game_id, "seat": s.seat, "kind": s.kind, "level": s.level,
            "name": s.name, "token_hash": s.token_hash, "connected_until": s.connected_until,
            "left": s.left, "computer_for_away": s.computer_for_away,
            "hand_order": None if s.hand_order is None else json.dumps(s.hand_order),
            "player_id": s.player_id}


def _seat_row(r: Any) -> SeatRow:
    return SeatRow(seat=r.seat, kind=r.kind, level=r.level, name=r.name,
                   token_hash=r.token_hash, connected_until=float(r.connected_until or 0.0),
                   left=bool(r.left), computer_for_away=bool(r.computer_for_away),
                   hand_order=None if r.hand_order is None else json.loads(r.hand_order),
                   player_id=r.player_id)


def _table_row(r: Any, seat_rows: Sequence[Any]) -> TableRow:
    return TableRow(game_id=r.game_id, status=r.status, creator_seat=r.creator_seat,
                    invite_hash=r.invite_hash, turn_clock=r.turn_clock,
                    rematch_id=r.rematch_id, version=r.version, created_at=r.created_at,
                    seats=[_seat_row(x) for x in seat_rows])


# Statements built once, with bound parameters (compiled once: see ginrummy.store.db).
_SELECT_TABLE = select(tables).where(tables.c.game_id == bindparam("k_id"))
_SELECT_SEATS = (select(seats).where(seats.c.game_id == bindparam("k_id"))
                 .order_by(seats.c.seat))
# a game's row, its table's and its seats', as of one moment (one statement): the request's
# one read of who asks (tables and seats prefixed t_ and s_; no table: NULLs)
_SELECT_GAME_TABLE = Raw(
    select(games, *[c.label(f"t_{c.name}") for c in tables.c],
           *[c.label(f"s_{c.name}") for c in seats.c])
    .select_from(games.outerjoin(tables, tables.c.game_id == games.c.id)
                 .outerjoin(seats, seats.c.game_id == games.c.id))
    .where(games.c.id == bindparam("k_id"))
    .order_by(seats.c.seat))
# a table's version with its last messages, as of one moment (no message: one row of NULLs)
_SELECT_MESSAGES_AT = Raw(
    select(tables.c.version, table_messages.c.id, table_messages.c.seat,
           table_messages.c.message, table_messages.c.seq_at, table_messages.c.at)
    .select_from(tables.outerjoin(table_messages,
                                  table_messages.c.game_id == tables.c.game_id))
    .where(tables.c.game_id == bindparam("k_id"))
    .order_by(table_messages.c.id.desc())
    .limit(MESSAGES_KEPT))
_REFRESH_PRESENCE = Raw(update(seats)
                        .where(seats.c.game_id == bindparam("k_id"),
                               seats.c.seat == bindparam("k_seat"),
                               seats.c.kind == "person",
                               seats.c.token_hash == bindparam("k_token_hash"),
                               seats.c.left.is_(False))
                        .values(connected_until=bindparam("v_until")))
_SET_PRESENCE = Raw(update(seats)
                    .where(seats.c.game_id == bindparam("k_id"),
                           seats.c.seat == bindparam("k_seat"))
                    .values(connected_until=bindparam("v_until")))


class TableStore:
    """The three tables above in the database of ``engine`` (the :class:`Store`'s).
    ``single``: the engine of reads and one-statement writes (the store's
    :attr:`~ginrummy.store.db.Store.single`: autocommit on PostgreSQL); default ``engine``."""

    def __init__(self, engine: Engine, single: Engine | None = None,
                 cursor: Callable[[], AbstractContextManager[Any]] | None = None) -> None:
        self.engine = engine
        self.single = single if single is not None else engine
        self._cursor = cursor  # the store's (Store.cursor): the hot statements' raw path
        create_schema(engine, metadata)  # once, under the schema lock (no-op when made)

    def _rows(self, stmt: Raw, params: dict[str, Any]) -> list[Any]:
        if self._cursor is None:
            with self.single.connect() as conn:
                return list(conn.execute(stmt.stmt, params).all())
        with self._cursor() as cur:
            return stmt.rows(cur, self.engine.dialect, params)

    def _changed(self, stmt: Raw, params: dict[str, Any]) -> int:
        """Rows changed by one write statement, committed."""
        if self._cursor is None:
            with self.single.begin() as conn:
                return int(conn.execute(stmt.stmt, params).rowcount)
        with self._cursor() as cur:
            return int(stmt.execute(cur, self.engine.dialect, params).rowcount)

    # ---------------------------------------------------------------------------------- read
    def get(self, game_id: str) -> TableRow | None:
        """The table with its seats, or None (a game against the computer, or none)."""
        if not storable_id(game_id):
            return None
        with self.single.connect() as conn:
            r = conn.execute(_SELECT_TABLE, {"k_id": game_id}).first()
            if r is None:
                return None
            rows = conn.execute(_SELECT_SEATS, {"k_id": game_id}).all()
        return _table_row(r, rows)

    def get_with_game(self, game_id: str) -> tuple[GameRow, TableRow | None] | None:
        """The game's row and its table with its seats (``None``: a game against the
        computer), as of one moment (one statement); ``None``: no such game."""
        if not storable_id(game_id):
            return None
        rows = self._rows(_SELECT_GAME_TABLE, {"k_id": game_id})
        if not rows:
            return None
        first = rows[0]
        table = None
        if first.t_game_id is not None:
            table = _table_row(_Prefixed(first, "t_"),
                               [_Prefixed(r, "s_") for r in rows if r.s_seat is not None])
        return _game_row(first), table

    def messages_at(self, game_id: str) -> tuple[int, list[MessageRow]] | None:
        """The table's ``version`` and its last :data:`MESSAGES_KEPT` messages, oldest first,
        as of one moment (a message changes the version: the pair may be kept by version);
        ``None``: no such table."""
        rows = self._rows(_SELECT_MESSAGES_AT, {"k_id": game_id})
        if not rows:
            return None
        return int(rows[0].version), [MessageRow(r.seat, r.message, r.seq_at, r.at)
                                      for r in reversed(rows) if r.id is not None]

    def by_invite(self, invite_hash: str) -> str | None:
        """The game id of the invite code's hash, or None."""
        with self.single.connect() as conn:
            r = conn.execute(select(tables.c.game_id)
                             .where(tables.c.invite_hash == invite_hash)).first()
        return None if r is None else str(r[0])

    def messages(self, game_id: str) -> list[MessageRow]:
        """The table's last :data:`MESSAGES_KEPT` messages, oldest first."""
        with self.single.connect() as conn:
            rows = conn.execute(select(table_messages)
                                .where(table_messages.c.game_id == game_id)
                                .order_by(table_messages.c.id.desc())
                                .limit(MESSAGES_KEPT)).all()
        return [MessageRow(r.seat, r.message, r.seq_at, r.at) for r in reversed(rows)]

    def joined_games(self, player_id: str) -> list[JoinedGame]:
        """The games where the browser ``player_id`` holds a seat at a table it did not create
        (one per game: its lowest such seat), oldest first."""
        if not storable_id(player_id):
            return []
        q = (select(games.c.id, games.c.status, games.c.winner_seats, games.c.margin,
                    games.c.created_at, games.c.finished_at, seats.c.seat, games.c.preset)
             .join(seats, seats.c.game_id == games.c.id)
             .where(seats.c.player_id == player_id,
                    or_(games.c.player_id.is_(None), games.c.player_id != player_id))
             .order_by(games.c.created_at, seats.c.seat))
        with self.single.connect() as conn:
            rows = conn.execute(q).all()
        out: dict[str, JoinedGame] = {}
        for r in rows:
            out.setdefault(r.id, JoinedGame(r.id, r.seat, r.status,
                                            seats_of_text(r.winner_seats), r.margin,
                                            r.created_at, r.finished_at, r.preset))
        return list(out.values())

    def deal_results(self, game_ids: list[str]) -> list[DealResult]:
        """The results of the finished deals of ``game_ids`` in seats (deals stored before
        schema 4 have none)."""
        out: list[DealResult] = []
        for i in range(0, len(game_ids), 500):  # bounded IN lists
            q = (select(deals.c.game_id, deals.c.players, deals.c.result_kind,
                        deals.c.winner_seat, deals.c.knocker_seat)
                 .where(deals.c.game_id.in_(game_ids[i:i + 500]),
                        deals.c.players.is_not(None), deals.c.result_kind.is_not(None)))
            with self.engine.connect() as conn:
                out.extend(DealResult(r.game_id, seats_of_text(r.players) or (),
                                      r.result_kind, r.winner_seat, r.knocker_seat)
                           for r in conn.execute(q).all())
        return out

    # --------------------------------------------------------------------------------- write
    def insert(self, row: TableRow) -> None:
        """A new table with its seats (before its ``games`` row)."""
        with self.engine.begin() as conn:
            self.write_table(conn, row)

    @staticmethod
    def write_table(conn: Connection, row: TableRow) -> None:
        """Insert a new table with its seats in the caller's transaction ``conn``."""
        conn.execute(insert(tables).values(
            game_id=row.game_id, status=row.status, creator_seat=row.creator_seat,
            invite_hash=row.invite_hash, turn_clock=row.turn_clock,
            rematch_id=row.rematch_id, version=row.version, created_at=row.created_at))
        for s in row.seats:
            conn.execute(insert(seats).values(**_seat_values(row.game_id, s)))

    @classmethod
    def write_rematch(cls, conn: Connection, old_id: str, new: TableRow) -> bool:
        """In the caller's transaction ``conn``: point table ``old_id`` to its rematch ``new``
        (its version goes up) and insert ``new`` with its seats, only if ``old_id`` has no
        rematch yet. False, nothing written, when it has one (another request made it: on
        PostgreSQL the second such UPDATE waits for the first transaction, then matches no
        row; on SQLite writers take turns)."""
        res = conn.execute(update(tables)
                           .where(tables.c.game_id == old_id, tables.c.rematch_id.is_(None))
                           .values(rematch_id=new.game_id, version=tables.c.version + 1))
        if res.rowcount != 1:
            return False
        cls.write_table(conn, new)
        return True

    def change_seat(self, game_id: str, version: int, seat: int, expect: dict[str, Any],
                    values: dict[str, Any], table: dict[str, Any] | None = None) -> bool:
        """Change seat ``seat``'s columns to ``values`` (and the table's to ``table``) if the
        table is still at ``version`` and the seat's columns still equal ``expect``; the
        table's version goes up by one. False (nothing written) when someone else changed it
        first."""
        vals = dict(values)
        if "hand_order" in vals and vals["hand_order"] is not None:
            vals["hand_order"] = json.dumps(vals["hand_order"])
        with self.engine.begin() as conn:
            res = conn.execute(update(tables)
                               .where(tables.c.game_id == game_id, tables.c.version == version)
                               .values(version=version + 1, **(table or {})))
            if res.rowcount != 1:
                return False
            cond = [seats.c.game_id == game_id, seats.c.seat == seat]
            cond.extend(seats.c[k] == v if v is not None else seats.c[k].is_(None)
                        for k, v in expect.items())
            if conn.execute(update(seats).where(*cond).values(**vals)).rowcount != 1:
                conn.rollback()
                return False
        return True

    def set_table(self, game_id: str, version: int, values: dict[str, Any]) -> bool:
        """Change the table's columns if it is still at ``version`` (then version + 1)."""
        with self.engine.begin() as conn:
            res = conn.execute(update(tables)
                               .where(tables.c.game_id == game_id, tables.c.version == version)
                               .values(version=version + 1, **values))
            return res.rowcount == 1

    def set_presence(self, game_id: str, seat: int, until: float) -> None:
        """A seat's ``connected_until`` (no version change: presence is not a table change)."""
        self._changed(_SET_PRESENCE, {"k_id": game_id, "k_seat": seat, "v_until": until})

    def refresh_presence(self, game_id: str, seat: int, token_hash: str, until: float) -> bool:
        """A live stream's refresh of its seat's ``connected_until``, in one statement that
        reads nothing first: False (nothing written) when the seat is no longer this token's
        person (left, or never)."""
        return self._changed(_REFRESH_PRESENCE, {"k_id": game_id, "k_seat": seat,
                                                 "k_token_hash": token_hash,
                                                 "v_until": until}) == 1

    #: seats refreshed by one statement of :meth:`refresh_presence_many`
    REFRESH_BATCH = 200

    def refresh_presence_many(self, keys: Sequence[tuple[str, int, str]], until: float
                              ) -> set[tuple[str, int, str]]:
        """:meth:`refresh_presence` of many seats (``(game_id, seat, token_hash)``) at once:
        on PostgreSQL one statement per :data:`REFRESH_BATCH` seats (``UPDATE ... RETURNING``);
        elsewhere one per seat. Returns the keys refreshed (a seat no longer that token's
        person is left out: nothing written for it)."""
        if self.engine.dialect.name != "postgresql":
            return {k for k in keys if self.refresh_presence(k[0], k[1], k[2], until)}
        done: set[tuple[str, int, str]] = set()
        wanted = list(dict.fromkeys(keys))
        for at in range(0, len(wanted), self.REFRESH_BATCH):
            part = wanted[at:at + self.REFRESH_BATCH]
            stmt = (update(seats)
                    .where(tuple_(seats.c.game_id, seats.c.seat, seats.c.token_hash).in_(part),
                           seats.c.kind == "person", seats.c.left.is_(False))
                    .values(connected_until=until)
                    .returning(seats.c.game_id, seats.c.seat, seats.c.token_hash))
            with self.single.begin() as conn:
                done.update((r[0], int(r[1]), r[2]) for r in conn.execute(stmt).all())
        return done

    def _upsert_holders(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        """Insert or renew ``seat_holders`` rows (``game_id``, ``seat``, ``holder``,
        ``until``) in one statement."""
        if not rows:
            return
        from sqlalchemy.dialects import postgresql, sqlite

        dialect = self.engine.dialect.name
        upsert: Any = postgresql.insert if dialect == "postgresql" else sqlite.insert
        stmt = upsert(seat_holders).values(rows)
        conn.execute(stmt.on_conflict_do_update(
            index_elements=[seat_holders.c.game_id, seat_holders.c.seat, seat_holders.c.holder],
            set_={"until": stmt.excluded.until}))

    def hold_seat(self, game_id: str, seat: int, holder: str, until: float) -> None:
        """The process ``holder`` holds a live stream of the seat until ``until`` (renewed by
        :meth:`renew_holds`): its lease, and the seat's ``connected_until``, in one
        transaction."""
        with self.engine.begin() as conn:
            self._upsert_holders(conn, [{"game_id": game_id, "seat": seat, "holder": holder,
                                         "until": until}])
            conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                         .values(connected_until=until))

    def release_seat(self, game_id: str, seat: int, holder: str, now: float) -> float:
        """The process ``holder`` holds no live stream of the seat any more: its lease goes,
        and the seat's ``connected_until`` becomes the latest lease another process holds, or
        ``now`` (not connected) when none does, in one transaction. Leases ended a day ago are
        removed on the way (a process stopped without letting go). Returns the new
        ``connected_until``."""
        later = (select(func.max(seat_holders.c.until))
                 .where(seat_holders.c.game_id == game_id, seat_holders.c.seat == seat,
                        seat_holders.c.until > now)
                 .scalar_subquery())
        with self.engine.begin() as conn:
            conn.execute(delete(seat_holders).where(
                or_((seat_holders.c.game_id == game_id) & (seat_holders.c.seat == seat)
                    & (seat_holders.c.holder == holder),
                    seat_holders.c.until < now - 86_400)))
            conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                         .values(connected_until=func.coalesce(later, now)))
            got = conn.execute(select(seats.c.connected_until).where(
                seats.c.game_id == game_id, seats.c.seat == seat)).scalar()
        return float(got if got is not None else now)

    def renew_holds(self, keys: Sequence[tuple[str, int]], holder: str, until: float) -> None:
        """Renew (or make again) the leases of ``holder`` on the seats ``(game_id, seat)``."""
        rows = [{"game_id": g, "seat": s, "holder": holder, "until": until}
                for g, s in dict.fromkeys(keys)]
        for at in range(0, len(rows), self.REFRESH_BATCH):
            with self.engine.begin() as conn:
                self._upsert_holders(conn, rows[at:at + self.REFRESH_BATCH])

    def set_hand_order(self, game_id: str, seat: int, order: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                         .values(hand_order=json.dumps(order)))

    def add_message(self, game_id: str, msg: MessageRow) -> None:
        """Keep a message (and only the last :data:`MESSAGES_KEPT`); the version goes up."""
        with self.engine.begin() as conn:
            conn.execute(insert(table_messages).values(
                game_id=game_id, seat=msg.seat, message=msg.message, seq_at=msg.seq_at,
                at=msg.at))
            conn.execute(update(tables).where(tables.c.game_id == game_id)
                         .values(version=tables.c.version + 1))
            old = (select(table_messages.c.id).where(table_messages.c.game_id == game_id)
                   .order_by(table_messages.c.id.desc()).offset(MESSAGES_KEPT))
            ids = [r[0] for r in conn.execute(old).all()]
            if ids:
                conn.execute(delete(table_messages).where(table_messages.c.id.in_(ids)))
