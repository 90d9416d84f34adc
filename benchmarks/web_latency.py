"""Web game latency on loopback: simulated players against the real server.

    .venv/bin/python benchmarks/web_latency.py                 # all scenarios, writes results
    .venv/bin/python benchmarks/web_latency.py --quick         # a short smoke run, no file
    .venv/bin/python benchmarks/web_latency.py --players 50 --actions 60 --think 0.5:1.5

It starts the app itself (``create_app`` under uvicorn, one process, as ``ginrummy serve`` runs
it, but with the access log and the per-client rate limits off: every simulated player comes from
127.0.0.1) on a free 127.0.0.1 port with a temporary SQLite file, runs the players with asyncio +
httpx, stops the server and writes ``benchmarks/results/web-YYYY-MM-DD.md``.

Each player creates a game at the default computer level and plays it through the JSON API the
page uses (docs/api.md): take or pass the upcard, draw from the stock, discard the highest loose
card, knock or gin when it may, next hand; a new game when one ends. The latency of an action is
the time from sending ``POST /api/games/{id}/actions`` to having read the whole answer, which
includes the computer's reply (its draw and discard, or its showdown). The run stops after
``--actions`` actions per player or ``--seconds`` seconds, whichever comes first.

Scenarios (the default run does all three):

* ``solo``: one player, 0.1-0.2 s between actions: the floor (no queueing behind others);
* ``think``: each of the players waits a random 0.5-1.5 s before each action (a quick person);
* ``flat-out``: no waiting at all (50 clients hammering one server process: a stress test).

Also measured: the first page load in bytes (``/``, the CSS and JS modules it loads, following
``import``s, and one locale catalog), as served (the server does not compress).
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
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

GOAL_P99_MS = 150.0
POINTS = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}


# ---------------------------------------------------------------------------------- the server
def serve(port: int, db: str) -> None:
    """The child process: the app on 127.0.0.1:port until SIGTERM."""
    import uvicorn

    from ginrummy.web import create_app
    from ginrummy.web.http.ratelimit import RateLimits

    app = create_app(f"sqlite:///{db}", rate_limits=RateLimits(creates=None, requests=None))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False,
                timeout_graceful_shutdown=5)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.db = db
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(self.port), str(self.db)],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited at start")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start in 30 s")

    def cpu_seconds(self) -> float:
        """The server process's CPU time so far (user + system; Linux /proc), else NaN."""
        try:
            assert self.proc is not None
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, AssertionError, IndexError, ValueError):
            return float("nan")

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# ---------------------------------------------------------------------------------- the players
@dataclass
class Stats:
    actions: list[tuple[str, float]] = field(default_factory=list)  # (type, seconds)
    creates: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0
    hands_finished: int = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The browser tests' player policy, from the state alone."""
    legal = state["legal"]
    by: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by.setdefault(a["type"], []).append(a)
    for kind in ("big_gin", "gin"):
        if kind in by:
            return by[kind][0]
    if "knock" in by:
        return min(by["knock"], key=lambda a: a.get("deadwood_points", 0))
    if "next_hand" in by:
        return by["next_hand"][0]
    if "take" in by:
        return by["take"][0] if rng.random() < 0.3 else by.get("pass", by["take"])[0]
    if "draw_stock" in by:
        return by["draw_stock"][0]
    if "pass" in by:
        return by["pass"][0]
    discards = by.get("discard") or legal
    arr = state.get("arrangement") or {}
    in_meld = {c for m in arr.get("melds", []) for c in m}
    loose = [a for a in discards if a.get("card") not in in_meld] or discards
    return max(loose, key=lambda a: POINTS.get(str(a.get("card", "A"))[0], 0))


async def player(client: Any, n: int, stats: Stats, actions: int, stop_at: float,
                 think: tuple[float, float], rng: random.Random) -> None:
    game: dict[str, Any] | None = None
    done = 0
    if think[1] > 0:  # people do not all arrive in the same millisecond
        await asyncio.sleep(rng.uniform(0, think[1]))
    while done < actions and time.monotonic() < stop_at:
        if game is None:
            t0 = time.perf_counter()
            try:
                r = await client.post("/api/games", json={})
            except Exception as e:  # a refused or dropped connection
                stats.error(f"create: {type(e).__name__}")
                await asyncio.sleep(0.2)
                continue
            stats.creates.append(time.perf_counter() - t0)
            if r.status_code != 201:
                stats.error(f"create: HTTP {r.status_code}")
                await asyncio.sleep(0.2)
                continue
            data = r.json()
            game = {"id": data["game_id"], "state": data["state"],
                    "headers": {"Authorization": f"Bearer {data['token']}"}}
        state = game["state"]
        if state["phase"] == "game-over" or not state["legal"]:
            stats.games_finished += state["phase"] == "game-over"
            game = None
            continue
        a = choose(state, rng)
        if think[1] > 0:
            await asyncio.sleep(rng.uniform(*think))
        t0 = time.perf_counter()
        try:
            r = await client.post(f"/api/games/{game['id']}/actions",
                                  json={"action": a["action"], "seq": state["seq"]},
                                  headers=game["headers"])
        except Exception as e:
            stats.error(f"action: {type(e).__name__}")
            continue
        dt_s = time.perf_counter() - t0
        done += 1
        if r.status_code != 200:
            stats.error(f"action {a['type']}: HTTP {r.status_code}")
            body = r.json() if r.headers.get("content-type", "").startswith("application/json") \
                else {}
            if isinstance(body, dict) and isinstance(body.get("state"), dict):
                game["state"] = body["state"]
            else:
                game = None
            continue
        stats.actions.append((a["type"], dt_s))
        game["state"] = r.json()
        if game["state"]["phase"] in ("hand-over", "game-over"):
            stats.hands_finished += 1


