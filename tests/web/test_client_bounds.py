"""Nothing one client sends makes the server keep memory without bound (issue 21 items 1 and 7):
a request's headers are bounded (431), a token that cannot be ours is refused before any work,
and the quick-message limit counts a seat's messages, checked first, shared by every process."""

from __future__ import annotations

import contextlib
import socket
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from table_helpers import Seat, join, new_table

from ginrummy.web.http.app import CSP
from ginrummy.web.http.headers import MAX_HEADER_BYTES
from ginrummy.web.http.ratelimit import KEY_MAX, RateLimiter
from ginrummy.web.tables.seats import MESSAGE_LIMIT
from server_helpers import ServeProcess

TWO = [{"kind": "person"}, {"kind": "open"}]


def _two(client: TestClient) -> tuple[Seat, Seat]:
    ann, code = new_table(client, TWO)
    return ann, join(client, code, "Bo")


def _message(client: TestClient, game_id: str, token: str) -> int:
    return client.post(f"/api/games/{game_id}/messages", json={"message": "hello"},
                       headers={"Authorization": f"Bearer {token}"}).status_code


# ---------------------------------------------------------------- the quick-message limit
def test_a_wrong_token_is_never_counted_by_the_message_limit(client: TestClient) -> None:
    ann, bo = _two(client)
    wrong = "x" * 43  # shaped like a token, held by no seat
    assert [_message(client, ann.id, wrong) for _ in range(MESSAGE_LIMIT + 3)] == \
        [404] * (MESSAGE_LIMIT + 3)
    huge = "y" * 10_000  # under the header bound: refused before any work, nothing kept
    assert [_message(client, ann.id, huge) for _ in range(3)] == [404] * 3
    # the seats' own limits are whole
    assert [_message(client, bo.id, bo.token) for _ in range(MESSAGE_LIMIT)] == \
        [200] * MESSAGE_LIMIT
    r = client.post(f"/api/games/{bo.id}/messages", json={"message": "hello"},
                    headers=bo.headers)
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    assert r.json()["detail"]["reason"]["code"] == "too_many_messages"
    assert _message(client, ann.id, ann.token) == 200  # another seat's limit


def test_a_refused_message_is_not_counted(client: TestClient) -> None:
    ann, _bo = _two(client)
    for _ in range(MESSAGE_LIMIT + 3):
        r = client.post(f"/api/games/{ann.id}/messages", json={"message": "not a preset"},
                        headers=ann.headers)
        assert r.status_code == 422
    assert [_message(client, ann.id, ann.token) for _ in range(MESSAGE_LIMIT)] == \
        [200] * MESSAGE_LIMIT
    assert len(ann.get()["messages"]) > 0


def test_the_message_limit_is_counted_per_seat_whatever_the_header_says(
        client: TestClient) -> None:
    ann, _bo = _two(client)
    forms = [f"Bearer {ann.token}", f"bearer {ann.token}", f"BEARER   {ann.token}  "]
    codes = [client.post(f"/api/games/{ann.id}/messages", json={"message": "hello"},
                         headers={"Authorization": forms[i % 3]}).status_code
             for i in range(MESSAGE_LIMIT + 1)]
    assert codes == [200] * MESSAGE_LIMIT + [429]


@pytest.mark.postgres_only
def test_the_message_limit_is_shared_by_the_processes(
        make_client: Callable[..., TestClient]) -> None:
    """Two apps on one database are two server processes: 12 messages a minute per seat in
    all, not 12 on each."""
    a, b = make_client(), make_client()
    ann, bo = _two(a)
    codes = [_message(a if i % 2 else b, bo.id, bo.token) for i in range(MESSAGE_LIMIT + 2)]
    assert codes == [200] * MESSAGE_LIMIT + [429, 429]


