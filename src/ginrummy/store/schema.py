"""The store's tables, their schema version and every migration (DESIGN.md, "Layout"). Imports
no repository: each repository creates the tables it uses through :func:`create_schema`.

Four groups of tables, each created (``CREATE TABLE`` if missing) by the repository that uses
them, all under one schema version kept in ``schema_info``:

* :data:`metadata`: ``games`` and ``deals`` (web games as event logs:
  :class:`ginrummy.store.Store`), ``tables``, ``seats`` and ``table_messages`` (every game's
  table, its seats and its quick messages: :class:`ginrummy.store.TableStore`; a game against
  the computer is a table with one person), and ``reviews`` (the reviews made of finished
  games and hands: :class:`ginrummy.store.ReviewStore`);
* :data:`sheets_metadata`: ``sheets`` and ``sheet_hands`` (the score keeper:
  :class:`ginrummy.store.sheets.SheetStore`);
* :data:`scorings_metadata`: ``game_tables`` (the scoring of each game that is not standard:
  :class:`ginrummy.store.VariantStore`);
* :data:`rate_limits_metadata`: ``rate_hits`` (rate limits shared through PostgreSQL:
  :class:`ginrummy.store.RateCounter`).

The columns' meanings are in the row types (:mod:`ginrummy.store.rows`) and the repositories'
docstrings.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    case,
    cast,
    exists,
    false,
    insert,
    inspect,
    literal,
    literal_column,
    null,
    select,
    text,
    update,
)

from .rows import sheet_json

__all__ = ["SCHEMA_VERSION", "FINISHED", "SchemaError", "create_schema", "move_old_hands",
           "metadata", "games", "games_updated_at", "deals", "tables", "seats", "seat_holders",
           "table_messages", "reviews", "schema_info",
           "sheets_metadata", "sheets", "sheet_hands", "scorings_metadata", "game_tables",
           "rate_limits_metadata", "rate_hits", "SEATS_OF_SCORING_AT_8"]

#: the version of the tables' layout, kept in ``schema_info``; a server migrates an older
#: database (:func:`create_schema`) and refuses a newer one. 2: ``games.turns`` (the table of
#: each action of a partnership with people at both tables) and the tables of people
#: (``tables``, ``seats``, ``table_messages``). 3: score keeper sheets of the first layout
#: (their hands inside the heading) moved to ``sheet_hands`` (:func:`move_old_hands`). 4:
#: every seat's side of the results (``games.winner_seats``; ``deals.players``,
#: ``winner_seat``, ``knocker_seat``) and the browser at each seat (``seats.player_id``), for
#: the statistics of every person at a table. 5: ``deals.turn_at`` (when the deal's turn began:
#: a turn clock per table of a partnership). 6: ``reviews`` (the reviews of finished games and
#: hands, made once and kept with their game). 7: ``deals.auto``. 8: every game has its
#: ``tables`` row and ``seats`` rows: a game against the computer is a table with one person
#: (seat 0) and no invite, its other seats computers (:func:`_tables_of_computer_games`).
SCHEMA_VERSION = 8
#: the ``games.status`` values of a finished game: over by the score, or resigned (given up by
#: its person: a lost game, docs/api.md "Resigning").
FINISHED = ("over", "resigned")
#: pg_advisory_xact_lock key held while the schema is created or checked ("ginrumm" in ASCII)
_SCHEMA_LOCK = 0x67696E72756D6D


class SchemaError(RuntimeError):
    """The database holds tables of another schema version than this program's."""


# ---------------------------------------------------------------------- games and their tables
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
    Column("hand_order", Text),  # before schema 8 (since: seats.hand_order)
    Column("status", String(16), nullable=False),  # waiting | playing | over | resigned
    Column("winner", Integer),
    Column("margin", Integer),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("finished_at", Float),
    Column("version", Integer, nullable=False, default=SCHEMA_VERSION),
    Column("turns", Text),  # see ginrummy.web.tables.numbering
    Column("winner_seats", String(16)),  # "0" / "1,3": the winning seats once over
)
#: the games by their last change, which the retention sweep reads by (made with the table, and
#: at a server's start where missing: :func:`ginrummy.store.retention.prepare`)
games_updated_at = Index("ix_games_updated_at", games.c.updated_at)

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
    # the actions a computer played for a person's seat (an away seat handed to it, a turn
    # clock run out): their indices, space-separated (issue 21 item 12); schema 7
    Column("auto", Text),
)


