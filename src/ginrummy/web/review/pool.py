"""The bounded pool the reviews run in, apart from play (issue 20; DESIGN.md "Review").

A review is seconds of CPU-bound search; a move of a game must answer in milliseconds. So the
reviews never run in a request's thread: :class:`ReviewPool` runs them in a few worker
processes of their own (``processes=True``, the default: their own interpreter, so no review
holds the server's GIL), started at a lower CPU priority (``nice``: when the cores are busy the
players' requests go first), with a bounded number of jobs waiting: :meth:`ReviewPool.submit`
refuses a job when ``workers + queue`` are in already (the API then answers 503 with
``Retry-After``, docs/api.md "Review"). ``processes=False`` runs them in threads instead (tests,
and platforms without the ``forkserver``/``spawn`` start methods' cost to pay).

The jobs waiting are the pool's own, not the executor's: a worker gets the waiting job of the
lowest ``priority`` first (then the first come). The search's review of a game (about a second)
goes before the play-outs that check others' mistakes (tens of seconds): with 5 checked reviews
waiting on one worker, a new one's first look waited 90 s behind them
(benchmarks/results/review-load-2026-12-07.md).

Each job is a function of :mod:`ginrummy.web.review.jobs` called with its arguments and a
``report(done, total)`` callable: its progress, which a worker process sends back through a
queue (at most every :data:`REPORT_EVERY` seconds) and the pool keeps per job
(:meth:`ReviewPool.job`). When a job ends, its ``on_done(result, error)`` is called in a thread
of the pool's (never a request's).
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import logging
import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import (
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["ReviewPool", "Job", "REPORT_EVERY"]

log = logging.getLogger("ginrummy.web")

#: seconds between two progress reports of a job running in a worker process
REPORT_EVERY = 0.25
#: how long a job takes before any has ended (seconds), for ``Retry-After``
FIRST_GUESS = 5.0

Report = Callable[[int, int], None]
Done = Callable[[Any, BaseException | None], None]

# ---------------------------------------------------------------- inside a worker process
_PROGRESS: Any = None  # the worker's end of the progress queue (set by _start_worker)


def _lower_priority(nice: int) -> None:
    """This process (or, on Linux, this thread) ``nice`` steps lower in CPU priority."""
    if nice <= 0:
        return
    with contextlib.suppress(OSError, AttributeError):
        if threading.current_thread() is threading.main_thread():
            os.nice(nice)
        else:  # Linux: a thread's own priority (its id is a task id)
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(),
                           os.getpriority(os.PRIO_PROCESS, 0) + nice)


def _start_worker(progress: Any, nice: int) -> None:
    global _PROGRESS
    _PROGRESS = progress
    _lower_priority(nice)


def _in_worker(job_id: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """Run one job in a worker process, its progress sent to the pool's queue."""
    last = [0.0]
    queue = _PROGRESS

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if done in (0, total) or now - last[0] >= REPORT_EVERY:
            last[0] = now
            queue.put((job_id, done, total))

    return fn(*args, report)


# -------------------------------------------------------------------------- in the server
@dataclass(frozen=True)
class Job:
    """A job in the pool: ``state`` ``queued`` (waiting for a worker) or ``running``, its
    progress ``done`` of ``total`` steps (as its function reports them)."""

    id: str
    state: str = "queued"
    done: int = 0
    total: int = 0


