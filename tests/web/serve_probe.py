"""``ginrummy serve`` run up to the moment it would listen: what a test wants to know of the
process then (the heap frozen, the switch interval), read by a probe instead of listening."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from ginrummy.web.http import app as app_module

T = TypeVar("T")


def serve_until_listening(probe: Callable[[], T], database: Path,
                          monkeypatch: pytest.MonkeyPatch) -> list[T]:
    """Call :func:`ginrummy.web.http.app.serve` on the SQLite file ``database`` with uvicorn's
    ``run`` replaced: at the moment it would listen, ``probe()`` is called and the app's store
    closed; the computer players are not warmed up. Returns what ``probe`` gave (one value)."""
    import uvicorn

    seen: list[T] = []

    def run(app: Any, **_options: Any) -> None:  # instead of listening
        seen.append(probe())
        app.state.store.close()

    monkeypatch.setattr(app_module, "_warm_bots", lambda: True)
    monkeypatch.setattr(uvicorn, "run", run)
    for name in ("GINRUMMY_HEADER_TIMEOUT", "GINRUMMY_BODY_TIMEOUT"):  # serve sets them
        monkeypatch.delenv(name, raising=False)  # and they are unset again after the test
    app_module.serve(database_url=f"sqlite:///{database}")
    return seen
