"""The schema's migrations on a database of every earlier schema version.

Each earlier layout is written out below as the code of its time made it (not derived from
today's tables), filled with a few rows of its time, then opened by today's store, as a server
of today would open it (the game store, then the variant and sheet tables). Afterwards the
database is at :data:`SCHEMA_VERSION`, its tables, columns and indexes are those of a database
made by today's code, every old row reads back as it was written (the columns added since are
empty), the old sheets' hands are in their own rows, and the new columns can be written.

The versions: 1 before ``schema_info`` existed (64f7fcd, 5419073), 1 with it (16c93c1), 2
(``games.turns`` and the tables of people: e18afe1), 3 (``sheet_hands``: ed75275), 4 (every
seat's results and browser: 3813447), 5 (``deals.turn_at``: fefd2ed), 6 (``reviews``: the review
in the server). Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

from ginrummy.store import (
    SCHEMA_VERSION,
    DealRow,
    ReviewStore,
    Store,
    TableStore,
    VariantStore,
    prepare,
)

#: the earlier versions; ``0`` is version 1 made before ``schema_info`` existed
EARLIER = (0, 1, 2, 3, 4, 5, 6)
NOW = 1_700_000_000.0
DECK = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"]


def old_schema(version: int) -> MetaData:
    """The tables of a database of ``version``, as that version's code created them."""
    md = MetaData()
    games = [
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
        Column("status", String(16), nullable=False),
        Column("winner", Integer),
        Column("margin", Integer),
        Column("created_at", Float, nullable=False),
        Column("updated_at", Float, nullable=False),
        Column("finished_at", Float),
        Column("version", Integer, nullable=False),
    ]
    deals = [
        Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"),
               primary_key=True),
        Column("number", Integer, primary_key=True),
        Column("dealer", Integer, nullable=False),
        Column("deck", Text, nullable=False),
        Column("salt", String(64), nullable=False),
        Column("commitment", String(64), nullable=False),
        Column("actions", Text, nullable=False),
        Column("finished", Boolean, nullable=False),
        Column("result_kind", String(16)),
        Column("result_winner", Integer),
        Column("result_knocker", Integer),
        Column("result_points", Integer),
    ]
    sheets = [
        Column("id", String(64), primary_key=True),
        Column("token_hash", String(64), nullable=False),
        Column("player_id", String(64), index=True),
        Column("data", Text, nullable=False),
        Column("seq", Integer, nullable=False),
        Column("created_at", Float, nullable=False),
        Column("updated_at", Float, nullable=False, index=version >= 3),
    ]
    seats = [
        Column("game_id", String(64), primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("kind", String(16), nullable=False),
        Column("level", String(64)),
        Column("name", String(64)),
        Column("token_hash", String(64), index=True),
        Column("connected_until", Float, nullable=False),
        Column("left", Boolean, nullable=False),
        Column("computer_for_away", Boolean, nullable=False),
        Column("hand_order", Text),
    ]
    if version >= 2:
        games.append(Column("turns", Text))
    if version >= 4:
        games.append(Column("winner_seats", String(16)))
        deals += [Column("players", String(16)), Column("winner_seat", Integer),
                  Column("knocker_seat", Integer)]
        seats.append(Column("player_id", String(64), index=True))
    if version >= 5:
        deals.append(Column("turn_at", Float))
    Table("games", md, *games)
    Table("deals", md, *deals)
    Table("game_tables", md,
          Column("game_id", String(64), primary_key=True),
          Column("scoring", String(32), nullable=False),
          Column("created_at", Float, nullable=False))
    Table("sheets", md, *sheets)
    if version >= 1:
        Table("schema_info", md,
              Column("name", String(64), primary_key=True),
              Column("value", Integer, nullable=False))
    if version >= 2:
        Table("tables", md,
              Column("game_id", String(64), primary_key=True),
              Column("status", String(16), nullable=False),
              Column("creator_seat", Integer, nullable=False),
              Column("invite_hash", String(64), index=True, unique=True),
              Column("turn_clock", Integer),
              Column("rematch_id", String(64)),
              Column("version", Integer, nullable=False),
              Column("created_at", Float, nullable=False))
        Table("seats", md, *seats)
        Table("table_messages", md,
              Column("id", Integer, primary_key=True, autoincrement=True),
              Column("game_id", String(64), index=True, nullable=False),
              Column("seat", Integer, nullable=False),
              Column("message", String(32), nullable=False),
              Column("seq_at", Integer, nullable=False),
              Column("at", Float, nullable=False))
    if version >= 6:
        Table("reviews", md,
              Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"),
                     primary_key=True),
              Column("scope", String(64), primary_key=True),
              Column("status", String(16), nullable=False),
              Column("owner", String(64)),
              Column("done", Integer, nullable=False, default=0),
              Column("total", Integer, nullable=False, default=0),
              Column("heartbeat", Float, nullable=False),
              Column("created_at", Float, nullable=False),
              Column("finished_at", Float),
              Column("data", Text))
    if version >= 3:
        Table("sheet_hands", md,
              Column("sheet_id", String(64), primary_key=True),
              Column("number", Integer, primary_key=True),
              Column("data", Text, nullable=False),
              Column("created_at", Float, nullable=False))
    return md


