"""Two real ``ginrummy serve`` processes on one PostgreSQL database (issue 10, "Scale-out"): any
process serves any request, a duplicate sent to both at once is applied once, a review asked of
both is made once and the same from either (issue 20), and a process killed with SIGKILL loses
nothing that was acknowledged while the other keeps serving.

PostgreSQL only (``$GINRUMMY_TEST_POSTGRES_URL``; scripts/test.sh starts a cluster)."""

from __future__ import annotations

import json
import random
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from test_crash_recovery import _check_game
from web_helpers import choose

from ginrummy.bots import LEVELS
from pg_helpers import fresh_postgres_database
from server_helpers import ServeProcess

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory
        ) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    """Processes A and B, started at the same moment on an empty database (for the module: the
    test that kills A comes last)."""
    logs = tmp_path_factory.mktemp("two-processes")
    with fresh_postgres_database() as url:
        small = {"GINRUMMY_REVIEWS": "workers=1,queue=4,worlds=4,confirm=0"}  # worker processes
        a = ServeProcess(url, logs / "a.log", env=small)
        b = ServeProcess(url, logs / "b.log", env=small)
        try:
            a.launch()
            b.launch()
            a.wait_up()
            b.wait_up()
            yield a, b
        finally:
            a.stop()
            b.stop()
    for srv in (a, b):
        log = srv.log.read_text(errors="replace")
        assert "Traceback" not in log and "UniqueViolation" not in log, log[-3000:]


def test_both_start_at_once_on_an_empty_database(two: tuple[ServeProcess, ServeProcess]
                                                 ) -> None:
    a, b = two
    with httpx.Client(timeout=10) as c:
        for srv in (a, b):
            assert c.get(srv.base + "/api/meta").status_code == 200


