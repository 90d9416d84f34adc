"""The repository of tables of people and computers (docs/tables.md), in tables of their own
beside ``games`` and ``deals`` (:data:`ginrummy.store.schema.metadata`, created with them):

* ``tables``: one row per game (schema 8: every game is a table). Its status (``waiting``
  before the start, then ``playing``; a finished game is ``over`` in ``games.status``), the
  creator's seat, the SHA-256 of the invite code (never the code; none at a person's game
  against the computer, a table with one person that nobody else may join:
  :attr:`~ginrummy.store.rows.TableRow.shared`), the turn clock, the rematch's game id, and
  ``version``, counting the changes of the seats and messages (a live stream compares it).
* ``seats``: one row per seat: its kind (``person`` | ``computer`` | ``open``), the computer's
  level, the person's display name and token hash (never the token), ``connected_until`` (the
  presence kept by the open live streams, seconds since the epoch), ``left`` (the person left:
  a computer plays the seat), ``computer_for_away`` (the creator handed the away seat to a
  computer), the person's hand order and the browser (its ``ginrummy_player`` id) that sits
  there, whose statistics count the seat's games
  (:meth:`ginrummy.store.stats.Statistics.joined_games`).
* ``table_messages``: the preset quick messages sent at a table.
* ``seat_holders``: the server processes holding a live stream of a seat now (issue 21 item
  10), each with the end of its lease: a seat is connected while any process holds it, so
  that closing one of a person's two tabs, or a stream on one of two processes, leaves the
  person connected. ``seats.connected_until`` stays what every state reads: set from the
  holders when one lets go.

The rows of a new table are written before its ``games`` row, so that a game is never seen
without them. Every write is its own committed transaction. The rows' types are in
:mod:`ginrummy.store.rows`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    tuple_,
    update,
)

from .raw import Raw, Record, raw_cursor
from .rows import (
    GameRow,
    MessageRow,
    SeatRow,
    TableRow,
    game_row,
    storable_id,
)
from .schema import create_schema, games, metadata, seat_holders, seats, table_messages, tables

__all__ = ["TableStore", "MESSAGES_KEPT"]

#: the messages kept per table (the oldest go).
MESSAGES_KEPT = 50


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


def _joined_table(t: dict[str, Any], rows: Sequence[dict[str, Any]]) -> TableRow:
    """The table of a row of :data:`_SELECT_GAME_TABLE` (``t``) with the seats of ``rows``:
    by the labels' names, read from each row's dict (the request's hot read: no attribute
    lookups through :class:`~ginrummy.store.rows.Prefixed`)."""
    return TableRow(
        game_id=t["t_game_id"], status=t["t_status"], creator_seat=t["t_creator_seat"],
        invite_hash=t["t_invite_hash"], turn_clock=t["t_turn_clock"],
        rematch_id=t["t_rematch_id"], version=t["t_version"], created_at=t["t_created_at"],
        seats=[SeatRow(seat=r["s_seat"], kind=r["s_kind"], level=r["s_level"],
                       name=r["s_name"], token_hash=r["s_token_hash"],
                       connected_until=float(r["s_connected_until"] or 0.0),
                       left=bool(r["s_left"]), computer_for_away=bool(r["s_computer_for_away"]),
                       hand_order=None if r["s_hand_order"] is None
                       else json.loads(r["s_hand_order"]),
                       player_id=r["s_player_id"])
               for r in rows if r["s_seat"] is not None])


# Statements built once, with bound parameters (compiled once: see ginrummy.store.games).
_SELECT_TABLE = select(tables).where(tables.c.game_id == bindparam("k_id"))
_SELECT_SEATS = (select(seats).where(seats.c.game_id == bindparam("k_id"))
                 .order_by(seats.c.seat))
# a game's row, its table's and its seats', as of one moment (one statement): the request's
# one read of who asks (tables and seats prefixed t_ and s_)
_SELECT_GAME_TABLE = Raw(
    select(games, *[c.label(f"t_{c.name}") for c in tables.c],
           *[c.label(f"s_{c.name}") for c in seats.c])
    .select_from(games.join(tables, tables.c.game_id == games.c.id)
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
_INSERT_TABLE = Raw(insert(tables))  # every column, by its name
_INSERT_SEAT = Raw(insert(seats))
_SET_HAND_ORDER = Raw(update(seats)
                      .where(seats.c.game_id == bindparam("k_id"),
                             seats.c.seat == bindparam("k_seat"))
                      .values(hand_order=bindparam("v_hand_order")))
_SET_PRESENCE = Raw(update(seats)
                    .where(seats.c.game_id == bindparam("k_id"),
                           seats.c.seat == bindparam("k_seat"))
                    .values(connected_until=bindparam("v_until")))


@functools.cache
def _upsert_holders_stmt(dialect: str) -> Any:
    """``INSERT ... ON CONFLICT (game_id, seat, holder) DO UPDATE SET until`` of
    ``seat_holders`` for ``dialect`` (PostgreSQL or SQLite), its values bound by name."""
    from sqlalchemy.dialects import postgresql, sqlite

    upsert: Any = postgresql.insert if dialect == "postgresql" else sqlite.insert
    stmt = upsert(seat_holders)
    return stmt.on_conflict_do_update(
        index_elements=[seat_holders.c.game_id, seat_holders.c.seat, seat_holders.c.holder],
        set_={"until": stmt.excluded.until})


class TableStore:
    """The three tables of people (see the module docstring) in the database of ``engine``
    (the :class:`~ginrummy.store.Store`'s). ``single``: the engine of reads and one-statement
    writes (the store's :attr:`~ginrummy.store.Store.single`: autocommit on PostgreSQL);
    default ``engine``. ``cursor``: the store's :meth:`~ginrummy.store.Store.cursor`, the hot
    statements' raw path (none: they run through SQLAlchemy)."""

    def __init__(self, engine: Engine, single: Engine | None = None,
                 cursor: Callable[[], AbstractContextManager[Any]] | None = None) -> None:
        self.engine = engine
        self.single = single if single is not None else engine
        self._cursor = cursor  # the store's (Store.cursor): the hot statements' raw path
        create_schema(engine, metadata)  # once, under the schema lock (no-op when made)

    def _rows(self, stmt: Raw, params: dict[str, Any]) -> list[dict[str, Any]]:
        """The rows of one read statement, each a dict of its columns by name."""
        if self._cursor is None:
            with self.single.connect() as conn:
                return [dict(r._mapping) for r in conn.execute(stmt.stmt, params).all()]
        with self._cursor() as cur:
            return stmt.dicts(cur, self.engine.dialect, params)

    def _changed(self, stmt: Raw, params: dict[str, Any]) -> int:
        """Rows changed by one write statement, committed."""
        if self._cursor is None:
            with self.single.begin() as conn:
                return int(conn.execute(stmt.stmt, params).rowcount)
        with self._cursor() as cur:
            return int(stmt.execute(cur, self.engine.dialect, params).rowcount)

    # ---------------------------------------------------------------------------------- read
    def get(self, game_id: str) -> TableRow | None:
        """The table with its seats, or None (no such game)."""
        if not storable_id(game_id):
            return None
        with self.single.connect() as conn:
            r = conn.execute(_SELECT_TABLE, {"k_id": game_id}).first()
            if r is None:
                return None
            rows = conn.execute(_SELECT_SEATS, {"k_id": game_id}).all()
        return _table_row(r, rows)

    def get_with_game(self, game_id: str) -> tuple[GameRow, TableRow] | None:
        """The game's row and its table with its seats, as of one moment (one statement);
        ``None``: no such game (or a game row without its table, which a server of schema 8
        never stores: the table's rows are written first, in the game's transaction)."""
        if not storable_id(game_id):
            return None
        rows = self._rows(_SELECT_GAME_TABLE, {"k_id": game_id})
        if not rows:
            return None
        first = rows[0]
        return game_row(Record(first)), _joined_table(first, rows)

    def messages_at(self, game_id: str) -> tuple[int, list[MessageRow]] | None:
        """The table's ``version`` and its last :data:`MESSAGES_KEPT` messages, oldest first,
        as of one moment (a message changes the version: the pair may be kept by version);
        ``None``: no such table."""
        rows = self._rows(_SELECT_MESSAGES_AT, {"k_id": game_id})
        if not rows:
            return None
        return int(rows[0]["version"]), [MessageRow(r["seat"], r["message"], r["seq_at"], r["at"])
                                         for r in reversed(rows) if r["id"] is not None]

    def by_invite(self, invite_hash: str) -> str | None:
        """The game id of the invite code's hash, or None."""
        with self.single.connect() as conn:
            r = conn.execute(select(tables.c.game_id)
                             .where(tables.c.invite_hash == invite_hash)).first()
        return None if r is None else str(r[0])

    #: the most rematches of one table followed (a series longer than this is not expected)
    SERIES_MAX = 200

    def series(self, game_id: str) -> list[str]:
        """``game_id`` and its rematches, each the rematch of the one before, oldest first
        (the last has no rematch yet); ``[]``: no such table."""
        out: list[str] = []
        with self.single.connect() as conn:
            at: str | None = game_id
            while at is not None and at not in out and len(out) < self.SERIES_MAX:
                r = conn.execute(select(tables.c.rematch_id)
                                 .where(tables.c.game_id == at)).first()
                if r is None:
                    break
                out.append(at)
                at = r[0]
        return out

    def messages(self, game_id: str) -> list[MessageRow]:
        """The table's last :data:`MESSAGES_KEPT` messages, oldest first."""
        with self.single.connect() as conn:
            rows = conn.execute(select(table_messages)
                                .where(table_messages.c.game_id == game_id)
                                .order_by(table_messages.c.id.desc())
                                .limit(MESSAGES_KEPT)).all()
        return [MessageRow(r.seat, r.message, r.seq_at, r.at) for r in reversed(rows)]

    # --------------------------------------------------------------------------------- write
    def insert(self, row: TableRow) -> None:
        """A new table with its seats (before its ``games`` row)."""
        with self.engine.begin() as conn:
            self.write_table(conn, row)

    @staticmethod
    def write_table(conn: Connection, row: TableRow) -> None:
        """Insert a new table with its seats in the caller's transaction ``conn`` (on the
        driver's cursor: every new game writes them, a game against the computer too)."""
        cur = raw_cursor(conn)
        try:
            dialect = conn.dialect
            _INSERT_TABLE.execute(cur, dialect, {
                "game_id": row.game_id, "status": row.status, "creator_seat": row.creator_seat,
                "invite_hash": row.invite_hash, "turn_clock": row.turn_clock,
                "rematch_id": row.rematch_id, "version": row.version,
                "created_at": row.created_at})
            for s in row.seats:
                _INSERT_SEAT.execute(cur, dialect, _seat_values(row.game_id, s))
        finally:
            cur.close()

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

    def move_seat(self, game_ids: Sequence[str], seat: int, old_hash: str, new_hash: str
                  ) -> list[str]:
        """Give seat ``seat`` of the tables ``game_ids`` (a table and its rematches) to another
        token: where the seat's person holds it by ``old_hash`` (and has not left), its token
        hash becomes ``new_hash`` and the table's version goes up, in one transaction. Returns
        the ids of the tables changed, in the order given (``[]``: the seat was not
        ``old_hash``'s anywhere, as after another request moved it first: nothing written).
        One statement per table (a series is short), each checking the old hash again, so that
        of two requests moving one seat at once only one changes each table."""
        changed: list[str] = []
        with self.engine.begin() as conn:
            for game_id in game_ids:
                res = conn.execute(
                    update(seats)
                    .where(seats.c.game_id == game_id, seats.c.seat == seat,
                           seats.c.kind == "person", seats.c.token_hash == old_hash,
                           seats.c.left.is_(False))
                    .values(token_hash=new_hash))
                if res.rowcount == 1:
                    conn.execute(update(tables).where(tables.c.game_id == game_id)
                                 .values(version=tables.c.version + 1))
                    changed.append(game_id)
        return changed

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
        ``until``): one statement, compiled once per dialect and run with the rows as its
        parameter sets (SQLAlchemy sends them as one multi-row ``INSERT``: its
        "insertmanyvalues"). A statement built with the rows as literal ``VALUES`` was compiled
        again for each renewal of up to :data:`REFRESH_BATCH` rows: about 3% of the servers'
        CPU in benchmarks/tables_load.py (benchmarks/results/cpu-action-2026-12-06.md)."""
        if not rows:
            return
        conn.execute(_upsert_holders_stmt(self.engine.dialect.name), rows)

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
        """Keep the hand order (a JSON object) of the person at ``seat`` (one statement)."""
        self._changed(_SET_HAND_ORDER, {"k_id": game_id, "k_seat": seat,
                                        "v_hand_order": json.dumps(order)})

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
