"""The security pass of issue 21, repeated on demand: what one client on the open internet can
make a server hold, and what a database outage answers. Each check runs real ``ginrummy serve``
processes on loopback and prints its figures as Markdown (benchmarks/results/security-*.md).

1. Memory under oversized tokens: 2 rounds of 100 quick messages with 1 MB bearer tokens (each
   round to other game ids), then 2 of 1,000 with 10 KB tokens; the server's RSS before and
   after each.
2. Live streams: a server at a descriptor limit of 256 (soft and hard); one client opens 300
   streams on one seat, then 80 on ten tables of its own; the server's sockets, the answers,
   and whether another client is still served.
3. Names: every default-ignorable code point and blank after "Ann" beside "Ann", and names
   made of them alone, through the API.
4. A database outage (PostgreSQL, ``--workers 2``): players move on ten games while the
   database is cut for 8 s (a TCP relay that drops every connection); every answer counted by
   status, content type and security header; acknowledged moves checked afterwards.

    python benchmarks/security_pass.py [--postgres URL] [--skip outage]

The servers run the ``ginrummy`` that ``PYTHONPATH`` names (this script itself reads the
checkout it is in): with an older checkout's ``src`` there, the same checks measure the code
before the fixes.

``--postgres`` (default ``$GINRUMMY_TEST_POSTGRES_URL``) names a cluster whose database the
outage check may use (a fresh schema, dropped afterwards); without one that check is skipped.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import platform
import resource
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "src")]

from ginrummy.web.http.text import BLANKS, DEFAULT_IGNORABLE  # noqa: E402
from server_helpers import Relay, ServeProcess  # noqa: E402


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def sockets(pid: int) -> int:
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            n += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return n


def raw(port: int, request: bytes) -> bytes:
    """One request on its own connection (``Connection: close``); the answer's first bytes."""
    got = b""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        with contextlib.suppress(OSError):
            s.sendall(request)
        with contextlib.suppress(OSError):
            while chunk := s.recv(65536):
                got += chunk
    return got[:12]


def message_request(game: str, token: bytes) -> bytes:
    return (b"POST /api/games/%s/messages HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\nContent-Length: 20\r\n"
            b"Authorization: Bearer %s\r\n\r\n{\"message\": \"hello\"}" % (game.encode(), token))


def table(c: httpx.Client) -> tuple[str, str, str]:
    r = c.post("/api/games", json={"seats": [{"kind": "person"}, {"kind": "open"}],
                                   "name": "Ann"})
    ann = r.json()
    r = c.post(f"/api/invites/{ann['invite']['code']}/join", json={"name": "Bo"})
    return ann["game_id"], ann["token"], r.json()["token"]


# ---------------------------------------------------------------------------------- checks
def check_memory(work: Path) -> list[str]:
    srv = ServeProcess(f"sqlite:///{work / 'memory.sqlite3'}", work / "memory.log").start()
    out = ["## 1. Memory under oversized tokens", "",
           "| round | requests | answers | server RSS before | after | grown |",
           "|---|---:|---|---:|---:|---:|"]
    try:
        assert srv.proc is not None
        pid = srv.proc.pid
        rounds = [("1 MB tokens, round 1", 100, b"u" * 1_000_000, "a"),
                  ("1 MB tokens, round 2 (other games)", 100, b"u" * 1_000_000, "b"),
                  ("10 KB tokens, round 1", 1000, b"v" * 10_000, "c"),
                  ("10 KB tokens, round 2 (other games)", 1000, b"v" * 10_000, "d")]
        for name, n, token, prefix in rounds:
            before = rss_kb(pid)
            answers = Counter(raw(srv.port, message_request(f"{prefix}{i}", token)).decode(
                "latin-1") or "(closed)" for i in range(n))
            time.sleep(1.0)
            after = rss_kb(pid)
            seen = ", ".join(f"{k.strip()} x{v}" for k, v in answers.most_common())
            out.append(f"| {name} | {n} | {seen} | {before:,} KB | {after:,} KB | "
                       f"{after - before:+,} KB |")
    finally:
        srv.stop()
    return out


class _LowLimit(ServeProcess):
    def cmd(self) -> list[str]:
        return ["prlimit", "--nofile=256:256", *super().cmd()]


def _open_stream(port: int, game: str, token: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /api/games/{game}/live HTTP/1.1\r\nHost: x\r\n"
              f"Authorization: Bearer {token}\r\n\r\n".encode())
    return s