def test_a_hand_played_across_two_processes(two: tuple[ServeProcess, ServeProcess]) -> None:
    """A game created on A is played to the end of a hand, each request going to the other
    process than the last; then the same action sent at once to both is applied once."""
    a, b = two
    rng = random.Random(7)
    with httpx.Client(timeout=30) as c:
        r = c.post(a.base + "/api/games", json={"level": LEVELS[0]})
        assert r.status_code == 201, r.text
        d = r.json()
        auth = {"Authorization": f"Bearer {d['token']}"}
        path = f"/api/games/{d['game_id']}"
        state = d["state"]
        servers = [b, a]
        acks: list[tuple[int, str, dict[str, Any]]] = []
        for i in range(300):
            if state["phase"] in ("hand-over", "game-over"):
                break
            srv = servers[i % 2]
            # the other process's view is the same as the last answer
            seen = c.get(srv.base + path, params={"since": state["seq"]}, headers=auth).json()
            assert seen["seq"] == state["seq"] and seen["hand"] == state["hand"]
            action, seq = choose(state, rng), state["seq"]
            r = c.post(srv.base + path + "/actions", json={"action": action, "seq": seq},
                       headers=auth)
            assert r.status_code == 200, r.text
            state = r.json()
            assert not state.get("duplicate")
            acks.append((seq, action, state))
        assert state["phase"] in ("hand-over", "game-over")
        assert len(acks) >= 2
        _check_game(httpx.Client(base_url=b.base, timeout=30), d["game_id"], d["token"], acks,
                    final=False)

        # the same action at the same moment to A and to B
        if state["phase"] == "hand-over":
            action, seq = "next hand", state["seq"]
        else:  # the game ended with the hand: a new game for the race
            r = c.post(a.base + "/api/games", json={"level": LEVELS[0]})
            d = r.json()
            auth = {"Authorization": f"Bearer {d['token']}"}
            path = f"/api/games/{d['game_id']}"
            state = d["state"]
            action, seq = choose(state, rng), state["seq"]
        barrier = threading.Barrier(2)
        answers: dict[str, httpx.Response] = {}

        def send(name: str, srv: ServeProcess) -> None:
            with httpx.Client(timeout=30) as own:
                barrier.wait(10)
                answers[name] = own.post(srv.base + path + "/actions",
                                         json={"action": action, "seq": seq}, headers=auth)

        threads = [threading.Thread(target=send, args=x) for x in (("a", a), ("b", b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        codes = sorted(r.status_code for r in answers.values())
        assert codes == [200, 200], [(r.status_code, r.text[:200]) for r in answers.values()]
        dups = sorted(bool(r.json().get("duplicate")) for r in answers.values())
        assert dups == [False, True]
        seqs = {r.json()["seq"] for r in answers.values()}
        assert len(seqs) == 1  # one application: the same state in both answers
        now = c.get(a.base + path, params={"since": seq}, headers=auth).json()
        assert now["seq"] == seqs.pop()
        firsts = [e for e in now["events"] if e["seq"] == seq + 1]
        assert len(firsts) == 1


def test_a_review_asked_of_both_processes_is_made_once(
        two: tuple[ServeProcess, ServeProcess]) -> None:
    """A finished hand's review asked of A and of B at the same moment: one process claims its
    making (in its worker process), the other waits for it, and both then answer the one stored
    review, the same text."""
    import sqlalchemy as sa

    a, b = two
    rng = random.Random(11)
    with httpx.Client(timeout=60) as c:
        r = c.post(a.base + "/api/games", json={"level": LEVELS[0]})
        assert r.status_code == 201, r.text
        d = r.json()
        auth = {"Authorization": f"Bearer {d['token']}"}
        path = f"/api/games/{d['game_id']}"
        state = d["state"]
        for _ in range(300):
            if state["phase"] in ("hand-over", "game-over"):
                break
            r = c.post(a.base + path + "/actions", headers=auth,
                       json={"action": choose(state, rng), "seq": state["seq"]})
            assert r.status_code == 200, r.text
            state = r.json()
        assert state["phase"] in ("hand-over", "game-over")
        url = path + "/hands/1/review"
        barrier = threading.Barrier(2)
        first: dict[str, int] = {}

        def ask(name: str, srv: ServeProcess) -> None:
            with httpx.Client(timeout=60) as own:
                barrier.wait(10)
                first[name] = own.get(srv.base + url, headers=auth).status_code

        threads = [threading.Thread(target=ask, args=x) for x in (("a", a), ("b", b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(first.values()) == [202, 202], first  # neither had it: one claims
        bodies: dict[str, bytes] = {}
        deadline = time.monotonic() + 240
        while len(bodies) < 2:
            assert time.monotonic() < deadline, "the review was not made in time"
            for name, srv in (("a", a), ("b", b)):
                if name not in bodies:
                    got = c.get(srv.base + url, headers=auth)
                    assert got.status_code in (200, 202), got.text
                    if got.status_code == 200:
                        bodies[name] = got.content
                    else:
                        assert got.json()["status"] in ("queued", "running")
            time.sleep(0.2)
        assert bodies["a"] == bodies["b"]
        assert json.loads(bodies["a"])["review"]["hands"][0]["hand"] == 1
    engine = sa.create_engine(a.url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT scope, status FROM reviews WHERE game_id = :g"),
                                {"g": d["game_id"]}).all()
    finally:
        engine.dispose()
    assert [tuple(x) for x in rows] == [("hand/1/w4", "done")]


class Player(threading.Thread):
    """Plays one game to its end over two processes, alternating; a request whose process is
    gone (no answer) is sent again, to the other one."""

    def __init__(self, servers: list[ServeProcess], seed: int, deadline: float) -> None:
        super().__init__(daemon=True)
        self.servers = servers
        self.rng = random.Random(seed)
        self.deadline = deadline
        self.dead: set[int] = set()
        self.game: dict[str, Any] = {}
        self.acks: list[tuple[int, str, dict[str, Any]]] = []
        self.resent = 0
        self.duplicates = 0
        self.error: BaseException | None = None
        self.turn = seed

    def _send(self, c: httpx.Client, method: str, path: str, **kw: Any) -> httpx.Response:
        for _ in range(50):
            assert time.monotonic() < self.deadline, "out of time"
            self.turn += 1
            live = [s for i, s in enumerate(self.servers) if i not in self.dead]
            srv = live[self.turn % len(live)]
            try:
                return c.request(method, srv.base + path, **kw)
            except httpx.TransportError:
                self.resent += 1  # killed meanwhile: the same request again, elsewhere
                self.dead.add(self.servers.index(srv))
        raise AssertionError("too many retries")

    def run(self) -> None:
        try:
            with httpx.Client(timeout=30) as c:
                r = self._send(c, "POST", "/api/games",
                               json={"level": LEVELS[0], "rules": {"target": 30}})
                assert r.status_code == 201, r.text
                self.game = r.json()
                state = self.game["state"]
                auth = {"Authorization": f"Bearer {self.game['token']}"}
                for _ in range(1000):
                    if state["phase"] == "game-over":
                        return
                    action, seq = choose(state, self.rng), state["seq"]
                    r = self._send(c, "POST", f"/api/games/{self.game['game_id']}/actions",
                                   json={"action": action, "seq": seq}, headers=auth)
                    assert r.status_code == 200, (r.status_code, r.text)
                    state = r.json()
                    if state.pop("duplicate", False):
                        self.duplicates += 1
                    self.acks.append((seq, action, state))
                raise AssertionError("the game did not end")
        except BaseException as e:  # reported by the test
            self.error = e


def test_sigkill_of_one_process_loses_nothing(two: tuple[ServeProcess, ServeProcess]) -> None:
    a, b = two
    t0 = time.monotonic()
    deadline = t0 + 120
    players = [Player([a, b], seed, deadline) for seed in range(4)]
    for p in players:
        p.start()
    try:
        # mid-game: every player has had some answers, none has finished
        while sum(len(p.acks) for p in players) < 20 and time.monotonic() < deadline:
            assert all(p.error is None for p in players), [p.error for p in players]
            time.sleep(0.05)
        a.kill()
        for p in players:
            p.join(timeout=max(1.0, deadline - time.monotonic()))
            assert not p.is_alive(), "a game did not finish in time"
            if p.error is not None:
                raise p.error
    finally:
        for p in players:
            p.deadline = 0
    with httpx.Client(base_url=b.base, timeout=30) as c:
        for p in players:
            _check_game(c, p.game["game_id"], p.game["token"], p.acks, final=True)
    acked = sum(len(p.acks) for p in players)
    print(f"\n{acked} acknowledged actions in {len(players)} games over two processes, one "
          f"killed; {sum(p.resent for p in players)} requests sent again to the other, "
          f"{sum(p.duplicates for p in players)} of them had been applied (duplicate)")
    assert acked > 20
