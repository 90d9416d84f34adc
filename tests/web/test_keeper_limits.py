"""The score keeper against abuse (issue 14 item 1): only the known hand fields, with their types
and lengths; a hand stored on its own row (adding one writes only it); sheet creation limited
like game creation; sheet writes under the store's own write lock."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from ginrummy.web.http.ratelimit import RateLimits


def _sheet(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    r = client.post("/api/sheets", json={"players": ["Ana", "Budi"], **body})
    assert r.status_code == 201, r.text
    return r.json()["sheet_id"], {"Authorization": f"Bearer {r.json()['token']}"}


def _add(client: TestClient, sid: str, h: dict[str, str], hand: Any) -> Any:
    return client.post(f"/api/sheets/{sid}/hands", json={"hand": hand}, headers=h)


@pytest.mark.parametrize("hand", [
    {"winner": "Ana", "points": 10, "note": "x"},                        # unknown field
    {"winner": "Ana", "points": 10, "pad": "x" * 15_000},                 # padding
    {"winner": "Ana", "points": "10"},                                    # a number as text
    {"winner": "Ana", "points": 10.0},
    {"winner": "Ana", "points": True},
    {"dead": "yes"},
    {"knocker": "Ana", "result": "knock", "knocker_deadwood": 3, "defender_deadwood": 9,
     "upcard": "7H" * 100},                                               # too long a card
    {"knocker": "Ana", "knocker_cards": ["3S"] * 12, "defender": "2C"},  # too many cards
    {"knocker": "Ana", "knocker_cards": "3S " * 60, "defender": "2C"},
    {"knocker": "A" * 41, "result": "knock"},                             # too long a name
    {"tables": [{"dead": True}] * 3},
    {"tables": [{"dead": True}, {"tables": [{"dead": True}] * 2}]},       # no nesting
    [1, 2],
])
def test_only_known_hand_fields_with_their_types_and_lengths(client: TestClient,
                                                              hand: Any) -> None:
    sid, h = _sheet(client)
    r = _add(client, sid, h, hand)
    assert r.status_code == 422, r.text
    again = client.get(f"/api/sheets/{sid}", headers=h).json()
    assert again["seq"] == 0 and again["input"]["hands"] == []


def test_every_known_hand_shape_still_accepted(client: TestClient) -> None:
    sid, h = _sheet(client, preset="standard", rules={"target": 500})
    hands: list[dict[str, Any]] = [
        {"winner": "Ana", "points": 10, "kind": "gin"},
        {"dead": True},
        {"knocker": "Budi", "result": "knock", "knocker_deadwood": 3, "defender_deadwood": 9},
        {"knocker": "Ana", "result": "knock", "knocker_deadwood": None, "defender_deadwood": 9},
        {"knocker": "Ana", "knocker_cards": "3S 4S 5S 9H 9D 9C JD QD KD 4H",
         "defender": ["6S", "7S", "QC", "QH", "QS", "4C", "5C", "6C", "AC", "2D"]},
        {"knocker": "Ana", "melds": [["3S", "4S", "5S"], "9H 9D 9C", "JD QD KD"],
         "deadwood": ["4H"], "defender": "6S 7S QC QH QS 4C 5C 6C AC 2D"},
    ]
    expected = [200, 200, 200, 422, 200, 200]  # a null deadwood is the keeper's own 422
    for hand, status in zip(hands, expected, strict=True):
        r = _add(client, sid, h, hand)
        assert r.status_code == status, (hand, r.text)
    got = client.get(f"/api/sheets/{sid}", headers=h).json()
    assert got["input"]["hands"] == [x for x, s in zip(hands, expected, strict=True)
                                     if s == 200]


def test_a_hand_is_its_own_row_adding_one_leaves_the_others(client: TestClient,
                                                            db_url: str) -> None:
    sid, h = _sheet(client, rules={"target": 1000})
    engine = sa.create_engine(db_url)
    try:
        def sheet_bytes() -> int:
            with engine.connect() as c:
                return int(c.execute(sa.text("SELECT length(data) FROM sheets WHERE id = :i"),
                                     {"i": sid}).scalar_one())

        before = sheet_bytes()
        for i in range(12):
            assert _add(client, sid, h, {"winner": "Ana" if i % 2 else "Budi",
                                         "points": 7}).status_code == 200
        assert sheet_bytes() == before  # the sheet's own row is not rewritten with each hand
        with engine.connect() as c:
            n = c.execute(sa.text("SELECT count(*) FROM sheet_hands WHERE sheet_id = :i"),
                          {"i": sid}).scalar_one()
        assert n == 12
        assert client.delete(f"/api/sheets/{sid}/hands/last", headers=h).status_code == 200
        with engine.connect() as c:
            rows = c.execute(sa.text("SELECT number FROM sheet_hands WHERE sheet_id = :i "
                                     "ORDER BY number"), {"i": sid}).scalars().all()
        assert rows == list(range(1, 12))
        got = client.get(f"/api/sheets/{sid}", headers=h).json()
        assert got["seq"] == 13 and len(got["input"]["hands"]) == 11
    finally:
        engine.dispose()


def test_sheet_creation_is_rate_limited_like_game_creation(
        make_client: Callable[..., TestClient]) -> None:
    c = make_client(rate_limits=RateLimits(creates=3, requests=None, window=60))
    body = {"players": ["Ana", "Budi"]}
    got = [c.post("/api/sheets", json=body).status_code for _ in range(4)]
    assert got == [201, 201, 201, 429]
    r = c.post("/api/sheets", json=body)
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    assert r.json()["detail"]["code"] == "rate_limited"


def test_sheet_writes_take_the_stores_write_lock(client: TestClient) -> None:
    sid, h = _sheet(client)
    lock = client.app.state.store.writing  # type: ignore[attr-defined]
    done = threading.Event()
    status: list[int] = []

    def add() -> None:
        status.append(_add(client, sid, h, {"winner": "Ana", "points": 5}).status_code)
        done.set()

    with lock:
        t = threading.Thread(target=add, daemon=True)
        t.start()
        assert not done.wait(0.5), "a sheet write went ahead while the store's writer held " \
                                   "the lock"
    assert done.wait(10) and status == [200]


def test_the_store_refuses_text_it_could_not_answer(tmp_path: Any) -> None:
    """Below the API too: a hand with a lone surrogate is never written."""
    from ginrummy.store import SheetRow, SheetStore

    engine = sa.create_engine(f"sqlite:///{tmp_path / 's.sqlite3'}")
    try:
        store = SheetStore(engine)
        store.insert(SheetRow("s1", "h", None, {"players": ["A", "B"], "hands": []}))
        with pytest.raises(ValueError, match="Unicode"):
            store.add_hand("s1", 0, {"winner": "A", "points": 3, "note": "\ud800"})
        row = store.get("s1")
        assert row is not None and row.seq == 0 and row.data["hands"] == []
    finally:
        engine.dispose()


def test_sheets_of_the_first_layout_keep_their_hands(tmp_path: Any) -> None:
    """A database whose sheets hold their hands in the sheet's JSON (before a row per hand):
    opening the store moves them, in order, and mends a lone surrogate saved then."""
    import json

    from ginrummy.store.sheets import SheetStore

    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    try:
        with engine.begin() as c:
            c.execute(sa.text("CREATE TABLE sheets (id VARCHAR(64) PRIMARY KEY, token_hash "
                              "VARCHAR(64) NOT NULL, player_id VARCHAR(64), data TEXT NOT NULL, "
                              "seq INTEGER NOT NULL, created_at FLOAT NOT NULL, updated_at "
                              "FLOAT NOT NULL)"))
            hands = [{"winner": "A", "points": 5}, {"dead": True},
                     {"winner": "B", "points": 9, "note": "\ud800"}]
            for sid, hs in (("old1", hands), ("old2", []), ("old3", None)):
                data = {"rules": {"preset": "standard"}, "scoring": "standard",
                        "players": ["A", "B"]}
                if hs is not None:
                    data["hands"] = hs
                c.execute(sa.text("INSERT INTO sheets VALUES (:i, 'h', NULL, :d, :s, 0, 0)"),
                          {"i": sid, "d": json.dumps(data), "s": len(hs or [])})
        store = SheetStore(engine)
        SheetStore(engine)  # a second process opening the same file: nothing moved twice
        got = store.get("old1")
        assert got is not None and got.seq == 3
        assert got.data["hands"] == [*hands[:2], {"winner": "B", "points": 9, "note": "\ufffd"}]
        json.dumps(got.data).encode("utf-8")
        with engine.connect() as c:
            head = c.execute(sa.text("SELECT data FROM sheets WHERE id = 'old1'")).scalar_one()
        assert "hands" not in json.loads(head)
        for sid in ("old2", "old3"):
            row = store.get(sid)
            assert row is not None and row.data["hands"] == []
        assert store.add_hand("old1", 3, {"dead": True})
        again = store.get("old1")
        assert again is not None and len(again.data["hands"]) == 4
    finally:
        engine.dispose()


def test_sheets_of_the_first_layout_are_moved_once_by_the_schema_migration(
        db_url: str) -> None:
    """The move is the schema's migration 2 -> 3 (under the schema lock), not a scan at every
    start: a database of version 2 with a sheet of the first layout is migrated when a store
    opens; once at version 3, opening a store reads no sheet (a row of the old layout written
    behind its back stays as it is)."""
    import json

    from ginrummy.store import SCHEMA_VERSION, Store

    assert SCHEMA_VERSION >= 3

    def version(engine: sa.Engine) -> int:
        with engine.connect() as c:
            return int(c.execute(sa.text("SELECT value FROM schema_info WHERE name = 'version'"))
                       .scalar_one())

    def old_sheet(engine: sa.Engine, sid: str) -> None:
        data = {"rules": {"preset": "standard"}, "scoring": "standard", "players": ["A", "B"],
                "hands": [{"winner": "A", "points": 5}, {"dead": True}]}
        with engine.begin() as c:
            c.execute(sa.text("INSERT INTO sheets (id, token_hash, player_id, data, seq, "
                              "created_at, updated_at) VALUES (:i, 'h', NULL, :d, 2, 0, 0)"),
                      {"i": sid, "d": json.dumps(data)})

    def head(engine: sa.Engine, sid: str) -> dict[str, Any]:
        with engine.connect() as c:
            return dict(json.loads(c.execute(sa.text("SELECT data FROM sheets WHERE id = :i"),
                                             {"i": sid}).scalar_one()))

    first = Store(db_url)
    from ginrummy.store.sheets import SheetStore

    SheetStore(first.engine)
    try:
        old_sheet(first.engine, "old1")
        with first.engine.begin() as c:
            c.execute(sa.text("UPDATE schema_info SET value = 2 WHERE name = 'version'"))
    finally:
        first.close()

    second = Store(db_url)  # the migration: version 2 -> 3 (and on)
    try:
        assert version(second.engine) == SCHEMA_VERSION
        assert "hands" not in head(second.engine, "old1")
        got = SheetStore(second.engine).get("old1")
        assert got is not None and got.data["hands"] == [{"winner": "A", "points": 5},
                                                         {"dead": True}]
        old_sheet(second.engine, "old2")  # behind the migration's back
    finally:
        second.close()

    third = Store(db_url)
    try:
        SheetStore(third.engine)
        assert version(third.engine) == SCHEMA_VERSION
        assert "hands" in head(third.engine, "old2")  # not scanned again: migrated once
        got = SheetStore(third.engine).get("old1")
        assert got is not None and len(got.data["hands"]) == 2  # nothing moved twice
    finally:
        third.close()