async def run_players(base: str, players: int, actions: int, seconds: float,
                      think: tuple[float, float], seed: int) -> tuple[Stats, float, float]:
    """Run the players; ``(stats, wall seconds, client CPU seconds)``. Each player has a client
    of its own with one keep-alive connection, like a browser tab (one shared httpx pool of 50
    connections costs the client more CPU than the server spends: httpcore scans its pool on
    every request)."""
    import httpx

    stats = Stats()
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    clients = [httpx.AsyncClient(base_url=base, limits=limits, timeout=30.0)
               for _ in range(players)]
    try:
        # warm up: the computer's first move loads its code; not counted
        r = await clients[0].post("/api/games", json={})
        r.raise_for_status()
        cpu0 = time.process_time()
        t0 = time.monotonic()
        stop_at = t0 + seconds
        await asyncio.gather(*(player(c, i, stats, actions, stop_at, think,
                                      random.Random(seed * 1000 + i))
                               for i, c in enumerate(clients)))
        wall = time.monotonic() - t0
        cpu = time.process_time() - cpu0
    finally:
        for c in clients:
            await c.aclose()
    return stats, wall, cpu


# ---------------------------------------------------------------------------------- page weight
_CSS = re.compile(r"<link[^>]+rel=[\"']?stylesheet[\"']?[^>]*href=[\"']([^\"']+)[\"']", re.I)
_SCRIPT = re.compile(r"<script[^>]+src=[\"']([^\"']+)[\"']", re.I)
_IMPORT = re.compile(r"""(?:^|[;\s])import\s+(?:[^'";]*?\s+from\s+)?["']([^"']+)["']""", re.M)


def page_weight(base: str, lang: str = "en") -> list[tuple[str, int]]:
    """``[(path, bytes)]`` of the first page load: /, its CSS, its JS modules (imports
    followed), one locale catalog."""
    import httpx

    out: list[tuple[str, int]] = []
    with httpx.Client(base_url=base, timeout=10) as c:
        html = c.get("/").text
        out.append(("/", len(html.encode())))
        for href in _CSS.findall(html):
            out.append((href, len(c.get(href).content)))
        todo = list(_SCRIPT.findall(html))
        seen: set[str] = set()
        while todo:
            src = todo.pop(0)
            if src in seen:
                continue
            seen.add(src)
            body = c.get(src).content
            out.append((src, len(body)))
            folder = src.rsplit("/", 1)[0]
            for imp in _IMPORT.findall(body.decode("utf-8", "replace")):
                if imp.startswith("./"):
                    todo.append(f"{folder}/{imp[2:]}")
                elif imp.startswith("/"):
                    todo.append(imp)
        path = f"/locales/{lang}.json"
        out.append((path, len(c.get(path).content)))
    return out


# ---------------------------------------------------------------------------------- report
def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = max(0, min(len(xs) - 1, round(p / 100 * len(xs) + 0.5) - 1))
    return xs[k]


def ms(x: float) -> str:
    return f"{x * 1000:.1f}"


def describe(name: str, players: int, stats: Stats, wall: float, think: tuple[float, float],
             cpu: tuple[float, float], load: tuple[float, float]) -> tuple[list[str], float]:
    lat = [s for _, s in stats.actions]
    replies = [s for t, s in stats.actions if t in ("discard", "knock", "gin", "big_gin", "pass",
                                                    "take", "next_hand")]
    p99 = pct(lat, 99)
    requests = max(1, len(lat) + len(stats.creates))
    lines = [
        f"### Scenario `{name}`: {players} player{'s' if players != 1 else ''}, "
        + (f"think time {think[0]:g}-{think[1]:g} s" if think[1] else "no think time"),
        "",
        f"- {len(lat):,} actions in {wall:.1f} s ({len(lat) / wall:.0f} actions/s); "
        f"new games: {len(stats.creates):,}; hands finished: {stats.hands_finished:,}; "
        f"games finished: {stats.games_finished:,}",
        f"- CPU time per request (actions and new games; independent of waiting for the CPU): "
        f"server {cpu[0] / requests * 1000:.1f} ms, simulated players "
        f"{cpu[1] / requests * 1000:.1f} ms (both processes share the machine's CPUs)",
        f"- machine load average (1 min) before / after: {load[0]:.2f} / {load[1]:.2f} "
        f"on {os.cpu_count()} CPUs (other work on the machine shows here)",
        f"- errors: {sum(stats.errors.values())}"
        + (" (" + ", ".join(f"{k}: {v}" for k, v in sorted(stats.errors.items())) + ")"
           if stats.errors else ""),
        "",
        "| requests | n | p50 ms | p90 ms | p99 ms | max ms | mean ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    rows = [("every action", lat),
            ("actions answered by a computer move (discard, knock, gin, pass, take, "
             "next hand)", replies),
            ("draw (no computer move)", [s for t, s in stats.actions
                                         if t in ("draw_stock", "draw_discard")]),
            ("new game (POST /api/games)", stats.creates)]
    for label, xs in rows:
        if xs:
            lines.append(f"| {label} | {len(xs):,} | {ms(pct(xs, 50))} | {ms(pct(xs, 90))} | "
                         f"{ms(pct(xs, 99))} | {ms(max(xs))} | {ms(statistics.fmean(xs))} |")
    verdict = "met" if p99 <= GOAL_P99_MS / 1000 else "NOT met"
    lines += ["", f"Goal p99 <= {GOAL_P99_MS:.0f} ms for an action: **{verdict}** "
                  f"(p99 {ms(p99)} ms).", ""]
    return lines, p99


