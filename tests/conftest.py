"""Shared test configuration.

Tests marked ``slow`` (long property or differential runs) are skipped in the default run so that
``pytest`` stays fast; run them with ``pytest -m slow`` (or any ``-m`` expression naming them), or
set ``GINRUMMY_SLOW=1``.
"""

from __future__ import annotations

import os

import pytest

# A local Ray (the Ray tournament and RLlib tests) binds to this machine's network address unless
# told it is a one-machine cluster: keep every test's traffic on the loopback address. Ray reads
# this when it is first imported, and its worker processes inherit it.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("GINRUMMY_SLOW") == "1" or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow or GINRUMMY_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
