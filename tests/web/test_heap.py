"""The server keeps its start-up heap out of the garbage collector's full collections
(ginrummy.web.http.heap; benchmarks/results/heap-2026-12-06.md measures why)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from ginrummy.web.http import app as app_module
from ginrummy.web.http.heap import settle_heap


@pytest.fixture
def unfrozen() -> Any:
    gc.unfreeze()
    yield
    gc.unfreeze()  # the rest of the test session collects as before


class _Survivor:
    """An object in a reference cycle, alive (held by the test)."""

    def __init__(self) -> None:
        self.me = self


def test_settle_heap_freezes_the_survivors_and_collects_the_garbage(unfrozen: None) -> None:
    alive = _Survivor()
    dead = _Survivor()
    del dead  # cyclic garbage: only a collection frees it
    frozen = settle_heap()
    assert frozen > 0 and gc.get_freeze_count() > 0  # (frozen objects may die since)
    assert not any(o is alive for o in gc.get_objects())  # in the permanent generation
    assert not any(type(o) is _Survivor and o is not alive for o in gc.get_objects())
    after = _Survivor()  # made after: collected as usual
    assert any(o is after for o in gc.get_objects())


def test_serve_settles_the_heap_before_it_listens(unfrozen: None, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    seen: list[int] = []

    def run(app: Any, **_options: Any) -> None:  # instead of listening
        seen.append(gc.get_freeze_count())
        app.state.store.close()

    monkeypatch.setattr(app_module, "_warm_bots", lambda: True)
    monkeypatch.setattr(uvicorn, "run", run)
    for name in ("GINRUMMY_HEADER_TIMEOUT", "GINRUMMY_BODY_TIMEOUT"):  # serve sets them
        monkeypatch.delenv(name, raising=False)  # and they are unset again after the test
    app_module.serve(database_url=f"sqlite:///{tmp_path / 'heap.sqlite3'}")
    assert seen and seen[0] > 0
