"""The game repository: web games as event logs in SQL (DESIGN.md principle 5).

Per game a row of ``games`` (:class:`~ginrummy.store.rows.GameRow`); per deal a row of
``deals`` (:class:`~ginrummy.store.rows.DealRow`): the deck, its salt and commitment, and the
action texts in order, plus the deal's result once it is over. A game is rebuilt by replaying its
deals (:class:`ginrummy.records.GameRecord`).

Every save is committed before the caller answers. On SQLite (one process) saves made at the
same moment share one commit (:mod:`ginrummy.store.writer`). On PostgreSQL (any number of
processes on one database, docs/deploy.md) a game and its deals are read in one statement
(:meth:`Store.get_game_with_deals`); a save applies only at the sequence number it was made on
(the row's ``seq`` in the ``UPDATE``'s condition: of two processes saving the same game at once,
the second waits for the first's row lock, then finds the new ``seq`` and applies nothing); and
each committed change is announced to every process (:mod:`ginrummy.store.live`). A move's save
is one statement there (one round trip: see :meth:`Store._save_in_one`), reads run in autocommit
(no BEGIN/ROLLBACK round trips), and the hot statements run on the driver's cursor
(:mod:`ginrummy.store.raw`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, insert, select, update

from .connect import DEFAULT_POOL_SIZE, make_engine
from .live import LIVE_CHANNEL, NOTIFY, ChangeFeed, payload
from .raw import Raw, driver_cursor, raw_cursor
from .rows import (
    DealRow,
    GameRow,
    Prefixed,
    deal_row,
    game_row,
    seats_text,
    storable_id,
)
from .schema import SCHEMA_VERSION, create_schema, deals, games, metadata
from .writer import Conflict, GroupWriter

__all__ = ["Store"]


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
        "auto": " ".join(str(i) for i in sorted(d.auto)) or None,
    }


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
_UPDATE_GAME: dict[tuple[str, ...], Any] = {}
_SELECT_GAME_DEALS = (select(games, *[c.label(f"d_{c.name}") for c in deals.c
                                      if c.name != "game_id"])
                      .select_from(games.outerjoin(deals, deals.c.game_id == games.c.id))
                      .where(games.c.id == bindparam("k_id"))
                      .order_by(deals.c.number))
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
_RAW_NOTIFY = Raw(NOTIFY)
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


class Store:
    """The games of one database.

    :param url: any SQLAlchemy URL (``sqlite:///path``, ``postgresql+psycopg://...``).
    :param pool_size: PostgreSQL connections kept open by this process (plus up to 4 more at
        busy moments, and one for :meth:`add_listener`); size it to the threads that use the
        store at once (docs/deploy.md). SQLite keeps its own pool.
    :raises SchemaError: the database is of another schema version.

    Writes to SQLite are committed in groups (:class:`~ginrummy.store.writer.GroupWriter`):
    each write still returns only once its transaction is committed. On PostgreSQL each write
    is its own transaction, ordered per game by the row's ``seq`` (see the module docstring),
    and each change is announced through ``NOTIFY``.
    """

    def __init__(self, url: str, *, pool_size: int = DEFAULT_POOL_SIZE) -> None:
        self.url = url
        self.engine = make_engine(url, pool_size)
        self.postgres = self.engine.dialect.name == "postgresql"
        #: the engine of reads and of one-statement writes: on PostgreSQL in autocommit (one
        #: statement is its own transaction and snapshot: no BEGIN and no ROLLBACK round
        #: trips); on SQLite the engine itself
        self.single: Engine = (self.engine.execution_options(isolation_level="AUTOCOMMIT")
                               if self.postgres else self.engine)
        create_schema(self.engine, metadata)
        self._writes = GroupWriter(self.engine, grouped=self.engine.dialect.name == "sqlite")
        self._live = ChangeFeed(url, self.single, self.postgres)

    @property
    def writing(self) -> AbstractContextManager[Any]:
        """The lock of this process's writers to the database: hold it around a transaction
        that writes to it outside this store (the sheets, the scorings, the retention sweep), so
        that SQLite sees one writer at a time and the store's grouped commits do not wait in
        its busy handler. A context manager (``with store.writing: ...``)."""
        return self._writes.lock

    def cursor(self) -> AbstractContextManager[Any]:
        """A DBAPI cursor of a pooled connection for reads and one-statement writes, each
        statement its own transaction (:func:`ginrummy.store.raw.driver_cursor`). Use it with
        :class:`~ginrummy.store.raw.Raw`."""
        return driver_cursor(self.engine)

    def close(self) -> None:
        """Stop listening for changes and close the database's connections."""
        self._live.close()
        self.engine.dispose()

    # ------------------------------------------------------------------------------ changes
    def add_listener(self, fn: Callable[[str, int], None],
                     on_resync: Callable[[], None] | None = None) -> None:
        """Call ``fn(game_id, seq)`` after every committed change of a game (a save, a new
        game, or :meth:`announce`), and ``on_resync()`` when changes may have been missed:
        see :meth:`ginrummy.store.live.ChangeFeed.add_listener`."""
        self._live.add_listener(fn, on_resync)

    def announce(self, game_id: str, seq: int) -> None:
        """Tell the listeners (of every process, on PostgreSQL) that ``game_id`` changed in a
        way that did not go through :meth:`save` (a seat's presence, a seat taken)."""
        self._live.announce(game_id, seq)

    # ---------------------------------------------------------------------------------- write
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
                raise Conflict()  # nothing written
            conn.execute(_INSERT_GAME, values)
            for v in deal_values:
                conn.execute(_INSERT_DEAL, v)
            if self.postgres:
                ChangeFeed.notify(conn, game.id, game.seq)

        try:
            self._writes.write(write)
        except Conflict:
            return False
        if not self.postgres:
            self._live.call_listeners(game.id, game.seq)
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
                    raise Conflict(game_row(now[0]) if now else None)  # nothing written
                for dp, v in deal_params:
                    if _RAW_UPDATE_DEAL.execute(cur, dialect, dp).rowcount == 0:
                        _RAW_INSERT_DEAL.execute(cur, dialect, v)
                if self.postgres and announce is not None:
                    _RAW_NOTIFY.execute(cur, dialect, {"c": LIVE_CHANNEL,
                                                       "p": payload(game_id, announce)})
            finally:
                cur.close()

        try:
            self._writes.write(write)
        except Conflict as e:
            if e.row is None:
                raise LookupError(f"no game {game_id!r}") from None
            now: GameRow = e.row  # what the write read instead (see Conflict)
            return now
        if announce is not None and not self.postgres:
            self._live.call_listeners(game_id, announce)
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
        args["c"], args["p"] = LIVE_CHANNEL, payload(game_id, announce)
        with self.cursor() as cur:
            cur.execute(sql, args)
            saved = cur.fetchone()[0]
            if saved == 1:
                return None
            now = _RAW_SELECT_GAME.rows(cur, self.engine.dialect, {"k_id": game_id})
        if not now:
            raise LookupError(f"no game {game_id!r}")
        return game_row(now[0])

    # ----------------------------------------------------------------------------------- read
    def get_game(self, game_id: str) -> GameRow | None:
        """The game's row, or None (no such game; an id that is not :func:`storable_id`)."""
        if not storable_id(game_id):
            return None
        with self.cursor() as cur:
            rows = _RAW_SELECT_GAME.rows(cur, self.engine.dialect, {"k_id": game_id})
        return game_row(rows[0]) if rows else None

    def get_deals(self, game_id: str) -> list[DealRow]:
        """The game's deals in order. Read with its row, use :meth:`get_game_with_deals`: two
        reads may see two moments of a game that another process is saving."""
        if not storable_id(game_id):
            return []
        with self.single.connect() as conn:
            rows = conn.execute(_SELECT_DEALS, {"k_id": game_id}).all()
        return [deal_row(r) for r in rows]

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
        deal_rows = [deal_row(Prefixed(r, "d_")) for r in rows if r.d_number is not None]
        return game_row(rows[0]), deal_rows
