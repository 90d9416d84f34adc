"""Presence is per seat across all its streams and processes (issue 21 item 10): closing one of
a person's two tabs, or a stream on one of two server processes, leaves the person connected
for everyone; the last stream's close shows them disconnected at once. Real uvicorn servers in
this process (two apps on one PostgreSQL database are two server processes)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_live import Stream, _table, live_server


def _until(what: Callable[[], Any], timeout: float = 15.0) -> Any:
    end = time.monotonic() + timeout
    while not (got := what()):
        assert time.monotonic() < end, "not in time"
        time.sleep(0.02)
    return got


def _bo_connected(c: httpx.Client, gid: str, ann: str) -> bool:
    st = c.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {ann}"}).json()
    return bool(st["seats"][1]["connected"])


def _presences(s: Stream) -> list[bool]:
    """Bo's ``connected`` in every presence or state message ``s`` got so far."""
    out = []
    while not s.messages.empty():
        kind, _ident, data, _at = s.messages.get()
        if kind in ("presence", "state"):
            out.append(bool(data["seats"][1]["connected"]))
    return out


def test_closing_one_of_two_tabs_keeps_the_person_connected(tmp_path: Path) -> None:
    with live_server(tmp_path / "tabs.sqlite3") as (base, app), \
            httpx.Client(base_url=base, timeout=10) as c:
        hub = app.state.live
        gid, ann, bo = _table(c)
        watch = Stream(base, gid, ann)
        watch.next("state")
        tab1 = Stream(base, gid, bo)
        tab1.next("state")
        tab2 = Stream(base, gid, bo)
        tab2.next("state")
        watch.next("presence", where=lambda d: d["seats"][1]["connected"])
        _presences(watch)
        tab1.close()
        _until(lambda: hub.count(gid) == 2)  # the server saw it go
        time.sleep(0.3)  # its presence written and announced
        assert _bo_connected(c, gid, ann)  # the other tab holds the seat
        assert False not in _presences(watch)  # nobody was shown Bo disconnected
        tab2.close()
        watch.next("presence", where=lambda d: not d["seats"][1]["connected"])
        assert not _bo_connected(c, gid, ann)  # the last tab: at once
        watch.close()


@pytest.mark.postgres_only
def test_a_stream_on_another_process_keeps_the_person_connected(db_url: str) -> None:
    with live_server(db_url) as (base_a, app_a), live_server(db_url) as (base_b, _app_b), \
            httpx.Client(base_url=base_a, timeout=10) as c:
        gid, ann, bo = _table(c)
        watch = Stream(base_b, gid, ann)
        watch.next("state")
        on_a = Stream(base_a, gid, bo)
        on_a.next("state")
        on_b = Stream(base_b, gid, bo)
        on_b.next("state")
        watch.next("presence", where=lambda d: d["seats"][1]["connected"])
        _presences(watch)
        on_a.close()
        _until(lambda: app_a.state.live.count(gid) == 0)
        time.sleep(0.5)
        assert _bo_connected(c, gid, ann)
        assert False not in _presences(watch)
        on_b.close()
        watch.next("presence", where=lambda d: not d["seats"][1]["connected"])
        assert not _bo_connected(c, gid, ann)
        watch.close()


@pytest.mark.postgres_only
def test_a_stopped_process_lets_go_within_its_lease(db_url: str) -> None:
    """A process stopped without letting go (its lease stays in the store): the person's last
    stream elsewhere still shows them disconnected once that lease has ended, not before."""
    from ginrummy.store import Store, TableStore

    with live_server(db_url) as (base, _app), httpx.Client(base_url=base, timeout=10) as c:
        gid, ann, _bo = _table(c)
        store = Store(db_url)
        try:
            tables = TableStore(store.engine)
            now = time.time()
            tables.hold_seat(gid, 1, "gone", now + 1.0)  # a lease of 1 s from a dead process
            assert tables.release_seat(gid, 1, "here", now) == pytest.approx(now + 1.0)
            assert _bo_connected(c, gid, ann)  # until its lease ends
            time.sleep(max(0.0, now + 1.1 - time.time()))
            assert not _bo_connected(c, gid, ann)
            later = time.time()
            assert tables.release_seat(gid, 1, "here", later) == pytest.approx(later)
        finally:
            store.close()
        assert not _bo_connected(c, gid, ann)


