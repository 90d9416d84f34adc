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
in the server), 7 (``deals.auto``: the moves a computer played for a person). Schema 8 gives
every game against the computer stored before its table: one person at seat 0, computers in
the other seats, no invite; a database of 7 holding such games and a table of people is
migrated, then played on through today's server. Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import random
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
EARLIER = (0, 1, 2, 3, 4, 5, 6, 7)
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
    if version >= 7:
        deals.append(Column("auto", Text))
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
    assert SCHEMA_VERSION == 8, "a new version: add the layout of 8 to this test"
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
            "0:knock 7H", 56, {"0": "rank"}, "over", 0, 131, NOW, NOW + 600, NOW + 600)
        assert game.turns is None  # added since: empty
        # schema 8: its last action marked with its seat, the winning seat from ``winner``
        assert game.winner_seats == (0,)
        # ... and its table: the person at seat 0, the computer at seat 1, no invite
        mine = tables.get("oldgame")
        assert mine is not None and not mine.shared
        assert (mine.status, mine.creator_seat, mine.invite_hash, mine.turn_clock,
                mine.rematch_id, mine.version, mine.created_at) == (
            "playing", 0, None, None, None, 0, NOW)
        assert [(s.seat, s.kind, s.level, s.name, s.token_hash, s.player_id, s.hand_order,
                 s.left, s.computer_for_away) for s in mine.seats] == [
            (0, "person", None, None, "a" * 64, "browser1", {"0": "rank"}, False, False),
            (1, "computer", "hard", None, None, None, None, False, False)]
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
        else:  # no tables of people before version 2: a Hollywood game against the computer
            assert table is not None and not table.shared
            assert [(s.seat, s.kind, s.level, s.token_hash) for s in table.seats] == [
                (0, "person", None, "a" * 64), (1, "computer", "hard", None)]

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


def test_the_seats_of_each_scoring_are_the_engines() -> None:
    """The migration 7 -> 8 keeps its own seat counts (the store imports no engine): the
    engine's, for every scoring a game could be stored with then."""
    from ginrummy.store.schema import SEATS_OF_SCORING_AT_8
    from ginrummy.variants import PLAYER_COUNT

    assert {"standard": 2, **SEATS_OF_SCORING_AT_8} == PLAYER_COUNT


# -------------------------------------------------- a database of schema 7, migrated and played on
PLAYER = "browser7-of-schema-7"  # a browser's ginrummy_player id (16 to 64 characters)


