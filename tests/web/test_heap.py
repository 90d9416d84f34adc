"""The server keeps its start-up heap out of the garbage collector's full collections
(ginrummy.web.http.heap; benchmarks/results/heap-2026-12-06.md measures why)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from serve_probe import serve_until_listening

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
    seen = serve_until_listening(gc.get_freeze_count, tmp_path / "heap.sqlite3", monkeypatch)
    assert seen and seen[0] > 0
