"""Load test of tables of people (issue 10): two-person tables on two server processes that
share one PostgreSQL database, every person with a live connection, on loopback only.

    .venv/bin/python benchmarks/tables_load.py                     # 250 tables, 60 s
    .venv/bin/python benchmarks/tables_load.py --tables 20 --duration 20 --no-write
    .venv/bin/python benchmarks/tables_load.py --computer 200      # load.py: SQLite, then PG

It starts everything itself: a throwaway PostgreSQL cluster (scripts/test_postgres.sh's
``start_test_postgres``, run through bash; restarted with ``fsync=on`` and
``full_page_writes=on`` unless ``--pg-fsync off``, so that a commit is durable as in production),
or uses ``--database-url``; two ``ginrummy serve`` processes on free loopback ports with
``GINRUMMY_RATE_LIMITS=off`` (one client address makes every table); and it stops them with
SIGTERM at the end (each must exit with status 0).

Each of ``--tables`` tables has two simulated people (asyncio + aiohttp, on uvloop when it
installed; every live message and answer read and parsed in full, with orjson): the creator on
process A (``POST /api/games`` with ``seats`` [person, open] and ``name``), the friend on process B
(``POST /api/invites/{code}/join``), then the creator starts it (``POST
/api/games/{id}/start``). Each person holds a live connection to its own process (``GET
/api/games/{id}/live`` with the Authorization header, reading the Server-Sent Events), and
acts from what the stream (or the answer to its own action) shows: when its phase is offer,
draw or discard it waits a think time (uniform, mean ``--think`` s) and posts a sensible legal
action (benchmarks/load.py's ``choose``); at the end of a hand the creator posts "next hand".
When a game ends the table is done and a new one is created, so ``--tables`` tables are in play
all the time. Tables start spread over ``--ramp`` seconds; figures are for the steady part.

Measured:
- action latency (``POST .../actions``, to its answer), p50/p99/max;
- live-update delivery: for each acknowledged action, the moment the OTHER person's stream (on
  the other process) delivers a state with a larger ``seq``, counted from the moment the action
  was sent (what the two people see: one clicks, the other's page changes) and, also shown, from
  the moment the actor's answer arrived (negative when the other's stream was first);
- errors (any answer other than the expected one, a dropped stream, a person with nothing to do
  for 30 s), actions delivered to nobody, actions lost (after the run each acknowledged action is
  looked up with ``GET ?since=0``, through the other process: its event must be there, by that
  seat);
- CPU seconds per action of both server processes (``/proc/PID/stat`` utime+stime) and of
  PostgreSQL (the postmaster and its children, when this script started the cluster), and of
  the load client itself, with its event loop's lateness.

Bounded: ``--duration`` seconds, plus at most 30 s to finish; every request has a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import platform
import random
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402  (benchmarks/load.py: the player's choice, server and helpers)

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
ACTING = ("offer", "draw", "discard", "hand-over")
pct = load.pct


# ----------------------------------------------------------------------------- PostgreSQL
class Postgres:
    """A throwaway cluster from scripts/test_postgres.sh (bash), or none (``--database-url``)."""

    def __init__(self, fsync: bool) -> None:
        script = ROOT / "scripts" / "test_postgres.sh"
        again = ""
        if fsync:  # the test cluster runs without fsync: restart it durable
            again = ('port=${GINRUMMY_TEST_POSTGRES_URL##*:}; port=${port%%/*}; '
                     '_pg_as "$TEST_PG_BIN/pg_ctl" -D "$TEST_PG_DIR/data" -l '
                     '"$TEST_PG_DIR/server.log" -w -t 60 -o "-c listen_addresses=127.0.0.1 '
                     '-p $port -c unix_socket_directories=$TEST_PG_DIR -c max_connections=300 '
                     '-c fsync=on -c full_page_writes=on" restart >/dev/null && ')
        cmd = (f"source {shlex.quote(str(script))} && start_test_postgres >&2 && {again}"
               'echo "$GINRUMMY_TEST_POSTGRES_URL" && echo "$TEST_PG_DIR" && '
               'echo "$TEST_PG_BIN"')
        out = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=600)
        if out.returncode != 0:
            raise SystemExit(f"PostgreSQL did not start:\n{out.stderr[-2000:]}")
        self.url, self.dir, self.bin = out.stdout.split("\n")[:3]
        self.fsync = fsync
        found = re.search(r"PostgreSQL (\S+)", out.stderr)
        self.version = f"PostgreSQL {found.group(1)}" if found else "PostgreSQL"

    def create_db(self, name: str) -> str:
        parts = urlsplit(self.url)
        subprocess.run([f"{self.bin}/psql", "-q", "-h", "127.0.0.1", "-p", str(parts.port),
                        "-U", "postgres", "-d", "postgres", "-c", f"CREATE DATABASE {name}"],
                       check=True, capture_output=True, timeout=60)
        return self.url.rsplit("/", 1)[0] + "/" + name

    def show(self, setting: str) -> str:
        parts = urlsplit(self.url)
        out = subprocess.run([f"{self.bin}/psql", "-At", "-h", "127.0.0.1", "-p",
                              str(parts.port), "-U", "postgres", "-d", "postgres", "-c",
                              f"SHOW {setting}"], capture_output=True, text=True, timeout=60)
        return out.stdout.strip()

    def cpu(self) -> float:
        """CPU seconds of the postmaster, its live children and its reaped children."""
        try:
            pid = int(Path(self.dir, "data", "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return float("nan")
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as f:
                    parts = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(entry) == pid:
                total += sum(int(x) for x in parts[11:15])  # utime stime cutime cstime
            elif int(parts[1]) == pid:
                total += int(parts[11]) + int(parts[12])
        return total / ticks

    def stop(self) -> None:
        cmd = (f"source {shlex.quote(str(ROOT / 'scripts' / 'test_postgres.sh'))} && "
               f"TEST_PG_DIR={shlex.quote(self.dir)} TEST_PG_BIN={shlex.quote(self.bin)} "
               "&& stop_test_postgres")
        subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=120)


def _cpu(pid: int) -> float:
    return load._proc_stat(pid)[1]


# ----------------------------------------------------------------------------- the people
@dataclass
class Sent:
    """One action: who, on which seq, when sent, answered, and seen by the other person."""
    seat: int
    posted: int
    action: str
    t_sent: float
    t_ack: float | None = None
    new_seq: int = 0
    t_seen: float | None = None


@dataclass
class Table:
    game_id: str
    tokens: dict[int, str]
    sent: list[Sent] = field(default_factory=list)
    seen_seq: dict[int, int] = field(default_factory=lambda: {0: 0, 1: 0})
    first_unseen: dict[int, int] = field(default_factory=lambda: {0: 0, 1: 0})  # in sent
    over: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Run:
    t0: float
    end: float
    actions: list[tuple[float, float]] = field(default_factory=list)  # (start, ms)
    setup: list[tuple[str, float, float]] = field(default_factory=list)  # (kind, start, ms)
    errors: Counter[str] = field(default_factory=Counter)
    tables: list[Table] = field(default_factory=list)
    finished: int = 0
    retries: int = 0

    def now(self) -> float:
        return time.monotonic() - self.t0


@dataclass(frozen=True)
class Answer:
    """An answer read in full: its status and body."""
    status_code: int
    content: bytes

    def json(self) -> Any:
        return orjson.loads(self.content)


#: a kept-alive connection the server closed as the request went out: sent again once
_RETRY = (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError)


async def _request(c: aiohttp.ClientSession, method: str, url: str, **kw: Any) -> Answer:
    async with c.request(method, url, **kw) as r:
        return Answer(r.status, await r.read())


async def _send(run: Run, kind: str, c: aiohttp.ClientSession, method: str, url: str,
                expect: int, **kw: Any) -> Answer | None:
    start = run.now()
    t = time.perf_counter()
    try:
        try:
            r = await _request(c, method, url, **kw)
        except _RETRY:
            run.retries += 1
            r = await _request(c, method, url, **kw)
    except (aiohttp.ClientError, TimeoutError, OSError) as e:
        run.errors[f"{kind}: {type(e).__name__}"] += 1
        return None
    ms = (time.perf_counter() - t) * 1000
    if kind == "action":
        run.actions.append((start, ms))
    else:
        run.setup.append((kind, start, ms))
    if r.status_code != expect:
        run.errors[f"{kind}: HTTP {r.status_code}"] += 1
        return None
    return r


def _client(base: str, timeout: float, limit: int = 1,
            read: float | None = None) -> aiohttp.ClientSession:
    """A session on ``base``: at most ``limit`` connections (one: a browser's own, kept alive
    3 s), every request bounded by ``timeout`` s in all, or (``read``) by ``read`` s between two
    reads of a long answer (a live stream)."""
    connector = aiohttp.TCPConnector(limit=limit, keepalive_timeout=3, ssl=load._TLS)
    t = aiohttp.ClientTimeout(total=timeout) if read is None else \
        aiohttp.ClientTimeout(total=None, connect=timeout, sock_read=read)
    return aiohttp.ClientSession(base_url=base, connector=connector, timeout=t)


class Person:
    def __init__(self, run: Run, table: Table, seat: int, base: str, state: dict[str, Any],
                 rng: random.Random, args: argparse.Namespace) -> None:
        self.run, self.table, self.seat, self.base = run, table, seat, base
        self.state = state
        self.rng, self.args = rng, args
        self.auth = {"Authorization": f"Bearer {table.tokens[seat]}"}
        self.url = f"/api/games/{table.game_id}"
        self.changed = asyncio.Event()

    def _update(self, state: dict[str, Any]) -> None:
        if int(state["seq"]) >= int(self.state["seq"]):
            self.state = state
            self.changed.set()
        if state["phase"] == "game-over":
            self.table.over.set()

    def _seen(self, seq: int) -> None:
        """The stream shows ``seq``: every action of the other person below it is seen."""
        now = time.monotonic()
        t = self.table
        t.seen_seq[self.seat] = max(seq, t.seen_seq[self.seat])
        i = t.first_unseen[self.seat]
        while i < len(t.sent) and t.sent[i].posted < seq:  # sent in the order of their seq
            if t.sent[i].seat != self.seat and t.sent[i].t_seen is None:
                t.sent[i].t_seen = now
            i += 1
        t.first_unseen[self.seat] = i

    async def listen(self) -> None:
        """Read the live stream until the game is over (reconnecting from the last seq)."""
        # a ping comes every 15 s: 40 s without a byte is a dropped stream
        async with _client(self.base, self.args.timeout, read=40) as c:
            while not self.table.over.is_set() and time.monotonic() < self.run.end:
                since = self.table.seen_seq[self.seat]
                try:
                    async with c.get(self.url + "/live", params={"since": since},
                                     headers=self.auth) as r:
                        if r.status != 200:
                            self.run.errors[f"live: HTTP {r.status}"] += 1
                            await asyncio.sleep(1)
                            continue
                        # the events split at their blank line by hand and the state parsed
                        # with orjson: the same reading as a line reader + json, less CPU
                        buf = b""
                        async for chunk in r.content.iter_any():
                            buf += chunk
                            while (end := buf.find(b"\n\n")) >= 0:
                                block, buf = buf[:end], buf[end + 2:]
                                if self._event(block):
                                    return
                    if not self.table.over.is_set() and time.monotonic() < self.run.end:
                        self.run.errors["live: stream ended"] += 1
                except (aiohttp.ClientError, TimeoutError, OSError) as e:
                    if time.monotonic() < self.run.end:
                        self.run.errors[f"live: {type(e).__name__}"] += 1
                        await asyncio.sleep(0.5)

    def _event(self, block: bytes) -> bool:
        """One event of the stream (its lines, without the blank line): a ``state`` is read
        and acted on. True when the game is over."""
        event = ident = None
        data: list[bytes] = []
        for line in block.split(b"\n"):
            if line.startswith(b"data:"):
                data.append(line[5:].strip())
            elif line.startswith(b"event:"):
                event = line[6:].strip()
            elif line.startswith(b"id:"):
                ident = line[3:].strip()
        if event != b"state" or not data:
            return False
        state = orjson.loads(b"".join(data))
        self._seen(int(ident or state["seq"]))
        self._update(state)
        return self.table.over.is_set()

    def _to_act(self) -> bool:
        st = self.state
        if st["phase"] == "hand-over":
            return self.seat == 0 and bool(st["legal"])  # the creator deals the next hand
        return st["phase"] in ACTING and bool(st["legal"])

    async def play(self, c: aiohttp.ClientSession) -> None:
        idle_since = time.monotonic()
        while not self.table.over.is_set() and time.monotonic() < self.run.end:
            if not self._to_act():
                self.changed.clear()
                try:
                    await asyncio.wait_for(self.changed.wait(), timeout=1)
                except TimeoutError:
                    if time.monotonic() - idle_since > 30 + 3 * self.args.think:
                        self.run.errors["person with nothing to do (30 s + 3 think times)"] \
                            += 1
                        r = await _send(self.run, "get", c, "GET", self.url, 200,
                                        headers=self.auth)
                        if r is not None:
                            self._update(orjson.loads(r.content))
                        idle_since = time.monotonic()
                continue
            idle_since = time.monotonic()
            think = self.args.think * self.rng.uniform(0.5, 1.5)
            await asyncio.sleep(min(think, max(0.0, self.run.end - time.monotonic())))
            if time.monotonic() >= self.run.end:
                return
            st = self.state
            action = load.choose(st, self.rng)
            sent = Sent(self.seat, int(st["seq"]), action, time.monotonic())
            self.table.sent.append(sent)
            r = await _send(self.run, "action", c, "POST", self.url + "/actions", 200,
                            headers=self.auth, json={"action": action, "seq": sent.posted})
            if r is None:  # not acknowledged: left out of the figures (t_ack None)
                r = await _send(self.run, "get", c, "GET", self.url, 200, headers=self.auth)
                if r is None:
                    return
                self._update(orjson.loads(r.content))
                continue
            sent.t_ack = time.monotonic()
            new = orjson.loads(r.content)
            sent.new_seq = int(new["seq"])
            self._update(new)
            if new["phase"] == "game-over":
                self.run.finished += 1


async def table_loop(i: int, bases: tuple[str, str], run: Run, args: argparse.Namespace
                     ) -> None:
    rng = random.Random(args.seed * 100_003 + i)
    await asyncio.sleep(args.ramp * i / max(1, args.tables))
    async with _client(bases[0], args.timeout) as ca, _client(bases[1], args.timeout) as cb:
        while time.monotonic() < run.end:
            body: dict[str, Any] = {"seats": [{"kind": "person"}, {"kind": "open"}],
                                    "name": f"Ann {i}"}
            if args.target:
                body["rules"] = {"target": args.target}
            r = await _send(run, "create", ca, "POST", "/api/games", 201, json=body)
            if r is None:
                await asyncio.sleep(1)
                continue
            made = r.json()
            code = made["invite"]["code"]
            r = await _send(run, "join", cb, "POST", f"/api/invites/{code}/join", 201,
                            json={"name": f"Bo {i}"})
            if r is None:
                await asyncio.sleep(1)
                continue
            joined = r.json()
            table = Table(made["game_id"], {0: made["token"], 1: joined["token"]})
            r = await _send(run, "start", ca, "POST", f"/api/games/{table.game_id}/start", 200,
                            headers={"Authorization": f"Bearer {made['token']}"})
            if r is None:
                await asyncio.sleep(1)
                continue
            run.tables.append(table)
            people = [Person(run, table, 0, bases[0], r.json(), rng, args),
                      Person(run, table, 1, bases[1], joined["state"], rng, args)]
            tasks = [asyncio.create_task(p.listen()) for p in people]
            try:
                await asyncio.gather(people[0].play(ca), people[1].play(cb))
                if time.monotonic() < run.end:  # the game is over: the streams end
                    table.over.set()
                await asyncio.sleep(0.5)  # let the last live updates arrive
            finally:
                for t in tasks:
                    t.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)


# ------------------------------------------------------------------------------ checking
async def count_lost(bases: tuple[str, str], tables: list[Table]) -> tuple[int, int]:
    """(acknowledged actions, those missing now), each read through the other process."""
    sem = asyncio.Semaphore(16)
    total = lost = 0

    async def one(cs: list[aiohttp.ClientSession], t: Table) -> None:
        nonlocal total, lost
        for seat in (0, 1):
            acks = [s for s in t.sent if s.seat == seat and s.t_ack is not None]
            if not acks:
                continue
            async with sem:
                r = await _request(cs[1 - seat], "GET", f"/api/games/{t.game_id}",
                                   params={"since": 0},
                                   headers={"Authorization": f"Bearer {t.tokens[seat]}"})
            total += len(acks)
            if r.status_code != 200:
                lost += len(acks)
                continue
            st = r.json()
            events = {e["seq"]: e for e in st["events"]}
            for s in acks:
                e = events.get(s.posted + 1)
                deal = s.action == "next hand"
                if st["seq"] < s.new_seq or e is None or (e["type"] == "deal") != deal \
                        or (not deal and e["seat"] != seat):
                    lost += 1

    async with _client(bases[0], 60, limit=16) as a, _client(bases[1], 60, limit=16) as b:
        await asyncio.gather(*(one([a, b], t) for t in tables))
    return total, lost


# ----------------------------------------------------------------------------------- run
def _uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True,
                              timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"


async def drive(bases: tuple[str, str], pids: tuple[int, int], pg: Postgres | None,
                args: argparse.Namespace) -> dict[str, Any]:
    t0 = time.monotonic()
    run = Run(t0=t0, end=t0 + args.duration)
    tasks = [asyncio.create_task(table_loop(i, bases, run, args)) for i in range(args.tables)]
    await asyncio.sleep(min(args.duration - 1, args.ramp + min(10.0, 3 * args.think)))
    t_ramp = run.now()
    cpu_ramp = [_cpu(p) for p in pids]
    pg_ramp = pg.cpu() if pg else float("nan")
    client0 = time.process_time()
    lags: list[float] = []

    async def watch_lag() -> None:
        while time.monotonic() < run.end:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append((time.perf_counter() - t - 0.01) * 1000)

    watcher = asyncio.create_task(watch_lag())
    await asyncio.sleep(max(0.0, run.end - time.monotonic()))
    t_stop = run.now()
    cpu_stop = [_cpu(p) for p in pids]
    pg_stop = pg.cpu() if pg else float("nan")
    client_cpu = time.process_time() - client0
    done, pending = await asyncio.wait(tasks, timeout=30)
    for t in pending:
        t.cancel()
    if pending:
        run.errors["tables cut off after the grace period"] += len(pending)
    watcher.cancel()
    for t in done:
        if not t.cancelled() and t.exception() is not None:
            run.errors[f"table crashed: {type(t.exception()).__name__}: {t.exception()}"] += 1
    acked, lost = await count_lost(bases, run.tables)
    return {"run": run, "t_ramp": t_ramp, "t_stop": t_stop, "cpu": [b - a for a, b in
            zip(cpu_ramp, cpu_stop, strict=True)], "pg_cpu": pg_stop - pg_ramp,
            "client_cpu": client_cpu, "lags": lags, "acked": acked, "lost": lost}


def _run_loop(main: Any) -> Any:
    """Run the load client's coroutine on uvloop when it is installed (the server's own event
    loop; a third less CPU per request than asyncio's), else on asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def report(args: argparse.Namespace, res: dict[str, Any], codes: list[int], argv: list[str],
           pg: Postgres | None, when: str, up: str) -> str:
    run: Run = res["run"]
    lo, hi = res["t_ramp"], res["t_stop"]
    secs = max(1e-9, hi - lo)
    acts = [ms for start, ms in run.actions if lo <= start <= hi]
    # live updates: the actions sent in the steady part up to 2 s before its end (a slower
    # delivery of those is still waited for)
    sends = [s for t in run.tables for s in t.sent
             if s.t_ack is not None and lo <= s.t_sent - run.t0 <= hi - 2]
    seen = [s for s in sends if s.t_seen is not None]
    from_send = [(s.t_seen - s.t_sent) * 1000 for s in seen]  # type: ignore[operator]
    from_ack = [(s.t_seen - s.t_ack) * 1000 for s in seen]  # type: ignore[operator]
    # an action acknowledged more than 2 s before the end that the other person never saw
    unseen = sum(1 for t in run.tables for s in t.sent
                 if s.t_ack is not None and s.t_seen is None and s.t_ack < run.end - 2)
    late = sum(1 for s in sends if s.t_seen is None)
    errors = sum(run.errors.values())
    p99a, p99l = pct(acts, 99), pct(from_send, 99)
    goal = p99a <= 150 and p99l <= 250 and errors == 0 and res["lost"] == 0 and unseen == 0
    n_act = len(acts)
    srv_cpu = sum(res["cpu"])
    setup = Counter(k for k, start, _ms in run.setup if lo <= start <= hi)
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = "?"
    db = (f"a throwaway PostgreSQL cluster ({pg.version}; fsync={pg.show('fsync')}, "
          f"synchronous_commit={pg.show('synchronous_commit')}) started by this script"
          if pg else f"PostgreSQL at {load._db_name(args.database_url)}")

    def ms(xs: list[float], p: float) -> str:
        return f"{pct(xs, p):.1f}" if xs else "-"

    lines = [
        f"### {args.tables} tables ({2 * args.tables} people), {args.duration:.0f} s",
        "",
        f"Run at {when} UTC; `uptime` before: `{up}`",
        "",
        "Command: `" + " ".join(shlex.quote(a) for a in [".venv/bin/python", *argv]) + "`",
        "",
        f"Setup: Python {platform.python_version()}, {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs, code at {commit}; standard rules"
        + (f" with target {args.target}" if args.target else "") + "; two `ginrummy serve` "
        f"processes (A: creators, B: friends) on {db}; rate limits off; think time uniform "
        f"{args.think * 0.5:g}-{args.think * 1.5:g} s; tables started over {args.ramp:g} s; "
        f"steady part {lo:.1f}-{hi:.1f} s; load client (one asyncio process) on the same "
        "machine" + (f", everything at niceness {os.nice(0)}" if os.nice(0) else "") + ".",
        "",
        "| measure (steady part) | count | p50 ms | p90 ms | p99 ms | max ms |",
        "|---|---:|---:|---:|---:|---:|",
        f"| action (POST to its answer) | {n_act:,} | {ms(acts, 50)} | {ms(acts, 90)} | "
        f"{ms(acts, 99)} | {max(acts, default=float('nan')):.1f} |",
        f"| live update, from the POST sent to the other person's stream | {len(from_send):,} "
        f"| {ms(from_send, 50)} | {ms(from_send, 90)} | {ms(from_send, 99)} | "
        f"{max(from_send, default=float('nan')):.1f} |",
        f"| live update, from the POST's answer to the other person's stream | "
        f"{len(from_ack):,} | {ms(from_ack, 50)} | {ms(from_ack, 90)} | {ms(from_ack, 99)} | "
        f"{max(from_ack, default=float('nan')):.1f} |",
        *(f"| {kind} (whole run, ramp included) | {len(xs):,} | {ms(xs, 50)} | {ms(xs, 90)} "
          f"| {ms(xs, 99)} | {max(xs):.1f} |"
          for kind in ("create", "join", "start", "get")
          if (xs := [m for k, _st, m in run.setup if k == kind])),
        "",
        f"- goals (action p99 <= 150 ms, live p99 <= 250 ms from the POST sent, 0 errors, 0 "
        f"lost, every action seen): **{'met' if goal else 'MISSED'}**",
        f"- actions: {n_act / secs:.1f} per s in the steady part; tables created / joined / "
        f"started in it: {setup['create']} / {setup['join']} / {setup['start']}; "
        f"{len(run.tables)} tables started in all, {run.finished} games played to the end",
        f"- errors: {errors}" + ("" if not run.errors else " (" + ", ".join(
            f"{k}: {v}" for k, v in run.errors.most_common()) + ")"),
        f"- acknowledged actions the other person's stream never showed (answered > 2 s "
        f"before the end): {unseen} (of those in the live figures: {late})",
        f"- actions acknowledged: {res['acked']:,}; lost: **{res['lost']}** (each looked up "
        "after the run with `GET ?since=0` through the other process)",
        f"- requests sent again after an idle kept-alive connection closed: {run.retries}",
        f"- server CPU in the steady part: A {res['cpu'][0]:.1f} s, B {res['cpu'][1]:.1f} s "
        f"({srv_cpu / secs:.0%} of one core together): **"
        f"{srv_cpu * 1000 / max(1, n_act):.1f} ms per action** (everything included: streams, "
        "presence, table set-up)"
        + (f"; PostgreSQL {res['pg_cpu']:.1f} s ({res['pg_cpu'] * 1000 / max(1, n_act):.1f} ms"
           " per action)" if pg else ""),
        f"- the same per person connected (a live stream open) and per second: servers "
        f"{srv_cpu * 1000 / secs / (2 * args.tables):.2f} ms"
        + (f", PostgreSQL {res['pg_cpu'] * 1000 / secs / (2 * args.tables):.2f} ms"
           if pg else "") + (" (with no action at all: the cost of an open stream alone)"
                             if not n_act else ""),
        f"- load client: {res['client_cpu']:.1f} s of CPU ({res['client_cpu'] / secs:.0%} of "
        f"one core); its event loop woke late by p50 {pct(res['lags'], 50):.1f} ms, p99 "
        f"{pct(res['lags'], 99):.1f} ms, max {max(res['lags'], default=0.0):.1f} ms (that "
        f"much of the latencies is the client's)",
        f"- servers stopped with SIGTERM: exit status A {codes[0]}, B {codes[1]}",
    ]
    return "\n".join(lines) + "\n"


