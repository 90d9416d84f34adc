"""Shared test configuration.

Tests marked ``slow`` (long property or differential runs) are skipped in the default run so that
``pytest`` stays fast; run them with ``pytest -m slow`` (or any ``-m`` expression naming them), or
set ``GINRUMMY_SLOW=1``.
"""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("GINRUMMY_SLOW") == "1" or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow or GINRUMMY_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
