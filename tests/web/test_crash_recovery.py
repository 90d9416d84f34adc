"""No lost games: the REAL server (``ginrummy serve`` in a subprocess, SQLite file, 127.0.0.1)
is killed with SIGKILL at random moments while several games are played against it over HTTP,
restarted on the same database, and finally stopped with SIGTERM (exit status 0).

Every answered action (2xx) is recorded with the state it answered. After each restart, and at
the end, every acknowledged action must be in the game (the events up to the acknowledged seq
are the same, the person's hand the same) and every game must go on to its end. A request
whose answer was lost in a crash is simply sent again, with the same ``seq``: the server either
applied it before dying (it then answers ``duplicate``) or applies it now; never an error.
The database must pass SQLite's integrity check, every finished game's record must verify, and
the server's log must show no traceback and no token.

Bounded: every loop has a count and a deadline (3 minutes, for a loaded machine; ~40 s quiet).
"""

from __future__ import annotations

import random
import signal
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import choose

from ginrummy.bots import LEVELS
from ginrummy.fairness import replay_check
from server_helpers import ServeProcess

GAMES = 6
KILLS = 5
DEADLINE = 180.0  # seconds for the whole test: a bound, not a goal (quiet: ~40 s)


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().split())


class Server(ServeProcess):
    """``ginrummy serve`` on a SQLite file, restartable on the same database; ``up`` is set
    while it answers."""

    def __init__(self, db: Path, log: Path) -> None:
        super().__init__(f"sqlite:///{db}", log, log_level="info")
        self.up = threading.Event()
        self.starts = 0

    def start(self, timeout: float = 30.0) -> Server:
        self.launch()
        self.starts += 1
        self.wait_up(timeout)
        self.up.set()
        return self

    def kill(self) -> None:
        self.up.clear()
        super().kill()

    def terminate(self) -> int:
        assert self.proc is not None
        self.up.clear()
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=30)

    def stop_quietly(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


class GameLog:
    """One game as its player knows it: every acknowledged action with its answer."""

    def __init__(self, game_id: str, token: str, state: dict[str, Any]) -> None:
        self.game_id = game_id
        self.token = token
        self.state = state
        #: (seq the action was posted at, action, the answer's state)
        self.acks: list[tuple[int, str, dict[str, Any]]] = []

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


class Player(threading.Thread):
    """Plays games one after the other over HTTP until told to stop (then finishes the game
    in hand); records every acknowledged action; survives crashes by sending the unanswered
    request again once the server is back."""

    def __init__(self, server: Server, seed: int, deadline: float) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.rng = random.Random(seed)
        self.deadline = deadline
        self.level = LEVELS[seed % min(2, len(LEVELS))]
        self.lock = threading.Lock()
        self.games: list[GameLog] = []
        self.stop = threading.Event()
        self.lost_answers = 0
        self.duplicates = 0
        self.error: BaseException | None = None

    def _send(self, c: httpx.Client, method: str, url: str, **kw: Any) -> httpx.Response:
        for _ in range(200):
            assert time.monotonic() < self.deadline, "out of time"
            if not self.server.up.wait(timeout=max(0.0, self.deadline - time.monotonic())):
                raise AssertionError("the server did not come back")
            try:
                return c.request(method, url, **kw)
            except httpx.TransportError:
                self.lost_answers += 1  # killed meanwhile: send the same request again
                time.sleep(0.02)
        raise AssertionError("too many retries")

    def _play(self, c: httpx.Client) -> None:
        r = self._send(c, "POST", "/api/games",
                       json={"level": self.level, "rules": {"target": 50}})
        assert r.status_code == 201, r.text
        d = r.json()
        g = GameLog(d["game_id"], d["token"], d["state"])
        with self.lock:
            self.games.append(g)
        for _ in range(800):
            if g.state["phase"] == "game-over":
                return
            action = choose(g.state, self.rng)
            seq = g.state["seq"]
            r = self._send(c, "POST", f"/api/games/{g.game_id}/actions",
                           json={"action": action, "seq": seq}, headers=g.headers)
            assert r.status_code == 200, (r.status_code, r.text)
            s = r.json()
            if s.pop("duplicate", False):
                self.duplicates += 1
            assert s["seq"] > seq
            with self.lock:
                g.acks.append((seq, action, s))
                g.state = s
        raise AssertionError("the game did not end")

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.server.base, timeout=20) as c:
                for _ in range(50):
                    self._play(c)
                    if self.stop.is_set():
                        break
        except BaseException as e:  # reported by the test
            self.error = e


