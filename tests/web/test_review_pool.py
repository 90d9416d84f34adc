"""The review pool (ginrummy.web.review.pool; issue 20): bounded (a job beyond workers + queue
is refused), its jobs' progress and ends reported, worker processes apart from the server's at
a lower priority, and a worker that dies fails its job without stopping the pool. Nothing waits
on a clock: jobs are waited for until they end."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest
import review_pool_jobs as jobs

from ginrummy.web.review.pool import ReviewPool


class Ends:
    """The ``on_done`` of each job: its result or error, and an event per job."""

    def __init__(self) -> None:
        self.got: dict[str, tuple[Any, BaseException | None]] = {}
        self.events: dict[str, threading.Event] = {}

    def __call__(self, name: str) -> Any:
        self.events[name] = threading.Event()

        def done(result: Any, error: BaseException | None) -> None:
            self.got[name] = (result, error)
            self.events[name].set()

        return done

    def wait(self, name: str) -> tuple[Any, BaseException | None]:
        assert self.events[name].wait(120), f"{name} did not end"
        return self.got[name]


@pytest.mark.parametrize("processes", [False, True])
def test_a_full_pool_refuses_and_jobs_report_their_progress(tmp_path: Path,
                                                            processes: bool) -> None:
    pool = ReviewPool(1, 1, processes=processes, nice=5)
    ends = Ends()
    gate = tmp_path / "go"
    try:
        assert pool.submit("a", jobs.wait_for, (str(gate),), ends("a"))
        assert pool.submit("b", jobs.count_to, (5,), ends("b"))
        assert not pool.has_room() and pool.capacity == 2
        assert not pool.submit("c", jobs.count_to, (1,), ends("c"))  # full: refused
        assert not pool.submit("a", jobs.count_to, (1,), ends("a2"))  # in it already
        assert {j.id for j in pool.jobs()} == {"a", "b"}
        assert pool.job("b") is not None and pool.job("b").state == "queued"  # type: ignore
        assert 1 <= pool.wait_seconds() <= 120
        gate.touch()
        assert ends.wait("a") == ("waited", None)
        assert ends.wait("b") == ("5", None)
        assert pool.wait_idle(60) and pool.jobs() == [] and pool.has_room()
        assert "c" not in ends.got  # never run
        assert pool.submit("c", jobs.count_to, (3,), ends("c"))
        assert ends.wait("c") == ("3", None)
        assert pool.submit("p", jobs.pid, (), ends("p"))
        worker = int(ends.wait("p")[0])
        assert (worker != os.getpid()) is processes  # processes apart from the server's
        if processes:
            assert os.getpriority(os.PRIO_PROCESS, worker) >= os.getpriority(
                os.PRIO_PROCESS, 0) + 5
    finally:
        gate.touch()
        pool.close()


def test_progress_comes_back_from_a_worker_process(tmp_path: Path) -> None:
    pool = ReviewPool(1, 0, processes=True)
    ends = Ends()
    gate = tmp_path / "go"
    try:
        assert pool.submit("w", jobs.wait_for, (str(gate),), ends("w"))
        seen = threading.Event()

        def watch() -> None:  # the (1, 2) the job reports before it waits
            while not seen.is_set():
                j = pool.job("w")
                if j is not None and (j.state, j.done, j.total) == ("running", 1, 2):
                    seen.set()
                    return
                if j is None:
                    return
                threading.Event().wait(0.01)

        t = threading.Thread(target=watch)
        t.start()
        t.join(120)
        assert seen.is_set()
        gate.touch()
        assert ends.wait("w") == ("waited", None)
    finally:
        gate.touch()
        pool.close()


def test_a_worker_that_dies_fails_its_job_and_the_pool_goes_on() -> None:
    pool = ReviewPool(1, 2, processes=True)
    ends = Ends()
    try:
        assert pool.submit("dead", jobs.die, (3,), ends("dead"))
        result, error = ends.wait("dead")
        assert result is None and error is not None  # BrokenProcessPool
        assert pool.wait_idle(60)
        assert pool.submit("after", jobs.count_to, (2,), ends("after"))
        assert ends.wait("after") == ("2", None)
    finally:
        pool.close()


def test_closing_cancels_the_jobs_waiting() -> None:
    pool = ReviewPool(1, 3, processes=False)
    ends = Ends()
    hold = threading.Event()

    def held(report: Any) -> str:
        assert hold.wait(60)
        return "held"

    assert pool.submit("run", held, (), ends("run"))
    assert pool.submit("wait", jobs.count_to, (1,), ends("wait"), priority=1)
    assert pool.submit("first", jobs.count_to, (1,), ends("first"), priority=0)
    closer = threading.Thread(target=pool.close)
    closer.start()
    for name in ("wait", "first"):  # every priority
        result, error = ends.wait(name)
        assert result is None and error is not None  # cancelled, never run
    assert not pool.submit("late", jobs.count_to, (1,), ends("late"))  # closed
    hold.set()
    closer.join(60)
    assert ends.wait("run") == ("held", None)


@pytest.mark.parametrize("processes", [False, True])
def test_a_free_worker_takes_the_lowest_priority_first(tmp_path: Path, processes: bool) -> None:
    """The search's first look (priority 0) goes before the play-outs that check other reviews
    (priority 1) waiting longer; within a priority, the first come."""
    pool = ReviewPool(1, 4, processes=processes)
    ends = Ends()
    gate = tmp_path / "go"
    order: list[str] = []
    lock = threading.Lock()

    def ended(name: str) -> Any:
        inner = ends(name)

        def done(result: Any, error: BaseException | None) -> None:
            with lock:
                order.append(name)
            inner(result, error)

        return done

    try:
        assert pool.submit("busy", jobs.wait_for, (str(gate),), ended("busy"))
        assert pool.submit("check-1", jobs.count_to, (1,), ended("check-1"), priority=1)
        assert pool.submit("check-2", jobs.count_to, (1,), ended("check-2"), priority=1)
        assert pool.submit("look-1", jobs.count_to, (1,), ended("look-1"), priority=0)
        assert pool.submit("look-2", jobs.count_to, (1,), ended("look-2"), priority=0)
        assert [j.state for j in pool.jobs() if j.id != "busy"] == ["queued"] * 4
        gate.touch()
        for name in ("busy", "look-1", "look-2", "check-1", "check-2"):
            assert ends.wait(name) == ("waited" if name == "busy" else "1", None)
        assert order == ["busy", "look-1", "look-2", "check-1", "check-2"]
        assert pool.wait_idle(60) and pool.has_room()
    finally:
        gate.touch()
        pool.close()


def test_closing_does_not_wait_for_a_long_job_in_a_worker_process(tmp_path: Path) -> None:
    """A running job longer than ``close``'s timeout: its worker is killed, its ``on_done``
    gets the error (the claim given up), and nothing is left running to hold up the exit."""
    pool = ReviewPool(1, 1, processes=True)
    ends = Ends()
    assert pool.submit("p", jobs.pid, (), ends("p"))
    worker = int(ends.wait("p")[0])
    assert pool.submit("long", jobs.wait_for, (str(tmp_path / "never"),), ends("long"))
    while (j := pool.job("long")) is not None and j.state != "running":
        threading.Event().wait(0.01)  # until the worker has it
    pool.close(timeout=0.5)
    result, error = ends.wait("long")
    assert result is None and error is not None
    assert pool.jobs() == []
    with pytest.raises(ProcessLookupError):  # the worker is gone (reaped by its pool)
        for _ in range(500):
            os.kill(worker, 0)
            threading.Event().wait(0.01)


def test_review_settings_from_the_environment() -> None:
    from ginrummy.web.review.reviews import ReviewSettings

    s = ReviewSettings.from_env("workers=2, queue=0,worlds=16,processes=off,nice=0")
    assert (s.workers, s.queue, s.worlds, s.processes, s.nice) == (2, 0, 16, False, 0)
    assert ReviewSettings.from_env("") == ReviewSettings()
    assert ReviewSettings().workers == max(1, (os.cpu_count() or 1) // 2)
    # the search's mistakes played out 32 times by the light expert, unless told otherwise
    assert (ReviewSettings().confirm, ReviewSettings().judge) == (32, "expert-light")
    assert ReviewSettings().tag == "/w192c32"
    s = ReviewSettings.from_env("confirm=8,judge=hard,worlds=4")
    assert (s.confirm, s.judge, s.tag) == (8, "hard", "/w4c8-hard")
    assert s.budget.confirm == 8 and s.budget.judge == "hard" and s.budget.worlds == 4
    assert ReviewSettings.from_env("confirm=0,judge=hard").tag == "/w192"
    for bad in ("workers=0", "worlds=1", "queue=-1", "processes=yes", "speed=3", "workers=two",
                "confirm=1", "confirm=7", "confirm=-3", "confirm=5000", "confirm=many",
                "judge=nobody"):
        with pytest.raises(ValueError, match="^GINRUMMY_REVIEWS: "):
            ReviewSettings.from_env(bad)
