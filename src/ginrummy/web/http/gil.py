"""A shorter turn for each thread of a serving process at the interpreter's lock (issue 19, the
250-table tail).

A server process runs its event loop (every HTTP request and live stream) and the threads of
its blocking work (:mod:`ginrummy.web.http.workers`: the store's reads and writes, the states)
under one interpreter lock. A thread that wants the lock while another computes waits for the
holder's turn to end: 5 ms by default (:func:`sys.getswitchinterval`), so a request that passes
through the event loop and a worker thread a few times can wait for several such turns when
both servers' threads are busy. :func:`settle_switch_interval` makes the turn 1 ms in a serving
process: in five paired 250-table runs on this 2-core machine the action p99 came out lower
with it in 4 of the 5 pairs (median 55.5 against 72.6 ms), at no more CPU per action (5.2-6.9
against 4.9-6.7 ms; benchmarks/results/client-2026-12-06.md).
"""

from __future__ import annotations

import sys

__all__ = ["SWITCH_INTERVAL", "settle_switch_interval"]

#: the interpreter's thread switch interval of a serving process, seconds
SWITCH_INTERVAL = 0.001


def settle_switch_interval(seconds: float = SWITCH_INTERVAL) -> float:
    """Set the interpreter's thread switch interval (:func:`sys.setswitchinterval`) for this
    process. Call it once per serving process.

    :param seconds: the interval, > 0.
    :returns: the interval now in force (the interpreter may round it).
    :raises ValueError: ``seconds`` is not positive.
    """
    if not seconds > 0:
        raise ValueError("the switch interval must be positive")
    sys.setswitchinterval(seconds)
    return sys.getswitchinterval()
