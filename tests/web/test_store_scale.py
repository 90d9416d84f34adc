"""The store when several server processes share one database (issue 10, "Scale-out"): each
test runs on SQLite and on PostgreSQL (``db_url``); two :class:`Store` objects on one database
stand for two processes (each has its own connections, as a process would)."""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from web_helpers import Table

from ginrummy.store import SCHEMA_VERSION, DealRow, GameRow, SchemaError, Statistics, Store
from ginrummy.store.connect import _set_wal


def _game(game_id: str | None = None) -> tuple[GameRow, list[DealRow]]:
    game_id = game_id or secrets.token_urlsafe(12)
    row = GameRow(id=game_id, token_hash="0" * 64, player_id=None, level="novice",
                  preset="standard", rules={"target": 100}, first_dealer=0, secret="00" * 32,
                  seq=0)
    deal = DealRow(1, 0, ["AS", "2S"], "salt", "commit")
    return row, [deal]


@pytest.fixture
def stores(db_url: str) -> Iterator[Callable[[], Store]]:
    made: list[Store] = []

    def make() -> Store:
        s = Store(db_url)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def test_get_game_with_deals_one_moment(stores: Callable[[], Store]) -> None:
    s = stores()
    row, deals = _game()
    s.insert_game(row, deals)
    got = s.get_game_with_deals(row.id)
    assert got is not None
    g, ds = got
    assert (g.id, g.seq, g.rules) == (row.id, 0, {"target": 100})
    assert [(d.number, d.deck, d.actions) for d in ds] == [(1, ["AS", "2S"], [])]
    d2 = DealRow(2, 1, ["3S"], "s2", "c2", ["draw stock"])
    assert s.save_checked(row.id, 0, {"seq": 5, "last_action": "x", "last_action_seq": 0},
                          [d2]) is None
    g, ds = s.get_game_with_deals(row.id) or (None, [])
    assert g is not None and g.seq == 5 and [d.number for d in ds] == [1, 2]
    assert ds[1].actions == ["draw stock"]
    assert s.get_game_with_deals("no-such-game") is None


def test_consistent_reads_while_another_process_saves(stores: Callable[[], Store]) -> None:
    """A reader never sees a row of one moment with deals of another: the row's seq counts the
    deals' actions here, and another store keeps saving while this one reads."""
    a, b = stores(), stores()
    row, deals = _game()
    a.insert_game(row, deals)
    stop = threading.Event()
    errors: list[BaseException] = []

    def writer() -> None:  # until the reader has seen enough (not a count of its own)
        try:
            seq = 0
            while not stop.is_set() and seq < 20_000:
                d = DealRow(1, 0, ["AS", "2S"], "salt", "commit", ["draw stock"] * (seq + 1))
                assert a.save_checked(row.id, seq, {"seq": seq + 1}, [d]) is None
                seq += 1
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    t = threading.Thread(target=writer)
    t.start()
    moments: set[int] = set()  # the seqs the reader saw: reads of many moments of the writing
    deadline = time.monotonic() + 30
    try:
        while t.is_alive() and time.monotonic() < deadline and len(moments) < 30:
            got = b.get_game_with_deals(row.id)
            assert got is not None
            g, ds = got
            assert g.seq == len(ds[0].actions), (g.seq, len(ds[0].actions))
            moments.add(g.seq)
    finally:
        stop.set()
        t.join(30)
    assert not errors, errors
    assert len(moments) >= 30, sorted(moments)


