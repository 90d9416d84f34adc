"""What the variant tables and the score keeper add to the store, in tables of their own (the
``games`` and ``deals`` tables of :mod:`ginrummy.store.db` are unchanged):

* ``game_tables``: the scoring of each web game that is not a standard game (Hollywood, three
  players, partnership). A game without a row here is a standard game. The row is written before
  the game's own row, so a variant game is never seen without it.
* the score keeper's sheets: :class:`ginrummy.store.sheets.SheetStore`, as ``sheets``.

Created on first use in the same database (:func:`ginrummy.store.db.create_schema`).
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    MetaData,
    String,
    Table,
    insert,
    select,
)

from .db import create_schema, storable_id
from .sheets import SheetRow, SheetStore

__all__ = ["VariantStore", "SheetRow", "SheetStore"]

metadata = MetaData()

game_tables = Table(
    "game_tables", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("scoring", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
)


class VariantStore:
    """The table above, and the sheets (``sheets``: :class:`SheetStore`), in the database of
    ``engine``. ``writing``: the store's own writers' lock, if it has one (SQLite: one writer
    at a time), held around each write."""

    def __init__(self, engine: Engine, writing: AbstractContextManager[Any] | None = None
                 ) -> None:
        self.engine = engine
        self._writing: AbstractContextManager[Any] = writing or nullcontext()
        create_schema(engine, metadata)  # once, even with processes starting at once
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

    def scoring(self, game_id: str) -> str | None:
        """The game's scoring, or None (a standard game, or no such game)."""
        if not storable_id(game_id):
            return None
        with self.engine.connect() as conn:
            r = conn.execute(select(game_tables.c.scoring)
                             .where(game_tables.c.game_id == game_id)).first()
        return None if r is None else str(r[0])
