"""What the variant tables and the score keeper add to the store, in tables of their own (the
``games`` and ``deals`` tables of :mod:`ginrummy.store.schema` are unchanged):

* ``game_tables``: the scoring of each web game that is not a standard game (Hollywood, three
  players, partnership). A game without a row here is a standard game. The row is written before
  the game's own row, so a variant game is never seen without it.
* the score keeper's sheets: :class:`ginrummy.store.sheets.SheetStore`, as ``sheets``.

Created on first use in the same database (:func:`ginrummy.store.schema.create_schema`).
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from sqlalchemy import Connection, Engine, insert, select

from .rows import storable_id
from .schema import create_schema, game_tables, scorings_metadata
from .sheets import SheetStore

__all__ = ["VariantStore"]


class VariantStore:
    """The table of scorings, and the sheets (``sheets``: :class:`SheetStore`), in the database
    of ``engine``. ``writing``: the store's own writers' lock
    (:attr:`ginrummy.store.Store.writing`), if it has one (SQLite: one writer at a time), held
    around each write."""

    def __init__(self, engine: Engine, writing: AbstractContextManager[Any] | None = None
                 ) -> None:
        self.engine = engine
        self._writing: AbstractContextManager[Any] = writing or nullcontext()
        create_schema(engine, scorings_metadata)  # once, even with processes starting at once
        self.sheets = SheetStore(engine, writing)

    # ------------------------------------------------------------------------- game scorings
    def set_scoring(self, game_id: str, scoring: str) -> None:
        with self._writing, self.engine.begin() as conn:
            self.write_scoring(conn, game_id, scoring)

    @staticmethod
    def write_scoring(conn: Connection, game_id: str, scoring: str) -> None:
        """Keep a game's scoring in the caller's transaction ``conn``."""
        conn.execute(insert(game_tables).values(game_id=game_id, scoring=scoring,
                                                created_at=time.time()))

    def scorings(self, game_ids: list[str]) -> dict[str, str]:
        """Game id -> scoring of those of ``game_ids`` that are not standard tables (one query
        per 500 ids)."""
        ids = [g for g in game_ids if storable_id(g)]
        out: dict[str, str] = {}
        with self.engine.connect() as conn:
            for i in range(0, len(ids), 500):
                rows = conn.execute(select(game_tables.c.game_id, game_tables.c.scoring)
                                    .where(game_tables.c.game_id.in_(ids[i:i + 500]))).all()
                out.update({str(r[0]): str(r[1]) for r in rows})
        return out

    def scoring(self, game_id: str) -> str | None:
        """The game's scoring, or None (a standard game, or no such game)."""
        if not storable_id(game_id):
            return None
        with self.engine.connect() as conn:
            r = conn.execute(select(game_tables.c.scoring)
                             .where(game_tables.c.game_id == game_id)).first()
        return None if r is None else str(r[0])