def run_tables(args: argparse.Namespace, argv: list[str]) -> str:
    pg = None if args.database_url else Postgres(args.pg_fsync == "on")
    url = args.database_url or pg.url  # type: ignore[union-attr]
    with tempfile.TemporaryDirectory(prefix="ginrummy-tables-") as tmp:
        servers = [load.Server(Path(tmp) / "unused.sqlite3",
                               f"{args.profile}.{n}" if args.profile else None,
                               Path(tmp) / f"{n}.log", None, url) for n in "ab"]
        codes = [-1, -1]
        try:
            for s in servers:
                s.wait_ready()
            for s in servers:
                s.wait_settled()
            up = _uptime()
            when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S")
            with load.quiet_client():
                res = _run_loop(drive((servers[0].base, servers[1].base),
                                      (servers[0].proc.pid, servers[1].proc.pid), pg, args))
            text = report(args, res, codes, argv, pg, when, up)
        finally:
            codes = [s.stop() for s in servers]
            if pg:
                pg.stop()
        text = text.replace("exit status A -1, B -1", f"exit status A {codes[0]}, B {codes[1]}")
        for n, s in zip("AB", servers, strict=True):
            log = s.log.read_text(errors="replace")
            if "Traceback" in log:
                print(f"server {n} log (tail):\n{log[-3000:]}", file=sys.stderr)
                text += f"- server {n} logged a Traceback (see the run's stderr)\n"
    return text


