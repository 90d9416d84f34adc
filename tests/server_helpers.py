"""``ginrummy serve`` in a subprocess on a free loopback port, for the tests that need a real
server (uvicorn's own handling of connections, several processes on one database), and a TCP
relay to a database that a test can cut (an outage)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

__all__ = ["free_port", "ServeProcess", "Relay"]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServeProcess:
    """One ``ginrummy serve --database-url URL [args]`` process; its output goes to ``log``."""

    def __init__(self, url: str, log: Path, *args: str, env: dict[str, str] | None = None,
                 log_level: str = "warning") -> None:
        self.url = url
        self.log_level = log_level
        self.log = log
        self.args = list(args)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "GINRUMMY_RATE_LIMITS": "off", **(env or {})}
        self.env.pop("GINRUMMY_DATABASE_URL", None)
        self.proc: subprocess.Popen[bytes] | None = None

    def cmd(self) -> list[str]:
        script = Path(sys.executable).parent / "ginrummy"
        head = [str(script)] if script.exists() else [sys.executable, "-m", "ginrummy.cli"]
        return [*head, "serve", "--host", "127.0.0.1", "--port", str(self.port),
                "--database-url", self.url, "--log-level", self.log_level, *self.args]

    def launch(self) -> ServeProcess:
        """Start the process (without waiting for it to listen)."""
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.cmd(), stdout=out, stderr=subprocess.STDOUT,
                                         env=self.env, start_new_session=True)
        return self

    def wait_up(self, timeout: float = 60.0) -> ServeProcess:
        """Wait until ``/api/meta`` answers 200. :raises AssertionError: it died or is late."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=2) as c:
            while True:
                assert self.proc.poll() is None, \
                    f"the server died at start:\n{self.log.read_text()[-3000:]}"
                try:
                    if c.get(self.base + "/api/meta").status_code == 200:
                        return self
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.05)

    def start(self, timeout: float = 60.0) -> ServeProcess:
        return self.launch().wait_up(timeout)

    def kill(self) -> None:
        """SIGKILL: no clean stop of any kind."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        assert self.proc.wait(timeout=10) == -signal.SIGKILL

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


class Relay:
    """A TCP relay from a loopback port to ``(host, port)``, in threads. :meth:`cut` drops every
    connection and closes new ones at once (as a stopped server's host does); :meth:`mend` lets
    them through again."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.up = True
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._server.getsockname()[1])
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._stop:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            if not self.up:
                conn.close()
                continue
            try:
                back = socket.create_connection(self.target, timeout=5)
            except OSError:
                conn.close()
                continue
            with self._lock:
                self._open.update((conn, back))
            for a, b in ((conn, back), (back, conn)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := a.recv(65536):
                b.sendall(data)
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.up = False
        with self._lock:
            socks, self._open = list(self._open), set()
        for s in socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def mend(self) -> None:
        self.up = True

    def close(self) -> None:
        self._stop = True
        self.cut()
        self._server.close()