def parse_think(text: str) -> tuple[float, float]:
    if text in ("0", "none", ""):
        return (0.0, 0.0)
    a, _, b = text.partition(":")
    lo = float(a)
    return (lo, float(b) if b else lo)


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        serve(int(sys.argv[2]), sys.argv[3])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--actions", type=int, default=60, help="actions per player (default 60)")
    ap.add_argument("--seconds", type=float, default=90.0, help="time limit of a scenario")
    ap.add_argument("--think", default=None,
                    help="think time range in seconds, e.g. 0.5:1.5, or 0 (one scenario); "
                         "default: the three scenarios")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="10 players, 10 actions, no file")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    if args.quick:
        args.players, args.actions, args.seconds, args.no_write = 10, 10, 20.0, True
    scenarios: list[tuple[str, int, tuple[float, float]]]
    if args.think is None:
        scenarios = [("solo", 1, (0.1, 0.2)), ("think", args.players, (0.5, 1.5)),
                     ("flat-out", args.players, (0.0, 0.0))]
    else:
        think = parse_think(args.think)
        scenarios = [("think" if think[1] else "flat-out", args.players, think)]

    from ginrummy import __version__
    from ginrummy.bots import DEFAULT_LEVEL

    today = dt.date.today().isoformat()
    command = " ".join([".venv/bin/python", "benchmarks/web_latency.py",
                        *map(shlex.quote, sys.argv[1:])])
    report = [f"# Web latency benchmark, {today}", "",
              f"Command: `{command}` (from the repository root)", "",
              f"Environment: ginrummy {__version__}; Python {platform.python_version()} "
              f"({platform.python_implementation()}); {platform.system()} "
              f"{platform.machine()}, {os.cpu_count()} CPUs; server and players on the same "
              f"machine (loopback). Server: one uvicorn process (as `ginrummy serve`), SQLite "
              f"file, access log and per-client rate limits off. Computer level: "
              f"`{DEFAULT_LEVEL}` (the default).", ""]
    with tempfile.TemporaryDirectory() as tmp, Server(Path(tmp) / "bench.sqlite3") as srv:
        weight = page_weight(srv.base)
        for name, players, think in scenarios:
            print(f"scenario {name}: {players} players, up to {args.actions} actions "
                  f"each or {args.seconds:g} s ...", flush=True)
            load0 = os.getloadavg()[0]
            cpu0 = srv.cpu_seconds()
            stats, wall, client_cpu = asyncio.run(run_players(
                srv.base, players, args.actions, args.seconds, think, args.seed))
            cpu = srv.cpu_seconds() - cpu0
            lines, _p99 = describe(name, players, stats, wall, think, (cpu, client_cpu),
                                   (load0, os.getloadavg()[0]))
            report += lines
            print("\n".join(lines), flush=True)
    report += ["### Reading", "",
               "The goal is for the `think` scenario (people playing). A load average above the "
               "CPU count means other processes competed with the server and the players for "
               "the CPUs during the run: the latencies then include waiting for a CPU, the CPU "
               "times per request do not. `solo` is the floor; `flat-out` measures the most the "
               "one server process answers per second on this machine.", ""]
    total = sum(b for _, b in weight)
    report += ["### First page load", "",
               "| file | bytes |", "|---|---:|",
               *[f"| `{p}` | {b:,} |" for p, b in weight],
               f"| **total** | **{total:,}** |", "",
               f"Budget < 300 KB (307,200 bytes): **{'met' if total < 307_200 else 'NOT met'}**. "
               "Uncompressed (the server sends no Content-Encoding); no images or fonts are "
               "loaded (system fonts, inline SVG).", ""]
    print("\n".join(report[-(len(weight) + 7):]))
    if not args.no_write:
        out = args.out or ROOT / "benchmarks" / "results" / f"web-{today}.md"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("\n".join(report).rstrip() + "\n", encoding="utf-8")
        print("written:", out.relative_to(ROOT) if out.is_relative_to(ROOT) else out)


if __name__ == "__main__":
    main()