def test_losing_save_gets_the_current_row(stores: Callable[[], Store]) -> None:
    """Two processes save the same game at the same seq: one applies, the other applies nothing
    and gets the row as the winner left it (its last action: the duplicate re-check)."""
    a, b = stores(), stores()
    row, deals = _game()
    a.insert_game(row, deals)
    results: dict[str, Any] = {}
    barrier = threading.Barrier(2)

    def save(name: str, s: Store) -> None:
        barrier.wait(10)
        d = DealRow(1, 0, ["AS", "2S"], "salt", "commit", [f"by {name}"])
        results[name] = s.save_checked(row.id, 0, {"seq": 1, "last_action": f"act {name}",
                                                   "last_action_seq": 0}, [d])

    threads = [threading.Thread(target=save, args=(n, s)) for n, s in (("a", a), ("b", b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    winners = [n for n, r in results.items() if r is None]
    assert len(winners) == 1, results
    loser = "b" if winners == ["a"] else "a"
    current = results[loser]
    assert current.seq == 1 and current.last_action == f"act {winners[0]}"
    got = a.get_game_with_deals(row.id)
    assert got is not None and got[1][0].actions == [f"by {winners[0]}"]
    with pytest.raises(LookupError):
        a.save_checked("no-such-game", 0, {"seq": 1}, [])


def test_schema_created_once_by_processes_starting_together(db_url: str) -> None:
    """Six stores created at the same moment on an empty database all come up."""
    barrier = threading.Barrier(6)
    made: list[Store] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            barrier.wait(10)
            made.append(Store(db_url))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert not errors, errors
        assert len(made) == 6
        with made[0].engine.connect() as conn:
            assert conn.execute(text("SELECT value FROM schema_info WHERE name = 'version'")
                                ).scalar_one() == SCHEMA_VERSION
    finally:
        for s in made:
            s.close()


class _Cursor:
    """Answers "database is locked" ``locked`` times, then sets the mode."""

    def __init__(self, locked: int, error: str = "database is locked") -> None:
        self.locked, self.error, self.calls = locked, error, 0

    def execute(self, sql: str) -> None:
        assert sql == "PRAGMA journal_mode=WAL"
        self.calls += 1
        if self.calls <= self.locked:
            raise sqlite3.OperationalError(self.error)


def test_wal_switch_tries_again_while_another_connection_switches() -> None:
    """Two connections switching a new file to WAL at once: the loser is told "database is
    locked" without SQLite's busy handler (seen in CI, 1 in ~60 starts of six stores)."""
    cur = _Cursor(locked=3)
    _set_wal(cur)
    assert cur.calls == 4
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        _set_wal(_Cursor(locked=10**6), wait=0.05)
    other = _Cursor(locked=1, error="disk I/O error")
    with pytest.raises(sqlite3.OperationalError, match="disk"):
        _set_wal(other)
    assert other.calls == 1


def test_another_schema_version_is_refused(stores: Callable[[], Store], db_url: str) -> None:
    s = stores()
    with s.engine.begin() as conn:
        conn.execute(text("UPDATE schema_info SET value = :v WHERE name = 'version'"),
                     {"v": SCHEMA_VERSION + 1})
    with pytest.raises(SchemaError, match="schema version"):
        Store(db_url)


def test_ids_that_cannot_be_stored_name_nothing(stores: Callable[[], Store],
                                                client: TestClient) -> None:
    s = stores()
    for bad in ("\x00", "a\x00b", "x" * 65, "", "é"):
        assert s.get_game(bad) is None and s.get_deals(bad) == []
        assert s.get_game_with_deals(bad) is None and Statistics(s.engine).player_games(bad) == []
    for path in ("/api/games/%00", "/api/games/abc%00defgh", "/api/games/%00/record",
                 "/api/games/%00/hint", "/api/sheets/%00", "/api/sheets/%00.csv"):
        r = client.get(path, headers={"Authorization": "Bearer " + "t" * 43})
        assert r.status_code == 404, (path, r.status_code, r.text)
    r = client.post("/api/games/%00/actions", json={"action": "draw stock", "seq": 0},
                    headers={"Authorization": "Bearer " + "t" * 43})
    assert r.status_code == 404


def test_change_reaches_every_process(stores: Callable[[], Store]) -> None:
    """A save, a new game and an announcement on one store reach the listeners of another on
    the same database (PostgreSQL: NOTIFY/LISTEN) within a second, and its own listeners once.
    On SQLite (one process) the store's own listeners are called."""
    a, b = stores(), stores()
    got_a: list[tuple[str, int]] = []
    got_b: list[tuple[str, int]] = []
    row, deals = _game()
    # (other tests' games may be announced on the same cluster meanwhile: not this one's)
    a.add_listener(lambda g, n: got_a.append((g, n)) if g == row.id else None)
    b.add_listener(lambda g, n: got_b.append((g, n)) if g == row.id else None)
    t0 = time.monotonic()
    a.insert_game(row, deals)
    a.save_checked(row.id, 0, {"seq": 3}, [])
    a.announce(row.id, 3)

    def arrived(got: list[tuple[str, int]]) -> bool:
        deadline = t0 + 1.0
        while time.monotonic() < deadline and len(got) < 3:
            time.sleep(0.01)
        return got == [(row.id, 0), (row.id, 3), (row.id, 3)]

    assert arrived(got_a), got_a
    if a.postgres:
        assert arrived(got_b), got_b
        time.sleep(0.3)
        assert len(got_a) == 3  # its own changes once, not twice
    else:
        assert got_b == []  # SQLite: one process, one store


def test_duplicate_sent_to_two_processes_is_answered_as_duplicate(
        make_client: Callable[..., TestClient], db_url: str) -> None:
    """The same action reaches two processes: both find the game at the action's seq, one
    saves first; the other's save finds the game moved on by that very action and answers
    "duplicate" (not 409), and the action is applied once."""
    a, b = make_client(db_url), make_client(db_url)
    t = Table(a)
    action = next(x["action"] for x in t.state["legal"] if x["type"] != "next_hand")
    seq = t.state["seq"]
    store_b = b.app.state.store  # type: ignore[attr-defined]
    a_done = threading.Event()
    b_at_save = threading.Event()
    original = store_b.save_checked

    def late_save(*args: Any, **kwargs: Any) -> Any:
        b_at_save.set()
        assert a_done.wait(30)
        return original(*args, **kwargs)

    store_b.save_checked = late_save
    answers: dict[str, Any] = {}

    def on_b() -> None:
        answers["b"] = b.post(f"/api/games/{t.id}/actions", json={"action": action, "seq": seq},
                              headers=t.headers)

    tb = threading.Thread(target=on_b)
    tb.start()
    assert b_at_save.wait(30)
    answers["a"] = a.post(f"/api/games/{t.id}/actions", json={"action": action, "seq": seq},
                          headers=t.headers)
    a_done.set()
    tb.join(30)
    ra, rb = answers["a"], answers["b"]
    assert ra.status_code == 200 and not ra.json().get("duplicate"), ra.text
    assert rb.status_code == 200, rb.text
    assert rb.json().get("duplicate") is True
    assert rb.json()["seq"] == ra.json()["seq"]
    after = Table.__new__(Table)
    after.client, after.id, after.headers = a, t.id, t.headers
    assert after.get()["seq"] == ra.json()["seq"]


@pytest.mark.postgres_only
def test_listening_connection_comes_back(stores: Callable[[], Store]) -> None:
    """The listening connection is cut (the database ends it): the store reconnects, tells its
    listeners to read again (``on_resync``), and later changes arrive as before."""
    a, b = stores(), stores()
    got: list[tuple[str, int]] = []
    resynced = threading.Event()
    row, deals = _game()
    b.add_listener(lambda g, n: got.append((g, n)) if g == row.id else None,
                   on_resync=resynced.set)
    with a.engine.begin() as conn:
        ended = conn.execute(text(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid() "
            "AND datname = current_database()")).scalar_one()
    assert ended >= 1
    assert resynced.wait(10)
    a.insert_game(row, deals)
    deadline = time.monotonic() + 2
    while not got and time.monotonic() < deadline:
        time.sleep(0.01)
    assert got == [(row.id, 0)]
