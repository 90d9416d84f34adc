"""Rate limits shared by every server process through PostgreSQL (issue 10: one client got 10
games from two processes against a limit of 5). On SQLite (one process) the in-memory limiter
is kept: these tests check which one each database gets."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine

from ginrummy.store.ratelimits import RateCounter, _wait
from ginrummy.web.http.ratelimit import RateLimiter, RateLimits, SharedRateLimiter


def test_creation_limit_is_shared_by_two_processes(make_client: Callable[..., TestClient],
                                                   db_url: str) -> None:
    limits = RateLimits(creates=5, requests=None, window=60)
    a = make_client(db_url, rate_limits=limits)
    b = make_client(db_url, rate_limits=limits)
    codes = [(a if i % 2 else b).post("/api/games", json={}).status_code for i in range(10)]
    if db_url.startswith("sqlite"):  # one process per SQLite database: a limit per app
        assert codes == [201] * 10
        return
    assert codes[:5] == [201] * 5 and set(codes[5:]) == {429}, codes
    r = a.post("/api/games", json={})
    assert r.json()["detail"]["code"] == "rate_limited"
    # the sliding-window estimate may need part of the next window too: at most two windows
    assert 1 <= int(r.headers["retry-after"]) <= 121


def test_request_limit_is_shared(make_client: Callable[..., TestClient], db_url: str) -> None:
    limits = RateLimits(creates=None, requests=6, window=60)
    a = make_client(db_url, rate_limits=limits)
    b = make_client(db_url, rate_limits=limits)
    codes = [(a if i % 2 else b).get("/api/meta").status_code for i in range(8)]
    if db_url.startswith("sqlite"):
        assert codes == [200] * 8
    else:
        assert codes == [200] * 6 + [429] * 2, codes


@pytest.mark.sqlite_only
def test_no_shared_counter_on_sqlite(db_url: str) -> None:
    with pytest.raises(ValueError, match="PostgreSQL"):
        RateCounter(create_engine(db_url))


@pytest.fixture
def counters(db_url: str) -> Iterator[list[RateCounter]]:
    made = [RateCounter(create_engine(db_url)) for _ in range(2)]
    yield made
    for c in made:
        c.engine.dispose()


@pytest.mark.postgres_only
def test_concurrent_hits_of_two_processes_count_exactly(counters: list[RateCounter]) -> None:
    """24 hits at once, from two processes' counters: exactly the limit is allowed."""
    limiters = [SharedRateLimiter(c, "test", 7, 60) for c in counters]
    barrier = threading.Barrier(24)
    allowed: list[bool] = []
    lock = threading.Lock()

    def hit(i: int) -> None:
        barrier.wait(20)
        ok = limiters[i % 2].hit("10.0.0.1") == 0
        with lock:
            allowed.append(ok)

    threads = [threading.Thread(target=hit, args=(i,)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(allowed) == 24 and sum(allowed) == 7
    assert limiters[0].hit("10.0.0.2") == 0  # another key has its own count


@pytest.mark.postgres_only
def test_window_slides(counters: list[RateCounter]) -> None:
    c = counters[0]
    assert [c.hit("k", 3, 1.0) for _ in range(3)] == [0.0] * 3
    wait = c.hit("k", 3, 1.0)
    assert 0 < wait <= 2.0
    time.sleep(2.1)  # two windows later nothing is left of those hits
    assert c.hit("k", 3, 1.0) == 0.0
    # keys of any text are stored safely
    assert c.hit("\x00" + "é" * 200, 3, 60) == 0.0


def test_wait_estimate() -> None:
    # the previous window full, 10 % into this one: room once 1/3 of it is out of the window
    assert _wait(3, 60, prev_n=3, pos=6, cur_n=0) == pytest.approx(60 * (1 / 3 - 0.1))
    # this window full: wait for the next one, then for enough of this one to slide out
    assert _wait(3, 60, prev_n=0, pos=30, cur_n=3) == pytest.approx(30 + 60 * (1 / 3))


@pytest.mark.postgres_only
def test_database_failure_falls_back_to_memory(counters: list[RateCounter]) -> None:
    limiter = SharedRateLimiter(counters[0], "x", 2, 60)
    counters[0].engine.dispose()
    limiter.counter = RateCounter.__new__(RateCounter)
    limiter.counter.engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")
    limiter.counter._lock = threading.Lock()
    limiter.counter._hits = 0
    limiter.counter._longest = 0.0
    assert [limiter.hit("a") == 0 for _ in range(3)] == [True, True, False]
    assert isinstance(limiter._fallback, RateLimiter)