HEADING = {"rules": {"preset": "standard"}, "scoring": "standard", "players": ["Ana", "Budi"]}
HANDS = [{"winner": "Ana", "points": 25}, {"dead": True}, {"winner": "Budi", "points": 12}]


def fill(engine: sa.Engine, md: MetaData, version: int) -> None:
    """The rows of a database of ``version``: a finished game against the computer with two
    deals, a variant game's scoring, a sheet with its hands, and (from version 2) a table of
    people with two seats and a message."""
    t = md.tables
    with engine.begin() as c:
        game = {"id": "oldgame", "token_hash": "a" * 64, "player_id": "browser1",
                "level": "hard", "preset": "oklahoma", "rules": json.dumps({"target": 100}),
                "first_dealer": 1, "secret": "b" * 64, "seq": 57, "last_action": "knock 7H",
                "last_action_seq": 56, "hand_order": json.dumps({"0": "rank"}),
                "status": "over", "winner": 0, "margin": 131, "created_at": NOW,
                "updated_at": NOW + 600, "finished_at": NOW + 600, "version": max(version, 1)}
        c.execute(t["games"].insert().values(game))
        c.execute(t["games"].insert().values({**game, "id": "oldtable", "player_id": None,
                                              "seq": 3, "last_action": None,
                                              "last_action_seq": None, "status": "playing",
                                              "winner": None, "margin": None,
                                              "finished_at": None, "hand_order": None}))
        for number, dealer, actions, result in (
                (1, 1, "draw stock\ndiscard 9C\nknock 7H", ("knock", 0, 0, 31)),
                (2, 0, "pass", (None, None, None, None))):
            c.execute(t["deals"].insert().values(
                game_id="oldgame", number=number, dealer=dealer, deck=" ".join(DECK),
                salt=f"salt{number}", commitment=f"{number}" * 64, actions=actions,
                finished=result[0] is not None, result_kind=result[0],
                result_winner=result[1], result_knocker=result[2], result_points=result[3]))
        c.execute(t["game_tables"].insert().values(game_id="oldtable", scoring="hollywood",
                                                   created_at=NOW))
        sheet = {"id": "oldsheet", "token_hash": "c" * 64, "player_id": "browser1", "seq": 3,
                 "created_at": NOW, "updated_at": NOW}
        if version < 3:  # the first layout: the hands inside the heading
            c.execute(t["sheets"].insert().values(data=json.dumps({**HEADING, "hands": HANDS}),
                                                  **sheet))
        else:
            c.execute(t["sheets"].insert().values(data=json.dumps(HEADING), **sheet))
            for i, h in enumerate(HANDS, 1):
                c.execute(t["sheet_hands"].insert().values(sheet_id="oldsheet", number=i,
                                                           data=json.dumps(h), created_at=NOW))
        if version >= 1:
            c.execute(t["schema_info"].insert().values(name="version", value=version))
        if version >= 2:
            c.execute(t["tables"].insert().values(
                game_id="oldtable", status="playing", creator_seat=0, invite_hash="d" * 64,
                turn_clock=60, rematch_id=None, version=4, created_at=NOW))
            for seat, kind, name in ((0, "person", "Ana"), (1, "computer", None)):
                c.execute(t["seats"].insert().values(
                    game_id="oldtable", seat=seat, kind=kind, level=None if name else "easy",
                    name=name, token_hash="e" * 64 if name else None,
                    connected_until=NOW if name else 0.0, left=False, computer_for_away=False,
                    hand_order=None))
            c.execute(t["table_messages"].insert().values(game_id="oldtable", seat=0,
                                                          message="hello", seq_at=2, at=NOW))


def layout(engine: sa.Engine) -> dict[str, Any]:
    """Every table's columns (name, type, nullable) and indexes (name, columns, unique)."""
    insp = sa.inspect(engine)
    out: dict[str, Any] = {}
    for name in sorted(insp.get_table_names()):
        cols = sorted((c["name"], str(c["type"]), bool(c["nullable"]))
                      for c in insp.get_columns(name))
        ixs = sorted((i["name"], tuple(i["column_names"]), bool(i["unique"]))
                     for i in insp.get_indexes(name))
        pk = tuple(insp.get_pk_constraint(name)["constrained_columns"])
        out[name] = {"columns": cols, "indexes": ixs, "primary key": pk}
    return out


def open_as_a_server(url: str) -> tuple[Store, TableStore, VariantStore]:
    """The store and the repositories a server of today opens on ``url``, in its order."""
    store = Store(url)
    return (store, TableStore(store.engine, store.single, store.cursor),
            VariantStore(store.engine))


