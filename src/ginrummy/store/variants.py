"""What the variant tables and the score keeper add to the store, in tables of their own (the
``games`` and ``deals`` tables of :mod:`ginrummy.store.db` are unchanged):

* ``game_tables``: the scoring of each web game that is not a standard game (Hollywood, three
  players, partnership). A game without a row here is a standard game. The row is written before
  the game's own row, so a variant game is never seen without it.
* ``sheets``: score keeper sheets of games played with real cards: the sheet's input (rules,
  scoring, player names, hands) as JSON, owned through a token hash like a game.

Created on first use in the same database (:func:`ginrummy.store.db.create_schema`).
"""

from __future__ import annotations

import json
import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)

from .db import create_schema, storable_id

__all__ = ["VariantStore", "SheetRow"]

metadata = MetaData()

game_tables = Table(
    "game_tables", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("scoring", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
)

sheets = Table(
    "sheets", metadata,
    Column("id", String(64), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("player_id", String(64), index=True),
    Column("data", Text, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)


@dataclass
class SheetRow:
    """One score keeper sheet: ``data`` is its input (see :mod:`ginrummy.keeper`); ``seq`` counts
    its changes (optimistic concurrency)."""

    id: str
    token_hash: str
    player_id: str | None
    data: dict[str, Any]
    seq: int = 0
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)


class VariantStore:
    """The two tables above, in the database of ``engine``. ``writing``: the store's own
    writers' lock, if it has one (SQLite: one writer at a time), held around each write."""

    def __init__(self, engine: Engine, writing: AbstractContextManager[Any] | None = None
                 ) -> None:
        self.engine = engine
        self._writing: AbstractContextManager[Any] = writing or nullcontext()
        create_schema(engine, metadata)  # once, even with processes starting at once

    # ------------------------------------------------------------------------- game scorings
    def set_scoring(self, game_id: str, scoring: str) -> None:
        with self._writing, self.engine.begin() as conn:
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

    # ---------------------------------------------------------------------------------- sheets
    def insert_sheet(self, row: SheetRow) -> None:
        with self._writing, self.engine.begin() as conn:
            conn.execute(insert(sheets).values(
                id=row.id, token_hash=row.token_hash, player_id=row.player_id,
                data=json.dumps(row.data), seq=row.seq, created_at=row.created_at,
                updated_at=row.updated_at))

    def get_sheet(self, sheet_id: str) -> SheetRow | None:
        if not storable_id(sheet_id):
            return None
        with self.engine.connect() as conn:
            r = conn.execute(select(sheets).where(sheets.c.id == sheet_id)).first()
        if r is None:
            return None
        return SheetRow(r.id, r.token_hash, r.player_id, json.loads(r.data), r.seq,
                        r.created_at, r.updated_at)

    def save_sheet(self, sheet_id: str, old_seq: int, data: dict[str, Any]) -> bool:
        """Replace the sheet's input if it is still at ``old_seq`` (else False, nothing
        written)."""
        with self._writing, self.engine.begin() as conn:
            res = conn.execute(update(sheets)
                               .where(sheets.c.id == sheet_id, sheets.c.seq == old_seq)
                               .values(data=json.dumps(data), seq=old_seq + 1,
                                       updated_at=time.time()))
            return res.rowcount == 1
