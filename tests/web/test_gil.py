"""A serving process gives each thread a 1 ms turn at the interpreter's lock
(ginrummy.web.http.gil; benchmarks/results/client-2026-12-06.md measures why)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_probe import serve_until_listening

from ginrummy.web.http import app as app_module
from ginrummy.web.http.gil import SWITCH_INTERVAL, settle_switch_interval


@pytest.fixture
def interval() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    yield
    sys.setswitchinterval(before)  # the rest of the test session as before


def test_settle_switch_interval_sets_it(interval: None) -> None:
    assert settle_switch_interval() == pytest.approx(SWITCH_INTERVAL)
    assert sys.getswitchinterval() == pytest.approx(0.001)
    assert settle_switch_interval(0.002) == pytest.approx(0.002)


@pytest.mark.parametrize("bad", [0.0, -0.001, float("nan")])
def test_a_bad_interval_is_refused_and_changes_nothing(interval: None, bad: float) -> None:
    with pytest.raises(ValueError, match="positive"):
        settle_switch_interval(bad)
    assert sys.getswitchinterval() == pytest.approx(0.005)


def test_serve_sets_it_before_it_listens(interval: None, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    seen = serve_until_listening(sys.getswitchinterval, tmp_path / "gil.sqlite3", monkeypatch)
    assert seen == [pytest.approx(0.001)]


def test_each_worker_process_sets_it(interval: None, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "_warm_bots", lambda: True)
    monkeypatch.setenv("GINRUMMY_DATABASE_URL", f"sqlite:///{tmp_path / 'gil2.sqlite3'}")
    app = app_module.app_from_env()
    try:
        assert sys.getswitchinterval() == pytest.approx(0.001)
    finally:
        app.state.store.close()
        gc.unfreeze()  # app_from_env froze the heap: the rest of the session collects as before
