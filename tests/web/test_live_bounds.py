"""Live streams are bounded (issue 21 item 2): per seat (a new stream replaces the oldest), per
client address and per process (429 with ``Retry-After``), and ``ginrummy serve`` raises its
descriptor limit at start. A REAL uvicorn server (in this process, or a subprocess)."""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_live import Stream, _post, _table, live_server

from ginrummy.web.live.streams import STREAM_RETRY_AFTER, StreamLimits, raise_descriptor_limit
from server_helpers import ServeProcess


@pytest.fixture
def bounded(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    limits = StreamLimits(seat=2, address=3, process=100)
    with live_server(tmp_path / "live.sqlite3", live_limits=limits) as s:
        yield s


def _wait_for(what: Any, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, "not in time"
        time.sleep(0.02)


def test_a_new_stream_of_a_seat_replaces_its_oldest(bounded: tuple[str, Any]) -> None:
    base, app = bounded
    gate, hub = app.state.streams, app.state.live
    with httpx.Client(base_url=base, timeout=10) as c:
        gid, ann, _bo = _table(c)
        first = Stream(base, gid, ann)
        first.next("state")
        second = Stream(base, gid, ann)  # (opened one after the other: the oldest is known)
        second.next("state")
        third = Stream(base, gid, ann)  # the seat's third: the first goes
        third.next("state")
        first.next("replaced")
        first.next("end")
        _wait_for(lambda: hub.count(gid) == 2 and len(gate) == 2)
        assert gate.count((gid, 0)) == 2
        # the two kept are live: a change reaches both
        assert _post(c, f"/api/games/{gid}/messages", ann, {"message": "hello"}).status_code \
            == 200
        for s in (second, third):
            s.next("state", where=lambda d: d["messages"])
        second.close()
        third.close()
        _wait_for(lambda: len(gate) == 0 and hub.count() == 0)


def test_streams_beyond_an_address_bound_get_429(bounded: tuple[str, Any]) -> None:
    base, app = bounded
    gate = app.state.streams
    with httpx.Client(base_url=base, timeout=10) as c:
        gid, ann, bo = _table(c)
        streams = [Stream(base, gid, ann), Stream(base, gid, bo), Stream(base, gid, bo)]
        for s in streams:
            s.next("state")
        r = c.get(f"/api/games/{gid}/live", headers={"Authorization": f"Bearer {ann}"})
        assert r.status_code == 429, r.text
        assert r.headers["retry-after"] == str(STREAM_RETRY_AFTER)
        assert r.json()["detail"]["reason"]["code"] == "too_many_streams"
        assert r.headers["content-type"].startswith("application/json")
        assert len(gate) == 3
        # refused before any work: a wrong token is refused alike, and holds nothing
        r = c.get(f"/api/games/{gid}/live", headers={"Authorization": "Bearer " + "x" * 43})
        assert r.status_code == 429
        streams[0].close()
        _wait_for(lambda: len(gate) == 2)
        again = Stream(base, gid, ann)  # room again
        again.next("state")
        # a token held by no seat: 404, and its slot is given back at once
        r = c.get(f"/api/games/{gid}/live", headers={"Authorization": "Bearer " + "x" * 43})
        assert r.status_code == 429  # full again (3 open)
        for s in (again, *streams[1:]):
            s.close()
        _wait_for(lambda: len(gate) == 0)
        r = c.get(f"/api/games/{gid}/live", headers={"Authorization": "Bearer " + "x" * 43})
        assert r.status_code == 404 and len(gate) == 0


def test_streams_beyond_the_process_bound_get_429(tmp_path: Path) -> None:
    limits = StreamLimits(seat=10, address=10, process=2)
    with live_server(tmp_path / "live.sqlite3", live_limits=limits) as (base, app), \
            httpx.Client(base_url=base, timeout=10) as c:
        gid, ann, bo = _table(c)
        a, b = Stream(base, gid, ann), Stream(base, gid, bo)
        a.next("state")
        b.next("state")
        r = c.get(f"/api/games/{gid}/live", headers={"Authorization": f"Bearer {bo}"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        a.close()
        b.close()
        _wait_for(lambda: len(app.state.streams) == 0)


def test_the_limits_are_read_and_checked() -> None:
    assert StreamLimits.from_env(None) == StreamLimits()
    assert StreamLimits.from_env("address=5") == StreamLimits(address=5)
    for bad in ("seat=0", "seat=x", "seats=2", "process"):
        with pytest.raises(ValueError):
            StreamLimits.from_env(bad)
    # by default, half the descriptors left after a reserve
    assert StreamLimits().process_limit() == max(
        16, (resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 128) // 2)


def test_the_descriptor_limit_is_raised_to_the_hard_one() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    code = ("import resource; from ginrummy.web.live.streams import raise_descriptor_limit;"
            "print(raise_descriptor_limit(), resource.getrlimit(resource.RLIMIT_NOFILE))")
    out = subprocess.run(["prlimit", f"--nofile=256:{hard}", sys.executable, "-c", code],
                         capture_output=True, text=True, check=True, env=os.environ).stdout
    want = hard if hard != resource.RLIM_INFINITY else 1 << 20
    assert out.split() == ["(256,", f"{want})", f"({want},", f"{hard})"], out
    assert raise_descriptor_limit() is not None  # here too (already at the hard limit: kept)
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[1] == hard and soft <= hard


def _limits_of(pid: int) -> tuple[int, int]:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            parts = line.split()
            return int(parts[3]), int(parts[4])
    raise AssertionError("no Max open files")


class _LowLimit(ServeProcess):
    """``ginrummy serve`` started with a soft descriptor limit of 256."""

    def cmd(self) -> list[str]:
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        return ["prlimit", f"--nofile=256:{hard}", *super().cmd()]


def _sockets(pid: int) -> int:
    """The sockets the process holds open (its connections; its database is a file)."""
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):  # closed meanwhile
            n += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return n


def _open_stream(port: int, game_id: str, token: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /api/games/{game_id}/live HTTP/1.1\r\nHost: x\r\n"
              f"Authorization: Bearer {token}\r\n\r\n".encode())
    return s


def _closed_by_server(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_one_client_cannot_hold_a_servers_descriptors(tmp_path: Path) -> None:
    """The issue's test: one client held 500 streams on one seat's token (+513 descriptors);
    now a seat holds 4 and an address 32, and the server raised its limit at start."""
    srv = _LowLimit(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path / "server.log").start()
    try:
        assert srv.proc is not None
        pid = srv.proc.pid
        soft, hard = _limits_of(pid)
        assert soft == hard or hard > 1 << 20 and soft == 1 << 20, (soft, hard)
        with httpx.Client(base_url=srv.base, timeout=10) as c:
            gid, ann, _bo = _table(c)
            fds = _sockets(pid)
            socks = [_open_stream(srv.port, gid, ann) for _ in range(60)]
            _wait_for(lambda: sum(not _closed_by_server(s) for s in socks) <= 4, 20)
            held = _sockets(pid) - fds
            assert held <= 6, held  # 4 streams (and a moment's strays), not 60
            assert c.get("/api/meta").status_code == 200  # others are served
            # many seats from one address: 32 at most
            more = []
            for _ in range(9):
                g, a, b = _table(c)
                more += [_open_stream(srv.port, g, t) for t in (a, a, a, a, b, b, b, b)]
            time.sleep(1.0)
            answers = [s.recv(12) for s in more]
            refused = sum(a == b"HTTP/1.1 429" for a in answers)
            assert refused >= 9 * 8 + 4 - 32, (refused, answers[:3])
            assert c.get("/api/meta").status_code == 200
            for s in socks + more:
                s.close()
    finally:
        srv.stop()