def _check_acknowledged(c: httpx.Client, p: Player, final: bool) -> None:
    """Every acknowledged action of ``p``'s games is in its game, as it was answered."""
    with p.lock:
        games = [(g.game_id, g.token, list(g.acks)) for g in p.games]
    for game_id, token, acks in games:
        _check_game(c, game_id, token, acks, final)


def _check_game(c: httpx.Client, game_id: str, token: str,
                acks: list[tuple[int, str, dict[str, Any]]], final: bool) -> None:
    auth = {"Authorization": f"Bearer {token}"}
    r = c.get(f"/api/games/{game_id}", params={"since": 0}, headers=auth)
    assert r.status_code == 200, r.text
    now = r.json()
    events = {e["seq"]: e for e in now["events"]}
    for posted, action, answer in acks:
        assert now["seq"] >= answer["seq"], f"game {game_id}: seq went back after a crash"
        first = events.get(posted + 1)
        assert first is not None, f"game {game_id}: the action at seq {posted} is lost"
        if _norm(action) == "next hand":
            assert first["type"] == "deal"
        else:
            assert first["seat"] == 0 and _norm(first["text"]) == _norm(action).split(":")[0], \
                (action, first)
        for e in answer["events"]:
            assert events.get(e["seq"]) == e, f"game {game_id}: event {e} changed: " \
                                              f"{events.get(e['seq'])}"
    if acks:
        posted, _action, last = acks[-1]
        again = c.get(f"/api/games/{game_id}", params={"since": posted}, headers=auth).json()
        if again["seq"] == last["seq"]:  # nothing after it (yet): the very same state
            assert again == last, f"game {game_id}: the acknowledged state changed"
    if final:
        assert now["phase"] == "game-over", f"game {game_id} did not reach its end"
        rec = c.get(f"/api/games/{game_id}/record", headers=auth).json()
        report = replay_check(rec)
        assert report.ok, str(report)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigkill_loses_no_acknowledged_action(tmp_path: Path) -> None:
    t0 = time.monotonic()
    deadline = t0 + DEADLINE
    server = Server(tmp_path / "games.sqlite3", tmp_path / "server.log")
    rng = random.Random(4242)
    players: list[Player] = []
    kills = 0
    try:
        server.start()
        players = [Player(server, i, deadline - 5) for i in range(GAMES)]
        for p in players:
            p.start()
        with httpx.Client(base_url=server.base, timeout=20) as c:
            for _ in range(KILLS):
                time.sleep(rng.uniform(0.3, 1.5))
                assert any(p.is_alive() for p in players), [p.error for p in players]
                server.kill()
                kills += 1
                time.sleep(rng.uniform(0, 0.3))
                server.start()
                for p in players:
                    _check_acknowledged(c, p, final=False)
            # a clean stop in the middle of play: exit status 0, nothing lost
            time.sleep(rng.uniform(0.2, 0.8))
            assert server.terminate() == 0
            server.start()
            for p in players:
                _check_acknowledged(c, p, final=False)
            for p in players:  # each finishes the game in hand
                p.stop.set()
            for p in players:
                p.join(timeout=max(1.0, deadline - time.monotonic()))
                assert not p.is_alive(), "a game did not finish in time"
                if p.error is not None:
                    raise p.error
            for p in players:
                _check_acknowledged(c, p, final=True)
        assert server.terminate() == 0
    finally:
        server.stop_quietly()
        for p in players:
            p.deadline = 0  # stop any player still waiting
    con = sqlite3.connect(tmp_path / "games.sqlite3")
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        con.close()
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert log.count("Started server process") == server.starts
    games = [g for p in players for g in p.games]
    for g in games:
        assert g.token not in log
    acked = sum(len(g.acks) for g in games)
    lost = sum(p.lost_answers for p in players)
    print(f"\n{acked} acknowledged actions in {len(games)} games, {kills} SIGKILLs, "
          f"{lost} requests without an answer (sent again), "
          f"{sum(p.duplicates for p in players)} of them had been applied (duplicate)")
    assert acked > 50
    assert time.monotonic() - t0 < DEADLINE + 15