#: a review of a finished game, hand or decision (:mod:`ginrummy.store.reviews`): claimed by
#: the process making it (``status`` ``making``, its ``owner``, its progress ``done`` of
#: ``total`` and a ``heartbeat``), then kept (``done``, ``data``: its JSON) until its game is
#: deleted (the foreign key, and the retention sweep's every table with a ``game_id``)
reviews = Table(
    "reviews", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("scope", String(64), primary_key=True),  # e.g. "game/w192", "hand/3/w192"
    Column("status", String(16), nullable=False),  # making | done
    Column("owner", String(64)),
    Column("done", Integer, nullable=False, default=0),
    Column("total", Integer, nullable=False, default=0),
    Column("heartbeat", Float, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float),
    Column("data", Text),
)

schema_info = Table(
    "schema_info", metadata,
    Column("name", String(64), primary_key=True),
    Column("value", Integer, nullable=False),
)

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

#: the server processes holding a live stream of a seat now, each with the end of its lease
#: (issue 21 item 10; made by ``create_all``: no schema version of its own)
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

# ------------------------------------------------------------------------ score keeper sheets
sheets_metadata = MetaData()

sheets = Table(
    "sheets", sheets_metadata,
    Column("id", String(64), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("player_id", String(64), index=True),
    Column("data", Text, nullable=False),  # the heading: everything but the hands
    Column("seq", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False, index=True),
)

sheet_hands = Table(
    "sheet_hands", sheets_metadata,
    Column("sheet_id", String(64), primary_key=True),
    Column("number", Integer, primary_key=True),  # 1, 2, ... in the order entered
    Column("data", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

# ------------------------------------------------------------------------------ game scorings
scorings_metadata = MetaData()

game_tables = Table(
    "game_tables", scorings_metadata,
    Column("game_id", String(64), primary_key=True),
    Column("scoring", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
)

# -------------------------------------------------------------------- rate limits (PostgreSQL)
rate_limits_metadata = MetaData()

rate_hits = Table(
    "rate_hits", rate_limits_metadata,
    Column("key", String(80), primary_key=True),
    Column("window_start", Float, primary_key=True),  # seconds since 1970, a multiple of window
    Column("count", Integer, nullable=False),
)


# --------------------------------------------------------------------- creation and migration
def create_schema(engine: Engine, *metadatas: MetaData) -> None:
    """Create the missing tables of ``metadatas`` and check the schema version, in one
    transaction that first takes a lock (PostgreSQL: an advisory lock; SQLite: the write lock),
    so that processes starting at once on an empty database create the tables once (the others
    wait, then find them) instead of racing to a duplicate-key or "already exists" error. A
    database of an older version is migrated (:func:`_migrate`) in that transaction.

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


def _migrate(conn: Connection, found: int) -> None:
    """From schema ``found`` to :data:`SCHEMA_VERSION`, in the caller's (locked) transaction,
    once per database (the new tables are created by ``create_all``):

    * 1 -> 2: add ``games.turns`` to a database made before it;
    * 2 -> 3: move the hands of score keeper sheets of the first layout to ``sheet_hands``;
    * 3 -> 4: the columns of every seat's results and of the browser at each seat (empty for
      the games played before: their statistics stay seat 0's, its creator's);
    * 4 -> 5: ``deals.turn_at`` (empty for the deals before: their turn clock counts from the
      game's last change, as it did);
    * 5 -> 6: ``reviews``, a new table (``create_all`` makes it; nothing to move);
    * 6 -> 7: ``deals.auto`` (empty for the deals before: no move of theirs is said to be the
      computer's for a person);
    * 7 -> 8: a ``tables`` row and its ``seats`` rows for every game against the computer
      stored before (:func:`_tables_of_computer_games`).
    """
    found_tables = inspect(conn)
    if found < 2 and found_tables.has_table("games") and \
            "turns" not in {c["name"] for c in found_tables.get_columns("games")}:
        conn.execute(text("ALTER TABLE games ADD COLUMN turns TEXT"))
    if found < 3 and found_tables.has_table("sheets"):
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
    if found < 7 and found_tables.has_table("deals") and \
            "auto" not in {c["name"] for c in found_tables.get_columns("deals")}:
        conn.execute(text("ALTER TABLE deals ADD COLUMN auto TEXT"))
    if found < 8 and found_tables.has_table("games"):
        _tables_of_computer_games(conn, found_tables.has_table("game_tables"))


#: the seats of a game of each scoring kept in ``game_tables`` (a game without a row is a
#: standard one: two seats), as they were when schema 8 came: a fact of that time, which the
#: migration 7 -> 8 reads (the store imports nothing of the engine; the engine's
#: ``ginrummy.variants.PLAYER_COUNT`` agrees: tests/web/test_store_migrations.py)
SEATS_OF_SCORING_AT_8 = {"hollywood": 2, "three_player": 3, "partnership": 4}


def _tables_of_computer_games(conn: Connection, with_scorings: bool) -> None:
    """The migration 7 -> 8, in the caller's transaction: every game without a ``tables``
    row (a person against the computer, before schema 8) gets one, as a server of schema 8
    makes it for a new game against the computer. Set-based statements, whatever the number
    of games:

    * ``seats``: seat 0 the person (``games.token_hash``, ``player_id`` and ``hand_order``),
      every other seat of its scoring a computer at ``games.level``;
    * ``games.last_action``: the mark of the last action is its seat's, ``"0:<action>"`` (a
      table's: a retried action is still known as a duplicate);
    * ``games.winner_seats``, empty in a two-seat game finished before schema 4: the winning
      seat, which ``games.winner`` gives (0: seat 0, 1: seat 1), as the rating reads it;
    * ``tables``: ``playing`` (a game is over in ``games.status``), creator seat 0, no invite
      (nobody else may join: its state keeps the shape of docs/api.md, without ``table``,
      ``seats`` or ``messages``), no turn clock, made when the game was.

    ``with_scorings``: the database has ``game_tables`` (without it every game is standard).
    """
    alone = ~exists().where(tables.c.game_id == games.c.id)
    count: Any = literal_column("2")
    source: Any = games
    if with_scorings:
        count = case(*((game_tables.c.scoring == name, literal_column(str(n)))
                       for name, n in SEATS_OF_SCORING_AT_8.items()),
                     else_=literal_column("2"))
        source = games.outerjoin(game_tables, game_tables.c.game_id == games.c.id)
    seat_columns = ["game_id", "seat", "kind", "level", "name", "token_hash",
                    "connected_until", "left", "computer_for_away", "hand_order", "player_id"]
    conn.execute(insert(seats).from_select(seat_columns, select(
        games.c.id, literal_column("0"), literal_column("'person'"), null(), null(),
        games.c.token_hash, literal_column("0.0"), false(), false(), games.c.hand_order,
        games.c.player_id).where(alone)))
    for seat in (1, 2, 3):
        conn.execute(insert(seats).from_select(seat_columns, select(
            games.c.id, literal_column(str(seat)), literal_column("'computer'"), games.c.level,
            null(), null(), literal_column("0.0"), false(), false(), null(), null())
            .select_from(source).where(alone, count > seat)))
    conn.execute(update(games).where(alone, games.c.last_action.is_not(None))
                 .values(last_action=literal("0:") + games.c.last_action))
    two_seats = alone if not with_scorings else alone & ~exists().where(
        game_tables.c.game_id == games.c.id,
        game_tables.c.scoring.in_([k for k, n in SEATS_OF_SCORING_AT_8.items() if n != 2]))
    conn.execute(update(games).where(two_seats, games.c.winner_seats.is_(None),
                                     games.c.status == "over", games.c.winner.in_([0, 1]))
                 .values(winner_seats=cast(games.c.winner, String(16))))
    conn.execute(insert(tables).from_select(
        ["game_id", "status", "creator_seat", "invite_hash", "turn_clock", "rematch_id",
         "version", "created_at"],
        select(games.c.id, literal_column("'playing'"), literal_column("0"), null(), null(),
               null(), literal_column("0"), games.c.created_at).where(alone)))


def move_old_hands(conn: Connection) -> int:
    """Move the hands of sheets stored inside their heading (the first layout) to
    ``sheet_hands``, in the caller's transaction: the schema's migration 2 -> 3, run once per
    database under the schema lock (:func:`create_schema`). Texts that are not valid Unicode
    are repaired (U+FFFD). Returns the number of sheets moved."""
    sheets_metadata.create_all(conn)  # sheet_hands, if the database predates it
    old = conn.execute(select(sheets.c.id, sheets.c.data)
                       .where(sheets.c.data.like('%"hands"%'))).all()
    moved = 0
    now = time.time()
    for sheet_id, data in old:
        loaded = _repaired(json.loads(data))
        if "hands" not in loaded:
            continue  # a player's name holds the word
        hands = loaded.pop("hands") or []
        conn.execute(update(sheets).where(sheets.c.id == sheet_id)
                     .values(data=sheet_json(loaded)))
        for i, h in enumerate(hands, 1):
            conn.execute(insert(sheet_hands).values(sheet_id=sheet_id, number=i,
                                                    data=sheet_json(h), created_at=now))
        moved += 1
    return moved


def _repaired(value: Any) -> Any:
    """``value`` with each lone surrogate replaced by U+FFFD (sheets stored before texts were
    checked may hold one, and could not be answered)."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_repaired(k): _repaired(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_repaired(v) for v in value]
    return value
