"""The hot paths' threads (ginrummy.web.http.workers): a call's value or exception comes back to the
caller, in the caller's context; a cancelled caller waits for its call to end; a closed pool
starts again when called (an app whose lifespan runs twice)."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from typing import Any

import pytest

from ginrummy.web.http.workers import Workers

WHO: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="nobody")


def _run(main: Any) -> None:
    """``asyncio.run(main())`` in a thread of its own: the test's thread may already hold a
    running loop (Playwright's sync API leaves one in the full suite)."""
    errors: list[BaseException] = []

    def go() -> None:
        try:
            asyncio.run(main())
        except BaseException as e:  # raised again in the test's thread
            errors.append(e)

    th = threading.Thread(target=go)
    th.start()
    th.join(60)
    assert not th.is_alive(), "the event loop did not finish in 60 s"
    if errors:
        raise errors[0]


def test_values_exceptions_context_and_threads() -> None:
    pool = Workers(3)

    async def main() -> None:
        WHO.set("ann")
        assert await pool.call(lambda a, b: a + b, 2, 3) == 5
        assert await pool.call(WHO.get) == "ann"  # the caller's context
        assert await pool.call(threading.get_ident) != threading.get_ident()
        with pytest.raises(KeyError, match="x"):
            await pool.call({}.__getitem__, "x")
        # more calls at once than threads: all answered, never more than 3 threads
        got = await asyncio.gather(*(pool.call(lambda i: (time.sleep(0.01), i)[1], i)
                                     for i in range(20)))
        assert got == list(range(20))
        assert len(pool._threads) <= 3

    _run(main)
    pool.close()
    assert not pool._threads
    _run(main)  # called again after close: new threads
    pool.close()


def test_a_cancelled_caller_waits_for_its_call_to_end() -> None:
    pool = Workers(1)
    ended: list[float] = []

    def slow() -> None:
        time.sleep(0.3)
        ended.append(time.monotonic())

    async def main() -> None:
        task = asyncio.ensure_future(pool.call(slow))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert ended  # the call ended before the cancellation went on

    _run(main)
    pool.close()
