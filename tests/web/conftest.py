"""Fixtures of the web API tests: an app on a temporary SQLite file, a client, game helpers."""

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

from ginrummy.web import create_app  # noqa: E402
from ginrummy.web.ratelimit import RateLimits  # noqa: E402

NO_LIMITS = RateLimits(creates=None, requests=None)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def make_client(db_url: str) -> Iterator[Callable[..., TestClient]]:
    clients: list[TestClient] = []

    def make(url: str | None = None, **kwargs: Any) -> TestClient:
        kwargs.setdefault("rate_limits", NO_LIMITS)
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