class ReviewPool:
    """``workers`` workers (processes, or threads with ``processes=False``) and at most
    ``queue`` jobs waiting for one. Thread-safe. The workers start with the first job."""

    def __init__(self, workers: int, queue: int, *, processes: bool = True, nice: int = 10
                 ) -> None:
        if workers < 1 or queue < 0:
            raise ValueError("a review pool needs a worker and a queue of 0 or more")
        self.workers = workers
        self.queue = queue
        self.processes = processes
        self.nice = nice
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self._executor: Executor | None = None
        self._progress: Any = None
        self._reader: threading.Thread | None = None
        self._seconds = FIRST_GUESS  # a job's time, on average (exponentially weighted)
        self._idle = threading.Condition(self._lock)
        # the jobs waiting for a worker: (priority, order, job id, fn, args, on_done)
        self._waiting: list[tuple[int, int, str, Callable[..., Any], tuple[Any, ...], Done]] = []
        self._order = itertools.count()
        self._running = 0  # jobs sent to a worker and not ended
        self._closed = False

    @property
    def capacity(self) -> int:
        """The most jobs in at once: running and waiting."""
        return self.workers + self.queue

    # ------------------------------------------------------------------------- the jobs
    def job(self, job_id: str) -> Job | None:
        """The job ``job_id`` while it is in the pool (queued or running), else None."""
        with self._lock:
            return self._jobs.get(job_id)

    def jobs(self) -> list[Job]:
        """Every job in the pool now."""
        with self._lock:
            return list(self._jobs.values())

    def has_room(self) -> bool:
        with self._lock:
            return len(self._jobs) < self.capacity

    def wait_seconds(self) -> int:
        """Seconds until a job would likely find room (for ``Retry-After``), 1 to 120."""
        with self._lock:
            ahead = len(self._jobs) - self.capacity + 1
            guess = self._seconds * max(1, ahead) / self.workers
        return max(1, min(120, math.ceil(guess)))

    def submit(self, job_id: str, fn: Callable[..., Any], args: tuple[Any, ...],
               on_done: Done, priority: int = 0) -> bool:
        """Run ``fn(*args, report)`` in a worker, then ``on_done(result, None)`` (or
        ``on_done(None, error)``). False (nothing done) when the pool is full or ``job_id``
        is in it already. ``fn`` and ``args`` must pickle (worker processes). A worker free
        takes the waiting job of the lowest ``priority`` first, then the first submitted.

        :raises BaseException: what sending a job to a free worker raised (nothing kept)."""
        with self._lock:
            if self._closed or job_id in self._jobs or len(self._jobs) >= self.capacity:
                return False
            self._jobs[job_id] = Job(job_id)
            if self._running >= self.workers:
                heapq.heappush(self._waiting, (priority, next(self._order), job_id, fn, args,
                                               on_done))
                return True
            self._running += 1
        try:
            self._start(job_id, fn, args, on_done)
        except BaseException:
            with self._lock:
                self._running -= 1
            self._forget(job_id, None)
            raise
        return True

    def _start(self, job_id: str, fn: Callable[..., Any], args: tuple[Any, ...],
               on_done: Done) -> None:
        """Send a job to a worker (counted in ``_running`` by the caller)."""
        with self._lock:
            executor = self._ensure()
        started = time.monotonic()
        try:
            future = self._send(executor, job_id, fn, args)
        except BrokenProcessPool:  # a worker died (killed): a new pool, once
            with self._lock:
                self._executor = None
                executor = self._ensure()
            future = self._send(executor, job_id, fn, args)
        future.add_done_callback(lambda f: self._ended(job_id, f, on_done, started))

    def _next(self) -> None:
        """A worker is free: start the waiting jobs it and the others can take (a job that
        cannot be sent ends with that error)."""
        while True:
            with self._lock:
                if self._closed or not self._waiting or self._running >= self.workers:
                    return
                _, _, job_id, fn, args, on_done = heapq.heappop(self._waiting)
                self._running += 1
            try:
                self._start(job_id, fn, args, on_done)
            except BaseException as e:
                with self._lock:
                    self._running -= 1
                self._finish(job_id, on_done, None, e, None)

    def _send(self, executor: Executor, job_id: str, fn: Callable[..., Any],
              args: tuple[Any, ...]) -> Future[Any]:
        if self.processes:
            return executor.submit(_in_worker, job_id, fn, args)
        return executor.submit(self._in_thread, job_id, fn, args)

    def _in_thread(self, job_id: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        return fn(*args, lambda done, total: self._progressed(job_id, done, total))

    def _progressed(self, job_id: str, done: int, total: int) -> None:
        with self._lock:
            j = self._jobs.get(job_id)
            if j is not None:
                self._jobs[job_id] = replace(j, state="running", done=done, total=total)

    def _ended(self, job_id: str, future: Future[Any], on_done: Done, started: float) -> None:
        error: BaseException | None
        try:
            result, error = future.result(), None
        except BaseException as e:  # handed to on_done (a failed or cancelled job)
            result, error = None, e
        with self._lock:
            self._running -= 1
        self._finish(job_id, on_done, result, error,
                     None if error is not None else time.monotonic() - started)
        with self._lock:
            more = bool(self._waiting) and not self._closed
        if more:  # not from the executor's own thread, which runs this callback
            threading.Thread(target=self._next, daemon=True, name="ginrummy-review-next").start()

    def _finish(self, job_id: str, on_done: Done, result: Any, error: BaseException | None,
                took: float | None) -> None:
        try:
            on_done(result, error)
        except Exception as e:  # pragma: no cover - on_done's own failure: logged
            log.error("a review's end could not be handled: %s", type(e).__name__)
        finally:
            self._forget(job_id, took)

    def _forget(self, job_id: str, took: float | None) -> None:
        with self._lock:
            self._jobs.pop(job_id, None)
            if took is not None:
                self._seconds = 0.8 * self._seconds + 0.2 * took
            if not self._jobs:
                self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no job is in the pool (at most ``timeout`` seconds); True if so."""
        end = time.monotonic() + timeout
        with self._lock:
            while self._jobs:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    # ---------------------------------------------------------------------- the workers
    def _ensure(self) -> Executor:
        """The executor (under the lock), started if needed."""
        if self._executor is not None:
            return self._executor
        if not self.processes:
            self._executor = ThreadPoolExecutor(
                self.workers, thread_name_prefix="ginrummy-review",
                initializer=_lower_priority, initargs=(self.nice,))
            return self._executor
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if ctx.get_start_method() == "forkserver":
            # the forkserver imports the evaluator once; each worker starts from it
            ctx.set_forkserver_preload(["ginrummy.web.review.jobs"])
        if self._progress is None:
            self._progress = ctx.SimpleQueue()
            self._reader = threading.Thread(target=self._read_progress, daemon=True,
                                            name="ginrummy-review-progress")
            self._reader.start()
        self._executor = ProcessPoolExecutor(self.workers, mp_context=ctx,
                                             initializer=_start_worker,
                                             initargs=(self._progress, self.nice))
        return self._executor

    def _read_progress(self) -> None:
        q = self._progress
        while True:
            try:
                item = q.get()
            except (EOFError, OSError):  # the queue was closed
                return
            if item is None:
                return
            job_id, done, total = item
            self._progressed(job_id, done, total)

    def close(self, timeout: float = 5.0) -> None:
        """Stop: the jobs waiting are cancelled (their ``on_done`` gets the cancellation); the
        running ones are waited for at most ``timeout`` seconds, then their worker processes
        are killed (their ``on_done`` gets the broken pool: the claim is given up, and the
        review made again when next asked). A server stopping is not held up by a long review:
        the interpreter's exit waits for a process pool's workers, and a checked review runs
        for a minute (a server given SIGTERM during one was killed after 30 s,
        benchmarks/results/review-load-2026-12-07.md)."""
        with self._lock:
            executor, self._executor = self._executor, None
            self._closed = True
            waiting, self._waiting = self._waiting, []
        for _, _, job_id, _, _, on_done in sorted(waiting):
            self._finish(job_id, on_done, None, CancelledError(), None)
        if executor is not None:
            # its workers (the executor's own table, which shutdown() empties: there is no
            # public way to stop a running job)
            procs = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            if not self.wait_idle(timeout):
                for proc in procs:
                    with contextlib.suppress(Exception):
                        proc.kill()
                self.wait_idle(timeout)
        if self._progress is not None and self._reader is not None:
            self._progress.put(None)
            self._reader.join(timeout=10)
            with contextlib.suppress(OSError):
                self._progress.close()
            self._progress = None
            self._reader = None
