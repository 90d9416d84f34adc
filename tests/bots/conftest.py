"""Fixtures for the bot tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def kernel_ready() -> None:
    """Compile (or load) the rollout kernel once per test session."""
    from ginrummy.bots import kernel

    kernel.warmup()
