"""Cold start of ``ginrummy serve`` and its first ``expert`` decisions (issue 11).

    .venv/bin/python benchmarks/cold_start.py            # a fresh cache, then the same again
    .venv/bin/python benchmarks/cold_start.py --starts 3 --actions 12

A fresh install has no compiled kernel: numba's cache is emptied by pointing ``NUMBA_CACHE_DIR``
at a new empty directory (numba's first cache place). Each start runs the real command
(``ginrummy serve`` on a free 127.0.0.1 port, a temporary SQLite file) and measures:

* ``ready_s``: from the process start to the first answered ``GET /api/meta`` (the server listens
  only once the computer players are warm, so this includes the compile or the cache load);
* ``create_ms``: ``POST /api/games`` against ``expert`` (the computer may move first: its
  decision is in this answer);
* ``actions_ms``: the next ``--actions`` person actions, each answered with the computer's reply.

The first start uses the empty cache (``cache: cold``), the next ones the cache it filled
(``warm``). One JSON line per start, then a summary line. Not run in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
POINTS = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A plain person: gin or the lowest knock when possible, else draw and throw the highest
    loose card."""
    by: dict[str, list[dict[str, Any]]] = {}
    for a in state["legal"]:
        by.setdefault(a["type"], []).append(a)
    for kind in ("big_gin", "gin", "next_hand"):
        if kind in by:
            return by[kind][0]
    if "knock" in by:
        return min(by["knock"], key=lambda a: a.get("deadwood_points", 0))
    for kind in ("pass", "draw_stock"):
        if kind in by and (kind != "pass" or rng.random() < 0.7):
            return by[kind][0]
    discards = by.get("discard") or state["legal"]
    arr = state.get("arrangement") or {}
    in_meld = {c for m in arr.get("melds", []) for c in m}
    loose = [a for a in discards if a.get("card") not in in_meld] or discards
    return max(loose, key=lambda a: POINTS.get(str(a.get("card", "A"))[0], 0))


def one_start(cache: Path, tmp: Path, n: int, actions: int, seed: int) -> dict[str, Any]:
    port = free_port()
    db = tmp / f"games-{n}.sqlite3"
    log = tmp / f"serve-{n}.log"
    cmd = [str(Path(sys.executable).parent / "ginrummy"), "serve", "--host", "127.0.0.1",
           "--port", str(port), "--database-url", f"sqlite:///{db}", "--log-level", "warning"]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    t0 = time.perf_counter()
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    res: dict[str, Any] = {"start": n}
    try:
        with httpx.Client(base_url=base, timeout=60) as c:
            deadline = time.monotonic() + 300
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not answer in 300 s")
                try:
                    if c.get("/api/meta").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.05)
            res["ready_s"] = round(time.perf_counter() - t0, 2)
            t1 = time.perf_counter()
            r = c.post("/api/games", json={"level": "expert", "preset": "eaai"})
            res["create_ms"] = round((time.perf_counter() - t1) * 1000, 1)
            r.raise_for_status()
            data = r.json()
            state = data["state"]
            headers = {"Authorization": f"Bearer {data['token']}"}
            rng = random.Random(seed + n)
            times = []
            for _ in range(actions):
                if state["phase"] == "game-over" or not state["legal"]:
                    break
                a = choose(state, rng)
                t2 = time.perf_counter()
                r = c.post(f"/api/games/{data['game_id']}/actions",
                           json={"action": a["action"], "seq": state["seq"]}, headers=headers)
                times.append(round((time.perf_counter() - t2) * 1000, 1))
                r.raise_for_status()
                state = r.json()
            res["actions_ms"] = times
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    res["server_said"] = [ln for ln in log.read_text().splitlines()
                          if "computer players" in ln.lower()]
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--starts", type=int, default=2, help="starts: the first on a fresh cache")
    ap.add_argument("--actions", type=int, default=10, help="person actions after the create")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ginrummy-cold-"))
    cache = tmp / "numba-cache"
    cache.mkdir()
    rows = []
    try:
        for n in range(args.starts):
            row = one_start(cache, tmp, n, args.actions, args.seed)
            row["cache"] = "cold" if n == 0 else "warm"
            row["load_avg_1min"] = round(os.getloadavg()[0], 2)
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    first = [max([r["create_ms"], *r["actions_ms"][:1]]) for r in rows]
    print(json.dumps({"summary": True, "ready_s": [r["ready_s"] for r in rows],
                      "first_decision_ms_max_of_create_and_first_action": first,
                      "max_ms_all_requests": max(max([r["create_ms"], *r["actions_ms"]])
                                                 for r in rows)}))


if __name__ == "__main__":
    main()
