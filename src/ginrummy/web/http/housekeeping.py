"""The server's own housekeeping: the retention sweep (:mod:`ginrummy.store.retention`,
docs/retention.md) run in the background of a running app, every ``Retention.every`` seconds
(give or take a tenth, so that several processes on one database spread out), the first time a
minute after the start."""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import anyio.to_thread

from ...store import Retention, Store, prepare, sweep

__all__ = ["retention_task", "FIRST_SWEEP_AFTER"]

log = logging.getLogger("ginrummy.web")

#: seconds from the start to the first sweep (at most ``Retention.every``)
FIRST_SWEEP_AFTER = 60.0


async def _sweep_forever(store: Store, policy: Retention) -> None:
    await asyncio.sleep(min(FIRST_SWEEP_AFTER, policy.every))
    run = functools.partial(sweep, store.engine, policy, writing=store.writing)
    while True:
        try:
            swept = await anyio.to_thread.run_sync(run)
            if swept.games or swept.sheets:
                log.info("retention: %d games and %d sheets deleted", swept.games, swept.sheets)
        except Exception as e:  # a failed sweep is tried again at the next one
            log.warning("retention sweep failed: %s", type(e).__name__)
        await asyncio.sleep(policy.every * random.uniform(0.9, 1.1))


@asynccontextmanager
async def retention_task(store: Store, policy: Retention) -> AsyncIterator[None]:
    """Sweep in the background while the ``async with`` body runs (an app's lifespan); a sweep
    under way when it ends finishes its transaction first."""
    if not policy.active:
        yield
        return
    try:
        await anyio.to_thread.run_sync(prepare, store.engine)
    except Exception as e:  # no index: the sweeps are slower, nothing else
        log.warning("retention index not created: %s", type(e).__name__)
    task = asyncio.create_task(_sweep_forever(store, policy), name="retention")
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
