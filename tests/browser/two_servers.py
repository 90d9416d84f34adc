"""Where the people of a browser test are served: one app in the test's process on SQLite (the
usual ``server``), or two real ``ginrummy serve`` processes on one fresh PostgreSQL database
(issue 21: "on two processes and PostgreSQL"), person A's page on the first, the others' on the
second. Both kinds offer ``base`` and ``api`` (as :class:`browser_helpers.LiveServer`), so the
tests' helpers (table_driver.Table, test_friends's) take either.

The processes run through the test-only launcher ``fixed_serve.py``: no per-minute limits
(``GINRUMMY_RATE_LIMITS=off``), no per-address bound on live streams (every page comes from
127.0.0.1), chance fixed by :meth:`TwoProcesses.fix` as ``chance.fix_chance`` fixes the
in-process server's, and the away times shortened when asked.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any, Protocol

from browser_helpers import call_api

from pg_helpers import fresh_postgres_database
from server_helpers import ServeProcess

__all__ = ["Server", "Process", "TwoProcesses", "Sites", "serve_two", "served_by", "ONE", "TWO"]

LAUNCHER = Path(__file__).with_name("fixed_serve.py")
#: the ids of the two kinds of :class:`Sites` (a test parametrized over both)
ONE, TWO = "one-process-sqlite", "two-processes-postgres"


class Server(Protocol):
    base: str

    def api(self, method: str, path: str, token: str | None = None,
            body: dict[str, Any] | None = None) -> Any: ...


class Process(ServeProcess):
    """``ginrummy serve`` through ``fixed_serve.py`` (chance from ``chance_file``; the away
    times ``away`` and ``hand_over`` seconds when given)."""

    def __init__(self, url: str, log: Path, chance_file: Path, *, away: float | None = None,
                 hand_over: float | None = None) -> None:
        super().__init__(url, log, env={
            "GINRUMMY_LIVE_LIMITS": "address=100000",
            "GINRUMMY_REVIEWS": "workers=1,queue=4,worlds=4,confirm=0"})
        self.chance_file = chance_file
        self.times = [*(["--away", repr(away)] if away is not None else []),
                      *(["--hand-over", repr(hand_over)] if hand_over is not None else [])]

    def cmd(self) -> list[str]:
        serve = super().cmd()
        return [sys.executable, str(LAUNCHER), "--chance", str(self.chance_file), *self.times,
                "--", *serve[serve.index("serve"):]]

    def api(self, method: str, path: str, token: str | None = None,
            body: dict[str, Any] | None = None) -> Any:
        """A JSON call to this process from the test (not through a page)."""
        return call_api(self.base, method, path, token, body)


@dataclass
class TwoProcesses:
    first: Process
    second: Process
    chance_file: Path

    def __post_init__(self) -> None:
        self._nonce = count()

    def fix(self, seed: int) -> None:
        """Both processes draw their chance from ``random.Random(seed)`` from their next draw
        on (each its own: a deal made by the first does not move the second's). Two tables
        made after one ``fix``, one on each process, would have the same secret, hence the
        same invite code: make a test's tables on one process, or fix another seed between."""
        tmp = self.chance_file.with_suffix(".tmp")
        tmp.write_text(f"{seed} {next(self._nonce)}\n")
        tmp.replace(self.chance_file)  # whole, at once: a process never reads half of it


@contextlib.contextmanager
def serve_two(logs: Path, *, away: float | None = None,
              hand_over: float | None = None) -> Iterator[TwoProcesses]:
    """Two processes started at once on a fresh PostgreSQL database (skipped without
    ``$GINRUMMY_TEST_POSTGRES_URL``: pg_helpers). On the way out both are stopped together and
    their logs must hold no traceback. :raises AssertionError: a process died or logged one."""
    chance_file = logs / "chance.txt"
    with fresh_postgres_database() as url:
        a = Process(url, logs / "first.log", chance_file, away=away, hand_over=hand_over)
        b = Process(url, logs / "second.log", chance_file, away=away, hand_over=hand_over)
        try:
            a.launch()
            b.launch()
            a.wait_up()
            b.wait_up()
            yield TwoProcesses(a, b, chance_file)
        finally:
            _stop_together(a, b)
    for srv in (a, b):
        log = srv.log.read_text(errors="replace")
        assert "Traceback" not in log, log[-3000:]


def _stop_together(*procs: ServeProcess) -> None:
    """SIGTERM to all, then wait for each (a graceful stop each, at the same time)."""
    running = [p.proc for p in procs if p.proc is not None and p.proc.poll() is None]
    for proc in running:
        proc.send_signal(signal.SIGTERM)
    for proc in running:
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@dataclass
class Sites:
    """Where a test's people are served: ``first`` (the creator's page, person A) and
    ``second`` (everyone else's); the same server when ``processes`` is 1. ``fix(seed)`` fixes
    the chance of every server of the test."""

    first: Server
    second: Server
    fix: Callable[[int], None]
    processes: int


def served_by(url: str, srv: Server) -> str:
    """``url`` (an invite link a page showed, ``http://host:port/...``) on ``srv`` instead."""
    rest = url.split("://", 1)[1]
    return srv.base + rest[rest.index("/"):]
