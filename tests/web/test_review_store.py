"""The stored reviews (issue 20; ginrummy.store.reviews): claimed once, taken over from a
process that stopped, finished once, released after a failure, and deleted with their game
(docs/retention.md). SQLite and PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from ginrummy.store import GameRow, Retention, ReviewStore, Store, sweep


@pytest.fixture
def stores(db_url: str) -> Iterator[tuple[Store, ReviewStore]]:
    store = Store(db_url)
    try:
        yield store, ReviewStore(store.engine, store.writing)
    finally:
        store.close()


def _game(store: Store, game_id: str, status: str = "over", at: float | None = None) -> None:
    t = time.time() if at is None else at
    store.insert_game(GameRow(id=game_id, token_hash="h" * 64, player_id=None, level="easy",
                              preset="standard", rules={}, first_dealer=0, secret="s" * 64,
                              seq=1, status=status, created_at=t, updated_at=t), [])


def test_one_owner_claims_a_review_and_the_others_wait_for_it(
        stores: tuple[Store, ReviewStore]) -> None:
    store, reviews = stores
    _game(store, "g1")
    now = time.time()
    assert reviews.claim("g1", "hand/1/w8", "A", 30, stale_before=now - 60)
    assert not reviews.claim("g1", "hand/1/w8", "B", 30, stale_before=now - 60)
    assert reviews.claim("g1", "hand/1/w8", "A", 30, stale_before=now - 60)  # its own again
    row = reviews.get("g1", "hand/1/w8")
    assert row is not None and (row.status, row.owner, row.done, row.total, row.data) == \
        ("making", "A", 0, 30, None)
    reviews.touch("A", {("g1", "hand/1/w8"): (12, 30)})
    reviews.touch("B", {("g1", "hand/1/w8"): (29, 30)})  # not B's: nothing changes
    row = reviews.get("g1", "hand/1/w8")
    assert row is not None and (row.done, row.total) == (12, 30)
    assert reviews.get("g1", "game/w8") is None and reviews.get("nope", "hand/1/w8") is None

    assert reviews.finish("g1", "hand/1/w8", '{"made": 1}')
    assert not reviews.finish("g1", "hand/1/w8", '{"made": 2}')  # done already: kept
    row = reviews.get("g1", "hand/1/w8")
    assert row is not None and (row.status, row.data, row.done) == ("done", '{"made": 1}', 30)
    assert not reviews.claim("g1", "hand/1/w8", "B", 30, stale_before=time.time() + 1)


def test_a_claim_that_stopped_beating_is_taken_over_and_a_failure_released(
        stores: tuple[Store, ReviewStore]) -> None:
    store, reviews = stores
    _game(store, "g2")
    assert reviews.claim("g2", "game/w8", "A", 100, stale_before=0.0)
    # B sees A's heartbeat as fresh: waits; as stale (A's process died): takes it over
    beat = reviews.get("g2", "game/w8")
    assert beat is not None
    assert not reviews.claim("g2", "game/w8", "B", 100, stale_before=beat.heartbeat)
    assert reviews.claim("g2", "game/w8", "B", 100, stale_before=beat.heartbeat + 1e-3)
    row = reviews.get("g2", "game/w8")
    assert row is not None and row.owner == "B"
    reviews.touch("A", {("g2", "game/w8"): (50, 100)})  # A, late, no longer owns it
    row = reviews.get("g2", "game/w8")
    assert row is not None and row.done == 0
    reviews.release("g2", "game/w8", "A")  # not A's to release
    assert reviews.get("g2", "game/w8") is not None
    reviews.release("g2", "game/w8", "B")
    assert reviews.get("g2", "game/w8") is None
    assert reviews.claim("g2", "game/w8", "C", 100, stale_before=0.0)


def test_no_review_of_a_game_that_is_not_there(stores: tuple[Store, ReviewStore]) -> None:
    _store, reviews = stores
    with pytest.raises(LookupError):
        reviews.claim("ghost", "game/w8", "A", 1, stale_before=0.0)
    assert reviews.get("ghost", "game/w8") is None


def test_reviews_are_deleted_with_their_game(stores: tuple[Store, ReviewStore]) -> None:
    store, reviews = stores
    old = time.time() - 400 * 86400
    _game(store, "old", at=old)
    _game(store, "new")
    for gid in ("old", "new"):
        assert reviews.claim(gid, "game/w8", "A", 1, stale_before=0.0)
        assert reviews.finish(gid, "game/w8", "{}")
        assert reviews.claim(gid, "hand/1/w8", "A", 1, stale_before=0.0)  # one being made
    swept = sweep(store.engine, Retention(idle_days=None, record_days=365),
                  writing=store.writing)
    assert swept.games == 1
    assert reviews.get("old", "game/w8") is None and reviews.get("old", "hand/1/w8") is None
    assert reviews.get("new", "game/w8") is not None
    with store.engine.connect() as c:
        assert c.execute(sa.text("SELECT count(*) FROM reviews WHERE game_id = 'old'")
                         ).scalar_one() == 0
