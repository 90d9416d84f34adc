"""A fresh PostgreSQL schema (an empty database of its own, in effect) per test, on the cluster
named by ``$GINRUMMY_TEST_POSTGRES_URL`` (scripts/test.sh starts a throwaway one and sets it).

Without the variable the PostgreSQL tests are skipped, unless ``$GINRUMMY_TEST_REQUIRE_POSTGRES``
is ``1`` (scripts/test.sh sets it): then they fail, so that CI cannot pass them by skipping.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

__all__ = ["postgres_url", "fresh_postgres_database"]


def postgres_url() -> str:
    """The test cluster's URL (``postgresql+psycopg://...``); skips (or fails) without one."""
    url = os.environ.get("GINRUMMY_TEST_POSTGRES_URL")
    if not url:
        if os.environ.get("GINRUMMY_TEST_REQUIRE_POSTGRES") == "1":
            pytest.fail("GINRUMMY_TEST_POSTGRES_URL is not set but PostgreSQL tests are required")
        pytest.skip("GINRUMMY_TEST_POSTGRES_URL is not set (scripts/test.sh sets it)")
    return url


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, empty schema on the test cluster's database, as a SQLAlchemy URL whose
    connections use it alone (``search_path``); dropped afterwards. (A schema rather than a
    database: creating one takes milliseconds, a database about a second on a busy machine.)"""
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(postgres_url())
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    name = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield base.update_query_dict({"options": f"-csearch_path={name}"}).render_as_string(
            hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("SET lock_timeout = '20s'")
            conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