@pytest.fixture
def fresh_layout(db_url: str) -> dict[str, Any]:
    """The layout of a database made by today's code (in a database of its own)."""
    from pg_helpers import fresh_postgres_database

    if db_url.startswith("sqlite"):
        other = db_url.replace("games.sqlite3", "fresh.sqlite3")
        store, _tables, _variants = open_as_a_server(other)
        try:
            prepare(store.engine)
            return layout(store.engine)
        finally:
            store.close()
    with fresh_postgres_database() as other:
        store, _tables, _variants = open_as_a_server(other)
        try:
            prepare(store.engine)
            return layout(store.engine)
        finally:
            store.close()


@pytest.mark.parametrize("version", EARLIER)
def test_a_database_of_every_earlier_version_is_migrated(db_url: str, version: int,
                                                         fresh_layout: dict[str, Any]) -> None:
    assert SCHEMA_VERSION == 7, "a new version: add the layout of 7 to this test"
    engine = sa.create_engine(db_url)
    try:
        md = old_schema(version)
        md.create_all(engine)
        fill(engine, md, version)
    finally:
        engine.dispose()

    store, tables, variants = open_as_a_server(db_url)
    try:
        with store.engine.connect() as c:
            assert c.execute(sa.text("SELECT value FROM schema_info WHERE name = 'version'")
                             ).scalar_one() == SCHEMA_VERSION
        prepare(store.engine)  # the retention's index, as a server makes it at its start
        assert layout(store.engine) == fresh_layout

        got = store.get_game_with_deals("oldgame")
        assert got is not None
        game, deals = got
        assert (game.token_hash, game.player_id, game.level, game.preset, game.rules,
                game.first_dealer, game.secret, game.seq, game.last_action,
                game.last_action_seq, game.hand_order, game.status, game.winner, game.margin,
                game.created_at, game.updated_at, game.finished_at) == (
            "a" * 64, "browser1", "hard", "oklahoma", {"target": 100}, 1, "b" * 64, 57,
            "knock 7H", 56, {"0": "rank"}, "over", 0, 131, NOW, NOW + 600, NOW + 600)
        assert game.turns is None and game.winner_seats is None  # added since: empty
        assert [(d.number, d.dealer, d.deck, d.salt, d.commitment, d.actions, d.finished,
                 d.result_kind, d.result_winner, d.result_knocker, d.result_points)
                for d in deals] == [
            (1, 1, DECK, "salt1", "1" * 64, ["draw stock", "discard 9C", "knock 7H"], True,
             "knock", 0, 0, 31),
            (2, 0, DECK, "salt2", "2" * 64, ["pass"], False, None, None, None, None)]
        assert all((d.players, d.winner_seat, d.knocker_seat, d.turn_at, d.auto)
                   == (None, None, None, None, []) for d in deals)

        assert variants.scoring("oldtable") == "hollywood"
        sheet = variants.sheets.get("oldsheet")
        assert sheet is not None and sheet.seq == 3
        assert sheet.data == {**HEADING, "hands": HANDS}
        with store.engine.connect() as c:  # the hands are rows of their own now
            head = json.loads(c.execute(sa.text("SELECT data FROM sheets WHERE id = 'oldsheet'"))
                              .scalar_one())
            assert head == HEADING
            assert c.execute(sa.text("SELECT count(*) FROM sheet_hands")).scalar_one() == 3

        table = tables.get("oldtable")
        if version >= 2:
            assert table is not None
            assert (table.status, table.creator_seat, table.invite_hash, table.turn_clock,
                    table.version) == ("playing", 0, "d" * 64, 60, 4)
            assert [(s.seat, s.kind, s.name, s.level, s.player_id) for s in table.seats] == [
                (0, "person", "Ana", None, None), (1, "computer", None, "easy", None)]
            assert [m.message for m in tables.messages("oldtable")] == ["hello"]
        else:
            assert table is None  # no tables of people before version 2

        # the columns added since take values
        deal = DealRow(3, 1, DECK, "salt3", "3" * 64, ["draw stock"], players=(0, 1),
                       turn_at=NOW + 700, auto=[0])
        assert store.save_checked("oldtable", 3, {"seq": 4, "turns": "0",
                                                  "winner_seats": "0"}, [deal]) is None
        after = store.get_game_with_deals("oldtable")
        assert after is not None
        assert (after[0].seq, after[0].turns, after[0].winner_seats) == (4, "0", (0,))
        assert [(d.number, d.players, d.turn_at, d.auto) for d in after[1]] == [
            (3, (0, 1), NOW + 700, [0])]
        # the table added since takes rows
        reviews = ReviewStore(store.engine, store.writing)
        assert reviews.claim("oldgame", "game/w8", "me", 10, stale_before=0.0)
        assert reviews.finish("oldgame", "game/w8", "{}")
        got_review = reviews.get("oldgame", "game/w8")
        assert got_review is not None and got_review.data == "{}"
    finally:
        store.close()

    again, _tables, _variants = open_as_a_server(db_url)  # migrated once: nothing left to do
    try:
        assert layout(again.engine) == fresh_layout
        assert again.get_game("oldgame") is not None
    finally:
        again.close()
