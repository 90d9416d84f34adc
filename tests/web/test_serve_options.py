"""``ginrummy serve`` facing the open internet (issue 14 items 4 and 5) and running several
processes (issue 10): a real uvicorn server in a subprocess."""

from __future__ import annotations

import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from ginrummy.cli import app as cli_app
from ginrummy.web import serve
from pg_helpers import fresh_postgres_database
from server_helpers import ServeProcess

LIMITED = {"GINRUMMY_RATE_LIMITS": "creates=3,requests=off"}


@pytest.fixture(scope="module")
def direct(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """A server with the default proxy setting (none trusted) and 1-second request deadlines."""
    d = tmp_path_factory.mktemp("serve-direct")
    srv = ServeProcess(f"sqlite:///{d / 'games.sqlite3'}", d / "server.log",
                       "--header-timeout", "1", "--body-timeout", "1", env=LIMITED).start()
    yield srv
    srv.stop()


def _create_with_forwarded(base: str, n: int) -> list[int]:
    """``n`` creations, each with another X-Forwarded-For and no cookie (a new player each
    time: only the per-address limit can refuse them)."""
    codes = []
    for i in range(n):
        with httpx.Client(timeout=30) as c:
            codes.append(c.post(base + "/api/games", json={},
                                headers={"X-Forwarded-For": f"203.0.113.{i + 1}"}).status_code)
    return codes


def test_forwarded_for_is_not_trusted_by_default(direct: ServeProcess) -> None:
    """From 127.0.0.1, a rotated X-Forwarded-For no longer escapes the creation limit."""
    assert _create_with_forwarded(direct.base, 6) == [201] * 3 + [429] * 3


def test_forwarded_for_trusted_from_named_proxies(tmp_path: Path) -> None:
    srv = ServeProcess(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path / "server.log",
                       "--forwarded-allow-ips", "127.0.0.1", env=LIMITED).start()
    try:
        # behind the named proxy each forwarded address is a client of its own
        assert _create_with_forwarded(srv.base, 5) == [201] * 5
    finally:
        srv.stop()


def _drip(port: int, head: bytes, drip: bytes, every: float, limit: float
          ) -> tuple[float, bytes]:
    """Send ``head``, then ``drip`` a byte every ``every`` seconds until the server closes the
    connection (or ``limit`` seconds pass); returns (seconds until closed, what it answered)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=limit)
    s.setblocking(False)
    t0 = time.monotonic()
    got = b""
    try:
        s.sendall(head)
        i = 0
        while time.monotonic() - t0 < limit:
            try:
                chunk = s.recv(4096)
                if not chunk:
                    return time.monotonic() - t0, got
                got += chunk
            except BlockingIOError:
                pass
            if i < len(drip):
                try:
                    s.send(drip[i:i + 1])
                    i += 1
                except OSError:  # closed by the server
                    return time.monotonic() - t0, got
            time.sleep(every)
        return time.monotonic() - t0, got
    finally:
        s.close()


def test_a_client_dripping_its_headers_is_cut_off(direct: ServeProcess) -> None:
    head = b"GET /api/meta HTTP/1.1\r\nHost: x\r\n"
    drip = b"X-Slow: " + b"a" * 200 + b"\r\n\r\n"
    took, answer = _drip(direct.port, head, drip, 0.1, 10)
    assert took < 3.0, took  # header deadline 1 s (+ scheduling)
    assert answer.startswith(b"HTTP/1.1 408"), answer


def test_a_silent_connection_is_cut_off(direct: ServeProcess) -> None:
    took, answer = _drip(direct.port, b"", b"", 0.05, 10)
    assert took < 3.0 and answer.startswith(b"HTTP/1.1 408"), (took, answer)


def test_a_client_dripping_its_body_is_cut_off(direct: ServeProcess) -> None:
    head = (b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 400\r\n\r\n")
    took, answer = _drip(direct.port, head, b"{" + b" " * 398 + b"}", 0.1, 10)
    assert took < 3.0, took
    assert answer.startswith(b"HTTP/1.1 408"), answer


def test_a_prompt_client_is_served_on_a_kept_alive_connection(direct: ServeProcess) -> None:
    with httpx.Client(timeout=10) as c:
        for _ in range(3):
            assert c.get(direct.base + "/api/meta").status_code == 200
            time.sleep(0.6)  # idle between requests: the keep-alive timeout (5 s) applies


def test_workers_need_postgresql(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli_app, ["serve", "--workers", "2", "--database-url",
                                     f"sqlite:///{tmp_path / 'x.sqlite3'}"])
    assert r.exit_code == 2 and "PostgreSQL" in r.output, r.output
    with pytest.raises(ValueError, match="PostgreSQL"):
        serve(database_url=f"sqlite:///{tmp_path / 'x.sqlite3'}", workers=2)


def test_workers_on_postgresql(tmp_path: Path) -> None:
    """``--workers 2`` on PostgreSQL: two worker processes answer on one port (the app built
    by each from its environment), and SIGTERM stops them all cleanly."""
    with fresh_postgres_database() as url:
        srv = ServeProcess(url, tmp_path / "server.log", "--workers", "2").start()
        try:
            with httpx.Client(timeout=30) as c:
                r = c.post(srv.base + "/api/games", json={})
                assert r.status_code == 201, r.text
                d = r.json()
                auth = {"Authorization": f"Bearer {d['token']}"}
                for _ in range(6):  # new connections: either worker may answer
                    with httpx.Client(timeout=30) as fresh:
                        got = fresh.get(f"{srv.base}/api/games/{d['game_id']}", headers=auth)
                        assert got.status_code == 200 and got.json()["seq"] == d["state"]["seq"]
            assert srv.proc is not None
            srv.proc.send_signal(signal.SIGTERM)
            assert srv.proc.wait(timeout=30) == 0
        finally:
            srv.stop()
    log = srv.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