def check_streams(work: Path) -> list[str]:
    srv = _LowLimit(f"sqlite:///{work / 'streams.sqlite3'}", work / "streams.log").start()
    out = ["## 2. Live streams at a descriptor limit of 256", ""]
    try:
        assert srv.proc is not None
        pid = srv.proc.pid
        with httpx.Client(base_url=srv.base, timeout=10) as c:
            gid, ann, _bo = table(c)
            base = sockets(pid)
            socks = [_open_stream(srv.port, gid, ann) for _ in range(300)]
            time.sleep(3.0)
            held = sockets(pid) - base
            other = c.get("/api/meta").status_code
            for s in socks:
                s.close()
            time.sleep(1.0)
            out.append(f"- 300 streams on one seat's token: the server holds {held} sockets "
                       f"for them after 3 s; another client's `GET /api/meta`: {other}.")
            answers: Counter[str] = Counter()
            more = []
            for _ in range(10):
                g, a, b = table(c)
                more += [_open_stream(srv.port, g, t) for t in (a,) * 4 + (b,) * 4]
            time.sleep(2.0)
            for s in more:
                s.settimeout(5)
                try:
                    answers[s.recv(12).decode("latin-1").strip() or "(closed)"] += 1
                except OSError:
                    answers["(no answer)"] += 1
            held = sockets(pid) - base
            other = c.get("/api/meta").status_code
            for s in more:
                s.close()
            out.append(f"- 80 streams from one address on ten tables (4 per seat): "
                       f"{dict(answers)}; the server holds {held} sockets; another client's "
                       f"`GET /api/meta`: {other}.")
    finally:
        srv.stop()
    return out


def check_names(work: Path) -> list[str]:
    srv = ServeProcess(f"sqlite:///{work / 'names.sqlite3'}", work / "names.log").start()
    ignorable = [chr(o) for a, b in DEFAULT_IGNORABLE for o in range(a, b + 1)]
    blanks = sorted(BLANKS - set(ignorable))  # the braille blank (the fillers are both)
    chars = ignorable + blanks
    beside: Counter[int] = Counter()
    alone: Counter[int] = Counter()
    try:
        with httpx.Client(base_url=srv.base, timeout=30) as c:
            r = c.post("/api/games", json={"seats": [{"kind": "person"}] + [{"kind": "open"}],
                                           "name": "Ann"})
            code = r.json()["invite"]["code"]
            for ch in chars:
                r = c.post(f"/api/invites/{code}/join", json={"name": "Ann" + ch})
                beside[r.status_code] += 1
                if r.status_code == 201:  # seated: it leaves, so that the seat is open again
                    c.post(f"/api/games/{r.json()['game_id']}/leave",
                           headers={"Authorization": f"Bearer {r.json()['token']}"})
                alone[c.post("/api/games", json={"seats": [{"kind": "person"},
                                                           {"kind": "open"}],
                                                 "name": ch * 3}).status_code] += 1
    finally:
        srv.stop()
    return ["## 3. Names", "",
            f"- {len(chars):,} characters (Unicode's {len(ignorable):,} default-ignorable code "
            f"points and {len(blanks)} other blank) after \"Ann\", "
            f"joining beside \"Ann\": {dict(beside)} (409 = name_taken; 201 would be a second "
            "Ann).",
            f"- The same characters alone (three of each) as a new table's name: "
            f"{dict(alone)} (422 = name_invisible or name_control)."]