def run_computer(args: argparse.Namespace, argv: list[str]) -> str:
    """benchmarks/load.py's games against the computer: SQLite, then PostgreSQL."""
    lines = [f"### {args.computer} games against the computer: SQLite and PostgreSQL, "
             f"{args.duration:.0f} s each", "",
             "Command: `" + " ".join(shlex.quote(a) for a in [".venv/bin/python", *argv]) + "`",
             ""]
    rows = []
    pg = None if args.database_url else Postgres(args.pg_fsync == "on")
    try:
        url = args.database_url or pg.create_db("ginrummy_computer")  # type: ignore[union-attr]
        for name, db in (("SQLite", None), ("PostgreSQL", url)):
            largs = argparse.Namespace(games=args.computer, duration=args.duration,
                                       think=args.think, ramp=min(10, args.duration / 2),
                                       reloads=0.05, level=None, timeout=args.timeout,
                                       seed=args.seed, spy=None, sqlite_sync=None,
                                       database_url=db)
            from ginrummy.bots import DEFAULT_LEVEL
            largs.level = DEFAULT_LEVEL
            with tempfile.TemporaryDirectory(prefix="ginrummy-load-") as tmp:
                server = load.Server(Path(tmp) / "load.sqlite3", None, Path(tmp) / "s.log",
                                     None, db)
                try:
                    server.wait_ready()
                    settled = server.wait_settled()
                    up = _uptime()
                    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S")
                    with load.quiet_client():
                        res = asyncio.run(load.drive(server.base, largs, server.proc.pid))
                    res["settled_s"] = settled
                finally:
                    code = server.stop()
            sub = ["benchmarks/load.py", "--games", str(args.computer), "--duration",
                   str(args.duration)] + (["--database-url", load._db_name(db)] if db else [])
            full = load.report(largs, res, code, sub)
            run = res["run"]
            steady = [s for s in run.samples
                      if res["t_ramp"] <= s.start <= args.duration and s.kind == "action"]
            acts = [s.ms for s in steady]
            n = sum(1 for s in run.samples if s.start >= res["t_ramp"])
            secs = max(1e-9, min(args.duration, res["t_end"]) - res["t_ramp"])
            rows.append(f"| {name} | {len(acts):,} | {pct(acts, 50):.1f} | {pct(acts, 99):.1f}"
                        f" | {max(acts, default=float('nan')):.1f} | "
                        f"{sum(run.errors.values())} | {res['lost']} | "
                        f"{(res['cpu_end'] - res['cpu_ramp']) * 1000 / max(1, n):.1f} | "
                        f"{(res['cpu_end'] - res['cpu_ramp']) / secs:.0%} | {code} |")
            lines += [f"{name}: run at {when} UTC; `uptime` before: `{up}`", ""]
            lines += ["<details><summary>load.py's full report</summary>", "",
                      full.replace("# Web load test", f"#### {name}: web load test"),
                      "</details>", ""]
    finally:
        if pg:
            pg.stop()
    head = ["| database | actions | p50 ms | p99 ms | max ms | errors | lost | server CPU ms"
            " per request | server CPU (of a core) | SIGTERM exit |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    return "\n".join(lines[:4] + head + rows + [""] + lines[4:]) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=250, help="two-person tables (default 250)")
    ap.add_argument("--duration", type=float, default=60, help="seconds (default 60)")
    ap.add_argument("--think", type=float, default=2.0, help="mean think time, s (default 2)")
    ap.add_argument("--ramp", type=float, default=20, help="seconds to start all tables")
    ap.add_argument("--timeout", type=float, default=30, help="request timeout, seconds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", type=int, default=0, help="the tables' game target, points "
                    "(default: the standard rules', 100); a small one makes games end often")
    ap.add_argument("--database-url", default=None, help="a PostgreSQL database to use "
                    "(default: a throwaway cluster from scripts/test_postgres.sh)")
    ap.add_argument("--pg-fsync", choices=["on", "off"], default="on",
                    help="the throwaway cluster's fsync (default on, as in production)")
    ap.add_argument("--computer", type=int, default=0, metavar="GAMES",
                    help="instead: benchmarks/load.py's GAMES games against the computer, on "
                    "SQLite and then on PostgreSQL")
    ap.add_argument("--out", default=None, help="append the report to this file (default "
                    "benchmarks/results/tables-YYYY-MM-DD.md)")
    ap.add_argument("--no-write", action="store_true", help="print the report only")
    ap.add_argument("--profile", default=None, metavar="PREFIX", help="run both servers under "
                    "cProfile (their event loop's thread only), to PREFIX.a and PREFIX.b")
    args = ap.parse_args(argv)
    if args.tables < 1 or not 5 <= args.duration <= 3600 or args.think <= 0:
        ap.error("need --tables >= 1, 5 <= --duration <= 3600, --think > 0")
    if args.database_url and urlsplit(args.database_url).hostname not in (
            "127.0.0.1", "localhost", "::1"):
        ap.error("--database-url must be on loopback (127.0.0.1)")
    args.ramp = min(args.ramp, args.duration / 2)
    cmd = ["benchmarks/tables_load.py", *argv]
    text = run_computer(args, cmd) if args.computer else run_tables(args, cmd)
    print(text)
    if not args.no_write:
        out = Path(args.out) if args.out else RESULTS / f"tables-{dt.date.today().isoformat()}.md"
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "a", encoding="utf-8") as f:
            f.write(text + "\n")
        print(f"appended to {out}")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    raise SystemExit(main())
