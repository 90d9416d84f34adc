"""Fixtures of the browser tests: Debian's Chromium through Playwright (one browser for the
session), the real app on a free loopback port with a temporary SQLite file, a fresh browser
context (fresh localStorage and cookies) per test.

The tests are skipped, not failed, when Chromium or Playwright is missing.

Chance is fixed for every test (``fixed_chance``): the in-process server's decks, dealers, cuts
and game secrets come from a source seeded with the test's name (tests/chance.py), so a test's
games are the same on every run; a test that fixes its own (``fix_chance``, ``sites``'
``fix``) patches over it.

A test whose people should be on two server processes (issue 21) takes ``sites``, parametrized
indirectly with two_servers.ONE / TWO: the first is the session's ``server`` (``one_process``,
which a module may override), the second two ``ginrummy serve`` processes on PostgreSQL for the
module (``two_processes``, likewise), skipped without ``$GINRUMMY_TEST_POSTGRES_URL``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM, CHROMIUM_ARGS, DESKTOP, LiveServer
from two_servers import ONE, TWO, Sites, TwoProcesses, serve_two

from chance import fix_chance, seed_of

#: Playwright's own timeouts: short, so that a broken page fails fast instead of hanging.
ACTION_TIMEOUT_MS = 5_000
NAVIGATION_TIMEOUT_MS = 10_000


def _chromium_missing() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed"
    return None


try:
    import playwright.sync_api  # noqa: F401
except ImportError:  # the modules import it: do not even collect them
    collect_ignore_glob = ["test_*.py"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _chromium_missing()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def fixed_chance(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """The test's chance, seeded with its name (module docstring); the seed."""
    seed = seed_of(request.node.nodeid)
    fix_chance(monkeypatch, seed)
    return seed


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    except Exception as e:  # pragma: no cover - a broken Chromium install
        pw.stop()
        pytest.skip(f"Chromium does not start: {e}")
    yield b
    b.close()
    pw.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One app for the session (each test has its own game and its own browser context)."""
    db = tmp_path_factory.mktemp("browser-db") / "games.sqlite3"
    srv = LiveServer(db).start()
    yield srv
    srv.stop()


@pytest.fixture
def new_context(browser: Any) -> Iterator[Callable[..., Any]]:
    """``new_context(viewport=..., locale=...)``: a fresh context, closed after the test.

    Reduced motion, so that the computer's moves are shown quickly; ``bypass_csp`` so that waits
    can poll a predicate on every animation frame (test_csp.py checks the page under its real
    Content-Security-Policy).
    """
    contexts: list[Any] = []

    def make(**kw: Any) -> Any:
        kw.setdefault("viewport", DESKTOP)
        kw.setdefault("reduced_motion", "reduce")
        kw.setdefault("locale", "en-US")
        kw.setdefault("bypass_csp", True)
        ctx = browser.new_context(**kw)
        ctx.set_default_timeout(ACTION_TIMEOUT_MS)
        ctx.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def page(new_context: Callable[..., Any]) -> Any:
    """A desktop page; page errors (uncaught exceptions) fail the test."""
    p = new_context().new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    assert not errors, errors


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[LiveServer]:
    """An app of the test's own, which the test may stop and start again (same file, port)."""
    srv = LiveServer(tmp_path / "games.sqlite3").start()
    yield srv
    srv.stop()


@pytest.fixture
def one_process(server: LiveServer) -> LiveServer:
    """The server of ``sites`` when it is ONE (a module may override it: shorter away times)."""
    return server


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TwoProcesses]:
    """Two ``ginrummy serve`` processes on one fresh PostgreSQL database, for the module (a
    module may override it: shorter away times)."""
    with serve_two(tmp_path_factory.mktemp("two-processes")) as two:
        yield two


@pytest.fixture
def sites(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Sites:
    """Where the test's people are served (``request.param``: ONE or TWO); see the module's
    docstring."""
    if request.param == ONE:
        srv: LiveServer = request.getfixturevalue("one_process")
        return Sites(srv, srv, lambda seed: fix_chance(monkeypatch, seed), processes=1)
    assert request.param == TWO, request.param
    two: TwoProcesses = request.getfixturevalue("two_processes")
    return Sites(two.first, two.second, two.fix, processes=2)