def _v7_game(game_id: str, scoring: str, seed: int, people: tuple[str, ...], moves: int,
             first_dealer: int = 0
             ) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """The rows a server of schema 7 stored for a game in play: its ``games`` row and its
    ``deals`` rows (in the layout of 7: no table row for a game against the computer, whose
    person's token hash is the game's; the last action not marked with its seat), and what
    the test needs to know of it (``people``: the tokens of the person seats, the others
    computers; ``moves``: the people's moves made, each followed by the computers').
    Played with the engine from decks of a fixed seed, as TableEngine stores deals (the
    deals' format is unchanged since 7)."""
    from ginrummy.bots import make_bot
    from ginrummy.cards import card_text
    from ginrummy.fairness import commitment_of
    from ginrummy.game import Game
    from ginrummy.rules import Rules
    from ginrummy.variants import fit_to_table
    from ginrummy.web.http.tokens import token_hash
    from ginrummy.web.tables.engine import DealInfo, TableEngine

    rng = random.Random(seed)
    rules = Rules.preset("standard", **fit_to_table({"target": 40}, scoring))
    engine = TableEngine(Game(rules, first_dealer, scoring), paced=len(people) == 1)
    infos: list[DealInfo] = []
    decks: list[list[str]] = []

    def new_deck(number: int) -> list[int]:
        deck = list(range(52))
        rng.shuffle(deck)
        texts = [card_text(c) for c in deck]
        salt = f"{seed:04d}{number:04d}" * 4
        infos.append(DealInfo(number, salt, commitment_of(salt, texts)))
        decks.append(texts)
        return deck

    bot = make_bot("easy")
    players = [None if s < len(people) else bot for s in range(engine.players)]

    def person_to_move() -> int | None:
        return next((s for s in range(len(people))
                     if engine.mover(engine.shown(s)) == s), None)

    engine.deal_hand(new_deck, lambda: 0)
    engine.advance(players, lambda i: random.Random(seed + i))
    last: tuple[str, int, int] | None = None
    for _ in range(moves):
        seat = person_to_move()
        assert seat is not None, "a person is to move (the seed deals a longer deal)"
        hand, index = engine.seat_hand(seat)
        action = sorted(hand.legal_actions(), key=lambda a: a.text)[0]
        last = (action.text.lower(), engine.seq(), seat)
        engine.apply(index, action)
        engine.advance(players, lambda i: random.Random(seed + i))
    assert person_to_move() is not None, "a person is to move (the seed deals a longer deal)"
    secret = f"{seed:02d}" * 32
    row = {"id": game_id, "token_hash": token_hash(people[0]), "player_id": PLAYER,
           "level": "easy", "preset": "standard", "rules": json.dumps(rules.to_dict()),
           "first_dealer": first_dealer, "secret": secret, "seq": engine.seq(),
           "last_action": None, "last_action_seq": None, "hand_order": None,
           "status": "playing", "winner": None, "margin": None, "created_at": NOW,
           "updated_at": NOW + 60, "finished_at": None, "version": 7,
           "turns": engine.turns(), "winner_seats": None}
    if last is not None:  # schema 7 marked a game against the computer's action alone
        text, seq, seat = last
        row["last_action"] = text if len(people) == 1 else f"{seat}:{text}"
        row["last_action_seq"] = seq
    deals = []
    for i, info in enumerate(infos):
        d = engine.deal_row(i, info, decks[i])
        deals.append({"game_id": game_id, "number": d.number, "dealer": d.dealer,
                      "deck": " ".join(d.deck), "salt": d.salt, "commitment": d.commitment,
                      "actions": "\n".join(d.actions), "finished": d.finished,
                      "result_kind": d.result_kind, "result_winner": d.result_winner,
                      "result_knocker": d.result_knocker, "result_points": d.result_points,
                      "players": ",".join(map(str, d.players)) if d.players else None,
                      "winner_seat": d.winner_seat, "knocker_seat": d.knocker_seat,
                      "turn_at": NOW + 60, "auto": " ".join(map(str, d.auto)) or None})
    shown = engine.shown(0)
    held = engine.deals()[shown].hand(engine.game.seatings[shown].seat_of(0)).texts()
    known = {"seq": engine.seq(), "last": last, "hand": engine.hand_number(0), "held": held}
    return row, deals, known


def _as_of_7(db_url: str) -> dict[str, Any]:
    """A database of schema 7: a standard game and a three-player game against the computer
    (the standard one with a hand order), and a standard table of two people, all in play."""
    engine = sa.create_engine(db_url)
    md = old_schema(7)
    md.create_all(engine)
    t = md.tables
    games: dict[str, Any] = {}
    try:
        with engine.begin() as c:
            c.execute(t["schema_info"].insert().values(name="version", value=7))
            for game_id, scoring, seed, people, moves, dealer in (
                    ("computer2", "standard", 3, ("token-of-the-person-2",), 2, 0),
                    ("computer3", "three_player", 5, ("token-of-the-person-3",), 1, 1),
                    ("people2", "standard", 7, ("token-of-ann-at-7", "token-of-bo-at-7"), 3, 0)):
                row, deals, known = _v7_game(game_id, scoring, seed, people, moves, dealer)
                if game_id == "computer2":
                    order = list(reversed(known["held"]))
                    row["hand_order"] = json.dumps({"hand": known["hand"], "cards": order})
                    known["order"] = order
                c.execute(t["games"].insert().values(row))
                for d in deals:
                    c.execute(t["deals"].insert().values(d))
                if scoring != "standard":
                    c.execute(t["game_tables"].insert().values(game_id=game_id,
                                                               scoring=scoring,
                                                               created_at=NOW))
                games[game_id] = {"people": people, **known}
            from ginrummy.web.http.tokens import token_hash
            c.execute(t["tables"].insert().values(
                game_id="people2", status="playing", creator_seat=0, invite_hash="f" * 64,
                turn_clock=None, rematch_id=None, version=2, created_at=NOW))
            for seat, (name, token) in enumerate(zip(("Ann", "Bo"), games["people2"]["people"],
                                                     strict=True)):
                c.execute(t["seats"].insert().values(
                    game_id="people2", seat=seat, kind="person", level=None, name=name,
                    token_hash=token_hash(token), connected_until=0.0, left=False,
                    computer_for_away=False, hand_order=None,
                    player_id=PLAYER if seat == 0 else None))
    finally:
        engine.dispose()
    return games


