"""Fixtures of the web API tests: an app on a temporary database, a client, game helpers.

Chance is fixed for every test (``fixed_chance``): the server's decks, dealers, cuts and game
secrets come from a source seeded with the test's name (tests/chance.py), so that a test's
games play out the same on every run and a failure replays by running the test again; a test
that sets up its own deals patches over it; one marked ``own_chance`` fixes its chance itself.

Every test that uses ``db_url`` (``client``, ``make_client``, ``new_table`` do) runs twice: on a
temporary SQLite file and on a fresh database of the test PostgreSQL cluster
(``$GINRUMMY_TEST_POSTGRES_URL``, see tests/pg_helpers.py). A test marked ``sqlite_only`` runs on
SQLite alone (it reads the SQLite file itself), one marked ``postgres_only`` on PostgreSQL alone.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's note about httpx, at import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from web_helpers import Table  # noqa: E402

from chance import fix_chance, seed_of  # noqa: E402  (tests/)
from ginrummy.web import create_app  # noqa: E402
from ginrummy.web.http.ratelimit import RateLimits  # noqa: E402
from ginrummy.web.review.reviews import ReviewSettings  # noqa: E402
from pg_helpers import fresh_postgres_database  # noqa: E402  (tests/, beside conftest.py)

NO_LIMITS = RateLimits(creates=None, requests=None)
#: reviews in the tests' apps: threads and a small search (docs/api.md "Review"; a test that
#: needs the worker processes asks for them)
SMALL_REVIEWS = ReviewSettings(workers=1, queue=16, worlds=4, confirm=0, processes=False)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: a web test that runs on SQLite alone")
    config.addinivalue_line("markers", "postgres_only: a web test that runs on PostgreSQL alone")
    config.addinivalue_line("markers", "own_chance: a web test that fixes the server's chance "
                            "itself, for each of its runs (Hypothesis' state machines)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_backend" in metafunc.fixturenames:
        backends = ["sqlite", "postgres"]
        if metafunc.definition.get_closest_marker("sqlite_only") is not None:
            backends = ["sqlite"]
        elif metafunc.definition.get_closest_marker("postgres_only") is not None:
            backends = ["postgres"]
        metafunc.parametrize("db_backend", backends)


@pytest.fixture(autouse=True)
def fixed_chance(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """The test's chance, seeded with its name (module docstring); the seed. Not for a test
    marked ``own_chance``: a stream that runs on across a state machine's runs would deal each
    replay of a run differently (Hypothesis calls that a flaky strategy)."""
    seed = seed_of(request.node.nodeid)
    if request.node.get_closest_marker("own_chance") is None:
        fix_chance(monkeypatch, seed)
    return seed


@pytest.fixture
def db_backend() -> str:
    return "sqlite"  # replaced by the parameters above


@pytest.fixture
def db_url(db_backend: str, tmp_path: Path) -> Iterator[str]:
    """The test's database: a temporary SQLite file, or a fresh PostgreSQL database."""
    if db_backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture
def make_client(db_url: str) -> Iterator[Callable[..., TestClient]]:
    clients: list[TestClient] = []

    def make(url: str | None = None, **kwargs: Any) -> TestClient:
        kwargs.setdefault("rate_limits", NO_LIMITS)
        kwargs.setdefault("reviews", SMALL_REVIEWS)
        app = create_app(url or db_url, **kwargs)
        c = TestClient(app, raise_server_exceptions=False)
        clients.append(c)
        return c

    yield make
    for c in clients:
        c.app.state.store.close()  # type: ignore[attr-defined]
        c.close()


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


@pytest.fixture
def new_table(client: TestClient) -> Callable[..., Table]:
    def make(body: dict[str, Any] | None = None, c: TestClient | None = None) -> Table:
        return Table(c or client, body)

    return make
