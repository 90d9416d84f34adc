"""The start-up heap kept out of Python's garbage collector, so that its full collections do not
stop a running server for a tenth of a second (issue 19, the 250-table tail).

A server process holds about 240,000 objects once it is ready (FastAPI, SQLAlchemy, pydantic,
numba and the expert's tables): objects that live as long as the process. Each full
collection of the cyclic garbage collector walks all of them, and it holds the interpreter
while it does (every request and every live stream of the process waits): 94 ms on an idle
core of this machine, 58 to 276 ms in the 250-table run (benchmarks/results/heap-2026-12-06.md
measures it). :func:`settle_heap`, called once the app is built and the computer players are
warmed up, collects what start-up left behind and then moves every survivor to the
collector's permanent generation (:func:`gc.freeze`): later collections walk only what the
server creates while it runs. The objects are not changed and are still freed by reference
counting; only their cycles, if any ever formed, would stay (none is expected: they live as
long as the process). When the warm-up outlasts its wait (a loaded machine), the expert's
tables built after the freeze are collected as usual: only the cost of this remedy is lost.
"""

from __future__ import annotations

import gc

__all__ = ["settle_heap"]


def settle_heap() -> int:
    """Collect the garbage of start-up, then freeze the survivors out of later collections
    (:func:`gc.freeze`). Call it once per process, when the app is ready to serve.

    :returns: the number of objects frozen (all frozen so far, :func:`gc.get_freeze_count`).
    """
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
