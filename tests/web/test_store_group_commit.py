"""The store's grouped commits (SQLite): writes that wait while a commit is on its way share the
next one; each still returns only once committed; a stale write or a failing one in a group
does not harm the others."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from ginrummy.store import DealRow, GameRow, Store

DECK = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"]


def _game(i: int) -> tuple[GameRow, DealRow]:
    g = GameRow(id=f"game{i:04d}xxxxxxxx", token_hash="ab" * 32, player_id=None, level="easy",
                preset="standard", rules={}, first_dealer=0, secret="cd" * 32, seq=1)
    return g, DealRow(1, 0, DECK, "ef" * 16, "01" * 32, [])


@pytest.fixture
def store(tmp_path: Path) -> Any:
    s = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    commits: list[int] = []
    event.listen(s.engine, "commit", lambda _conn: commits.append(1))
    s.commits = commits  # type: ignore[attr-defined]
    yield s
    s.close()


def _changes(seq: int) -> dict[str, Any]:
    return {"seq": seq, "status": "playing", "winner": None, "margin": None,
            "finished_at": None, "last_action": "draw stock", "last_action_seq": seq - 1}


def _run_grouped(store: Any, calls: list[Any]) -> list[Any]:
    """Start every call in its own thread while the writer lock is held, so that they all
    queue; then let them go: one group, one commit."""
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            results[i] = calls[i]()
        except Exception as e:
            results[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    with store.writing:
        for t in threads:
            t.start()
        deadline = time.monotonic() + 10
        while len(store._writes._pending) < len(calls):  # queued
            assert time.monotonic() < deadline
            time.sleep(0.001)
        before = len(store.commits)
    for t in threads:
        t.join(timeout=30)
    results.append(len(store.commits) - before)
    return results


def test_waiting_writes_share_one_commit(store: Any, tmp_path: Path) -> None:
    games = [_game(i) for i in range(8)]
    for g, d in games:
        store.insert_game(g, [d])
    calls = [lambda g=g, d=d: store.save(g.id, 1, _changes(2), [d]) for g, d in games]
    # one of them is stale: it must be refused, alone
    g0, d0 = games[0]
    calls[0] = lambda: store.save(g0.id, 7, _changes(8), [d0])
    *results, commits = _run_grouped(store, calls)
    assert results == [False] + [True] * 7
    assert commits == 1
    # committed: another connection sees every write
    con = sqlite3.connect(tmp_path / "g.sqlite3")
    seqs = dict(con.execute("select id, seq from games").fetchall())
    con.close()
    assert seqs[g0.id] == 1 and all(seqs[g.id] == 2 for g, _ in games[1:])


def test_a_failing_write_fails_alone(store: Any) -> None:
    (g1, d1), (g2, d2), (g3, d3), (g4, d4) = _game(1), _game(2), _game(3), _game(4)
    store.insert_game(g1, [d1])
    calls = [lambda: store.insert_game(g1, [d1]),  # duplicate id: IntegrityError
             lambda: store.insert_game(g2, [d2]),
             lambda: store.save(g1.id, 1, _changes(2), [d1]),
             lambda: store.insert_game(g3, [d3]),
             # a refused claim (a rematch another request made): nothing of it is written
             lambda: store.insert_game(g4, [d4], first=lambda conn: False)]
    *results, _commits = _run_grouped(store, calls)
    assert isinstance(results[0], IntegrityError)
    assert results[1:] == [True, True, True, False]
    assert store.get_game(g2.id) is not None and store.get_game(g3.id) is not None
    assert store.get_game(g4.id) is None
    assert store.get_game(g1.id).seq == 2


def test_many_threads_no_write_lost(store: Any) -> None:
    games = [_game(i) for i in range(12)]
    for g, d in games:
        store.insert_game(g, [d])
    errors: list[BaseException] = []

    def play(g: GameRow, d: DealRow) -> None:
        try:
            for seq in range(1, 26):
                d.actions = ["draw stock"] * seq
                assert store.save(g.id, seq, _changes(seq + 1), [d])
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=play, args=gd) for gd in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    for g, _ in games:
        assert store.get_game(g.id).seq == 26
        assert len(store.get_deals(g.id)[0].actions) == 25
    assert len(store.commits) <= 12 + 12 * 25  # grouped at times, never more than one each


def _synchronous(store: Store) -> int:
    with store.engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA synchronous").scalar())  # type: ignore[arg-type]


def test_sqlite_durability_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GINRUMMY_SQLITE_SYNC", raising=False)
    s = Store(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    assert _synchronous(s) == 2  # FULL by default: a commit waits for the disk
    s.close()
    monkeypatch.setenv("GINRUMMY_SQLITE_SYNC", "normal")
    s = Store(f"sqlite:///{tmp_path / 'b.sqlite3'}")
    assert _synchronous(s) == 1
    with s.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    s.close()
    monkeypatch.setenv("GINRUMMY_SQLITE_SYNC", "off")
    with pytest.raises(ValueError, match="GINRUMMY_SQLITE_SYNC"):
        Store(f"sqlite:///{tmp_path / 'c.sqlite3'}")
