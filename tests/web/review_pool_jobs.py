"""Jobs for the review pool's own tests (tests/web/test_review_pool.py), importable by its
worker processes."""

from __future__ import annotations

import os
import time
from collections.abc import Callable


def count_to(n: int, report: Callable[[int, int], None]) -> str:
    """Report 0..n of n, then answer ``"n"``."""
    for i in range(n + 1):
        report(i, n)
    return str(n)


def wait_for(path: str, report: Callable[[int, int], None]) -> str:
    """Report (1, 2), then wait until the file ``path`` exists (at most 120 s)."""
    report(1, 2)
    end = time.monotonic() + 120
    while not os.path.exists(path) and time.monotonic() < end:
        time.sleep(0.02)
    return "waited"


def die(code: int, report: Callable[[int, int], None]) -> str:
    """End the worker process at once (as the kernel's out-of-memory killer would)."""
    os._exit(code)


def pid(report: Callable[[int, int], None]) -> str:
    return str(os.getpid())
