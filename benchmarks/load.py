"""Load test of the web game, on loopback only: many concurrent games for a fixed time.

    .venv/bin/python benchmarks/load.py                       # 200 games, 60 s, writes results/
    .venv/bin/python benchmarks/load.py --games 50 --duration 15 --no-write
    .venv/bin/python benchmarks/load.py --profile /tmp/server.prof   # the server under cProfile
    .venv/bin/python benchmarks/load.py --database-url postgresql+psycopg://u@127.0.0.1:5432/db
    .venv/bin/python benchmarks/load.py --reviews 5      # and 5 reviews asked all the time

It starts the real server itself (``python -m ginrummy.cli serve`` on 127.0.0.1, a free port, a
temporary SQLite file or ``--database-url``, ``GINRUMMY_RATE_LIMITS=off`` so that one client
address is not throttled), and stops it with SIGTERM at the end (it must exit with status 0).

Each of ``--games`` virtual players (asyncio + httpx, one connection each) plays a game at the
default computer level like a quick person: it waits a think time (uniform, mean ``--think``
seconds), posts a sensible legal action (gin, knock or the next hand when it can; mostly the
discard that keeps the least deadwood; otherwise a random legal move), now and then reloads the
state (``--reloads``), and starts a new game when one ends, so that ``--games`` games are in play
all the time. Players start spread over ``--ramp`` seconds; latencies are reported for the steady
part of the run (after the ramp) and for the whole run.

Reported: p50/p90/p99/max latency per kind of request, requests per second, errors (any answer
other than the expected 2xx, or no answer), actions lost (after the run every acknowledged
action is looked up in its game with ``GET ?since=0``: its event must be there), the server's
CPU time per request, and its resident memory: growth per active game (RSS after the ramp minus
RSS before the first game, over the number of games), and at the end.

With ``--reviews N`` (issue 20), N reviewers keep a review asked of the server all the time
(docs/api.md "Review"): before the run each plays ``--review-games`` games against the ``easy``
computer to their end (not timed); during the run it asks for the review of each of those games,
then of each of their hands, one after the other, polling every ``Retry-After`` until the
review is made (each a new review: none is stored yet). The reviews run in the server's review
pool (``GINRUMMY_REVIEWS``, ``--review-settings``); the report adds how many were made, how long
each took from its ask, and the CPU the server's review workers used, beside the players'
latencies: run it with ``--reviews 0`` and ``--reviews 5`` to compare side by side.

Bounded: the run stops after ``--duration`` seconds (plus at most 30 s to let the last requests
finish), and every request has a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import gc
import os
import platform
import random
import re
import shlex
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"


# ------------------------------------------------------------------------------- the player
def choose(state: dict[str, Any], rng: random.Random) -> str:
    """A quick person's move: gin, knock or next hand when offered; mostly the discard of a
    card that is neither melded nor deadwood-minimal; else a random legal move."""
    legal = state["legal"]
    for kind in ("big_gin", "gin", "knock", "next_hand"):
        xs = [a for a in legal if a["type"] == kind]
        if xs:
            return str(min(xs, key=lambda a: a.get("deadwood_points", 0))["action"])
    if state["phase"] == "discard" and rng.random() < 0.8:
        arr = state["arrangement"]
        spare = set(state["hand"]) - {c for m in arr["melds"] for c in m} - set(arr["deadwood"])
        for a in legal:
            if a["type"] == "discard" and a["card"] in spare:
                return str(a["action"])
    if state["phase"] == "draw" and rng.random() < 0.7:
        for a in legal:
            if a["type"] == "draw_stock":
                return str(a["action"])
    return str(rng.choice(legal)["action"])


@dataclass
class Sample:
    kind: str
    start: float  # seconds since the run began
    ms: float
    ok: bool


@dataclass
class GameLog:
    game_id: str
    token: str
    acks: list[tuple[int, str, int]] = field(default_factory=list)  # (posted seq, action, seq)


@dataclass
class Reviews:
    """What the reviewers did (``--reviews``)."""

    prepared: int = 0  # reviews to ask for (games and hands finished before the run)
    asked: int = 0
    made: int = 0
    seconds: list[float] = field(default_factory=list)  # from the ask to the review made
    # from the ask to the search's review (a 200 with ``checking``: the checked one follows)
    first_seconds: list[float] = field(default_factory=list)
    checking: int = 0  # 200 answers with ``checking`` (the search's review, being checked)
    polls: int = 0  # 202 answers (being made)
    busy: int = 0  # 503 answers (the pool full)
    other: Counter[str] = field(default_factory=Counter)  # any other answer
    idle: int = 0  # reviewers that ran out of reviews to ask before the end
    made_steady: int = 0  # made after the ramp


@dataclass
class Run:
    t0: float
    end: float
    samples: list[Sample] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    games: list[GameLog] = field(default_factory=list)
    finished_games: int = 0
    retries: int = 0
    reviews: Reviews = field(default_factory=Reviews)

    def now(self) -> float:
        return time.monotonic() - self.t0


#: the server closed a kept-alive connection as the request went out: nothing reached the game,
#: and browsers send such a request again; so does this client, once (a repeat is harmless: the
#: server answers a repeated action as a duplicate)
_RETRY = (httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError)


async def _timed(run: Run, kind: str, send: Any, expect: int) -> httpx.Response | None:
    start = run.now()
    t = time.perf_counter()
    try:
        try:
            r: httpx.Response = await send()
        except _RETRY:
            run.retries += 1
            r = await send()
    except (httpx.HTTPError, OSError) as e:
        run.samples.append(Sample(kind, start, (time.perf_counter() - t) * 1000, False))
        run.errors[f"{kind}: {type(e).__name__}"] += 1
        return None
    ms = (time.perf_counter() - t) * 1000
    ok = r.status_code == expect
    run.samples.append(Sample(kind, start, ms, ok))
    if not ok:
        run.errors[f"{kind}: HTTP {r.status_code}"] += 1
        return None
    return r


_TLS = ssl.create_default_context()


async def player(i: int, base: str, run: Run, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed * 100_003 + i)
    await asyncio.sleep(args.ramp * i / max(1, args.games))
    # the client lets an idle connection go before uvicorn does (5 s), as browsers must too:
    # else a request may be sent on a connection the server is closing (ReadError)
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1, keepalive_expiry=3)
    # one TLS context for all (plain http here, but a new client would load the CA bundle:
    # ~50 ms of the event loop each, which skewed the ramp's latencies)
    async with httpx.AsyncClient(base_url=base, timeout=args.timeout, limits=limits,
                                 verify=_TLS) as c:
        while time.monotonic() < run.end:
            r = await _timed(run, "create",
                             partial(c.post, "/api/games", json={"level": args.level}), 201)
            if r is None:
                await asyncio.sleep(1)
                continue
            d = r.json()
            g = GameLog(d["game_id"], d["token"])
            run.games.append(g)
            state = d["state"]
            h = {"Authorization": f"Bearer {g.token}"}
            url = f"/api/games/{g.game_id}"
            while state["phase"] != "game-over":
                await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
                if time.monotonic() >= run.end:
                    return
                if rng.random() < args.reloads:
                    r = await _timed(run, "get", partial(c.get, url, headers=h), 200)
                    if r is not None and r.json()["seq"] != state["seq"]:
                        run.errors["get: seq differs from the last answer"] += 1
                action = choose(state, rng)
                seq = state["seq"]
                body = {"action": action, "seq": seq}
                r = await _timed(run, "action",
                                 partial(c.post, url + "/actions", headers=h, json=body), 200)
                if r is None:  # resync from the server and go on
                    r2 = await _timed(run, "get", partial(c.get, url, headers=h), 200)
                    if r2 is None:
                        break
                    state = r2.json()
                    continue
                state = r.json()
                g.acks.append((seq, action, state["seq"]))
            else:
                run.finished_games += 1
                await _timed(run, "record", partial(c.get, url + "/record", headers=h), 200)


# ------------------------------------------------------------------------------ reviewers
async def prepare_reviews(base: str, args: argparse.Namespace) -> list[list[tuple[str, str]]]:
    """Per reviewer, the reviews to ask for (URL, token) of ``--review-games`` games played
    to their end now against the ``easy`` computer (each game's review, then its hands')."""

    async def one(i: int) -> list[tuple[str, str]]:
        rng = random.Random(args.seed * 7919 + i)
        out: list[tuple[str, str]] = []
        hands: list[tuple[str, str]] = []
        async with httpx.AsyncClient(base_url=base, timeout=args.timeout) as c:
            for _ in range(args.review_games):
                r = await c.post("/api/games", json={"level": "easy"})
                r.raise_for_status()
                d = r.json()
                h = {"Authorization": f"Bearer {d['token']}"}
                url = f"/api/games/{d['game_id']}"
                state = d["state"]
                for _ in range(5000):
                    if state["phase"] == "game-over":
                        break
                    r = await c.post(url + "/actions", headers=h,
                                     json={"action": choose(state, rng), "seq": state["seq"]})
                    r.raise_for_status()
                    state = r.json()
                else:
                    raise SystemExit("a game prepared for the reviews did not end")
                out.append((url + "/review", d["token"]))
                hands += [(f"{url}/hands/{n}/review", d["token"])
                          for n in range(1, state["hand_number"] + 1)]
        return out + hands

    return list(await asyncio.gather(*(one(i) for i in range(args.reviews))))


async def reviewer(base: str, run: Run, args: argparse.Namespace,
                   todo: list[tuple[str, str]]) -> None:
    """Ask for each review of ``todo`` in turn until it is made (polling every Retry-After),
    keeping one review asked of the server all the time, until the run ends."""
    rv = run.reviews
    async with httpx.AsyncClient(base_url=base, timeout=args.timeout) as c:
        for url, token in todo:
            if time.monotonic() >= run.end:
                return
            rv.asked += 1
            t = time.perf_counter()
            first_seen = False
            while time.monotonic() < run.end:
                try:
                    r = await c.get(url, headers={"Authorization": f"Bearer {token}"})
                except (httpx.HTTPError, OSError) as e:
                    rv.other[type(e).__name__] += 1
                    await asyncio.sleep(1)
                    continue
                if r.status_code == 200 and "checking" in r.json():
                    # the search's review while its mistakes are checked: poll on for the
                    # checked one, the review a person is given in the end
                    if not first_seen:
                        rv.first_seconds.append(time.perf_counter() - t)
                        first_seen = True
                    rv.checking += 1
                    await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                    continue
                if r.status_code == 200:
                    rv.made += 1
                    rv.seconds.append(time.perf_counter() - t)
                    break
                if r.status_code in (202, 503):
                    if r.status_code == 202:
                        rv.polls += 1
                    else:
                        rv.busy += 1
                    await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                    continue
                rv.other[f"HTTP {r.status_code}"] += 1
                break
        rv.idle += 1


# ------------------------------------------------------------------------------- the server
def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _proc_stat(pid: int) -> tuple[float, float]:
    """(resident memory in MiB, CPU seconds used) of a process (Linux /proc)."""
    rss = 0.0
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return rss, (int(parts[11]) + int(parts[12])) / ticks


def _descendants_cpu(pid: int) -> float:
    """CPU seconds used so far by the processes below ``pid`` (its review workers and their
    forkserver), read from /proc (Linux)."""
    parent: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", encoding="ascii") as f:
                parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    below: list[int] = []
    frontier = [pid]
    while frontier:
        p = frontier.pop()
        kids = [k for k, v in parent.items() if v == p]
        below += kids
        frontier += kids
    total = 0.0
    for k in below:
        try:
            total += _proc_stat(k)[1]
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
    return total


class Server:
    def __init__(self, db: Path, profile: str | None, log: Path, sync: str | None,
                 url: str | None = None, reviews: str | None = None) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        head = [sys.executable]
        if profile:
            head += ["-m", "cProfile", "-o", profile]
        self.cmd = [*head, "-m", "ginrummy.cli", "serve", "--host", "127.0.0.1", "--port",
                    str(self.port), "--database-url", url or f"sqlite:///{db}", "--log-level",
                    "warning"]
        env = {**os.environ, "GINRUMMY_RATE_LIMITS": "off"}
        # every simulated person comes from 127.0.0.1: the per-address bound on live streams
        # (32 by default) would refuse most of them with 429 (tables_load.py's 250 tables hold
        # 500 streams); the per-seat bound stays, and a setting in the environment wins
        env.setdefault("GINRUMMY_LIVE_LIMITS", "address=100000")
        env.pop("GINRUMMY_DATABASE_URL", None)
        if sync:
            env["GINRUMMY_SQLITE_SYNC"] = sync
        if reviews is not None:
            env["GINRUMMY_REVIEWS"] = reviews
        self.log = log
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(self.cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                         start_new_session=True)

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=2) as c:
            while True:
                if self.proc.poll() is not None:
                    raise SystemExit(f"the server died:\n{self.log.read_text()[-2000:]}")
                try:
                    if c.get(self.base + "/api/meta").status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start")
                time.sleep(0.05)

    def wait_settled(self, timeout: float = 120) -> float:
        """Wait until the idle server stops using CPU (its start-up work, e.g. compiling the
        expert's kernel in the background, is over), so that the memory measured before the
        first game includes it. Returns the seconds waited."""
        t0 = time.monotonic()
        _rss, cpu = _proc_stat(self.proc.pid)
        while time.monotonic() - t0 < timeout:
            time.sleep(0.5)
            _rss, now = _proc_stat(self.proc.pid)
            if now - cpu < 0.02:
                break
            cpu = now
        return time.monotonic() - t0

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
                return -9
        return int(self.proc.returncode)


# -------------------------------------------------------------------------------- checking
async def count_lost(base: str, games: list[GameLog]) -> tuple[int, int]:
    """(acknowledged actions, those missing from their game now)."""
    sem = asyncio.Semaphore(16)
    lost = 0
    total = 0

    async def one(c: httpx.AsyncClient, g: GameLog) -> None:
        nonlocal lost, total
        if not g.acks:
            return
        async with sem:
            r = await c.get(f"/api/games/{g.game_id}", params={"since": 0},
                            headers={"Authorization": f"Bearer {g.token}"})
        total += len(g.acks)
        if r.status_code != 200:
            lost += len(g.acks)
            return
        s = r.json()
        events = {e["seq"]: e for e in s["events"]}
        for posted, action, seq in g.acks:
            e = events.get(posted + 1)
            want_deal = action == "next hand"
            if s["seq"] < seq or e is None or (e["type"] == "deal") != want_deal \
                    or (not want_deal and e["seat"] != 0):
                lost += 1

    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        await asyncio.gather(*(one(c, g) for g in games))
    return total, lost


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def table(samples: list[Sample], seconds: float) -> list[str]:
    by: dict[str, list[float]] = defaultdict(list)
    errs: Counter[str] = Counter()
    for s in samples:
        by[s.kind].append(s.ms)
        by["all"].append(s.ms)
        if not s.ok:
            errs[s.kind] += 1
            errs["all"] += 1
    out = ["| requests | count | per s | p50 ms | p90 ms | p99 ms | max ms | errors |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for kind in ("action", "get", "create", "record", "all"):
        xs = by.get(kind, [])
        if not xs:
            continue
        out.append(f"| {kind} | {len(xs):,} | {len(xs) / seconds:.1f} | {pct(xs, 50):.1f} | "
                   f"{pct(xs, 90):.1f} | {pct(xs, 99):.1f} | {max(xs):.1f} | {errs[kind]} |")
    return out


# ------------------------------------------------------------------------------------ main
def _loadavg() -> str:
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


@contextlib.contextmanager
def quiet_client() -> Any:
    """The load client without full garbage collections while it measures: its start-up objects
    frozen (:func:`gc.freeze`) and no automatic collection of the oldest generation (the young
    ones still run). One client process stands for hundreds of browsers; a full collection of
    its own heap (30 to 470 ms, growing with the run, measured in the 250-table run of
    benchmarks/results/heap-2026-12-06.md) held every request in flight and was counted in the
    server's latencies."""
    gc.collect()
    gc.freeze()
    before = gc.get_threshold()
    gc.set_threshold(before[0], before[1], 1 << 30)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


async def drive(base: str, args: argparse.Namespace, pid: int) -> dict[str, Any]:
    todo = await prepare_reviews(base, args) if args.reviews else []
    load_before = _loadavg()
    t0 = time.monotonic()
    run = Run(t0=t0, end=t0 + args.duration)
    run.reviews.prepared = sum(len(t) for t in todo)
    tasks = [asyncio.create_task(player(i, base, run, args)) for i in range(args.games)]
    reviewers = [asyncio.create_task(reviewer(base, run, args, t)) for t in todo]
    rss0, cpu0 = _proc_stat(pid)
    # after the ramp (and a few think times, so that every game has moved): the memory
    await asyncio.sleep(min(args.duration - 1, args.ramp + 3 * args.think))
    rss_ramp, cpu_ramp = _proc_stat(pid)
    workers_ramp = _descendants_cpu(pid)
    made_ramp = run.reviews.made
    t_ramp = run.now()
    client_cpu0 = time.process_time()
    lags: list[float] = []

    async def watch_lag() -> None:  # how late the client's own event loop wakes up
        while time.monotonic() < run.end:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append((time.perf_counter() - t - 0.01) * 1000)

    watcher = asyncio.create_task(watch_lag())
    spy = None
    if args.spy:
        spy = subprocess.Popen(
            [str(Path(sys.executable).parent / "py-spy"), "record", "--pid",
             str(pid), "--rate", "250", "--format", "raw", "--output", args.spy,
             "--duration", str(max(1, int(args.duration - t_ramp - 1))), "--nonblocking"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    done, pending = await asyncio.wait(tasks, timeout=args.duration + 30 - run.now())
    for t in pending:
        t.cancel()
    if pending:
        run.errors["players cut off after the grace period"] += len(pending)
    t_end = run.now()
    rss_end, cpu_end = _proc_stat(pid)
    workers_end = _descendants_cpu(pid)
    run.reviews.made_steady = run.reviews.made - made_ramp
    for t in reviewers:
        t.cancel()
    client_cpu = time.process_time() - client_cpu0
    watcher.cancel()
    for t in done:
        if t.exception() is not None:
            run.errors[f"player crashed: {type(t.exception()).__name__}"] += 1
    if spy is not None:
        spy.wait(timeout=60)
    total, lost = await count_lost(base, run.games)
    return {"run": run, "rss0": rss0, "rss_ramp": rss_ramp, "rss_end": rss_end,
            "cpu0": cpu0, "cpu_ramp": cpu_ramp, "cpu_end": cpu_end, "t_ramp": t_ramp,
            "t_end": t_end, "acked": total, "lost": lost, "load_before": load_before,
            "load_after": _loadavg(), "client_cpu": client_cpu, "lags": lags,
            "workers_cpu": workers_end - workers_ramp}


def report(args: argparse.Namespace, res: dict[str, Any], exit_code: int, argv: list[str]
           ) -> str:
    run: Run = res["run"]
    steady = [s for s in run.samples if res["t_ramp"] <= s.start <= args.duration]
    steady_s = max(1e-9, min(args.duration, res["t_end"]) - res["t_ramp"])
    all_s = max(1e-9, res["t_end"])
    acts = [s.ms for s in steady if s.kind == "action"]
    p99 = pct(acts, 99)
    steady_cpu = res["cpu_end"] - res["cpu_ramp"]
    steady_n = sum(1 for s in run.samples if s.start >= res["t_ramp"])
    per_game = (res["rss_ramp"] - res["rss0"]) * 1024 / max(1, args.games)
    errors = sum(run.errors.values())
    goal = (p99 <= 150 and errors == 0 and res["lost"] == 0)
    t_stop = min(args.duration, res["t_end"])
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "src"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit, dirty = "?", ""
    from ginrummy.bots import DEFAULT_LEVEL

    lines = [
        f"# Web load test, {dt.date.today().isoformat()}",
        "",
        "Command: `" + " ".join(shlex.quote(a) for a in ["python", *argv]) + "` (from the "
        "repository root, `python` = `.venv/bin/python`)",
        "",
        f"Environment: Python {platform.python_version()} ({platform.python_implementation()});"
        f" {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs; code at {commit}"
        + (" with uncommitted changes in src/" if dirty else "") + "; the server and the "
        "load client share the machine (loopback). Load average (1, 5, 15 min) before the run: "
        f"{res['load_before']}, after: {res['load_after']} (other work on the machine counts "
        "in it)." + (f" Server and client ran at niceness {os.nice(0)} (`nice -n {os.nice(0)}`),"
                     " ahead of the other work on the machine." if os.nice(0) else ""),
        "",
        f"Setup: {args.games} concurrent games at level `{args.level or DEFAULT_LEVEL}` "
        f"(default level: `{DEFAULT_LEVEL}`), {args.duration:.0f} s; think time uniform "
        f"{args.think * 0.5:g}-{args.think * 1.5:g} s (mean {args.think:g} s) before each "
        f"action; {args.reloads:.0%} of the actions preceded by a state reload; players "
        f"started over {args.ramp:g} s; one server process (uvicorn), "
        + (f"PostgreSQL ({_db_name(args.database_url)})" if args.database_url else
           f"SQLite file in WAL mode with synchronous={args.sqlite_sync or 'FULL'}")
        + ", rate limits off "
        "(`GINRUMMY_RATE_LIMITS=off`).",
        "",
        f"## Steady state (after the ramp: {res['t_ramp']:.1f} s to {t_stop:.1f} s)",
        "",
        *table(steady, steady_s),
        "",
        "## Whole run",
        "",
        *table(run.samples, all_s),
        "",
        "## Outcome",
        "",
        f"- goal (p99 of actions <= 150 ms, no error, no action lost): "
        f"**{'met' if goal else 'MISSED'}** (p99 {p99:.1f} ms)",
        f"- errors: {errors}" + ("" if not run.errors else " (" + ", ".join(
            f"{k}: {v}" for k, v in run.errors.most_common()) + ")"),
        f"- requests sent again after the server closed an idle kept-alive connection as they "
        f"went out (as browsers do; counted once in the latency): {run.retries}",
        f"- actions acknowledged: {res['acked']:,}; lost: **{res['lost']}** (each looked up "
        "in its game after the run)",
        f"- games: {len(run.games)} started, {run.finished_games} played to the end",
        f"- server CPU: {steady_cpu:.1f} s over the steady {steady_s:.1f} s "
        f"({steady_cpu / steady_s:.0%} of one core), "
        f"{steady_cpu * 1000 / max(1, steady_n):.1f} ms per request",
        f"- load client: {res['client_cpu']:.1f} s of CPU over the same time "
        f"({res['client_cpu'] / max(1e-9, res['t_end'] - res['t_ramp']):.0%} of one core); its "
        f"event loop woke up late by p50 {pct(res['lags'], 50):.1f} ms, p99 "
        f"{pct(res['lags'], 99):.1f} ms, max {max(res['lags'], default=0.0):.1f} ms (that much "
        f"of the latencies above is the client's)",
        f"- server memory (RSS): {res['rss0']:.0f} MiB before the first game"
        + (f" (measured once the idle server had settled, {res['settled_s']:.1f} s after it "
           "answered: the expert's kernel is loaded in the background at start)"
           if "settled_s" in res else "") + ", "
        f"{res['rss_ramp']:.0f} MiB with {args.games} games in play "
        f"(**{per_game:.0f} KiB per active game**), {res['rss_end']:.0f} MiB at the end",
        f"- server stopped with SIGTERM: exit status {exit_code}",
    ]
    if args.reviews:
        lines += ["", *review_lines(args, res, steady_s)]
    return "\n".join(lines) + "\n"


def review_lines(args: argparse.Namespace, res: dict[str, Any], steady_s: float) -> list[str]:
    """The report's part on the reviews asked during the run (``--reviews``)."""
    rv: Reviews = res["run"].reviews
    secs = rv.seconds
    return [
        "## Reviews during the load",
        "",
        f"- {args.reviews} reviewers, each keeping one review asked of the server all the "
        f"time (polling every `Retry-After`): {rv.prepared} reviews prepared (the whole game "
        f"and each hand of {args.review_games} games per reviewer, played to their end against "
        "`easy` before the run); server's review settings: "
        + (f"`GINRUMMY_REVIEWS={args.review_settings}`" if args.review_settings is not None
           else "its defaults (`GINRUMMY_REVIEWS` unset)"),
        f"- reviews asked: {rv.asked}, made: {rv.made} ({rv.made_steady} in the steady part); "
        f"from the ask to the review made: p50 {pct(secs, 50):.1f} s, max "
        + (f"{max(secs):.1f} s" if secs else "-"),
        f"- answers 200 with `checking` (the search's review while its mistakes are checked): "
        f"{rv.checking}; from the ask to the first of them: p50 "
        f"{pct(rv.first_seconds, 50):.1f} s, max "
        + (f"{max(rv.first_seconds):.1f} s" if rv.first_seconds else "-"),
        f"- answers 202 (being made): {rv.polls}; 503 (pool full): {rv.busy}; other: "
        + (", ".join(f"{k}: {v}" for k, v in rv.other.most_common()) or "none"),
        f"- the server's review workers: {res['workers_cpu']:.1f} s of CPU over the steady "
        f"{steady_s:.1f} s ({res['workers_cpu'] / steady_s:.0%} of one core)",
        f"- reviewers that ran out of reviews before the end: {rv.idle} of {args.reviews}"
        + (" (more `--review-games` keep them busy)" if rv.idle else ""),
    ]


def _db_name(url: str) -> str:
    """The URL without its password (for the report)."""
    return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", url)


def spy_summary(path: str, top: int = 30) -> None:
    """Where the server's samples were: by function (inclusive), from py-spy's raw output."""
    incl: Counter[str] = Counter()
    self_: Counter[str] = Counter()
    total = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            stack, _, n = line.rstrip().rpartition(" ")
            if not n.isdigit():
                continue
            frames = stack.split(";")
            total += int(n)
            names = [fr.split(" (")[0] + " (" + fr.split(" (")[-1].split(":")[0].rsplit("/", 1)[-1]
                     + ")" for fr in frames]
            for name in set(names):
                incl[name] += int(n)
            self_[names[-1]] += int(n)
    print(f"\npy-spy: {total} samples of the server's busy threads (idle ones not sampled)")
    print("inclusive:")
    for name, n in incl.most_common(top):
        print(f"  {n / total:6.1%}  {name}")
    print("self:")
    for name, n in self_.most_common(top):
        print(f"  {n / total:6.1%}  {name}")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    ap.add_argument("--duration", type=float, default=60, help="seconds (default 60)")
    ap.add_argument("--think", type=float, default=2.0,
                    help="mean think time before each action, seconds (default 2)")
    ap.add_argument("--ramp", type=float, default=10, help="seconds to start all players")
    ap.add_argument("--reloads", type=float, default=0.05,
                    help="share of actions preceded by a GET of the state (default 0.05)")
    ap.add_argument("--level", default=None, help="computer level (default: the server's)")
    ap.add_argument("--timeout", type=float, default=30, help="request timeout, seconds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", default=None, help="run the server under cProfile, to FILE "
                    "(main thread only: the request handlers run in worker threads)")
    ap.add_argument("--spy", default=None, help="sample the server with py-spy (all threads) "
                    "during the steady part, collapsed stacks to FILE; prints a summary")
    ap.add_argument("--sqlite-sync", choices=["FULL", "NORMAL"], type=str.upper, default=None,
                    help="the server's GINRUMMY_SQLITE_SYNC (default: the server's, FULL)")
    ap.add_argument("--database-url", default=None, help="the server's database instead of a "
                    "temporary SQLite file (e.g. postgresql+psycopg://USER@127.0.0.1:PORT/DB)")
    ap.add_argument("--url", default=None, help="drive a server already running on loopback "
                    "(with GINRUMMY_RATE_LIMITS=off) instead of starting one")
    ap.add_argument("--pid", type=int, default=0, help="with --url: the server's process id")
    ap.add_argument("--reviews", type=int, default=0, help="reviewers keeping a review asked "
                    "of the server all the time (default 0; docs/api.md \"Review\")")
    ap.add_argument("--review-games", type=int, default=2, help="games each reviewer plays to "
                    "their end before the run, whose reviews it asks for (default 2)")
    ap.add_argument("--review-settings", default=None, help="the server's GINRUMMY_REVIEWS "
                    "(default: unset, the server's defaults)")
    ap.add_argument("--out", default=None, help="report file (default "
                    "benchmarks/results/load-YYYY-MM-DD.md)")
    ap.add_argument("--no-write", action="store_true", help="print the report only")
    args = ap.parse_args(argv)
    if args.games < 1 or not 1 <= args.duration <= 3600 or args.think <= 0:
        ap.error("need --games >= 1, 1 <= --duration <= 3600, --think > 0")
    if args.reviews < 0 or args.review_games < 1:
        ap.error("need --reviews >= 0 and --review-games >= 1")
    args.ramp = min(args.ramp, args.duration / 2)
    if args.level is None:
        from ginrummy.bots import DEFAULT_LEVEL

        args.level = DEFAULT_LEVEL

    if args.url:  # a server started by hand (same loopback rule)
        if httpx.URL(args.url).host not in ("127.0.0.1", "localhost", "::1"):
            ap.error("--url must be a loopback address (127.0.0.1)")
        if not args.pid:
            ap.error("--url needs --pid (the server's process, for its memory and CPU)")
        with quiet_client():
            res = asyncio.run(drive(args.url.rstrip("/"), args, args.pid))
        code, log_tail = 0, ""
    else:
        with tempfile.TemporaryDirectory(prefix="ginrummy-load-") as tmp:
            server = Server(Path(tmp) / "load.sqlite3", args.profile, Path(tmp) / "server.log",
                            args.sqlite_sync, args.database_url, args.review_settings)
            try:
                server.wait_ready()
                settled = server.wait_settled()
                with quiet_client():
                    res = asyncio.run(drive(server.base, args, server.proc.pid))
                res["settled_s"] = settled
            finally:
                code = server.stop()
            log_tail = (Path(tmp) / "server.log").read_text(errors="replace")[-2000:]
    text = report(args, res, code, ["benchmarks/load.py", *argv])
    print(text)
    if "Traceback" in log_tail:
        print("server log (tail):\n" + log_tail, file=sys.stderr)
    if args.profile:
        import pstats

        st = pstats.Stats(args.profile)
        st.sort_stats("cumulative").print_stats(40)
        st.sort_stats("tottime").print_stats(25)
    if args.spy:
        spy_summary(args.spy)
    if not args.no_write:
        out = Path(args.out) if args.out else RESULTS / f"load-{dt.date.today().isoformat()}.md"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(f"written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
