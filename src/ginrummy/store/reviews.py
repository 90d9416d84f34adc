"""The reviews of finished games and hands (issue 20, "Review my game"): made once, kept with
their game (table ``reviews``, :data:`ginrummy.store.schema.reviews`).

A review is identified by its game and a ``scope`` text the web layer chooses (what is
reviewed, at what search budget). The process that is to make it first **claims** it: a row
``making`` with its ``owner`` (a random id of that process), its progress and a ``heartbeat``
the owner keeps fresh (:meth:`ReviewStore.touch`). Of processes claiming the same review at
once, one inserts the row and the others find it (``INSERT ... ON CONFLICT DO NOTHING``); they
wait for it and read it once it is ``done``. A claim whose heartbeat is older than the caller's
``stale_before`` (its process died) is taken over by the next claim. A review is deterministic,
so whichever process finishes it first stores it (:meth:`ReviewStore.finish`); a later finish
finds it done and writes nothing.

A review goes when its game goes: the foreign key deletes it with the game, and the retention
sweep deletes every row with the game's ``game_id`` in the same transaction
(:mod:`ginrummy.store.retention`, docs/retention.md).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from sqlalchemy import Engine, and_, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from .rows import ReviewRow, storable_id
from .schema import reviews

__all__ = ["ReviewStore", "MAKING", "DONE"]

#: ``reviews.status`` of a review being made, and of one made
MAKING = "making"
DONE = "done"

_COLUMNS = (reviews.c.game_id, reviews.c.scope, reviews.c.status, reviews.c.owner,
            reviews.c.done, reviews.c.total, reviews.c.heartbeat, reviews.c.data)


def _row(r: Any) -> ReviewRow:
    return ReviewRow(game_id=r.game_id, scope=r.scope, status=r.status, owner=r.owner,
                     done=int(r.done), total=int(r.total), heartbeat=float(r.heartbeat),
                     data=r.data)


class ReviewStore:
    """The ``reviews`` table of the database of ``engine`` (made with the games' tables by
    :class:`ginrummy.store.Store`). ``writing``: the store's own writers' lock
    (:attr:`ginrummy.store.Store.writing`: SQLite sees one writer at a time), held around each
    write."""

    def __init__(self, engine: Engine, writing: AbstractContextManager[Any] | None = None
                 ) -> None:
        self.engine = engine
        self._writing: AbstractContextManager[Any] = writing or nullcontext()
        self._insert = pg_insert if engine.dialect.name == "postgresql" else sqlite_insert

    def get(self, game_id: str, scope: str) -> ReviewRow | None:
        """The review ``scope`` of ``game_id`` as stored now, or None."""
        if not storable_id(game_id):
            return None
        with self.engine.connect() as conn:
            r = conn.execute(select(*_COLUMNS).where(reviews.c.game_id == game_id,
                                                     reviews.c.scope == scope)).first()
        return None if r is None else _row(r)

    def made(self, game_ids: list[str], suffix: str) -> list[tuple[str, str, str]]:
        """The reviews made of the games ``game_ids`` whose scope is a game's or a hand's
        (``game/...``, ``hand/...``, not an exercise's) and ends with ``suffix`` (the search
        budget, e.g. ``/w192``): ``(game_id, scope, data)``, in no particular order. Ids that
        are not :func:`~ginrummy.store.rows.storable_id` have none."""
        ids = sorted({g for g in game_ids if storable_id(g)})
        out: list[tuple[str, str, str]] = []
        for i in range(0, len(ids), 500):  # bounded IN lists
            q = (select(reviews.c.game_id, reviews.c.scope, reviews.c.data)
                 .where(reviews.c.game_id.in_(ids[i:i + 500]), reviews.c.status == DONE,
                        reviews.c.scope.like("game/%") | reviews.c.scope.like("hand/%")))
            with self.engine.connect() as conn:
                out.extend((r.game_id, r.scope, r.data) for r in conn.execute(q).all()
                           if r.data is not None and r.scope.endswith(suffix))
        return out

    def claim(self, game_id: str, scope: str, owner: str, total: int, stale_before: float
              ) -> bool:
        """Claim the making of review ``scope`` for ``owner``: True when it is ``owner``'s to
        make now (no row yet; or a ``making`` row of ``owner`` itself, or one whose heartbeat
        is older than ``stale_before``, taken over), False when another owner makes it or it
        is done (read it with :meth:`get`).

        :raises LookupError: there is no such game (deleted meanwhile).
        """
        now = time.time()
        try:
            with self._writing, self.engine.begin() as conn:
                ins = (self._insert(reviews)
                       .values(game_id=game_id, scope=scope, status=MAKING, owner=owner,
                               done=0, total=total, heartbeat=now, created_at=now)
                       .on_conflict_do_nothing(index_elements=["game_id", "scope"]))
                if conn.execute(ins).rowcount == 1:
                    return True
                # taken over: its owner's, or a claim whose process stopped beating
                took = conn.execute(
                    update(reviews)
                    .where(reviews.c.game_id == game_id, reviews.c.scope == scope,
                           reviews.c.status == MAKING,
                           (reviews.c.owner == owner) | (reviews.c.heartbeat < stale_before))
                    .values(owner=owner, done=0, total=total, heartbeat=now))
                return took.rowcount == 1
        except IntegrityError:  # the foreign key: the game is gone
            raise LookupError(f"no game {game_id!r}") from None

    def touch(self, owner: str, progress: Mapping[tuple[str, str], tuple[int, int]]) -> None:
        """Keep ``owner``'s claims alive (their heartbeat now) and write the progress of those
        in ``progress`` (``(game_id, scope) -> (done, total)``), in one transaction."""
        now = time.time()
        with self._writing, self.engine.begin() as conn:
            conn.execute(update(reviews)
                         .where(reviews.c.owner == owner, reviews.c.status == MAKING)
                         .values(heartbeat=now))
            for (game_id, scope), (done, total) in progress.items():
                conn.execute(update(reviews)
                             .where(reviews.c.game_id == game_id, reviews.c.scope == scope,
                                    reviews.c.owner == owner, reviews.c.status == MAKING)
                             .values(done=done, total=total))

    def finish(self, game_id: str, scope: str, data: str) -> bool:
        """Store the review made (``data``: its JSON text); True if it was stored now, False
        when it was done already (or its game is gone): nothing is written then."""
        with self._writing, self.engine.begin() as conn:
            r = conn.execute(update(reviews)
                             .where(reviews.c.game_id == game_id, reviews.c.scope == scope,
                                    reviews.c.status == MAKING)
                             .values(status=DONE, data=data, done=reviews.c.total,
                                     finished_at=time.time(), owner=None))
        return r.rowcount == 1

    def release(self, game_id: str, scope: str, owner: str) -> None:
        """Give up ``owner``'s claim (the making failed): the next request claims it anew."""
        with self._writing, self.engine.begin() as conn:
            conn.execute(delete(reviews).where(and_(reviews.c.game_id == game_id,
                                                    reviews.c.scope == scope,
                                                    reviews.c.status == MAKING,
                                                    reviews.c.owner == owner)))