def test_the_limiter_keeps_little_whatever_its_keys() -> None:
    """A limiter's memory is bounded by its key count and limit, not by what clients send."""
    limiter = RateLimiter(12, 60.0, max_keys=1000)
    keys = [f"{i}:" + "k" * 200_000 for i in range(200)]  # 40 MB of keys
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for k in keys:
            assert limiter.hit(k, now=0.0) == 0.0
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(limiter) == 200
    assert kept < 200 * (KEY_MAX + 1000), kept  # a digest and one moment per key
    assert limiter.hit(keys[0], now=1.0) == 0.0  # the same key still counts as itself
    for _ in range(10):
        limiter.hit(keys[0], now=2.0)
    assert limiter.hit(keys[0], now=3.0) > 0


# ---------------------------------------------------------------------- oversized headers
def test_oversized_headers_get_431_before_any_work(client: TestClient) -> None:
    ann, _bo = _two(client)
    big = "Bearer " + "z" * (MAX_HEADER_BYTES + 1)
    for method, path in (("POST", f"/api/games/{ann.id}/messages"),
                         ("GET", f"/api/games/{ann.id}"), ("GET", "/")):
        r = client.request(method, path, json={"message": "hello"} if method == "POST" else None,
                           headers={"Authorization": big})
        assert r.status_code == 431, (path, r.status_code)
        assert r.json()["detail"]["code"] == "headers_too_large"
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-content-type-options"] == "nosniff"
        assert "set-cookie" not in r.headers  # no work: no player made
    r = client.get("/api/meta", headers={"Cookie": "a=" + "b" * MAX_HEADER_BYTES})
    assert r.status_code == 431
    # within the bound, as before
    r = client.get("/api/meta", headers={"X-Big": "c" * (MAX_HEADER_BYTES // 2)})
    assert r.status_code == 200
    assert [m["message"] for m in ann.get()["messages"]] == []


# ----------------------------------------------------------- through a real server process
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    d = tmp_path_factory.mktemp("bounds")
    srv = ServeProcess(f"sqlite:///{d / 'games.sqlite3'}", d / "server.log").start()
    yield srv
    srv.stop()


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _raw(port: int, request: bytes, timeout: float = 10.0) -> bytes:
    """Send ``request`` (which asks ``Connection: close``) on a new connection and read the
    answer until the server closes it (a reset after the answer, or while sending, is the
    server refusing to read more)."""
    got = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        with contextlib.suppress(OSError):
            s.sendall(request)
        try:
            while chunk := s.recv(65536):
                got += chunk
        except OSError:
            pass
    return got


def test_a_server_refuses_oversized_headers_and_keeps_no_memory(server: ServeProcess) -> None:
    """The issue's test: 100 quick messages with 1 MB tokens added 179 MB to the server."""
    assert server.proc is not None
    # headers complete but over the bound: the whole 431 answer, JSON with the security headers
    head = (b"POST /api/games/nogame/messages HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Length: 21\r\nContent-Type: application/json\r\nAuthorization: Bearer "
            + b"t" * (MAX_HEADER_BYTES + 10) + b"\r\n\r\n" + b'{"message": "hello"} ')
    answer = _raw(server.port, head)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b"content-security-policy: " + CSP.encode() in answer
    assert answer.endswith(b"}") and b'"code": "headers_too_large"' in answer
    # the same request within the bound is read (and answered: no such game)
    small = head.replace(b"t" * (MAX_HEADER_BYTES + 10), b"t" * 43)
    assert _raw(server.port, small).startswith(b"HTTP/1.1 404 ")

    before = _rss_kb(server.proc.pid)
    token = b"u" * 1_000_000
    refused = 0
    for i in range(100):
        req = (b"POST /api/games/g%d/messages HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
               b"Content-Type: application/json\r\nContent-Length: 20\r\n"
               b"Authorization: Bearer %s\r\n\r\n{\"message\": \"hello\"}" % (i, token))
        got = _raw(server.port, req)
        refused += got.startswith(b"HTTP/1.1 431 ") or got == b""  # or reset before reading
    time.sleep(0.5)
    grown = _rss_kb(server.proc.pid) - before
    assert refused == 100
    assert grown < 20_000, f"the server grew by {grown} KB"  # was +179 MB
    meta = b"GET /api/meta HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    assert _raw(server.port, meta).startswith(b"HTTP/1.1 200 ")