def check_outage(work: Path, pg: str, seconds: float = 8.0) -> list[str]:
    sys.path.insert(0, str(ROOT / "tests"))
    os.environ.setdefault("GINRUMMY_TEST_POSTGRES_URL", pg)
    from sqlalchemy.engine import make_url

    from pg_helpers import fresh_postgres_database

    out = [f"## 4. A {seconds:.0f} s PostgreSQL outage under `--workers 2`", ""]
    with fresh_postgres_database() as url:
        u = make_url(url)
        relay = Relay(u.host or "127.0.0.1", u.port or 5432)
        relayed = u.set(host="127.0.0.1", port=relay.port).render_as_string(hide_password=False)
        srv = ServeProcess(relayed, work / "outage.log", "--workers", "2").start(120)
        answers: Counter[tuple[int, str, bool]] = Counter()
        acknowledged: dict[str, tuple[str, int]] = {}  # game -> (token, last acknowledged seq)
        stop = threading.Event()
        down = threading.Event()

        def player(i: int) -> None:
            while not stop.is_set():
                try:
                    play(i)
                except httpx.HTTPError as e:  # a connection reset: counted, then play on
                    if down.is_set():
                        answers[(0, type(e).__name__, False)] += 1
                    time.sleep(0.1)

        def play(i: int) -> None:
            with httpx.Client(base_url=srv.base, timeout=30) as c:
                r = c.post("/api/games", json={"level": "easy"})
                if r.status_code != 201:  # the database away: try again
                    time.sleep(0.2)
                    return
                g = r.json()
                h = {"Authorization": f"Bearer {g['token']}"}
                state = g["state"]
                while not stop.is_set():
                    legal = state.get("legal", [])
                    if not legal:
                        r = c.post("/api/games", json={"level": "easy"})
                        if r.status_code != 201:
                            time.sleep(0.2)
                            continue
                        g = r.json()
                        h = {"Authorization": f"Bearer {g['token']}"}
                        state = g["state"]
                        continue
                    pick = next((a for a in legal if a["type"] in ("gin", "knock", "next_hand")),
                                legal[i % len(legal)])
                    r = c.post(f"/api/games/{g['game_id']}/actions",
                               json={"action": pick["action"], "seq": state["seq"]}, headers=h)
                    if down.is_set():
                        answers[(r.status_code, r.headers.get("content-type", "").split(";")[0],
                                 "content-security-policy" in r.headers)] += 1
                    if r.status_code == 200:
                        state = r.json()
                        acknowledged[g["game_id"]] = (g["token"], state["seq"])
                    elif r.status_code == 409 and "state" in r.json():
                        state = r.json()["state"]
                    else:
                        time.sleep(0.1)
                        r = c.get(f"/api/games/{g['game_id']}", headers=h)
                        if r.status_code == 200:
                            state = r.json()

        threads = [threading.Thread(target=player, args=(i,), daemon=True) for i in range(10)]
        try:
            for t in threads:
                t.start()
            time.sleep(5.0)
            down.set()
            relay.cut()
            time.sleep(seconds)
            relay.mend()
            t0 = time.monotonic()
            with httpx.Client(base_url=srv.base, timeout=30) as c:
                game, (token, _seq) = next(iter(acknowledged.items()))
                h = {"Authorization": f"Bearer {token}"}
                while c.get(f"/api/games/{game}", headers=h).status_code != 200:
                    time.sleep(0.05)
                back = time.monotonic() - t0
            time.sleep(1.0)
            down.clear()
            time.sleep(3.0)
            stop.set()
            for t in threads:
                t.join(30)
            lost = 0
            with httpx.Client(base_url=srv.base, timeout=30) as c:
                for game, (token, seq) in list(acknowledged.items()):
                    h = {"Authorization": f"Bearer {token}"}
                    lost += c.get(f"/api/games/{game}", headers=h).json()["seq"] < seq
        finally:
            stop.set()
            srv.stop()
            relay.close()
    out.append("| answers to moves while the database was away (and 1 s after) | count |")
    out.append("|---|---:|")
    for (status, ctype, csp), n in answers.most_common():
        what = f"no answer ({ctype})" if status == 0 else f"{status} {ctype or '(none)'}"
        out.append(f"| {what}{', security headers' if csp else ''} | {n:,} |")
    out += ["", f"- First `GET` answered 200 {back:.2f} s after the database came back.",
            f"- Games with acknowledged moves: {len(acknowledged)}; "
            f"acknowledged moves lost: {lost}."]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--postgres", default=os.environ.get("GINRUMMY_TEST_POSTGRES_URL"))
    ap.add_argument("--skip", action="append", default=[],
                    choices=["memory", "streams", "names", "outage"])
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    print(f"# Security pass (issue 21), {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC\n")
    print(f"Python {platform.python_version()}, {platform.system()} {platform.machine()}, "
          f"{os.cpu_count()} CPUs; this shell's descriptor limit {soft}/{hard}.\n")
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        for name, check in (("memory", check_memory), ("streams", check_streams),
                            ("names", check_names)):
            if name not in args.skip:
                print("\n".join(check(work)) + "\n", flush=True)
        if "outage" not in args.skip:
            if args.postgres:
                print("\n".join(check_outage(work, args.postgres)) + "\n", flush=True)
            else:
                print("## 4. Outage: skipped (no --postgres)\n")


if __name__ == "__main__":
    main()
