"""The threads that run the web game's blocking work (the store's reads and writes, the game's
rebuilding) for the hot paths: an action, a table's state, and each wake-up of a live stream.

anyio's ``to_thread.run_sync`` (what FastAPI uses for a plain ``def`` endpoint) costs about 55 to
85 microseconds of CPU per call on this machine (a capacity limiter, a cancel scope, a
``queue.Queue`` whose ``Condition`` is pure Python); :class:`Workers` hands a call to its threads
through a ``queue.SimpleQueue`` (C) and back with one ``call_soon_threadsafe``: about 8 to 40
microseconds (benchmarks/results/tables-2026-12-02c.md). A table of people makes three or four
such calls per action (the action, each live stream's read, the presence refreshes).

Semantics as anyio's: the call runs in the caller's ``contextvars`` context (e.g. the request's
language), its exception is raised in the caller, and a cancelled caller waits until the call
has ended (an action is committed or not, never abandoned half way) before the cancellation goes
on.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["Workers"]

T = TypeVar("T")

_STOP = object()


def _settle(fut: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if fut.done():
        return
    if ok:
        fut.set_result(value)
    else:
        fut.set_exception(value)


class Workers:
    """Up to ``size`` daemon threads running the calls given to :meth:`call`, first come first
    served; a thread is started when a call finds none idle (an app that is never used starts
    none). Thread-safe; :meth:`close` stops those running."""

    def __init__(self, size: int, name: str = "ginrummy-worker") -> None:
        if size < 1:
            raise ValueError("size must be at least 1")
        self.size = size
        self._name = name
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._idle = 0  # threads waiting for a call
        self._waiting = 0  # calls queued, not yet taken
        self._lock = threading.Lock()

    def _submit(self, item: Any) -> None:
        """Queue ``item``; start a thread when the calls waiting outnumber the idle ones."""
        with self._lock:
            self._waiting += 1
            if self._waiting > self._idle and len(self._threads) < self.size:
                t = threading.Thread(target=self._run, daemon=True,
                                     name=f"{self._name}-{len(self._threads)}")
                self._threads.append(t)
                self._idle += 1
                t.start()
        self._queue.put(item)

    def _run(self) -> None:
        get = self._queue.get
        lock = self._lock
        while True:
            item = get()
            with lock:
                self._idle -= 1
                self._waiting -= 1
            if item is _STOP:
                return
            loop, fut, ctx, fn, args = item
            try:
                value = ctx.run(fn, *args)
                ok = True
            except BaseException as e:  # handed to the caller, raised there
                value, ok = e, False
            with lock:
                self._idle += 1
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for it
                loop.call_soon_threadsafe(_settle, fut, ok, value)
            del item, fut, value

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in one of the threads; its value, or its exception raised here."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        self._submit((loop, fut, contextvars.copy_context(), fn, args))
        try:
            return await asyncio.shield(fut)
        except asyncio.CancelledError:
            # as anyio's run_sync: the call runs to its end before the cancellation goes on
            while not fut.done():
                try:
                    await asyncio.shield(fut)
                except asyncio.CancelledError:
                    continue
                except BaseException:  # its outcome is not ours to report now
                    break
            raise

    def close(self, timeout: float = 10.0) -> None:
        """Let the calls queued so far end (waiting at most ``timeout`` seconds in all), then
        stop the threads. A later :meth:`call` starts new ones (an app whose lifespan runs
        again, as in tests)."""
        with self._lock:
            threads, self._threads = self._threads, []
            self._waiting += len(threads)
        for _ in threads:
            self._queue.put(_STOP)
        end = time.monotonic() + timeout
        for t in threads:
            t.join(max(0.0, end - time.monotonic()))