def test_a_database_of_7_is_migrated_and_played_on(
        db_url: str, make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games against the computer stored by a server of schema 7 (no table row) read the same
    after the migration (their sequence numbers, hand order, the duplicate of their last
    action, no table fields), refuse what a table of people allows as before, and play on to
    their end, rated from their seats; a table of people of 7 plays on beside them."""
    from web_helpers import choose

    import ginrummy.web.tables.service as service_module
    from ginrummy.store import rated_games

    deck_rng = random.Random(11)  # the decks of the deals dealt from now on

    def deck() -> list[int]:
        d = list(range(52))
        deck_rng.shuffle(d)
        return d

    monkeypatch.setattr(service_module, "shuffled_deck", deck)
    games = _as_of_7(db_url)
    client = make_client()  # today's server: the database migrated
    client.cookies.set("ginrummy_player", PLAYER)
    store = client.app.state.store  # type: ignore[attr-defined]
    tables = TableStore(store.engine, store.single, store.cursor)

    def call(method: str, game_id: str, token: str, path: str = "", body: Any = None) -> Any:
        return client.request(method, f"/api/games/{game_id}{path}", json=body,
                              headers={"Authorization": f"Bearer {token}"})

    # the games against the computer: tables with one person and no invite
    for game_id, n in (("computer2", 2), ("computer3", 3)):
        table = tables.get(game_id)
        assert table is not None and not table.shared and table.turn_clock is None
        assert [(s.seat, s.kind, s.level) for s in table.seats] == [
            (0, "person", None)] + [(i, "computer", "easy") for i in range(1, n)]
        token = games[game_id]["people"][0]
        r = call("GET", game_id, token)
        assert r.status_code == 200, r.text
        st = r.json()
        assert st["seq"] == games[game_id]["seq"] and st["you"] == 0
        assert not {"seats", "messages"} & set(st) and "status" not in (st.get("table") or {})
        assert call("PUT", game_id, token, "/seats/1",
                    {"kind": "computer"}).json()["detail"]["code"] == "not_waiting"
        assert call("POST", game_id, token, "/messages",
                    {"message": "hello"}).json()["detail"]["code"] == "not_waiting"
        assert call("POST", game_id, token, "/leave").status_code == 409

    mine = games["computer2"]
    st = call("GET", "computer2", mine["people"][0]).json()
    assert st["hand"] == mine["order"]  # its hand order, kept by schema 7 in its game row
    text, seq, _seat = mine["last"]
    again = call("POST", "computer2", mine["people"][0], "/actions",
                 {"action": text, "seq": seq})  # the last action of 7, sent again
    assert again.status_code == 200 and again.json()["duplicate"] is True, again.text

    # played on to their end (the person's moves from a fixed seed)
    rng = random.Random(13)
    for game_id in ("computer2", "computer3"):
        token = games[game_id]["people"][0]
        st = call("GET", game_id, token).json()
        for _ in range(3000):
            if st["phase"] == "game-over":
                break
            r = call("POST", game_id, token, "/actions",
                     {"action": choose(st, rng), "seq": st["seq"]})
            assert r.status_code == 200, f"{game_id}: {r.text}"
            st = r.json()
        assert st["phase"] == "game-over", game_id
        assert "seats" not in st
    rated = [g for g in rated_games(store.engine, [PLAYER]) if g.game_id == "computer2"]
    assert len(rated) == 1 and [(x.player_id, x.level) for x in rated[0].sides] == [
        (PLAYER, None), (None, "easy")]
    assert client.get("/api/stats").json()["games_played"] == 2

    # the table of people plays on: each person's turn in turn, with its table fields
    ann, bo = games["people2"]["people"]
    moved = 0
    for _ in range(6):
        states = {tok: call("GET", "people2", tok).json() for tok in (ann, bo)}
        assert all(s["seats"][0]["name"] == "Ann" and s["table"]["status"] == "playing"
                   and s["table"]["invite"] is None for s in states.values()), states
        movers = [tok for tok, s in states.items()
                  if s["phase"] in ("offer", "draw", "discard") and s["legal"]]
        if not movers:
            break
        s = states[movers[0]]
        r = call("POST", "people2", movers[0], "/actions",
                 {"action": choose(s, rng), "seq": s["seq"]})
        assert r.status_code == 200, r.text
        moved += 1
    assert moved >= 3
